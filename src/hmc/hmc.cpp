#include "hmc/hmc.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/error.hpp"
#include "core/site_random.hpp"

namespace lqcd {

std::vector<Monomial*> pointers(const std::vector<std::unique_ptr<Monomial>>& monomials) {
  std::vector<Monomial*> p;
  for (const auto& m : monomials) p.push_back(m.get());
  return p;
}

Hmc::Hmc(std::vector<std::unique_ptr<Monomial>> monomials, const IntegratorParams& integrator, std::uint64_t seed)
    : monomials_(std::move(monomials)), integrator_(integrator, pointers(monomials_)), seed_(seed) {
  if (monomials_.empty()) fail("hmc: no monomial (add at least the gauge action)");
}

double Hmc::hamiltonian(const GaugeField<double>& U, const MomentumField& P) {
  double h = kinetic_energy(P);
  for (auto& m : monomials_) h += m->action(U);
  return h;
}

double Hmc::hamiltonian_after_refresh(const GaugeField<double>& U, const MomentumField& P) {
  double h = kinetic_energy(P);
  for (auto& m : monomials_) h += m->action_after_refresh(U);
  return h;
}

void Hmc::refresh(const GaugeField<double>& U, MomentumField& P, std::uint32_t trajectory) {
  momentum_heatbath(P, seed_, trajectory);
  for (auto& m : monomials_) m->refresh(U, seed_, trajectory);
}

double Hmc::collect_solver_stats(TrajectoryResult& r) {
  double seconds = 0;
  for (std::size_t i = 0; i < monomials_.size(); ++i) {
    const Monomial::SolverStats s = monomials_[i]->take_solver_stats();
    r.solver_iterations[i] += s.iterations;
    r.solver_seconds_by_monomial[i] += s.seconds;
    r.setup_seconds_by_monomial[i] += s.setup_seconds;
    r.multigrid_solves[i] += s.multigrid_solves;
    r.multigrid_iterations[i] += s.multigrid_iterations;
    seconds += s.seconds;
  }
  return seconds;
}

TrajectoryResult Hmc::trajectory(GaugeField<double>& U, std::uint32_t trajectory, bool metropolis) {
  const auto start = std::chrono::steady_clock::now();
  TrajectoryResult r;
  r.trajectory = trajectory;
  MomentumField P(U.geometry(), U.location());
  r.solver_iterations.assign(monomials_.size(), 0);
  r.solver_seconds_by_monomial.assign(monomials_.size(), 0.0);
  r.setup_seconds_by_monomial.assign(monomials_.size(), 0.0);
  r.multigrid_solves.assign(monomials_.size(), 0);
  r.multigrid_iterations.assign(monomials_.size(), 0);
  refresh(U, P, trajectory);
  r.H0 = hamiltonian_after_refresh(U, P);
  r.solver_seconds = collect_solver_stats(r);
  GaugeField<double> V = U.clone(U.location());
  integrator_.take_force_stats();
  const std::vector<double> before = r.solver_seconds_by_monomial;
  integrator_.integrate(V, P);
  const double md_solves = collect_solver_stats(r);
  const std::vector<Integrator::ForceStats> forces = integrator_.take_force_stats();
  for (std::size_t i = 0; i < monomials_.size(); ++i) {
    const double solves = r.solver_seconds_by_monomial[i] - before[i];  // this monomial's MD solves
    r.force_seconds_by_monomial.push_back(std::max(0.0, forces[i].seconds - solves));
    r.force_seconds += r.force_seconds_by_monomial.back();
    r.force_evaluations.push_back(forces[i].evaluations);
    r.force_rms.push_back(forces[i].mean_rms());
    r.force_max_rms.push_back(forces[i].max_rms);
  }
  r.H1 = hamiltonian(V, P);
  r.solver_seconds += md_solves + collect_solver_stats(r);
  r.dH = r.H1 - r.H0;
  if (!std::isfinite(r.dH) || std::abs(r.dH) > 1e3)
    fail("trajectory {}: dH = {} (H0 = {}, H1 = {}): the integration is unstable; use more steps "
         "(integrator.steps) or a shorter integrator.tau. The configuration before this trajectory is kept",
         trajectory, r.dH, r.H0, r.H1);
  r.acceptance_probability = r.dH <= 0 ? 1.0 : std::exp(-r.dH);
  SiteRandom rng(seed_, 0, RngPurpose::Metropolis, 0, trajectory);
  r.accepted = !metropolis || rng.uniform() < r.acceptance_probability;
  if (r.accepted) U = std::move(V);
  for (auto& m : monomials_)
    for (std::string& w : m->take_warnings()) r.warnings.push_back(std::move(w));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

ReversibilityResult Hmc::reversibility(const GaugeField<double>& U, std::uint32_t trajectory) {
  ReversibilityResult r;
  MomentumField P(U.geometry(), U.location());
  refresh(U, P, trajectory);
  r.H0 = hamiltonian_after_refresh(U, P);
  GaugeField<double> V = U.clone(U.location());
  integrator_.integrate(V, P);
  link_axpy(-2.0, P, P);  // P -> -P
  integrator_.integrate(V, P);
  r.dH = hamiltonian(V, P) - r.H0;
  integrator_.take_force_stats();
  const LexicographicGauge a = to_lexicographic(U), b = to_lexicographic(V);
  for (std::int64_t i = 0; i < U.geometry().volume(); ++i)
    for (int mu = 0; mu < 4; ++mu)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) r.max_link_diff = std::max(r.max_link_diff, abs(a(i, mu).m[j][k] - b(i, mu).m[j][k]));
  for (auto& m : monomials_) {
    m->take_solver_stats();
    m->take_warnings();  // this check's own refresh: not a trajectory's
  }
  return r;
}

}  // namespace lqcd
