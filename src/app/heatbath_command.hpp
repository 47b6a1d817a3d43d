#pragma once
// lqcd heatbath: quenched SU(3) ensembles by Cabibbo-Marinari heatbath + overrelaxation.

#include <string>
#include <vector>

#include "app/command.hpp"
#include "app/config.hpp"
#include "app/heatbath_input.hpp"

namespace lqcd::app {

struct HeatbathCommandOptions {
  std::string input;  // empty: the built-in default input
  std::string device = "auto";
  std::string grid;  // processes per direction (mpirun); empty: all along t
  bool print_config = false;
  bool resume = false;
  bool quiet = false;
};

int run_heatbath(const HeatbathCommandOptions& options);

// lqcd heatbath: its options on the command line, and what runs it (app/command.hpp).
Command add_heatbath_command(CLI::App& lqcd);

}  // namespace lqcd::app
