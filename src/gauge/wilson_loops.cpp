#include "gauge/wilson_loops.hpp"

#include <algorithm>

#include "comm/communicator.hpp"
#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "gauge/wilson_loops_kernels.hpp"

namespace lqcd {

namespace {

// The loops from path fields moved one site at a time (PathExtendKernel): for each spatial i, H_{R,T}(x)
// (R links along i, then T along t) for all T at once, built up in R from the temporal lines
// H_{0,T}(x) = T_T(x); and G_{R,T}(x) (T along t, then R along i), built up in T from
// G_{R,0} = L_R(x) (R links along i). W(R, T) = sum_x Re tr[H_{R,T}(x) G_{R,T}(x)^dag] / (3 V), i summed.
// Every step reads one site beyond the local box: the halo of depth 1 suffices at any R and T.
std::vector<std::vector<double>> wilson_loops_by_paths(const GaugeField<double>& U, int r_max, int t_max) {
  const Geometry& g = U.geometry();
  const Location loc = U.location();
  const std::int64_t volume = g.volume();
  constexpr int t_dir = 3;
  const GaugeView<double> none{nullptr, 0, SiteIndexer::from(g)};
  // H_{R,T} for T = 1..t_max in slots of two fields (slot (T - 1) % 4 of field (T - 1) / 4), and their
  // next R; G and L in slots 0 and 1 of a fifth pair.
  std::vector<GaugeField<double>> h, h_next;
  for (int k = 0; k < (t_max + 3) / 4; ++k) {
    h.emplace_back(g, loc);
    h_next.emplace_back(g, loc);
  }
  GaugeField<double> lines(g, loc), lines_next(g, loc), g_cur(g, loc), g_next(g, loc);
  const auto field = [](int t) { return (t - 1) / 4; };
  const auto slot = [](int t) { return (t - 1) % 4; };
  U.exchange_halo();
  std::vector<std::vector<double>> w(std::size_t(r_max), std::vector<double>(std::size_t(t_max), 0.0));
  for (int i = 0; i < 3; ++i) {
    // H_{0,T} = T_T: T_T(x) = U_t(x) T_{T-1}(x + t).
    for (int t = 1; t <= t_max; ++t) {
      const GaugeView<double> prev = t == 1 ? none : h[std::size_t(field(t - 1))].view();
      for_each(loc, volume, PathExtendKernel{U.view(), prev, h[std::size_t(field(t))].view(), t_dir, t == 1 ? 0 : slot(t - 1), slot(t)});
      h[std::size_t(field(t))].exchange_halo();
    }
    for (int r = 1; r <= r_max; ++r) {
      // H_{R,T}(x) = U_i(x) H_{R-1,T}(x + i); L_R(x) = U_i(x) L_{R-1}(x + i) (slot 1 of `lines`).
      for (int t = 1; t <= t_max; ++t)
        for_each(loc, volume, PathExtendKernel{U.view(), h[std::size_t(field(t))].view(), h_next[std::size_t(field(t))].view(), i, slot(t), slot(t)});
      std::swap(h, h_next);
      for (auto& f : h) f.exchange_halo();
      for_each(loc, volume, PathExtendKernel{U.view(), r == 1 ? none : lines.view(), lines_next.view(), i, 1, 1});
      std::swap(lines, lines_next);
      lines.exchange_halo();
      // G_{R,T}(x) = U_t(x) G_{R,T-1}(x + t), from G_{R,0} = L_R (slot 1 of `lines`), in slot 0 of two
      // fields in turn.
      for (int t = 1; t <= t_max; ++t) {
        const GaugeView<double> prev = t == 1 ? lines.view() : g_cur.view();
        for_each(loc, volume, PathExtendKernel{U.view(), prev, g_next.view(), t_dir, t == 1 ? 1 : 0, 0});
        std::swap(g_cur, g_next);
        g_cur.exchange_halo();
        Sums<1> s = reduce<Sums<1>>(loc, volume, ClosedLoopKernel{h[std::size_t(field(t))].view(), g_cur.view(), slot(t), 0});
        comm::sum(g.grid, s.v);
        w[std::size_t(r - 1)][std::size_t(t - 1)] += s[0] / (9.0 * double(g.global_volume()));
      }
    }
  }
  return w;
}

}  // namespace

std::vector<std::vector<double>> wilson_loops(const GaugeField<double>& U, int r_max, int t_max, bool by_paths) {
  const Geometry& g = U.geometry();
  const int l_min = std::min(std::min(g.global[0], g.global[1]), g.global[2]);
  if (r_max < 1 || r_max > kMaxWilsonLoopExtent || r_max > l_min)
    fail("Wilson loops: R_max = {} out of range (1 to {} and the smallest spatial extent {})", r_max,
         kMaxWilsonLoopExtent, l_min);
  if (t_max < 1 || t_max > kMaxWilsonLoopExtent || t_max > g.global[3])
    fail("Wilson loops: T_max = {} out of range (1 to {} and the time extent {})", t_max, kMaxWilsonLoopExtent,
         g.global[3]);
  // A decomposed lattice (or the test's request): the path fields; one process: the direct kernel.
  if (g.has_halo() || g.global != g.local || by_paths) return wilson_loops_by_paths(U, r_max, t_max);
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
