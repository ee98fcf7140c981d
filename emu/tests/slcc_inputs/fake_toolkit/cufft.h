/* Stands for a CUDA toolkit's header on the compiler's default path
 * (test_slcc puts this directory on CPATH): it compiles cleanly, so a
 * build that reaches it instead of the emulator's guard succeeds. */
#define FAKE_TOOLKIT_CUFFT 1
