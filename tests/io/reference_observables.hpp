#pragma once
// Test-only reference observables, written independently of the library's gauge code: plain loops
// with std::complex over a LexicographicGauge (x fastest, periodic neighbours). Used to check that a
// configuration read from a file is the field its authors measured.
//
//   plaquette   P = 1/(6V) sum_x sum_{mu<nu} Re tr[U_mu(x) U_nu(x+mu) U_mu(x+nu)^dag U_nu(x)^dag] / 3
//   link trace  L = 1/(4V) sum_x sum_mu Re tr U_mu(x) / 3
// Both are 1 for the unit field.

#include <array>
#include <complex>
#include <cstdint>

#include "fields/lexicographic_gauge.hpp"

namespace lqcd::test {

using Mat3 = std::array<std::array<std::complex<double>, 3>, 3>;

inline Mat3 to_mat3(const SU3<double>& u) {
  Mat3 m{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m[i][j] = {u.m[i][j].re, u.m[i][j].im};
  return m;
}

inline Mat3 mat_mul(const Mat3& a, const Mat3& b) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[i][j] += a[i][k] * b[k][j];
  return c;
}

inline Mat3 mat_dagger(const Mat3& a) {
  Mat3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c[i][j] = std::conj(a[j][i]);
  return c;
}

// Lexicographic index of (x, y, z, t) + shift in direction mu, periodic.
inline std::int64_t neighbour(const Dims& d, std::int64_t site, int mu) {
  std::int64_t c[4];
  std::int64_t r = site;
  for (int k = 0; k < 4; ++k) {
    c[k] = r % d[k];
    r /= d[k];
  }
  c[mu] = (c[mu] + 1) % d[mu];
  return c[0] + d[0] * (c[1] + d[1] * (c[2] + d[2] * c[3]));
}

inline double reference_plaquette(const LexicographicGauge& g) {
  const std::int64_t volume = std::int64_t(g.dims[0]) * g.dims[1] * g.dims[2] * g.dims[3];
  double sum = 0;
  for (std::int64_t x = 0; x < volume; ++x)
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu + 1; nu < 4; ++nu) {
        const Mat3 u1 = to_mat3(g.links[std::size_t(x) * 4 + mu]);
        const Mat3 u2 = to_mat3(g.links[std::size_t(neighbour(g.dims, x, mu)) * 4 + nu]);
        const Mat3 u3 = to_mat3(g.links[std::size_t(neighbour(g.dims, x, nu)) * 4 + mu]);
        const Mat3 u4 = to_mat3(g.links[std::size_t(x) * 4 + nu]);
        const Mat3 p = mat_mul(mat_mul(u1, u2), mat_mul(mat_dagger(u3), mat_dagger(u4)));
        sum += (p[0][0] + p[1][1] + p[2][2]).real() / 3.0;
      }
  return sum / (6.0 * double(volume));
}

inline double reference_link_trace(const LexicographicGauge& g) {
  double sum = 0;
  for (const auto& u : g.links) sum += (u.m[0][0].re + u.m[1][1].re + u.m[2][2].re) / 3.0;
  return sum / double(g.links.size());
}

}  // namespace lqcd::test
