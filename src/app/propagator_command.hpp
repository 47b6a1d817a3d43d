#pragma once
// lqcd propagator: the 12 spin-colour solves of one source on one configuration, saved as a
// SciDAC/QIO-style LIME propagator file (PREFIX.prop.lime).

#include <string>
#include <vector>

#include "app/command.hpp"
#include "app/config.hpp"

namespace lqcd::app {

struct PropagatorCommandOptions {
  std::string input;
  std::string device = "auto";
  std::string grid;  // processes per direction (mpirun); empty: all along t
  bool print_config = false;
  bool quiet = false;
  bool force = false;  // replace an existing PREFIX.prop.lime
};

std::vector<KeySpec> propagator_schema();
int run_propagator(const PropagatorCommandOptions& options);

// lqcd propagator: its options on the command line, and what runs it (app/command.hpp).
Command add_propagator_command(CLI::App& lqcd);

}  // namespace lqcd::app
