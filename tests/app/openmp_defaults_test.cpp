// The OpenMP wait policy lqcd chooses for itself (issue 47, app/openmp_defaults.cpp): on a core that
// another process keeps busy it re-executes itself with OMP_WAIT_POLICY=passive, and a user's own
// setting is left alone. (The test suite otherwise sets OMP_WAIT_POLICY for every run of the program.)
#include <gtest/gtest.h>

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_support.hpp"

namespace lqcd {
namespace {

// A child process that spins on CPU `cpu` until the object goes out of scope.
class BusyCore {
 public:
  explicit BusyCore(int cpu) {
    pid_ = ::fork();
    if (pid_ == 0) {
      cpu_set_t one;
      CPU_ZERO(&one);
      CPU_SET(cpu, &one);
      ::sched_setaffinity(0, sizeof one, &one);
      for (;;) asm volatile("" ::: "memory");  // busy, and not a loop the compiler may drop
    }
  }
  ~BusyCore() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  BusyCore(const BusyCore&) = delete;
  BusyCore& operator=(const BusyCore&) = delete;
  bool started() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
};

int first_cpu_of_this_process() {
  cpu_set_t mask;
  if (::sched_getaffinity(0, sizeof mask, &mask) != 0) return 0;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mask)) return c;
  return 0;
}

TEST(OpenmpDefaults, BusyCoresMakeTheThreadsSleepAndTheProgramRunsOn) {
  test::TempDir dir;
  const int cpu = first_cpu_of_this_process();
  BusyCore busy(cpu);
  ASSERT_TRUE(busy.started());
  ::usleep(50000);
  const auto r = test::run_lqcd("--version", dir.path(),
                                "env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT LQCD_VERBOSE_OPENMP=1 taskset -c " +
                                    std::to_string(cpu));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("OpenMP threads sleep when they wait (OMP_WAIT_POLICY=passive)"), std::string::npos) << r.err;
  // The program executed again: it printed its version once, and said its choice once (the second run has
  // the policy set and leaves it).
  EXPECT_NE(r.out.find("lqcd "), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("OpenMP threads"), r.err.rfind("OpenMP threads")) << r.err;
}

TEST(OpenmpDefaults, TheUsersSettingIsLeftAlone) {
  test::TempDir dir;
  for (const char* setting : {"OMP_WAIT_POLICY=active", "GOMP_SPINCOUNT=1000"}) {
    const auto r = test::run_lqcd("--version", dir.path(),
                                  std::string("env -u OMP_WAIT_POLICY ") + setting + " LQCD_VERBOSE_OPENMP=1");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err.find("OpenMP threads"), std::string::npos) << setting << ": " << r.err;
  }
}

}  // namespace
}  // namespace lqcd
