#pragma once
// lqcd flow: the Wilson flow of stored configurations, with t0, w0 and the topological charge.

#include <string>
#include <vector>

#include "app/command.hpp"

namespace lqcd::app {

struct FlowCommandOptions {
  std::vector<std::string> files;
  std::string action = "wilson";
  double epsilon = 0.01;
  double t_max = 0;
  double tolerance = 0;
  int measure_every = 1;
  bool improved_charge = false;  // also Q from the O(a^2)-improved field strength (FlowParams::improved_charge)
  // time boundary of the lattice: "auto" (open where every U_t at the last slice is zero), "periodic", "open"
  // (openQCD's, gauge/time_boundary.hpp: the Wilson flow and measurements of gauge/gradient_flow.hpp)
  std::string boundary = "auto";
  bool slices = false;  // also E(x0) and q(x0) per time slice (always with open boundaries)
  bool json = false;
  std::string hdf5;  // every history into this HDF5 file (io/hdf5_flow.hpp); empty: none
  bool force = false;  // replace an existing --hdf5 file
  bool no_verify = false;
  std::string device = "auto";
  std::string grid;
};

int run_flow(const FlowCommandOptions& options);

// lqcd flow: its options on the command line, and what runs it (app/command.hpp).
Command add_flow_command(CLI::App& lqcd);

}  // namespace lqcd::app
