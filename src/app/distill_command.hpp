#pragma once
// lqcd distill: distillation on one configuration (one process, CPU or one GPU, or several split along
// t with --grid 1,1,1,N): Laplacian
// eigenvectors per time slice on 3D-stout-smeared links, perambulators for the source times, meson
// elementals, correlator matrices of every operator pair (PREFIX.h5, /distillation/...), and the GEVP
// of the requested channels with effective energies in the log, PREFIX.jsonl and (--json) on stdout.

#include <string>

#include "app/distill_input.hpp"  // distill_schema, read_distill_input

#include "app/command.hpp"

namespace lqcd::app {

struct DistillCommandOptions {
  std::string input;
  std::string device = "auto";
  std::string grid;  // --grid X,Y,Z,T (only T > 1: whole time slices per process)
  bool print_config = false;
  bool json = false;
  bool quiet = false;
};

int run_distill(const DistillCommandOptions& options);

// lqcd distill: its options on the command line, and what runs it (app/command.hpp).
Command add_distill_command(CLI::App& lqcd);

}  // namespace lqcd::app
