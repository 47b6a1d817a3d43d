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
                                       std::uint32_t stream, int forecast)
    : TwoFlavourMonomial(EvenOddQuark{params, csw}, solver, stream, forecast) {}

TwoFlavourMonomial::TwoFlavourMonomial(const EvenOddQuark& quark, const SolverParams& solver, std::uint32_t stream,
                                       int forecast)
    : PseudofermionMonomial(solver, stream, forecast), quark_(quark) {
  if (!std::isfinite(quark.csw)) fail("csw: must be a finite number (got {})", quark.csw);
}

std::string TwoFlavourMonomial::name() const { return "two-flavour " + describe(quark_) + multigrid_note(); }

void TwoFlavourMonomial::refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) {
  const auto M = quark_.schur(U);
  const SpinorField<double> eta = gaussian_noise(M->make_field(), seed, trajectory);
  phi.emplace(M->make_field());
  M->apply_dagger(*phi, eta);
  start_trajectory(norm2(eta));
}

double TwoFlavourMonomial::action_after_refresh(const GaugeField<double>& U) {
  // phi = M^dag eta: phi^dag (M^dag M)^{-1} phi = |eta|^2
  return noise_norm2() - 2 * quark_.log_det_odd(*quark_.schur(U));
}

double TwoFlavourMonomial::action(const GaugeField<double>& U) {
  const auto M = quark_.schur(U);
  // From the forecast's guess (at the trajectory's end the last force's solution at these links): the
  // action still meets solver.tolerance, in a fraction of the iterations.
  const SpinorField<double> X = solve_for_action(quark_, U, *M, pseudofermion());
  return dot(*phi, X).re - 2 * quark_.log_det_odd(*M);  // phi^dag (M^dag M)^{-1} phi - 2 log |det A_oo|
}

void TwoFlavourMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  const auto M = quark_.schur(U);
  const SpinorField<double> X = solve_for_force(quark_, U, *M, pseudofermion());
  SpinorField<double> Y = M->make_field();
  M->apply(Y, X);
  quark_.add_force(*M, U, Y, X, 1.0, -2.0, F);
}

void TwoFlavourMonomial::use_multigrid(const HmcMultigridParams& p) {
  multigrid_ = std::make_unique<MultigridForceSolver>(quark_, p);
}

}  // namespace lqcd
