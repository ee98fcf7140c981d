/* simtlab CPU emulator — libcu++'s thread scopes, shared by <cuda/atomic>,
 * <cuda/barrier> and <cuda/pipeline>: cuda::std::thread_scope with
 * libcu++'s values, also named in cuda::. The emulator makes every
 * synchronisation process-wide, so a scope is recorded, never weaker. */
#ifndef SIMTLAB_EMU_CUDA_SCOPE_HPP
#define SIMTLAB_EMU_CUDA_SCOPE_HPP

#include <cstddef>

namespace cuda {
namespace std {
using namespace ::std;

enum thread_scope {
    thread_scope_system = 0,
    thread_scope_device = 1,
    thread_scope_block = 2,
    thread_scope_thread = 10
};

} // namespace std

using std::thread_scope;
using std::thread_scope_block;
using std::thread_scope_device;
using std::thread_scope_system;
using std::thread_scope_thread;

} // namespace cuda

#endif
