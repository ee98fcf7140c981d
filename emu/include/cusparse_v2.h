/* simtlab CPU emulator — <cusparse_v2.h>: as in the CUDA toolkit, the same
 * as <cusparse.h> (see there for what the emulator provides). */
#ifndef SIMTLAB_EMU_CUSPARSE_V2_H
#define SIMTLAB_EMU_CUSPARSE_V2_H
#define CUSPARSE_V2_H_ /* the toolkit's guard */

#include <cusparse.h>

#endif
