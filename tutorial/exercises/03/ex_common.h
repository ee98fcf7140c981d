/* Shared by the chapter 03 exercises: a checked CUDA call (CHECK) and, under
 * the emulator, the modelled figures of a window of launches (ex_model.h). */
#ifndef EX03_COMMON_H
#define EX03_COMMON_H
#include "../common/ex_check.h"
#include "../common/ex_model.h"
#endif
