#include "hmc/two_flavour_monomial.hpp"

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "fields/spinor_blas.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

TwoFlavourMonomial::TwoFlavourMonomial(const WilsonParams& params, const SolverParams& solver, std::uint32_t stream)
    : params_(params), solver_(solver), stream_(stream) {}

std::string TwoFlavourMonomial::name() const {
  return params_.mu != 0 ? fmt::format("two-flavour twisted mass (kappa {}, mu {})", params_.kappa, params_.mu)
                         : fmt::format("two-flavour wilson (kappa {})", params_.kappa);
}

void TwoFlavourMonomial::refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) {
  const WilsonEvenOddOperator<double> M(U, params_);
  SpinorField<double> eta = M.make_field();
  for_each(U.location(), eta.sites(), GaussianSpinorKernel{eta.view(), seed, stream_, trajectory});
  phi.emplace(M.make_field());
  M.apply_dagger(*phi, eta);
}

SpinorField<double> TwoFlavourMonomial::solve_normal(const GaugeField<double>& U) {
  if (!phi) fail("internal: {}: action or force before the pseudofermion heatbath", name());
  const WilsonEvenOddOperator<double> M(U, params_);
  const NormalOperator<double> A(M);
  SpinorField<double> X = M.make_field();
  set_zero(X);
  try {
    const SolverResult r = solve_hermitian(A, X, *phi, solver_);
    stats_.iterations += r.iterations;
    stats_.seconds += r.seconds;
  } catch (const SolverError& e) {
    // A force from an unconverged solve would be wrong: the trajectory is aborted instead.
    throw SolverError(fmt::format("{}: {}", name(), e.what()), e.result());
  }
  return X;
}

double TwoFlavourMonomial::action(const GaugeField<double>& U) {
  const SpinorField<double> X = solve_normal(U);
  return dot(*phi, X).re;  // phi^dag (M^dag M)^{-1} phi
}

void TwoFlavourMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  const WilsonEvenOddOperator<double> M(U, params_);
  const SpinorField<double> X = solve_normal(U);
  SpinorField<double> Y = M.make_field();
  M.apply(Y, X);
  const Geometry& g = U.geometry();
  SpinorField<double> Z(g, U.location(), Subset::Odd), W(g, U.location(), Subset::Odd);
  M.hop(Z, X, nullptr, 1.0, 0.0, 0);  // H_oe X
  M.site_inverse(Z, Z, 0);            // A^{-1} H_oe X
  M.hop(W, Y, nullptr, 1.0, 0.0, 1);  // (H^dag)_oe Y
  M.site_inverse(W, W, 1);            // (A^dag)^{-1} (H^dag)_oe Y
  SpinorField<double> a(g, U.location(), Subset::Full), b(g, U.location(), Subset::Full);
  a.set_parity_part(0, Y);
  a.set_parity_part(1, W);
  b.set_parity_part(0, X);
  b.set_parity_part(1, Z);
  HoppingForceKernel k{U.view(), F.view(), a.view(), b.view(), {}, 2 * params_.kappa * params_.kappa};
  for (int mu = 0; mu < 4; ++mu) k.phase[mu] = params_.boundary.phase[mu];
  for_each(U.location(), g.volume(), k);
}

Monomial::SolverStats TwoFlavourMonomial::take_solver_stats() {
  const SolverStats s = stats_;
  stats_ = {};
  return s;
}

}  // namespace lqcd
