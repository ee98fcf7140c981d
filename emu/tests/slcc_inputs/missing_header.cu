/* Includes a toolkit header the emulator does not provide: slcc must stop
 * at it with the guard's one-line message, whatever toolkit is installed. */
#include <cuda_runtime.h>
#include <cufft.h>

int main() { return 0; }
