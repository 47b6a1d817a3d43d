// The OpenMP wait policy lqcd chooses for itself when the user sets none (issue 47).
//
// A thread of GNU OpenMP (libgomp) that reaches the end of a parallel loop first spins for about 300000
// iterations (milliseconds) before it sleeps. On cores of its own that is the fastest way to wait. On
// cores it shares with other busy processes (a laptop, a login node, a CI runner, ctest's tests side by
// side) the spinning threads take the time slices of the very threads they wait for: on two cores with
// two busy processes an 8^4 BiCGStab solve took 34 times as long as on idle cores, an HMC trajectory 19
// times (docs/performance.md, "The CPU default"). Sleeping at once (OMP_WAIT_POLICY=passive) keeps the
// shared case within about 2x of the idle one but costs 10-40% on idle cores.
//
// So lqcd looks at the machine when it starts: if other processes are running on at least half of the
// cores it may use (the count of running tasks in /proc/loadavg, less this one, against its affinity
// mask), it waits passively; otherwise it keeps libgomp's spin. The number of threads stays libgomp's
// own: the cores the process may use (its affinity mask: taskset, Slurm, mpiexec --bind-to).
//
// libgomp reads its environment once, in its own initialiser, before main(), and has no call to change
// the wait policy later; the environment cannot be changed before it either (an executable's
// .preinit_array runs before libc has set up the environment). So where the cores are shared, main()
// sets OMP_WAIT_POLICY=passive and executes the program again, once, with the same arguments, before
// anything else (before MPI starts). On idle cores nothing happens. The choice is made only where the
// user has set neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT: OMP_WAIT_POLICY=active (spin) or =passive
// (sleep at once), or any GOMP_SPINCOUNT, is taken as given; LQCD_VERBOSE_OPENMP=1 prints the choice.
// The Python module leaves the settings to the Python process.
#include "app/openmp_defaults.hpp"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace {

// Tasks running or runnable right now on the whole machine, this one included: the fourth field of
// /proc/loadavg, "running/total". -1 where it cannot be read.
int running_tasks() {
  const int fd = ::open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  char text[128] = {};
  const ssize_t n = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  if (n <= 0) return -1;
  int fields = 0;
  for (const char* p = text; *p != '\0'; ++p)
    if (*p == ' ' && ++fields == 3) return std::atoi(p + 1);
  return -1;
}

}  // namespace

namespace lqcd::app {

void choose_openmp_wait_policy(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  cpu_set_t mask;
  const int cores = ::sched_getaffinity(0, sizeof mask, &mask) == 0 ? CPU_COUNT(&mask) : int(::sysconf(_SC_NPROCESSORS_ONLN));
  const int others = running_tasks() - 1;
  const bool shared = cores > 0 && 2 * others >= cores;
  if (const char* v = std::getenv("LQCD_VERBOSE_OPENMP"); v != nullptr && v[0] == '1')
    std::fprintf(stderr, "lqcd: %d other running tasks on %d cores: OpenMP threads %s\n", others, cores,
                 shared ? "sleep when they wait (OMP_WAIT_POLICY=passive)" : "spin when they wait (libgomp's default)");
  if (!shared) return;
  ::setenv("OMP_WAIT_POLICY", "passive", 1);
  ::execv("/proc/self/exe", argv);  // returns only on failure: then go on as we are
  ::unsetenv("OMP_WAIT_POLICY");
}

}  // namespace lqcd::app
