#pragma once
// lqcd smear: a stored configuration smeared (APE, stout or HYP, in all four directions or only the spatial
// links) and written as a new configuration, for measurements on smoothed fields.

#include <string>

#include "app/command.hpp"

namespace lqcd::app {

struct SmearCommandOptions {
  std::string input;
  std::string output;
  std::string method = "stout";  // stout | ape | hyp
  int steps = 1;
  double rho = 0.1;    // stout
  double alpha = 0.5;  // ape
  double alpha1 = 0.75, alpha2 = 0.6, alpha3 = 0.3;  // hyp (Hasenfratz-Knechtli)
  bool spatial = false;
  std::string format = "ildg";
  bool force = false;
  bool no_verify = false;
  std::string device = "auto";
  std::string grid;  // processes per direction (mpirun); empty: all along t
};

int run_smear(const SmearCommandOptions& options);

// lqcd smear: its options on the command line, and what runs it (app/command.hpp).
Command add_smear_command(CLI::App& lqcd);

}  // namespace lqcd::app
