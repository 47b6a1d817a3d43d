#pragma once
// lqcd analyse RUN and lqcd plot RUN: the error analysis and the plots of a heatbath or HMC history
// (PREFIX.jsonl), made by the Python package lqcd.analysis (python/lqcd; Debian's python3-numpy,
// -scipy, -matplotlib), which these commands run as `python3 -m lqcd.analysis run|plot`: one place
// for the analysis, two ways to reach it.

#include <string>

#include "app/command.hpp"

namespace lqcd::app {

struct AnalysisCommandOptions {
  std::string mode;         // "run" (lqcd analyse) or "plot" (lqcd plot)
  std::string run;          // PREFIX.jsonl, or PREFIX
  int therm = -1;           // records to drop; -1: those the run did not mark thermalised
  std::string observables;  // plot: comma-separated (default: plaquette, and dH when present)
  std::string format = "png";
};

// Replaces this process with the Python analysis (returns only on failure, by throwing lqcd::Error).
int run_analysis(const AnalysisCommandOptions& options);

// lqcd analyse: its options on the command line, and what runs it (app/command.hpp).
Command add_analyse_command(CLI::App& lqcd);
// lqcd plot: its options on the command line, and what runs it (app/command.hpp).
Command add_plot_command(CLI::App& lqcd);

}  // namespace lqcd::app
