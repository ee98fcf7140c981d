/* A program's own partial copy of a library, beside its sources (as
 * cuda-samples' interval ships part of Boost): a system header's quoted
 * include of this name must find the system's file, not this one. */
#error "the program's partial copy of boost/config/platform/linux.hpp was used for a system header's include"
