#include "measure/baryon_interpolators.hpp"

#include <cmath>

namespace lqcd {

SpinMatrix charge_conjugation() { return SpinMatrix::gamma(1) * SpinMatrix::gamma(3); }

SpinMatrix parity_projector(int sign) {
  const SpinMatrix one = SpinMatrix::identity(), gt = SpinMatrix::gamma(3);
  SpinMatrix p;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) p.m[i][j] = 0.5 * (one.m[i][j] + double(sign) * gt.m[i][j]);
  return p;
}

SpinMatrix polarised_projector(int k) { return parity_projector(+1) * SpinMatrix::gamma(kGamma5) * SpinMatrix::gamma(k); }

namespace {

constexpr Quark u = Quark::Up, d = Quark::Down, s = Quark::Strange;

SpinMatrix c_gamma5() { return charge_conjugation() * SpinMatrix::gamma(kGamma5); }

BaryonTerm octet_term(double weight, std::array<Quark, 3> quarks) {
  return {weight, quarks, c_gamma5(), SpinMatrix::identity()};
}

BaryonInterpolator decuplet(Quark q) {
  BaryonInterpolator op;
  for (int k = 0; k < 3; ++k)
    op.components.push_back({{1.0, {q, q, q}, charge_conjugation() * SpinMatrix::gamma(k), SpinMatrix::identity()}});
  return op;
}

}  // namespace

BaryonInterpolator spin_half_interpolator(std::array<Quark, 3> quarks, const SpinMatrix& diquark, const SpinMatrix& outer) {
  return {{{{1.0, quarks, diquark, outer}}}};
}

BaryonInterpolator proton() { return {{{octet_term(1, {u, d, u})}}}; }
BaryonInterpolator neutron() { return {{{octet_term(1, {d, u, d})}}}; }
BaryonInterpolator sigma_plus() { return {{{octet_term(1, {u, s, u})}}}; }
BaryonInterpolator xi_zero() { return {{{octet_term(1, {s, u, s})}}}; }
BaryonInterpolator lambda_octet() {
  const double n = 1 / std::sqrt(6.0);
  return {{{octet_term(2 * n, {u, d, s}), octet_term(n, {u, s, d}), octet_term(-n, {d, s, u})}}};
}
BaryonInterpolator delta_plus_plus() { return decuplet(u); }
BaryonInterpolator omega_minus() { return decuplet(s); }

BaryonProjection spin_half_projection(const SpinMatrix& P) { return {{P}}; }

BaryonProjection spin_three_halves_projection(const SpinMatrix& P) {
  BaryonProjection W(3, std::vector<SpinMatrix>(3));
  for (int k = 0; k < 3; ++k)
    for (int l = 0; l < 3; ++l) {
      SpinMatrix p32 = SpinMatrix::gamma(k) * SpinMatrix::gamma(l);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) p32.m[i][j] = Complex<double>((k == l && i == j) ? 1.0 : 0.0) - p32.m[i][j] * (1.0 / 3);
      const SpinMatrix w = P * p32;
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) W[std::size_t(l)][std::size_t(k)].m[i][j] = w.m[i][j] * (1.0 / 3);
    }
  return W;
}

const std::vector<BaryonChannel>& baryon_channels() {
  static const std::vector<BaryonChannel> channels = {
      {"nucleon", false, false, proton, "eps (u^T C g5 d) u"},
      {"delta", false, true, delta_plus_plus, "eps (u^T C g_k u) u, spin-3/2 projected"},
      {"lambda", true, false, lambda_octet, "eps [2 (u^T C g5 d) s + (u^T C g5 s) d - (d^T C g5 s) u] / sqrt(6)"},
      {"sigma", true, false, sigma_plus, "eps (u^T C g5 s) u"},
      {"xi", true, false, xi_zero, "eps (s^T C g5 u) s"},
      {"omega", true, true, omega_minus, "eps (s^T C g_k s) s, spin-3/2 projected"},
  };
  return channels;
}

}  // namespace lqcd
