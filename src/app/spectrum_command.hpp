#pragma once
// lqcd spectrum: quark propagator of one source on one configuration, contracted into the meson
// two-point functions of all 16 gamma structures at a list of spatial momenta (HDF5), with the
// pion, rho, a0, PCAC mass and effective masses in the log and as JSON.

#include <string>
#include <vector>

#include "app/command.hpp"
#include "app/config.hpp"
#include "app/spectrum_input.hpp"  // spectrum_schema, read_spectrum_input

namespace lqcd::app {

struct SpectrumCommandOptions {
  std::string input;
  std::string device = "auto";
  std::string grid;  // processes per direction (mpirun); empty: all along t
  bool print_config = false;
  bool json = false;   // one JSON object on stdout (the log then goes to PREFIX.log only)
  bool quiet = false;
};

int run_spectrum(const SpectrumCommandOptions& options);

// lqcd spectrum: its options on the command line, and what runs it (app/command.hpp).
Command add_spectrum_command(CLI::App& lqcd);

}  // namespace lqcd::app
