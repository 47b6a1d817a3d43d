#include "hmc/hasenbusch_ratio_monomial.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

HasenbuschRatioMonomial::HasenbuschRatioMonomial(const EvenOddQuark& light, const EvenOddQuark& heavy,
                                                 const SolverParams& solver, std::uint32_t stream)
    : light_(light), heavy_(heavy), solver_(solver), stream_(stream) {}

std::string HasenbuschRatioMonomial::name() const {
  return "hasenbusch ratio " + describe(light_) + " / " + describe(heavy_);
}

void HasenbuschRatioMonomial::refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) {
  const auto M = light_.schur(U), M2 = heavy_.schur(U);
  SpinorField<double> eta = M->make_field(), v = M->make_field();
  for_each(U.location(), eta.sites(), GaussianSpinorKernel{eta.view(), seed, stream_, trajectory});
  M->apply_dagger(v, eta);
  // phi = M_2^{-dag} v = M_2 (M_2^dag M_2)^{-1} v
  const SpinorField<double> w = solve_normal_equations(*M2, v, solver_, stats_, name());
  phi.emplace(M->make_field());
  M2->apply(*phi, w);
}

double HasenbuschRatioMonomial::action(const GaugeField<double>& U) {
  if (!phi) fail("internal: {}: action before the pseudofermion heatbath", name());
  const auto M = light_.schur(U), M2 = heavy_.schur(U);
  SpinorField<double> psi = M->make_field();
  M2->apply_dagger(psi, *phi);
  const SpinorField<double> X = solve_normal_equations(*M, psi, solver_, stats_, name());
  return dot(psi, X).re - 2 * light_.log_det_odd(*M) + 2 * heavy_.log_det_odd(*M2);
}

void HasenbuschRatioMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  if (!phi) fail("internal: {}: force before the pseudofermion heatbath", name());
  const auto M = light_.schur(U), M2 = heavy_.schur(U);
  SpinorField<double> psi = M->make_field(), Y = M->make_field();
  M2->apply_dagger(psi, *phi);
  const SpinorField<double> X = solve_normal_equations(*M, psi, solver_, stats_, name());
  M->apply(Y, X);
  light_.add_force(*M, U, Y, X, 1.0, -2.0, F);       // -2 Re Y^dag dM X - 2 log |det A_oo|
  heavy_.add_force(*M2, U, *phi, X, -1.0, 2.0, F);  // +2 Re phi^dag dM_2 X + 2 log |det A2_oo|
}

Monomial::SolverStats HasenbuschRatioMonomial::take_solver_stats() {
  const SolverStats s = stats_;
  stats_ = {};
  return s;
}

}  // namespace lqcd
