#include "hmc/integrator.hpp"

#include <algorithm>
#include <cmath>

#include "core/environment_switch.hpp"
#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/timer.hpp"

namespace lqcd {

IntegratorType integrator_type_from_name(const std::string& name, const std::string& key) {
  if (name == "leapfrog") return IntegratorType::Leapfrog;
  if (name == "omelyan2") return IntegratorType::Omelyan2;
  if (name == "omelyan4") return IntegratorType::Omelyan4;
  if (name == "force_gradient") return IntegratorType::ForceGradient;
  fail("{}: expected \"leapfrog\", \"omelyan2\", \"omelyan4\" or \"force_gradient\" (got \"{}\")", key, name);
}

std::string integrator_type_name(IntegratorType type) {
  switch (type) {
    case IntegratorType::Leapfrog: return "leapfrog";
    case IntegratorType::Omelyan2: return "omelyan2";
    case IntegratorType::Omelyan4: return "omelyan4";
    case IntegratorType::ForceGradient: return "force_gradient";
  }
  return "unknown";
}

Integrator::Integrator(const IntegratorParams& params, std::vector<Monomial*> monomials)
    : params_(params), reuse_forces_(switch_from_environment("LQCD_REUSE_FORCES", true)) {
  if (params.steps.empty()) fail("integrator.steps: expected at least one level, e.g. [10]");
  for (int n : params.steps)
    if (n < 1) fail("integrator.steps: every level needs at least one step (got {})", n);
  if (!(params.tau > 0)) fail("integrator.tau: expected a positive trajectory length (got {})", params.tau);
  levels_.resize(params.steps.size());
  stats_.resize(monomials.size());
  for (std::size_t i = 0; i < monomials.size(); ++i) {
    Monomial* m = monomials[i];
    if (m->level < 0 || m->level >= int(params.steps.size()))
      fail("monomial \"{}\": level {} has no entry in integrator.steps (levels 0..{})", m->name(), m->level,
           params.steps.size() - 1);
    levels_[std::size_t(m->level)].emplace_back(m, i);
  }
}

void Integrator::integrate(GaugeField<double>& U, MomentumField& P) {
  if (forces_.empty() || !(geometry_ == U.geometry()) || location_ != U.location()) {
    // A force field for each level with monomials, and one for a single monomial's force where a level
    // has several (each field is 4 V SU(3) matrices: no more of them than are used).
    geometry_ = U.geometry();
    location_ = U.location();
    forces_.clear();
    single_.reset();
    for (const auto& monomials : levels_) {
      forces_.push_back(monomials.empty() ? nullptr : std::make_unique<MomentumField>(U.geometry(), U.location()));
      if (monomials.size() > 1 && !single_) single_ = std::make_unique<MomentumField>(U.geometry(), U.location());
    }
    forces_at_.assign(levels_.size(), 0);
  }
  ++links_version_;  // new links: no force of an earlier call applies
  const double h = params_.tau / params_.steps[0];
  for (int i = 0; i < params_.steps[0]; ++i) step(0, h, U, P);
}

void Integrator::links_moved(GaugeField<double>& U, const MomentumField& P, double eps) {
  update_links(U, P, eps);
  ++links_version_;
}

const MomentumField& Integrator::compute_force(int level, const GaugeField<double>& U) {
  MomentumField& force = *forces_[std::size_t(level)];
  std::uint64_t& at = forces_at_[std::size_t(level)];
  // The links have not moved since this level's last force (the last kick of a step and the first of the
  // next, or kicks of an outer level in between): the same force, not computed again.
  if (at == links_version_ && reuse_forces_) return force;
  set_zero(force);
  const auto& monomials = levels_[std::size_t(level)];
  for (const auto& [m, i] : monomials) {
    // The device work queued before (link updates, kicks) finishes first, so that it is not counted as this
    // monomial's force (the log's split of a trajectory's time).
    if (U.location() == Location::Device) detail::device_synchronize();
    const Stopwatch clock;
    // Alone on its level the monomial adds to the level's force directly; else to single_, measured, then added.
    MomentumField& F = monomials.size() == 1 ? force : *single_;
    if (&F != &force) set_zero(F);
    m->add_force(U, F);
    // tr F^2 = (1/2) sum_a (F^a)^2 (tr T^a T^b = delta^ab / 2); the reduction also waits for the kernels.
    const double rms = std::sqrt(2 * kinetic_energy(F) / (4.0 * double(U.geometry().global_volume())));
    if (&F != &force) link_axpy(1.0, F, force);
    ForceStats& s = stats_[i];
    s.seconds += clock.seconds();
    ++s.evaluations;
    s.sum_rms += rms;
    s.max_rms = std::max(s.max_rms, rms);
  }
  at = links_version_;
  return force;
}

std::vector<Integrator::ForceStats> Integrator::take_force_stats() {
  std::vector<ForceStats> s(stats_.size());
  std::swap(s, stats_);
  return s;
}

void Integrator::kick(int level, double eps, const GaugeField<double>& U, MomentumField& P) {
  if (levels_[std::size_t(level)].empty()) return;
  link_axpy(-eps, compute_force(level, U), P);  // dP/dt = -F
}

void Integrator::gradient_kick(int level, double eps, double shift, GaugeField<double>& U, MomentumField& P) {
  if (levels_[std::size_t(level)].empty()) return;
  const MomentumField& F = compute_force(level, U);
  if (!saved_links_ || !(saved_links_->geometry() == U.geometry()) || saved_links_->location() != U.location())
    saved_links_ = std::make_unique<GaugeField<double>>(U.geometry(), U.location());
  saved_links_->copy_from(U);
  links_moved(U, F, -shift);  // U' = exp(-i shift F) U
  kick(level, eps, U, P);     // P -= eps F(U')
  U.copy_from(*saved_links_);
  ++links_version_;           // back at the saved links (whose forces were overwritten by those at U')
}

void Integrator::move_links(int level, double h, GaugeField<double>& U, MomentumField& P) {
  if (level + 1 == int(params_.steps.size())) {
    links_moved(U, P, h);
    return;
  }
  const int n = params_.steps[std::size_t(level) + 1];
  for (int i = 0; i < n; ++i) step(level + 1, h / n, U, P);
}

void Integrator::step(int level, double h, GaugeField<double>& U, MomentumField& P) {
  switch (params_.type) {
    case IntegratorType::Leapfrog:
      kick(level, h / 2, U, P);
      move_links(level, h, U, P);
      kick(level, h / 2, U, P);
      return;
    case IntegratorType::Omelyan2: {
      constexpr double l = 0.1931833275037836;
      kick(level, l * h, U, P);
      move_links(level, h / 2, U, P);
      kick(level, (1 - 2 * l) * h, U, P);
      move_links(level, h / 2, U, P);
      kick(level, l * h, U, P);
      return;
    }
    case IntegratorType::Omelyan4: {
      constexpr double r1 = 0.08398315262876693, r2 = 0.2539785108410595, r3 = 0.6822365335719091,
                       r4 = -0.03230286765269967, r5 = 0.5 - r1 - r3, r6 = 1 - 2 * (r2 + r4);
      kick(level, r1 * h, U, P);
      move_links(level, r2 * h, U, P);
      kick(level, r3 * h, U, P);
      move_links(level, r4 * h, U, P);
      kick(level, r5 * h, U, P);
      move_links(level, r6 * h, U, P);
      kick(level, r5 * h, U, P);
      move_links(level, r4 * h, U, P);
      kick(level, r3 * h, U, P);
      move_links(level, r2 * h, U, P);
      kick(level, r1 * h, U, P);
      return;
    }
    case IntegratorType::ForceGradient:
      kick(level, h / 6, U, P);
      move_links(level, h / 2, U, P);
      gradient_kick(level, 2 * h / 3, h * h / 24, U, P);
      move_links(level, h / 2, U, P);
      kick(level, h / 6, U, P);
      return;
  }
}

}  // namespace lqcd
