#pragma once
// Hybrid Monte Carlo (S. Duane, A. D. Kennedy, B. J. Pendleton, D. Roweth, Phys. Lett. B 195 (1987)
// 216): momentum and pseudofermion heatbath, molecular dynamics with the integrator, Metropolis
// accept/reject with H = sum tr P^2 + sum of the monomials' actions. Every random number is keyed by
// (seed, trajectory number), so a chain continues exactly after a restart from a checkpoint and is the
// same on CPU and GPU (up to rounding).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hmc/integrator.hpp"
#include "hmc/monomial.hpp"

namespace lqcd {

struct TrajectoryResult {
  std::uint32_t trajectory = 0;
  double H0 = 0, H1 = 0, dH = 0;
  double acceptance_probability = 0;  // min(1, exp(-dH))
  bool accepted = false;
  std::vector<long> solver_iterations;  // per monomial, in the order given
  double solver_seconds = 0;            // all monomials' solves (actions and forces)
  std::vector<double> solver_seconds_by_monomial;  // the same per monomial, in the order given
  std::vector<double> setup_seconds_by_monomial;   // of those, multigrid setups and refreshes
  std::vector<long> multigrid_solves, multigrid_iterations;  // per monomial: Monomial::SolverStats'
  double force_seconds = 0;             // force evaluations, their solves excluded
  std::vector<double> force_seconds_by_monomial;  // the same per monomial (0 for one without a force)
  // Per monomial: its force evaluations in the trajectory, and the mean and the largest of their sizes
  // (Integrator::ForceStats: the rms over links of sqrt(sum_a (F^a)^2)).
  std::vector<long> force_evaluations;
  std::vector<double> force_rms, force_max_rms;
  double seconds = 0;                   // the whole trajectory
  std::vector<std::string> warnings;    // the monomials' (take_warnings), in their order
};

struct ReversibilityResult {
  double dH = 0;             // H after forward, momentum flip and backward, minus H at the start
  double H0 = 0;
  double max_link_diff = 0;  // max |U_back - U_start| over link entries
};

class Hmc {
 public:
  Hmc(std::vector<std::unique_ptr<Monomial>> monomials, const IntegratorParams& integrator, std::uint64_t seed);

  // One trajectory from U, numbered `trajectory` (it keys the momenta, the pseudofermions and the
  // accept/reject draw). With metropolis = false the new configuration is always kept (thermalisation
  // without the accept step is not offered: a caller may use it for tests). U is the new or the old
  // configuration on return. Throws (with U unchanged) when dH is not finite or |dH| > 1e3, and when a
  // solver inside a force fails (SolverError).
  TrajectoryResult trajectory(GaugeField<double>& U, std::uint32_t trajectory, bool metropolis = true);
  // Integrates forward from U with the momenta of `trajectory`, flips the momenta, integrates back.
  ReversibilityResult reversibility(const GaugeField<double>& U, std::uint32_t trajectory);

  double hamiltonian(const GaugeField<double>& U, const MomentumField& P);
  // The same right after refresh (Monomial::action_after_refresh).
  double hamiltonian_after_refresh(const GaugeField<double>& U, const MomentumField& P);
  const std::vector<std::unique_ptr<Monomial>>& monomials() const { return monomials_; }
  const Integrator& integrator() const { return integrator_; }

 private:
  void refresh(const GaugeField<double>& U, MomentumField& P, std::uint32_t trajectory);
  // Adds each monomial's solver iterations since the last call to r and returns their seconds.
  double collect_solver_stats(TrajectoryResult& r);

  std::vector<std::unique_ptr<Monomial>> monomials_;
  Integrator integrator_;
  std::uint64_t seed_;
};

// The raw pointers of a list of monomials (for the integrator).
std::vector<Monomial*> pointers(const std::vector<std::unique_ptr<Monomial>>& monomials);

}  // namespace lqcd
