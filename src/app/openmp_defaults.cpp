// The OpenMP wait policy lqcd chooses for itself when the user sets none (issue 47).
//
// A thread of GNU OpenMP (libgomp) that reaches the end of a parallel loop first spins for about 300000
// iterations (milliseconds) before it sleeps. On cores of its own that is the fastest way to wait. On
// cores it shares with other busy processes (a laptop, a login node, a CI runner, ctest's tests side by
// side) the spinning threads take the time slices of the very threads they wait for: on two cores with
// two busy processes an 8^4 BiCGStab solve took 34 times as long as on idle cores, an HMC trajectory 19
// times (docs/performance.md, "The CPU default"). Sleeping at once (OMP_WAIT_POLICY=passive), with the
// loops handed out in pieces (core/exec_host.hpp), keeps the shared case within about 2x of the idle one
// but costs 10-40% on idle cores.
//
// So lqcd looks at the cores it may use (its affinity mask: taskset, Slurm, mpiexec --bind-to) when it
// starts: if over 30 ms they were busy at least half of the time with other work (/proc/stat), it waits
// passively; otherwise it keeps libgomp's spin. The number of threads stays libgomp's own: one per core
// of the mask.
//
// libgomp reads its environment once, in its own initialiser, before main(), and has no call to change
// the wait policy later; the environment cannot be changed before it either (an executable's
// .preinit_array runs before libc has set up the environment: tried, no effect). So where the cores are
// busy, main() sets OMP_WAIT_POLICY=passive and executes the program again, once, with the same
// arguments, before anything else (before MPI starts). The choice is made only where the user has set
// neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT: OMP_WAIT_POLICY=active (spin) or =passive (sleep at once),
// or any GOMP_SPINCOUNT, is taken as given; LQCD_VERBOSE_OPENMP=1 prints the choice. The Python module
// leaves the settings to the Python process.
#include "app/openmp_defaults.hpp"

#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

// Busy and total jiffies of each CPU (index = CPU number) from /proc/stat; empty where unreadable.
struct CpuTimes {
  std::vector<unsigned long long> busy, total;
};

CpuTimes read_cpu_times() {
  CpuTimes t;
  std::ifstream in("/proc/stat");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("cpu", 0) != 0 || line.size() < 4 || line[3] < '0' || line[3] > '9') continue;
    std::istringstream fields(line.substr(3));
    unsigned cpu = 0;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    fields >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    if (!fields && !fields.eof()) continue;
    if (cpu >= t.busy.size()) t.busy.resize(cpu + 1, 0), t.total.resize(cpu + 1, 0);
    t.busy[cpu] = user + nice + system + irq + softirq + steal;
    t.total[cpu] = t.busy[cpu] + idle + iowait;
  }
  return t;
}

// The fraction of the time the CPUs of this process's mask were busy over `interval` (this process
// sleeps meanwhile); -1 where /proc/stat or the mask cannot be read.
double busy_fraction_of_my_cpus(std::chrono::milliseconds interval) {
  cpu_set_t mask;
  if (::sched_getaffinity(0, sizeof mask, &mask) != 0) return -1;
  const CpuTimes a = read_cpu_times();
  std::this_thread::sleep_for(interval);
  const CpuTimes b = read_cpu_times();
  unsigned long long busy = 0, total = 0;
  for (std::size_t cpu = 0; cpu < a.busy.size() && cpu < b.busy.size() && cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask)) continue;
    busy += b.busy[cpu] - a.busy[cpu];
    total += b.total[cpu] - a.total[cpu];
  }
  return total > 0 ? double(busy) / double(total) : -1;
}

}  // namespace

namespace lqcd::app {

void choose_openmp_wait_policy(char** argv) {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || std::getenv("GOMP_SPINCOUNT") != nullptr) return;
  const double busy = busy_fraction_of_my_cpus(std::chrono::milliseconds(30));
  const bool shared = busy >= 0.5;
  if (const char* v = std::getenv("LQCD_VERBOSE_OPENMP"); v != nullptr && v[0] == '1')
    std::fprintf(stderr, "lqcd: its cores were %.0f%% busy: OpenMP threads %s\n", 100 * busy,
                 shared ? "sleep when they wait (OMP_WAIT_POLICY=passive)" : "spin when they wait (libgomp's default)");
  if (!shared) return;
  // The program's own path, not /proc/self/exe, so that the process keeps its name (ps, pgrep, top).
  char self[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) return;
  self[n] = '\0';
  ::setenv("OMP_WAIT_POLICY", "passive", 1);
  ::execv(self, argv);  // returns only on failure: then go on as we are
  ::unsetenv("OMP_WAIT_POLICY");
}

}  // namespace lqcd::app
