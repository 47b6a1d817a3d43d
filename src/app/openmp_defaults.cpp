// The OpenMP run-time settings lqcd chooses for itself when the user sets none (issue 47).
//
// GNU OpenMP (libgomp) makes a thread that reaches a barrier first spin for about 300000 iterations
// (a few milliseconds) before it sleeps. On cores of its own that costs nothing. On cores it shares (a
// laptop, a login node, a CI runner, ctest's tests side by side) the spinning threads take the time
// slices of the very threads they wait for, and a run slows down many times over (docs/performance.md,
// "The CPU default"). lqcd therefore sets a short spin, GOMP_SPINCOUNT = kSpinCount, after which a
// waiting thread sleeps. The number of threads stays libgomp's own: the cores the process may run on
// (its affinity mask, e.g. under taskset, Slurm or mpiexec --bind-to).
//
// libgomp reads its environment once, in its own initialiser, before main(); so the setting is made
// from the executable's .preinit_array, which the dynamic loader runs before the initialisers of any
// shared library. It is made only where the user has set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT:
// OMP_WAIT_POLICY=active (spin) or =passive (sleep at once), or any GOMP_SPINCOUNT, is taken as given.
// This file belongs to the lqcd program only (a shared library may not have a .preinit_array); the
// Python module leaves the settings to the Python process (docs/user-guide.md).
#include <cstdlib>

namespace {

constexpr const char* kSpinCount = "10000";

void choose_openmp_wait_policy(int, char**, char**) {
  if (std::getenv("OMP_WAIT_POLICY") == nullptr && std::getenv("GOMP_SPINCOUNT") == nullptr)
    ::setenv("GOMP_SPINCOUNT", kSpinCount, 0);
}

// Run before every shared library's initialiser, libgomp's included.
[[gnu::section(".preinit_array"), gnu::used]] void (*const preinit_openmp)(int, char**, char**) =
    &choose_openmp_wait_policy;

}  // namespace
