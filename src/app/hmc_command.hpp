#pragma once
// lqcd hmc: dynamical-fermion ensembles by Hybrid Monte Carlo.

#include <memory>
#include <string>
#include <vector>

#include "app/command.hpp"
#include "app/config.hpp"
#include "app/hmc_input.hpp"  // hmc_schema, hmc_repeated_sections
#include "hmc/hmc.hpp"

namespace lqcd::app {

struct HmcCommandOptions {
  std::string input;  // empty: the built-in default input (a short Nf = 2 Wilson run)
  std::string device = "auto";
  std::string grid;  // processes per direction (mpirun); empty: all along t
  bool print_config = false;
  bool resume = false;
  bool force = false;  // resume although the checkpoint's physics parameters differ
  bool quiet = false;
};

// Reads and checks every key of a merged input, the [[monomial]] entries included, as run_hmc does
// before it starts, and stops there (lqcd::Error naming the file and the key otherwise); the TOML
// fuzzer (fuzz/) calls it.
void check_hmc_input(const Config& c);
int run_hmc(const HmcCommandOptions& options);
// The Hmc of a merged input (its [gauge], [integrator], [[monomial]], [solver], [multigrid],
// [fermion_smearing] and hmc.seed), read and checked as run_hmc reads them, for other front ends (the C
// interface, lqcd.core.Hmc): trajectory n of it is trajectory n of lqcd hmc with that input.
std::unique_ptr<Hmc> make_hmc(const Config& c);

// lqcd hmc: its options on the command line, and what runs it (app/command.hpp).
Command add_hmc_command(CLI::App& lqcd);

}  // namespace lqcd::app
