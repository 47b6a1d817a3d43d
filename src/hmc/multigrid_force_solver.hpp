#pragma once
// The force solves (and the action's, to its tolerance) of a light quark by the multigrid of
// solvers/multigrid/multigrid.hpp instead of CG on the normal equations. A fermion force needs
// X = (M_hat^dag M_hat)^{-1} b and Y = M_hat X on the even sites (two_flavour_monomial.hpp); the multigrid
// solves the full-lattice M, whose even-odd Schur complement M_hat is (dirac/clover_even_odd.hpp):
// M (x_e, x_o) = (b_e, 0) gives M_hat x_e = b_e. So
//   Y = M_hat^{-dag} b:  M_hat^dag = gamma_5 M_hat gamma_5 (gamma_5-Hermiticity of M without twisted
//                        mass), i.e. M (z_e, z_o) = (gamma_5 b, 0) and Y = gamma_5 z_e;
//   X = M_hat^{-1} Y:    M (x_e, x_o) = (Y, 0),
// each by flexible GCR in double preconditioned with the single-precision multigrid cycle, to the force
// tolerance on ||rhs - M x|| / ||rhs||. With the forecast (hmc/chronological_guess.hpp) its guess X_0
// starts the second solve and M_hat X_0 the first (the exact Y is M_hat X), their odd parts completed
// by the Schur reconstruction. This is how openQCD's DFL_SAP_GCR force solves work (M. Luescher,
// JHEP 0712:011 and the openQCD documentation); QUDA's HMC does the same with its multigrid.
//
// The multigrid lives for the whole run. Its fine operator is a single-precision copy of M on links
// that each solve brings up to date in place (links and clover term), so the smoother and the outer
// solve always use the current M; the coarse operator and the test vectors are those of the last
// setup: the first solve runs the full setup, the first solve of each later trajectory refreshes it
// (refresh_iterations GCR steps on M x = 0 from each test vector, then the coarse operator rebuilt), and
// so does the solve after one that took refresh_growth times the fewest iterations since the last refresh
// (the links move along the trajectory, and the stale coarse operator slows the cycle). A stale coarse
// operator only slows the preconditioner, never changes the solution. Wilson and clover quarks without
// twisted mass.

#include <memory>
#include <optional>
#include <string>

#include "fields/gauge_field.hpp"
#include "hmc/chronological_guess.hpp"
#include "hmc/even_odd_fermion.hpp"
#include "hmc/monomial.hpp"
#include "solvers/multigrid/multigrid.hpp"

namespace lqcd {

struct HmcMultigridParams {
  MultigridParams multigrid;    // the [multigrid] table
  // GCR steps per test vector at each trajectory's refresh (0: the coarse operator rebuilt only). 8: on
  // the 32^4 reference run the second trajectory's solves took 17.9 outer iterations each, against 24.0
  // with 2 and 38.2 with 0 (docs/performance.md).
  int refresh_iterations = 8;
  // Inside a trajectory the links move away from those of the last refresh and the stale coarse operator
  // slows the cycle (16^4, kappa = 0.13635: 10 outer iterations a solve after the refresh, 17 by the
  // trajectory's end). With refresh_growth = g > 0 a force solve that takes more than g times the fewest
  // iterations seen since the last refresh makes the next solve refresh first (openQCD updates its
  // deflation subspace during the MD in the same spirit, at fixed MD-time intervals). 0: at trajectory starts
  // only. 1.3: on 32^4 at kappa = 0.13635, [16, 2, 2], a trajectory took 31.6 s against 37.6 s with 0 (11.2
  // against 18.6 outer iterations a solve; 1.5: 32.4 s; docs/performance.md).
  double refresh_growth = 1.3;
};

// Throws lqcd::Error, naming the parameter ("refresh_growth: ..."), for refresh values out of range (the
// [multigrid] table's own: check_multigrid_params). The input reader calls it too (one place for the ranges).
void check_hmc_multigrid_refresh(const HmcMultigridParams& p);

class MultigridForceSolver {
 public:
  // Throws lqcd::Error for a twisted-mass quark (M_hat^dag is not gamma_5 M_hat gamma_5 there) or
  // parameters out of range.
  MultigridForceSolver(const EvenOddQuark& q, const HmcMultigridParams& p);
  MultigridForceSolver(const MultigridForceSolver&) = delete;
  MultigridForceSolver& operator=(const MultigridForceSolver&) = delete;

  // The next solve refreshes the setup (a new trajectory).
  void new_trajectory() { refresh_due_ = true; }
  // X = (M_hat^dag M_hat)^{-1} b for M = q.schur(U) (an even-site b), to p.tolerance on each of the
  // two full-lattice solves; from the forecast's guess when given (and X recorded there). Adds the
  // outer iterations and the seconds (setup and refreshes included) to `stats`; a failed solve is a
  // SolverError naming `who`.
  SpinorField<double> solve(const GaugeField<double>& U, const SchurOperator<double>& M, const SpinorField<double>& b,
                            const SolverParams& p, Monomial::SolverStats& stats, const std::string& who,
                            ChronologicalGuess* forecast);

  // Seconds spent in setups and refreshes so far, and how many there were (for logs and tests).
  double setup_seconds() const { return setup_seconds_; }
  int setups() const { return setups_; }
  const MultigridPreconditioner<float>* preconditioner() const { return mg_.get(); }

 private:
  void bring_up_to_date(const GaugeField<double>& U, const SchurOperator<double>& M);

  EvenOddQuark quark_;
  HmcMultigridParams params_;
  std::optional<GaugeField<float>> links_;       // M's links in single precision, updated in place
  std::unique_ptr<LinearOperator<float>> fine_;  // the cycle's M on links_
  std::unique_ptr<MultigridPreconditioner<float>> mg_;
  bool refresh_due_ = false;
  int fewest_iterations_ = 0;  // the fewest of a force solve (both solves) since the last refresh; 0: none yet
  double setup_seconds_ = 0;
  int setups_ = 0;
};

}  // namespace lqcd
