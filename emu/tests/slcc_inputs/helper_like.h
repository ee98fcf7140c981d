/* Like cuda-samples' helper_cuda.h: code that exists only where the
 * toolkit's headers were included before it. */
#ifdef __DRIVER_TYPES_H__
#define HELPER_LIKE_NAME "scaled"
#endif
