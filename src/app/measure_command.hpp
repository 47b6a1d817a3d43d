#pragma once
// lqcd measure: gauge observables of stored configurations.

#include <string>
#include <vector>

#include "app/command.hpp"

namespace lqcd::app {

struct MeasureCommandOptions {
  std::vector<std::string> files;
  bool json = false;
  bool no_verify = false;
  std::string device = "auto";
  std::string grid;  // processes per direction (mpirun); empty: all along t
  std::string loops;  // "RMAX,TMAX": the planar Wilson loops W(R, T) as well; empty: none
  int ape_steps = 0;       // spatial APE smearing of a copy before the loops (0: none)
  double ape_alpha = 0.5;
  int hyp_steps = 0;      // spatial (3D) HYP smearing of a copy before the loops, default parameters (0: none)
  bool off_axis = false;  // with loops: the off-axis W(r, T), |r| <= RMAX, as well
};

int run_measure(const MeasureCommandOptions& options);

// lqcd measure: its options on the command line, and what runs it (app/command.hpp).
Command add_measure_command(CLI::App& lqcd);

}  // namespace lqcd::app
