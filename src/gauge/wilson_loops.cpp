#include "gauge/wilson_loops.hpp"

#include <algorithm>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/wilson_loops_kernels.hpp"

namespace lqcd {

std::vector<std::vector<double>> wilson_loops(const GaugeField<double>& U, int r_max, int t_max) {
  const Geometry& g = U.geometry();
  if (g.has_halo() || g.global != g.local)
    fail("Wilson loops: one process only for now (the {}x{} loops reach beyond the halo of a decomposed lattice)",
         r_max, t_max);
  const int l_min = std::min(std::min(g.global[0], g.global[1]), g.global[2]);
  if (r_max < 1 || r_max > kMaxWilsonLoopExtent || r_max > l_min)
    fail("Wilson loops: R_max = {} out of range (1 to {} and the smallest spatial extent {})", r_max,
         kMaxWilsonLoopExtent, l_min);
  if (t_max < 1 || t_max > kMaxWilsonLoopExtent || t_max > g.global[3])
    fail("Wilson loops: T_max = {} out of range (1 to {} and the time extent {})", t_max, kMaxWilsonLoopExtent,
         g.global[3]);
  std::vector<std::vector<double>> w(static_cast<std::size_t>(r_max),
                                     std::vector<double>(static_cast<std::size_t>(t_max)));
  for (int r = 1; r <= r_max; ++r) {
    const Sums<kMaxWilsonLoopExtent> s =
        reduce<Sums<kMaxWilsonLoopExtent>>(U.location(), g.volume(), WilsonLoopKernel{U.view(), r, t_max});
    for (int t = 0; t < t_max; ++t) w[std::size_t(r - 1)][std::size_t(t)] = s[t] / (3.0 * double(g.volume()));
  }
  return w;
}

}  // namespace lqcd
