#pragma once
// lqcd loops: disconnected quark loops L_G(t, p) = sum_x e^{-i p.x} tr[G M^-1(x, x)] on one configuration,
// estimated with diluted noise sources (measure/stochastic_estimates.hpp), each noise vector's estimate
// written on its own (HDF5), with their mean and standard error in the log and as JSON.

#include <string>

#include "app/command.hpp"

namespace CLI {
class App;
}

namespace lqcd::app {

struct LoopsCommandOptions {
  std::string input;
  std::string device = "auto";
  std::string grid;
  bool print_config = false;
  bool json = false;
  bool quiet = false;
};

int run_loops(const LoopsCommandOptions& options);

Command add_loops_command(CLI::App& lqcd);

}  // namespace lqcd::app
