#pragma once
// The references of the baryon tests (tests/measure/baryon_*_test.cpp): random propagators, the Wick
// contraction written out index by index, the free Wilson quark from momentum space, and the lattice
// symmetries (parity, time reflection, charge conjugation) applied to a gauge field.

#include <algorithm>
#include <cmath>

#include "core/site_random.hpp"
#include "fields/gauge_field.hpp"
#include "measure/baryon_interpolators.hpp"

namespace lqcd::test {

inline PointPropagator random_propagator(const Dims& dims, std::uint32_t stream) {
  PointPropagator S;
  S.geometry = Geometry::single_process(dims);
  S.source = {1, 0, 1, 2};
  const std::int64_t v = std::int64_t(dims[0]) * dims[1] * dims[2] * dims[3];
  for (int col = 0; col < 12; ++col) {
    S.column[std::size_t(col)].resize(std::size_t(v));
    for (std::int64_t i = 0; i < v; ++i) {
      SiteRandom rng(5, std::uint64_t(i), RngPurpose::Test, stream * 16 + std::uint32_t(col), 0);
      for (auto& s : S.column[std::size_t(col)][std::size_t(i)].s)
        for (auto& z : s.c) {
          z.re = rng.gaussian();
          z.im = rng.gaussian();
        }
    }
  }
  return S;
}

// G^{ij}_{alpha beta} = <O^i_alpha Obar^j_beta> by Wick's theorem index by index, independent of the
// matrix forms of measure/baryon_correlator.cpp: every permutation of the source's slots that joins
// equal flavours, with its sign, and every colour and spin index (over the non-zero gamma entries).
// prop(k, f, c, s, cp, sp) is the propagator of the sink's slot-k quark (flavour f) from colour cp, spin
// sp at the source to c, s at the sink.
template <typename Prop>
std::vector<std::vector<SpinMatrix>> wick_reference(const BaryonInterpolator& op, const Prop& prop) {
  struct Entry {
    int i, j;
    Complex<double> v;
  };
  const auto entries = [](const SpinMatrix& m) {
    std::vector<Entry> e;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        if (m.m[i][j].re != 0 || m.m[i][j].im != 0) e.push_back({i, j, m.m[i][j]});
    return e;
  };
  constexpr int eps[6][4] = {{0, 1, 2, 1}, {1, 2, 0, 1}, {2, 0, 1, 1}, {0, 2, 1, -1}, {2, 1, 0, -1}, {1, 0, 2, -1}};
  const SpinMatrix gt = SpinMatrix::gamma(3);
  const std::size_t n = op.components.size();
  std::vector<std::vector<SpinMatrix>> G(n, std::vector<SpinMatrix>(n));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      for (const BaryonTerm& t : op.components[i])
        for (const BaryonTerm& u : op.components[j]) {
          const auto g = entries(t.diquark), g2 = entries(t.outer);
          const auto h = entries(gt * u.diquark.dagger() * gt.transpose()), h2 = entries(gt * u.outer.dagger() * gt);
          std::array<int, 3> perm{0, 1, 2};
          do {
            int sign = 1;  // (-1)^inversions
            for (int a = 0; a < 3; ++a)
              for (int b = a + 1; b < 3; ++b)
                if (perm[std::size_t(a)] > perm[std::size_t(b)]) sign = -sign;
            bool same = true;
            for (std::size_t k = 0; k < 3; ++k) same = same && t.quarks[k] == u.quarks[std::size_t(perm[k])];
            if (!same) continue;
            for (const Entry& e1 : g)
              for (const Entry& e2 : g2)
                for (const Entry& e3 : h)
                  for (const Entry& e4 : h2) {
                    // sink slots (a rho), (b sigma), (c gamma) = e1.i, e1.j, e2.j; source slots (a' rho'),
                    // (b' sigma'), (c' gamma') = e3.j, e3.i, e4.i; alpha = e2.i, beta = e4.j.
                    const int sink_spin[3] = {e1.i, e1.j, e2.j}, source_spin[3] = {e3.j, e3.i, e4.i};
                    const Complex<double> w = t.weight * u.weight * double(sign) * e1.v * e2.v * e3.v * e4.v;
                    Complex<double> sum{};
                    for (const auto& s : eps)
                      for (const auto& sp : eps) {
                        Complex<double> product(s[3] * sp[3]);
                        for (std::size_t k = 0; k < 3; ++k) {
                          const std::size_t to = std::size_t(perm[k]);
                          product = product * prop(int(k), t.quarks[k], s[k], sink_spin[k], sp[to], source_spin[to]);
                        }
                        sum += product;
                      }
                    G[i][j].m[e2.i][e4.j] += w * sum;
                  }
          } while (std::next_permutation(perm.begin(), perm.end()));
        }
  return G;
}

// sum_ij tr[W_ij G^{ij}]
inline Complex<double> project(const BaryonProjection& W, const std::vector<std::vector<SpinMatrix>>& G) {
  Complex<double> s{};
  for (std::size_t i = 0; i < G.size(); ++i)
    for (std::size_t j = 0; j < G.size(); ++j)
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) s += W[i][j].m[b][a] * G[i][j].m[a][b];
  return s;
}

// The free Wilson quark in the time-momentum representation, from momentum space alone (no solver):
// M = 2 kappa D, D(p) = m0 + sum(1 - cos p) + i sum gamma_mu sin p_mu, D(p)^-1 = [A - i sum gamma sin p] /
// (A^2 + sum sin^2 p), S(t, p_vec) = (1/T) sum_{p4} e^{i p4 t} M(p)^-1 with p4 = (2 pi n + pi) / T
// (antiperiodic in time), colour diagonal.
inline SpinMatrix free_quark(const Dims& n, double m0, const std::array<int, 3>& k, int t) {
  const double kappa = 1 / (2 * (4 + m0));
  SpinMatrix s{};
  for (int k3 = 0; k3 < n[3]; ++k3) {
    double p[4];
    for (int mu = 0; mu < 3; ++mu) p[mu] = 2 * M_PI * k[std::size_t(mu)] / n[mu];
    p[3] = (2 * M_PI * k3 + M_PI) / n[3];
    double A = m0, s2 = 0;
    for (int mu = 0; mu < 4; ++mu) A += 1 - std::cos(p[mu]), s2 += std::sin(p[mu]) * std::sin(p[mu]);
    const double den = (A * A + s2) * 2 * kappa * n[3];
    const Complex<double> phase(std::cos(p[3] * t), std::sin(p[3] * t));
    for (int mu = 0; mu < 4; ++mu) {
      const SpinMatrix g = SpinMatrix::gamma(mu);
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) s.m[i][j] -= phase * Complex<double>(0, std::sin(p[mu]) / den) * g.m[i][j];
    }
    for (int i = 0; i < 4; ++i) s.m[i][i] += phase * (A / den);
  }
  return s;
}

// The lattice symmetries on the whole lattice (file order, site = x + L0 (y + L1 (z + L2 t))):
//   parity           x -> Px = (-x_vec, t):        U'_k(x) = U_k(Px - k)^dag, U'_t(x) = U_t(Px)
//   time reflection  x -> Rx = (x_vec, T - 1 - t): U'_k(x) = U_k(Rx),         U'_t(x) = U_t(Rx - t)^dag
//   charge conj.     U' = U^*
// (the reflection about t = (T - 1)/2 maps the boundary link T-1 -> 0 onto itself).
enum class LatticeSymmetry { Parity, TimeReflection, ChargeConjugation };

inline std::array<int, 4> transformed_site(LatticeSymmetry s, const Dims& n, std::array<int, 4> x) {
  if (s == LatticeSymmetry::Parity)
    for (int mu = 0; mu < 3; ++mu) x[std::size_t(mu)] = (n[mu] - x[std::size_t(mu)]) % n[mu];
  if (s == LatticeSymmetry::TimeReflection) x[3] = n[3] - 1 - x[3];
  return x;
}

inline LexicographicGauge transformed(LatticeSymmetry s, const LexicographicGauge& U) {
  const Dims& n = U.dims;
  const auto site = [&](std::array<int, 4> x) {
    for (int mu = 0; mu < 4; ++mu) x[std::size_t(mu)] = (x[std::size_t(mu)] % n[mu] + n[mu]) % n[mu];
    return std::int64_t(x[0]) + n[0] * (std::int64_t(x[1]) + n[1] * (std::int64_t(x[2]) + std::int64_t(n[2]) * x[3]));
  };
  LexicographicGauge V(n);
  for (int t = 0; t < n[3]; ++t)
    for (int z = 0; z < n[2]; ++z)
      for (int y = 0; y < n[1]; ++y)
        for (int x0 = 0; x0 < n[0]; ++x0) {
          const std::array<int, 4> x{x0, y, z, t}, r = transformed_site(s, n, x);
          for (int mu = 0; mu < 4; ++mu) {
            SU3<double>& out = V(site(x), mu);
            if (s == LatticeSymmetry::ChargeConjugation) {
              out = U(site(x), mu);
              for (auto& row : out.m)
                for (auto& z2 : row) z2.im = -z2.im;
            } else if ((s == LatticeSymmetry::Parity) == (mu < 3)) {  // the reflected direction
              std::array<int, 4> b = r;
              --b[std::size_t(mu)];
              out = dagger(U(site(b), mu));
            } else {
              out = U(site(r), mu);
            }
          }
        }
  return V;
}

}  // namespace lqcd::test
