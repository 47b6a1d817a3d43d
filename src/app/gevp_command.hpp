#pragma once
// lqcd gevp: the GEVP of a correlator matrix that lqcd distill wrote (PREFIX.h5, /distillation/C), for a
// chosen reference time and subset of operators, without rerunning anything: principal correlators and
// effective energies in a table, or as one JSON object.

#include <string>

#include "app/command.hpp"

namespace lqcd::app {

struct GevpCommandOptions {
  std::string file;
  std::string dataset = "distillation/C";
  std::string operators;  // comma-separated names as in the dataset's "operators" attribute; empty: all
  int t0 = 1;
  bool json = false;
};

int run_gevp(const GevpCommandOptions& options);

// lqcd gevp: its options on the command line, and what runs it (app/command.hpp).
Command add_gevp_command(CLI::App& lqcd);

}  // namespace lqcd::app
