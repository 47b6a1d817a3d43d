#include "hmc/smeared_fermion_monomial.hpp"

#include <fmt/format.h>

#include <utility>

#include "core/error.hpp"
#include "gauge/stout_force.hpp"

namespace lqcd {

SmearedFermionMonomial::SmearedFermionMonomial(std::unique_ptr<Monomial> inner, const StoutParams& params)
    : inner_(std::move(inner)), params_(params) {
  if (!inner_) fail("internal: a smeared monomial without the monomial it smears");
  check_stout_params(params_, "stout");
}

std::string SmearedFermionMonomial::name() const {
  return fmt::format("{} on {} stout step{} (rho {}{})", inner_->name(), params_.steps, params_.steps == 1 ? "" : "s",
                     params_.rho, params_.spatial_only ? ", spatial links" : "");
}

void SmearedFermionMonomial::refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) {
  inner_->refresh(stout_smear(U, params_), seed, trajectory);
}

double SmearedFermionMonomial::action(const GaugeField<double>& U) { return inner_->action(stout_smear(U, params_)); }

double SmearedFermionMonomial::action_after_refresh(const GaugeField<double>& U) {
  return inner_->action_after_refresh(stout_smear(U, params_));
}

void SmearedFermionMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  const StoutSmearedLinks links(U, params_);
  MomentumField FV(U.geometry(), U.location());
  set_zero(FV);
  inner_->add_force(links.smeared(), FV);
  link_axpy(1.0, links.chain_rule(FV), F);
}

const Monomial& innermost(const Monomial& m) {
  const Monomial* p = &m;
  while (const auto* s = dynamic_cast<const SmearedFermionMonomial*>(p)) p = &s->inner();
  return *p;
}

Monomial& innermost(Monomial& m) { return const_cast<Monomial&>(innermost(static_cast<const Monomial&>(m))); }

}  // namespace lqcd
