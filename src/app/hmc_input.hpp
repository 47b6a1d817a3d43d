#pragma once
// lqcd hmc's input: the TOML schema (with the [[monomial]] tables), its values read and checked (the
// errors name the key), and the monomials it asks for.

#include <memory>
#include <string>
#include <vector>

#include "app/config.hpp"
#include "app/flow_input.hpp"
#include "app/multigrid_input.hpp"
#include "core/geometry.hpp"
#include "gauge/gauge_action.hpp"
#include "gauge/stout_smearing.hpp"
#include "hmc/hmc.hpp"
#include "hmc/integrator.hpp"
#include "hmc/multigrid_force_solver.hpp"
#include "solvers/solver.hpp"

namespace lqcd::app {

std::vector<KeySpec> hmc_schema();
std::vector<RepeatedSection> hmc_repeated_sections();

struct HmcInput {
  Dims dims{};
  GaugeAction action;
  IntegratorParams integrator;
  int trajectories = 0, thermalization = 0;
  std::uint64_t seed = 0;
  std::string start;
  bool reversibility = false, accept_thermalization = true;
  SolverParams solver;
  double force_tolerance = 0;  // 0: solver.tolerance
  HmcMultigridParams multigrid;  // for the monomials with multigrid = true
  std::string prefix, format;
  int precision = 64, save_every = 0, checkpoint_every = 0;
  std::string physics;  // the monomials and the gauge action in one line: checked on --resume
  StoutParams fermion_smearing;  // steps = 0: none
  FlowInput flow;
};

// Every value of the input but the monomials, checked.
HmcInput read_hmc_input(const Config& c);
// The monomials of the input, checked; `in.physics` gets their one-line description.
std::vector<std::unique_ptr<Monomial>> make_monomials(const Config& c, HmcInput& in);

}  // namespace lqcd::app
