#pragma once
// exp(iQ) of a traceless Hermitian 3x3 Q in the Cayley-Hamilton form of C. Morningstar and M. Peardon,
// Phys. Rev. D 69 (2004) 054501, section III:
//   exp(iQ) = f0 + f1 Q + f2 Q^2,   c0 = det Q = tr(Q^3)/3,   c1 = tr(Q^2)/2   (Q^3 = c1 Q + c0),
// with the derivatives of the coefficients, b1j = df_j/dc1 and b2j = df_j/dc0 (section IV), which the
// chain rule of stout smearing needs (gauge/stout_force_kernels.hpp): since dc1 = tr(Q dQ) and
// dc0 = tr(Q^2 dQ),
//   d exp(iQ) = tr(Q dQ) B1 + tr(Q^2 dQ) B2 + f1 dQ + f2 (dQ Q + Q dQ),   Bi = bi0 + bi1 Q + bi2 Q^2 (eq. 69).
// Two ways to the same numbers: the paper's closed form (section III for f_j, IV for b_ij) and the
// power series of exp reduced by Cayley-Hamilton. The closed form divides by (9u^2 - w^2)^2 >= 4 c1^2,
// and its numerators cancel to that order, so it loses about eps / c1^2 relative: the series (which
// converges fast for small Q) takes over below kSeriesBelowC1. Tests compare the two on both sides.

#include <cmath>

#include "math/su3.hpp"

namespace lqcd {

struct ExpCoefficients {
  Complex<double> f[3];   // exp(iQ) = f0 + f1 Q + f2 Q^2
  Complex<double> b1[3];  // df_j / dc1
  Complex<double> b2[3];  // df_j / dc0
};

// Below this c1 = tr(Q^2)/2 the series is used (eigenvalues of Q below 0.2: 24 terms reach rounding),
// above it the closed form (its cancellation then costs at most ~eps / 9e-4, about 2e-13).
inline constexpr double kSeriesBelowC1 = 0.03;

// exp(iQ) = sum_n (iQ)^n / n! with Q^n = p0_n + p1_n Q + p2_n Q^2, Q^{n+1} = c0 p2_n + (p0_n + c1 p2_n) Q + p1_n Q^2,
// and the derivatives of p_n with respect to c0 and c1 carried along the same recursion.
LQCD_HOST_DEVICE inline ExpCoefficients exp_i_coefficients_series(double c0, double c1) {
  double p[3] = {1, 0, 0}, d0[3] = {0, 0, 0}, d1[3] = {0, 0, 0};  // Q^0 = 1
  ExpCoefficients r{};
  double fact = 1;  // n!
  for (int n = 0; n <= 24; ++n) {
    // i^n / n!: real for even n, imaginary for odd n, sign (-1)^(n/2).
    const double s = ((n / 2) % 2 == 0 ? 1.0 : -1.0) / fact;
    for (int j = 0; j < 3; ++j) {
      const double a = s * p[j], b = s * d1[j], c = s * d0[j];
      if (n % 2 == 0) {
        r.f[j].re += a;
        r.b1[j].re += b;
        r.b2[j].re += c;
      } else {
        r.f[j].im += a;
        r.b1[j].im += b;
        r.b2[j].im += c;
      }
    }
    const double np[3] = {c0 * p[2], p[0] + c1 * p[2], p[1]};
    const double nd0[3] = {p[2] + c0 * d0[2], d0[0] + c1 * d0[2], d0[1]};
    const double nd1[3] = {c0 * d1[2], d1[0] + p[2] + c1 * d1[2], d1[1]};
    for (int j = 0; j < 3; ++j) {
      p[j] = np[j];
      d0[j] = nd0[j];
      d1[j] = nd1[j];
    }
    fact *= n + 1;
  }
  return r;
}

// xi0(w) = sin(w)/w and xi1(w) = cos(w)/w^2 - sin(w)/w^3 = xi0'(w)/w, by their series for small w,
// where the closed forms cancel (xi1 = sum_{k>=1} (-1)^k 2k w^(2k-2) / (2k+1)!).
LQCD_HOST_DEVICE inline void stout_xi(double w, double& xi0, double& xi1) {
  if (w < 0.25) {
    const double w2 = w * w;
    double t0 = 1, t1 = -1.0 / 3.0;  // the k = 0 term of xi0 and the k = 1 term of xi1
    xi0 = 0;
    xi1 = 0;
    for (int k = 0; k <= 8; ++k) {
      xi0 += t0;
      xi1 += t1;
      t0 *= -w2 / ((2 * k + 2) * (2 * k + 3));
      t1 *= -w2 / ((2 * k + 2) * (2 * k + 5));  // the (k+1) -> (k+2) ratio of the xi1 series
    }
  } else {
    xi0 = sin(w) / w;
    xi1 = cos(w) / (w * w) - sin(w) / (w * w * w);
  }
}

// The paper's closed form (c1 > 0): the eigenvalues of Q are 2u, -u + w, -u - w with u, w from
// theta = arccos(c0 / c0max), c0max = 2 (c1/3)^(3/2); f_j = h_j / (9u^2 - w^2) with the h_j of section III;
// r_1^(j) = dh_j/du and r_2^(j) = (1/w) dh_j/dw (section IV; each checked by differentiating h_j), and with
// c1 = 3u^2 + w^2, c0 = 2u(u^2 - w^2) inverted for du, dw:
//   b1j = [2u r1 + (3u^2 - w^2) r2 - 2(15u^2 + w^2) f_j] / (2 (9u^2 - w^2)^2),
//   b2j = [r1 - 3u r2 - 24u f_j] / (2 (9u^2 - w^2)^2).
// For c0 < 0 the symmetry f_j(-c0) = (-1)^j f_j(c0)^* and, differentiated, b_ij(-c0) = (-1)^(i+j+1) b_ij(c0)^*
// (i = 1 for c1, 2 for c0). With c0 >= 0, theta <= pi/2, so 9u^2 - w^2 >= 2 c1.
LQCD_HOST_DEVICE inline ExpCoefficients exp_i_coefficients_closed(double c0, double c1) {
  const bool negative = c0 < 0;
  const double ac0 = negative ? -c0 : c0;
  const double c0max = 2 * c1 / 3 * sqrt(c1 / 3);
  double ratio = ac0 / c0max;
  ratio = ratio > 1 ? 1 : ratio;  // rounding
  const double theta = acos(ratio);
  const double u = sqrt(c1 / 3) * cos(theta / 3), w = sqrt(c1) * sin(theta / 3);
  double xi0, xi1;
  stout_xi(w, xi0, xi1);
  const double u2 = u * u, w2 = w * w, cw = cos(w);
  const Complex<double> e2iu = unit_phase(2 * u), emiu = unit_phase(-u);
  const Complex<double> I(0, 1);
  Complex<double> h[3], r1[3], r2[3];
  h[0] = (u2 - w2) * e2iu + emiu * Complex<double>(8 * u2 * cw, 2 * u * (3 * u2 + w2) * xi0);
  h[1] = 2 * u * e2iu - emiu * Complex<double>(2 * u * cw, -(3 * u2 - w2) * xi0);
  h[2] = e2iu - emiu * Complex<double>(cw, 3 * u * xi0);
  // r_1^(j) = dh_j/du, r_2^(j) = (1/w) dh_j/dw.
  r1[0] = 2.0 * Complex<double>(u, u2 - w2) * e2iu +
          2.0 * emiu * (Complex<double>(4 * u * cw * 2, -4 * u * u * cw) +
                        I * Complex<double>(9 * u2 + w2, -u * (3 * u2 + w2)) * xi0);
  r1[1] = 2.0 * Complex<double>(1, 2 * u) * e2iu +
          emiu * (Complex<double>(-2 * cw, 2 * u * cw) + I * Complex<double>(6 * u, w2 - 3 * u2) * xi0);
  r1[2] = 2.0 * I * e2iu + I * emiu * Complex<double>(cw - 3 * xi0, 3 * u * xi0);
  r2[0] = -2.0 * e2iu + Complex<double>(0, 2 * u) * emiu * Complex<double>(cw + xi0 + 3 * u2 * xi1, 4 * u * xi0);
  r2[1] = -1.0 * I * emiu * Complex<double>(cw + xi0 - 3 * u2 * xi1, 2 * u * xi0);
  r2[2] = emiu * Complex<double>(xi0, -3 * u * xi1);
  const double den = 9 * u2 - w2, den2 = 2 * den * den;
  ExpCoefficients r;
  for (int j = 0; j < 3; ++j) {
    r.f[j] = h[j] * (1.0 / den);
    r.b1[j] = (2 * u * r1[j] + (3 * u2 - w2) * r2[j] - 2 * (15 * u2 + w2) * r.f[j]) * (1.0 / den2);
    r.b2[j] = (r1[j] - 3 * u * r2[j] - 24 * u * r.f[j]) * (1.0 / den2);
  }
  if (negative)
    for (int j = 0; j < 3; ++j) {
      const double sf = j % 2 == 0 ? 1 : -1;  // (-1)^j; b1: (-1)^(j+2) = (-1)^j; b2: (-1)^(j+3) = -(-1)^j
      r.f[j] = sf * conj(r.f[j]);
      r.b1[j] = sf * conj(r.b1[j]);
      r.b2[j] = -sf * conj(r.b2[j]);
    }
  return r;
}

// c0 = det Q = tr(Q^3)/3 and c1 = tr(Q^2)/2 of a traceless Hermitian Q.
LQCD_HOST_DEVICE inline void exp_i_invariants(const SU3<double>& q, double& c0, double& c1) {
  const SU3<double> q2 = q * q;
  c1 = 0.5 * re_trace(q2);
  c0 = re_trace_mul(q2, q) / 3;
}

LQCD_HOST_DEVICE inline ExpCoefficients exp_i_coefficients(const SU3<double>& q) {
  double c0, c1;
  exp_i_invariants(q, c0, c1);
  return c1 < kSeriesBelowC1 ? exp_i_coefficients_series(c0, c1) : exp_i_coefficients_closed(c0, c1);
}

// a0 + a1 X + a2 X^2 (X^2 given).
LQCD_HOST_DEVICE inline SU3<double> su3_quadratic(const Complex<double> a[3], const SU3<double>& x,
                                                  const SU3<double>& x2) {
  SU3<double> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = a[1] * x.m[i][j] + a[2] * x2.m[i][j] + (i == j ? a[0] : Complex<double>());
  return r;
}

}  // namespace lqcd
