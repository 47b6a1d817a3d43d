#pragma once
// lqcd bench: the performance harness. Every figure comes with the copy bandwidth measured in the
// same process, the byte counts (naive and minimal) and the median of many timed repetitions.

#include <string>

namespace lqcd::app {

struct BenchCommandOptions {
  std::string kernel = "heatbath";  // heatbath | copy
  std::string dims = "16,16,16,16";
  std::string device = "auto";
  std::string action = "wilson";
  int repetitions = 10;
  bool json = false;
};

int run_bench(const BenchCommandOptions& options);

}  // namespace lqcd::app
