#pragma once
// The projection every point-source correlator makes (mesons, baryons):
//   C(t, p) = sum_{x, x_t = t0 + t} e^{-i p.(x - x0)} f(x),   t = 0..T-1 relative to the source slice,
// p in units of 2 pi / L (spatial components). f is evaluated once per site of this process's box; one
// thread per time slice of the box adds its sites in lexicographic order, so the sums do not depend on
// the thread count and no two threads write one entry. The boxes' sums are then added over the process
// grid in rank order (comm::sum): every rank gets the same values.

#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "comm/communicator.hpp"
#include "core/geometry.hpp"
#include "math/complex.hpp"

namespace lqcd {

// f(i, x): the value at box site i (lexicographic in the box) with global coordinates x[4].
template <typename SiteValue>
std::vector<std::vector<Complex<double>>> project_to_momenta(const Geometry& geom, const std::array<int, 4>& source,
                                                             const std::vector<std::array<int, 3>>& momenta,
                                                             const SiteValue& f) {
  const Dims& n = geom.global;
  const int T = n[3];
  std::vector<Complex<double>> corr(momenta.size() * std::size_t(T));
  const SiteIndexer idx = SiteIndexer::from(geom);
  const std::int64_t spatial = std::int64_t(geom.local[0]) * geom.local[1] * geom.local[2];
  const auto add_site = [&](std::int64_t i) {
    int x[4];
    idx.coords_lex(i, x);
    for (int mu = 0; mu < 4; ++mu) x[mu] += geom.offset[mu];  // global coordinates
    const Complex<double> value = f(i, x);
    const int t = ((x[3] - source[3]) % T + T) % T;
    for (std::size_t m = 0; m < momenta.size(); ++m) {
      double phase = 0;
      for (int d = 0; d < 3; ++d)
        phase -= 2 * M_PI * momenta[m][std::size_t(d)] * double(x[d] - source[std::size_t(d)]) / n[d];
      corr[m * std::size_t(T) + std::size_t(t)] += Complex<double>(std::cos(phase), std::sin(phase)) * value;
    }
  };
#pragma omp parallel for schedule(dynamic, 1)
  for (int lt = 0; lt < geom.local[3]; ++lt)
    for (std::int64_t i = lt * spatial; i < (lt + 1) * spatial; ++i) add_site(i);
  static_assert(sizeof(Complex<double>) == 2 * sizeof(double));
  comm::sum(geom.grid, std::span<double>(reinterpret_cast<double*>(corr.data()), 2 * corr.size()));
  std::vector<std::vector<Complex<double>>> out(momenta.size());
  for (std::size_t m = 0; m < momenta.size(); ++m)
    out[m].assign(corr.begin() + std::ptrdiff_t(m * std::size_t(T)), corr.begin() + std::ptrdiff_t((m + 1) * std::size_t(T)));
  return out;
}

}  // namespace lqcd
