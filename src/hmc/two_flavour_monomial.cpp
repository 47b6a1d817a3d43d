#include "hmc/two_flavour_monomial.hpp"

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "fields/spinor_blas.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

TwoFlavourMonomial::TwoFlavourMonomial(const WilsonParams& params, double csw, const SolverParams& solver,
                                       std::uint32_t stream)
    : quark_{params, csw}, solver_(solver), stream_(stream) {
  if (!(csw >= 0)) fail("monomial.csw: must be non-negative (got {})", csw);
}

std::string TwoFlavourMonomial::name() const { return "two-flavour " + describe(quark_); }

void TwoFlavourMonomial::refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) {
  const auto M = quark_.schur(U);
  SpinorField<double> eta = M->make_field();
  for_each(U.location(), eta.sites(), GaussianSpinorKernel{eta.view(), seed, stream_, trajectory});
  phi.emplace(M->make_field());
  M->apply_dagger(*phi, eta);
}

double TwoFlavourMonomial::action(const GaugeField<double>& U) {
  if (!phi) fail("internal: {}: action before the pseudofermion heatbath", name());
  const auto M = quark_.schur(U);
  const SpinorField<double> X = solve_normal_equations(*M, *phi, solver_, stats_, name());
  return dot(*phi, X).re - 2 * quark_.log_det_odd(*M);  // phi^dag (M^dag M)^{-1} phi - 2 log |det A_oo|
}

void TwoFlavourMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  if (!phi) fail("internal: {}: force before the pseudofermion heatbath", name());
  const auto M = quark_.schur(U);
  const SpinorField<double> X = solve_normal_equations(*M, *phi, solver_, stats_, name());
  SpinorField<double> Y = M->make_field();
  M->apply(Y, X);
  quark_.add_force(*M, U, Y, X, 1.0, -2.0, F);
}

Monomial::SolverStats TwoFlavourMonomial::take_solver_stats() {
  const SolverStats s = stats_;
  stats_ = {};
  return s;
}

}  // namespace lqcd
