#include "hmc/rational_monomial.hpp"

#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "core/timer.hpp"
#include "fields/spinor_blas.hpp"
#include "hmc/md_kernels.hpp"

namespace lqcd {

RationalMonomial::RationalMonomial(const EvenOddQuark& quark, const RationalApproximation& r,
                                   const SolverParams& solver, std::uint32_t stream)
    : PseudofermionMonomial(solver, stream), quark_(quark), r_(r) {
  if (quark.params.mu != 0) fail("mu: the rational (one-flavour) monomial needs mu = 0");
}

std::string RationalMonomial::name() const {
  return fmt::format("one-flavour {} by RHMC (degree {} on [{:g}, {:g}], error {:.1e})", describe(quark_), r_.degree,
                     r_.lambda_min, r_.lambda_max, r_.max_relative_error);
}

std::vector<SpinorField<double>> RationalMonomial::solve_shifted(const GaugeField<double>& U,
                                                                 const SchurOperator<double>& M,
                                                                 const std::vector<double>& shifts,
                                                                 const SpinorField<double>& b,
                                                                 const SolverParams& p) {
  const NormalOperator<double> A(M);
  std::vector<SpinorField<double>> x;
  try {
    SolverResult res;
    if (p.precision != SolverPrecision::Double) {
      // Single-precision multi-shift CG, each shift refined in double (also for solver.precision = half:
      // 16-bit fixed point loses the small shifts' residuals, ~1e-3 of the largest, at once).
      const Stopwatch clock;
      const SloppySchur<float> Ms(quark_, U, M);
      const NormalOperator<float> As(Ms.op());
      stats_.seconds += clock.seconds();
      res = solve_multishift_mixed(A, As, shifts, x, b, p);
    } else {
      res = solve_multishift(A, shifts, x, b, p);
    }
    stats_.iterations += res.iterations;
    stats_.seconds += res.seconds;
  } catch (const SolverError& e) {
    throw SolverError(fmt::format("{}: {}", name(), e.what()), e.result());
  }
  return x;
}

void RationalMonomial::refresh(const GaugeField<double>& U, std::uint64_t seed, std::uint32_t trajectory) {
  const auto M = quark_.schur(U);
  const SpinorField<double> eta = gaussian_noise(M->make_field(), seed, trajectory);
  eta_norm2 = norm2(eta);
  if (spectrum_iterations_ > 0) {
    const NormalOperator<double> A(*M);
    spectrum_ = lanczos_extremes(A, eta, spectrum_iterations_);
    const SpectralBounds& s = *spectrum_;
    if (s.lambda_min < r_.lambda_min)
      warnings_.push_back(fmt::format(
          "{}: M_hat^dag M_hat has an eigenvalue below lambda_min = {:g} (Lanczos Ritz value {:.4g} after {} steps, "
          "an upper bound of the smallest): the rational approximation does not hold there; lower its lambda_min",
          name(), r_.lambda_min, s.lambda_min, s.iterations));
    if (s.lambda_max > r_.lambda_max)
      warnings_.push_back(fmt::format(
          "{}: M_hat^dag M_hat has an eigenvalue above lambda_max = {:g} (Lanczos Ritz value {:.4g} after {} steps, "
          "a lower bound of the largest): the rational approximation does not hold there; raise its lambda_max",
          name(), r_.lambda_max, s.lambda_max, s.iterations));
  }
  // phi = c^{-1/2} [eta + sum_l rho'_l (Q - i q_l) (Q^2 + q_l^2)^{-1} eta],  q_l = sqrt(a_l), with the
  // partial fractions prod (Q + i sqrt(b_j)) / (Q + i q_l) = 1 + sum_l rho'_l / (Q + i q_l):
  //   rho'_l = prod_j i (sqrt(b_j) - q_l) / prod_{j != l} i (q_j - q_l) = i prod_j (sqrt(b_j) - q_l) / prod_{j != l} (q_j - q_l).
  const std::size_t n = r_.zeros_shift.size();
  const std::vector<SpinorField<double>> X = solve_shifted(U, *M, r_.zeros_shift, eta, solver_);
  phi.emplace(eta.clone(eta.location()));
  SpinorField<double> t = M->make_field();
  for (std::size_t l = 0; l < n; ++l) {
    const double q = std::sqrt(r_.zeros_shift[l]);
    double rho = 1;
    for (std::size_t j = 0; j < n; ++j) {
      rho *= std::sqrt(r_.poles_shift[j]) - q;
      if (j != l) rho /= std::sqrt(r_.zeros_shift[j]) - q;
    }
    // rho' (Q - i q) X_l = i rho gamma_5 M X_l + rho q X_l
    M->apply(t, X[l]);
    for_each(U.location(), t.sites(), Gamma5Kernel{t.view()});
    axpy(Complex<double>(0, rho), t, *phi);
    axpy(Complex<double>(rho * q), X[l], *phi);
  }
  scale(Complex<double>(1 / std::sqrt(r_.scale)), *phi);
}

double RationalMonomial::action(const GaugeField<double>& U) {
  const SpinorField<double>& p = pseudofermion();
  const auto M = quark_.schur(U);
  const std::vector<SpinorField<double>> X = solve_shifted(U, *M, r_.poles_shift, p, solver_);
  double s = norm2(p);
  for (std::size_t l = 0; l < X.size(); ++l) s += r_.residues[l] * dot(p, X[l]).re;
  return r_.scale * s - quark_.log_det_odd(*M);
}

void RationalMonomial::add_force(const GaugeField<double>& U, MomentumField& F) {
  const auto M = quark_.schur(U);
  const std::vector<SpinorField<double>> X = solve_shifted(U, *M, r_.poles_shift, pseudofermion(), force_solver_);
  SpinorField<double> Y = M->make_field();
  for (std::size_t l = 0; l < X.size(); ++l) {
    M->apply(Y, X[l]);
    quark_.add_force(*M, U, Y, X[l], r_.scale * r_.residues[l], l == 0 ? -1.0 : 0.0, F);
  }
}

std::vector<std::string> RationalMonomial::take_warnings() { return std::exchange(warnings_, {}); }

}  // namespace lqcd
