#pragma once
// What the fermion monomials share: one pseudofermion phi on the even sites, the noise stream its
// heatbath draws from, the solver settings, and the statistics of the solves for the logs.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "fields/spinor_field.hpp"
#include "hmc/chronological_guess.hpp"
#include "hmc/even_odd_fermion.hpp"
#include "hmc/monomial.hpp"
#include "hmc/multigrid_force_solver.hpp"
#include "solvers/solver.hpp"

namespace lqcd {

class PseudofermionMonomial : public Monomial {
 public:
  SolverStats take_solver_stats() override;

  // The pseudofermion (even sites), set by refresh(); tests may set it directly.
  std::optional<SpinorField<double>> phi;

  // The force solves' tolerance (solver.force_tolerance; t <= 0: the action's, solver.tolerance). A
  // looser one is the usual choice: the Metropolis step needs the action exactly, a force only to the
  // precision the integration's reversibility asks (the forecasts start each force solve from the
  // previous solutions, so a force depends on the solve's residual).
  void set_force_tolerance(double t) { force_solver_.tolerance = t > 0 ? t : solver_.tolerance; }
  double force_tolerance() const { return force_solver_.tolerance; }

  // The force and action solves of the monomial's (light) quark by the multigrid
  // (hmc/multigrid_force_solver.hpp) instead of CG; the heatbath's (the Hasenbusch ratio's heavy quark)
  // stays CG. Throws for a quark it cannot serve.
  // The base refuses (the rational monomial's multi-shift solves have no multigrid).
  virtual void use_multigrid(const HmcMultigridParams& p);
  const MultigridForceSolver* multigrid() const { return multigrid_.get(); }
  // ", force solves by multigrid" when they are, for name().
  std::string multigrid_note() const { return multigrid_ ? ", force solves by multigrid" : ""; }

 protected:
  // stream: separates the pseudofermions of several fermion monomials with one seed. forecast: the
  // solutions kept for the force solves' initial guesses (hmc/chronological_guess.hpp; 0: none).
  PseudofermionMonomial(const SolverParams& solver, std::uint32_t stream, int forecast = 0)
      : solver_(solver), force_solver_(solver), stream_(stream), forecast_(forecast) {}

  // Complex Gaussian noise with density exp(-eta^dag eta), of the shape of `like` and where it lives,
  // keyed by (seed, site, stream, trajectory).
  SpinorField<double> gaussian_noise(const SpinorField<double>& like, std::uint64_t seed,
                                     std::uint32_t trajectory) const;
  // phi, or an internal error naming the monomial when the heatbath has not run.
  const SpinorField<double>& pseudofermion() const;
  // A new pseudofermion drawn from noise eta with |eta|^2 = noise_norm2 (the action right after the
  // refresh, log det terms apart): the forecast forgets its solutions, the multigrid refreshes its setup
  // at the next force solve.
  void start_trajectory(double noise_norm2);
  // That |eta|^2, or an internal error naming the monomial once a force has moved on from the refresh.
  double noise_norm2() const;
  // X = (M_hat^dag M_hat)^{-1} b for a force (q the quark of M = q.schur(U)): by the multigrid when it
  // is on, else solve_normal_equations; to the force tolerance, from the forecast's guess.
  SpinorField<double> solve_for_force(const EvenOddQuark& q, const GaugeField<double>& U,
                                      const SchurOperator<double>& M, const SpinorField<double>& b);
  // The same to the action's tolerance (solver.tolerance), for the action at the trajectory's end.
  SpinorField<double> solve_for_action(const EvenOddQuark& q, const GaugeField<double>& U,
                                       const SchurOperator<double>& M, const SpinorField<double>& b);

  // X = (M_hat^dag M_hat)^{-1} b to p.tolerance from the forecast's guess: by the multigrid when it is
  // on, else solve_normal_equations.
  SpinorField<double> solve_light(const EvenOddQuark& q, const GaugeField<double>& U, const SchurOperator<double>& M,
                                  const SpinorField<double>& b, const SolverParams& p);

  SolverParams solver_;        // the pseudofermion heatbath's and the action's solves
  SolverParams force_solver_;  // the forces' (solver_ with the force tolerance)
  std::uint32_t stream_;
  SolverStats stats_;
  // Guesses for the force solves and the action's (at the trajectory's end the last force solve was at
  // the same links: the action's solve starts there and still meets solver.tolerance); cleared with
  // each new pseudofermion (the action at the trajectory's start needs no solve: action_after_refresh).
  ChronologicalGuess forecast_;
  std::unique_ptr<MultigridForceSolver> multigrid_;  // null: CG
  double noise_norm2_ = 0;
  bool at_refresh_ = false;  // no force since the last refresh
};

}  // namespace lqcd
