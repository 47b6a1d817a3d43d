#pragma once
// Chroma's WEAK_FIELD start (Chroma lib/util/gauge/weak_field.cc, v3.0) from QDP++'s lattice random
// numbers, rebuilt from their published description so that lqcd can be run on the configuration of
// Chroma's hadron-spectrum regression test (tests/chroma/hadron/spectrum/spectrum.ini.xml: 4^3 x 8,
// RNG seed 11 11 11 0), which exists only as that recipe:
//   QDP++'s generator is a linear congruential one modulo 2^47 with the multiplier
//   a = 1222 2^36 + 1498 2^24 + 712 2^12 + 1645, the seed four 12-bit limbs (the first the least
//   significant). A lattice fill gives the site of lexicographic index n (x fastest) the single-precision
//   value seed a^(n+1) mod 2^47 / 2^47 and moves the seed on by a^(V+1).
//   The weak field: for each direction, U = 1, then for the SU(2) subgroups (0,1), (1,2), (0,2) in turn:
//   th1 = amp r, th2 = amp r' (two fills), amp = 0.02 2 pi, a = (cos th1, sin th1, cos th2, sin th2)/sqrt 2,
//   and U <- U s with the SU(2) element s (rows/columns i1 < i2 of the subgroup):
//   s[i1][i1] = a0 + i a3, s[i1][i2] = a2 + i a1, s[i2][i1] = -a2 + i a1, s[i2][i2] = a0 - i a3.
// After the 24 fills the seed is (1835, 3491, 1302, 1242), as Chroma's output records.

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "fields/lexicographic_gauge.hpp"

namespace lqcd::test {

class QdpLatticeRandom {
 public:
  explicit QdpLatticeRandom(std::array<std::uint64_t, 4> limbs)
      : seed_(limbs[0] + (limbs[1] << 12) + (limbs[2] << 24) + (limbs[3] << 36)) {}
  // One fill of the lattice's volume sites: value[n] for lexicographic n (QDP++'s uniform numbers are
  // single precision).
  template <typename Out>
  void fill(std::int64_t volume, Out&& out) {
    std::uint64_t s = seed_;
    for (std::int64_t n = 0; n < volume; ++n) {
      s = multiply(s, kMultiplier);
      out(n, double(float(double(s) / double(kModulus))));
    }
    seed_ = multiply(s, kMultiplier);  // seed a^(V+1)
  }
  std::array<std::uint64_t, 4> limbs() const {
    return {seed_ & 0xfff, (seed_ >> 12) & 0xfff, (seed_ >> 24) & 0xfff, (seed_ >> 36) & 0xfff};
  }

 private:
  static constexpr std::uint64_t kModulus = std::uint64_t(1) << 47;
  static constexpr std::uint64_t kMultiplier = (std::uint64_t(1222) << 36) + (std::uint64_t(1498) << 24) +
                                               (std::uint64_t(712) << 12) + 1645;
  static std::uint64_t multiply(std::uint64_t x, std::uint64_t y) {
    return std::uint64_t((unsigned __int128)x * y % kModulus);
  }
  std::uint64_t seed_;
};

// single_precision: the angles and their sines in float, as Chroma's single-precision build (the one that
// wrote spectrum.out.xml) computes them; else in double.
inline LexicographicGauge chroma_weak_field(const Dims& dims, QdpLatticeRandom& rng, bool single_precision = true) {
  LexicographicGauge U(dims);
  const std::int64_t V = U.volume();
  const double amp = 0.02 * 2 * M_PI, fact = 1 / std::sqrt(2.0);
  constexpr int pairs[3][2] = {{0, 1}, {1, 2}, {0, 2}};
  std::vector<double> th1(static_cast<std::size_t>(V)), th2(static_cast<std::size_t>(V));
  for (int mu = 0; mu < 4; ++mu)
    for (const auto& p : pairs) {
      const auto angle = [&](double r) { return single_precision ? double(float(amp) * float(r)) : amp * r; };
      rng.fill(V, [&](std::int64_t n, double r) { th1[std::size_t(n)] = angle(r); });
      rng.fill(V, [&](std::int64_t n, double r) { th2[std::size_t(n)] = angle(r); });
      for (std::int64_t n = 0; n < V; ++n) {
        double a0, a1, a2, a3;
        if (single_precision) {
          const float t1 = float(th1[std::size_t(n)]), t2 = float(th2[std::size_t(n)]), ff = float(fact);
          a0 = ff * std::cos(t1), a1 = ff * std::sin(t1), a2 = ff * std::cos(t2), a3 = ff * std::sin(t2);
        } else {
          const double t1 = th1[std::size_t(n)], t2 = th2[std::size_t(n)];
          a0 = fact * std::cos(t1), a1 = fact * std::sin(t1), a2 = fact * std::cos(t2), a3 = fact * std::sin(t2);
        }
        SU3<double> s = SU3<double>::identity();
        const int i1 = p[0], i2 = p[1];
        s.m[i1][i1] = {a0, a3};
        s.m[i1][i2] = {a2, a1};
        s.m[i2][i1] = {-a2, a1};
        s.m[i2][i2] = {a0, -a3};
        U(n, mu) = U(n, mu) * s;
      }
    }
  return U;
}

}  // namespace lqcd::test
