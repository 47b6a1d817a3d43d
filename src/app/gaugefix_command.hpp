#pragma once
// lqcd gaugefix: a stored configuration fixed to the Landau or Coulomb gauge (gauge/gauge_fixing.hpp)
// and written as a new configuration, with the gauge functional and theta = |d.A|^2 reported.

#include <string>

#include "app/command.hpp"

namespace lqcd::app {

struct GaugefixCommandOptions {
  std::string input;
  std::string output;
  std::string gauge = "landau";  // landau | coulomb
  std::string method = "auto";   // auto (fft on one process, else overrelaxation) | fft | overrelaxation
  double precision = 1e-14;      // theta target
  int max_iterations = 20000;
  double alpha = 0.08;
  double omega = 1.7;
  int every = 100;  // iterations between progress lines
  int bits = 64;    // precision of the written file
  std::string format = "ildg";
  bool force = false;
  bool no_verify = false;
  bool json = false;
  bool quiet = false;
  std::string device = "auto";
  std::string grid;
};

int run_gaugefix(const GaugefixCommandOptions& options);

// lqcd gaugefix: its options on the command line, and what runs it (app/command.hpp).
Command add_gaugefix_command(CLI::App& lqcd);

}  // namespace lqcd::app
