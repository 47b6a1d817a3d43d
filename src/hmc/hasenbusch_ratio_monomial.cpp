#include "hmc/hasenbusch_ratio_monomial.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

HasenbuschRatioMonomial::HasenbuschRatioMonomial(const EvenOddQuark& light, const EvenOddQuark& heavy,
                                                 const SolverParams& solver, std::uint32_t stream, int forecast)
    : PseudofermionMonomial(solver, stream, forecast), light_(light), heavy_(heavy) {}

std::string HasenbuschRatioMonomial::name() const {
  return "hasenbusch ratio " + describe(light_) + " / " + describe(heavy_) + multigrid_note();
}

void HasenbuschRatioMonomial::refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) {
  const auto M = light_.schur(U), M2 = heavy_.schur(U);
  const SpinorField<double> eta = gaussian_noise(M->make_field(), seed, trajectory);
  SpinorField<double> v = M->make_field();
  M->apply_dagger(v, eta);
  // phi = M_2^{-dag} v = M_2 (M_2^dag M_2)^{-1} v
  const SpinorField<double> w = solve_normal_equations(heavy_, U, *M2, v, solver_, stats_, name());
  phi.emplace(M->make_field());
  M2->apply(*phi, w);
  start_trajectory(norm2(eta));
}

double HasenbuschRatioMonomial::action_after_refresh(const GaugeField<double>& U) {
  // M_2^dag phi = M^dag eta (to the heavy solve's tolerance): phi^dag M_2 (M^dag M)^{-1} M_2^dag phi = |eta|^2
  return noise_norm2() - 2 * light_.log_det_odd(*light_.schur(U)) + 2 * heavy_.log_det_odd(*heavy_.schur(U));
}

double HasenbuschRatioMonomial::action(const GaugeField<double>& U) {
  const auto M = light_.schur(U), M2 = heavy_.schur(U);
  SpinorField<double> psi = M->make_field();
  M2->apply_dagger(psi, pseudofermion());
  // From the forecast's guess, as the two-flavour action (two_flavour_monomial.cpp).
  const SpinorField<double> X = solve_for_action(light_, U, *M, psi);
  return dot(psi, X).re - 2 * light_.log_det_odd(*M) + 2 * heavy_.log_det_odd(*M2);
}

void HasenbuschRatioMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  const auto M = light_.schur(U), M2 = heavy_.schur(U);
  SpinorField<double> psi = M->make_field(), Y = M->make_field();
  M2->apply_dagger(psi, pseudofermion());
  const SpinorField<double> X = solve_for_force(light_, U, *M, psi);
  M->apply(Y, X);
  light_.add_force(*M, U, Y, X, 1.0, -2.0, F);       // -2 Re Y^dag dM X - 2 log |det A_oo|
  heavy_.add_force(*M2, U, *phi, X, -1.0, 2.0, F);  // +2 Re phi^dag dM_2 X + 2 log |det A2_oo|
}

void HasenbuschRatioMonomial::use_multigrid(const HmcMultigridParams& p) {
  multigrid_ = std::make_unique<MultigridForceSolver>(light_, p);
}

}  // namespace lqcd
