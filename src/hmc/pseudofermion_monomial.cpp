#include "hmc/pseudofermion_monomial.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

Monomial::SolverStats PseudofermionMonomial::take_solver_stats() {
  const SolverStats s = stats_;
  stats_ = {};
  return s;
}

SpinorField<double> PseudofermionMonomial::gaussian_noise(const SpinorField<double>& like, std::uint64_t seed,
                                                          std::uint32_t trajectory) const {
  SpinorField<double> eta = like.like();
  for_each(eta.location(), eta.sites(), GaussianSpinorKernel<double>{eta.view(), seed, RngPurpose::Pseudofermion, stream_, trajectory,
                                                                 kUnitComplexVariance});
  return eta;
}

const SpinorField<double>& PseudofermionMonomial::pseudofermion() const {
  if (!phi) fail("internal: {}: action or force before the pseudofermion heatbath", name());
  return *phi;
}

void PseudofermionMonomial::use_multigrid(const HmcMultigridParams&) {
  fail("the multigrid force solves are for the wilson, clover and hasenbusch_ratio monomials, not {}", name());
}

double PseudofermionMonomial::noise_norm2() const {
  if (!at_refresh_) fail("internal: {}: the action after the refresh asked for after a force", name());
  return noise_norm2_;
}

void PseudofermionMonomial::start_trajectory(double noise_norm2) {
  noise_norm2_ = noise_norm2;
  at_refresh_ = true;
  forecast_.clear();
  if (multigrid_) multigrid_->new_trajectory();
}

SpinorField<double> PseudofermionMonomial::solve_for_force(const EvenOddQuark& q, const GaugeField<double>& U,
                                                           const SchurOperator<double>& M,
                                                           const SpinorField<double>& b) {
  at_refresh_ = false;
  return solve_light(q, U, M, b, force_solver_);
}

SpinorField<double> PseudofermionMonomial::solve_for_action(const EvenOddQuark& q, const GaugeField<double>& U,
                                                            const SchurOperator<double>& M,
                                                            const SpinorField<double>& b) {
  return solve_light(q, U, M, b, solver_);
}

SpinorField<double> PseudofermionMonomial::solve_light(const EvenOddQuark& q, const GaugeField<double>& U,
                                                       const SchurOperator<double>& M, const SpinorField<double>& b,
                                                       const SolverParams& p) {
  if (multigrid_) {
    check_finite_source(b, name());
    return multigrid_->solve(U, M, b, p, stats_, name(), &forecast_);
  }
  return solve_normal_equations(q, U, M, b, p, stats_, name(), &forecast_);
}

}  // namespace lqcd
