#pragma once
// The OpenMP wait policy the lqcd program chooses for itself when the user sets none (issue 47;
// openmp_defaults.cpp says why and how).

namespace lqcd::app {

// Where the cores this process may use were busy half of the time or more (30 ms of /proc/stat) and the
// user has set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT: executes the program again with
// OMP_WAIT_POLICY=passive (argv as main received it). Otherwise returns at once. Call first in main().
void choose_openmp_wait_policy(char** argv);

}  // namespace lqcd::app
