#include "gauge/wilson_loops.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <set>

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

// T_max of either kind of loop: 1..8 and at most the time extent.
void check_t_max(const Geometry& g, int t_max) {
  if (t_max < 1 || t_max > kMaxWilsonLoopExtent || t_max > g.global[3])
    fail("Wilson loops: T_max = {} out of range (1 to {} and the time extent {})", t_max, kMaxWilsonLoopExtent,
         g.global[3]);
}

// The distinct images of a path under the 48 signed permutations of the spatial axes.
std::vector<std::vector<int>> cubic_images(const std::vector<int>& path) {
  std::set<std::vector<int>> images;
  std::array<int, 3> perm{0, 1, 2};
  do {
    for (int signs = 0; signs < 8; ++signs) {
      std::vector<int> image;
      for (int step : path) {
        const int axis = std::abs(step) - 1, sign = (step > 0 ? 1 : -1) * ((signs >> axis) & 1 ? -1 : 1);
        image.push_back(sign * (perm[std::size_t(axis)] + 1));
      }
      images.insert(image);
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
  return {images.begin(), images.end()};
}

}  // namespace

std::vector<int> staircase_path(std::array<int, 3> r) {
  const int length = std::abs(r[0]) + std::abs(r[1]) + std::abs(r[2]);
  std::array<int, 3> done{0, 0, 0};
  std::vector<int> path;
  for (int k = 1; k <= length; ++k) {
    // The axis furthest behind the straight line after k steps: largest |r_i| k / length - done_i.
    int best = -1;
    double behind = -1e300;
    for (int i = 0; i < 3; ++i) {
      const int n = std::abs(r[std::size_t(i)]);
      if (done[std::size_t(i)] == n) continue;
      const double d = double(n) * k / length - done[std::size_t(i)];
      if (d > behind + 1e-12) behind = d, best = i;
    }
    ++done[std::size_t(best)];
    path.push_back((r[std::size_t(best)] > 0 ? 1 : -1) * (best + 1));
  }
  return path;
}

std::vector<std::array<int, 3>> off_axis_separations(double r_max) {
  std::vector<std::array<int, 3>> out;
  for (int a = 1; a <= int(r_max); ++a)
    for (int b = 1; b <= a; ++b)
      for (int c = 0; c <= b; ++c)
        if (a * a + b * b + c * c <= r_max * r_max + 1e-9) out.push_back({a, b, c});
  std::stable_sort(out.begin(), out.end(), [](const auto& x, const auto& y) {
    return x[0] * x[0] + x[1] * x[1] + x[2] * x[2] < y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
  });
  return out;
}

// For each image path P = (s_1, ..., s_L) of the staircase: H_T(x) = S_P(x) T_T(x + r), the spatial line
// followed by T time links, built by prepending s_L, ..., s_1 to the time lines T_T (one site per step,
// PathExtendKernel, forwards or backwards); G_T(x) = T_T(x) S_P(x + T t), built in T from the spatial line
// S_P; W(r, T) = sum_x Re tr[H_T(x) G_T(x)^dag] / (3 V), averaged over the images.
std::vector<double> wilson_loops_along(const GaugeField<double>& U, std::array<int, 3> r, int t_max) {
  const Geometry& g = U.geometry();
  const int l_min = std::min(std::min(g.global[0], g.global[1]), g.global[2]);
  const int r_big = std::max(std::max(std::abs(r[0]), std::abs(r[1])), std::abs(r[2]));
  if (r_big == 0 || r_big > kMaxWilsonLoopExtent || r_big > l_min)
    fail("Wilson loops: separation ({}, {}, {}) out of range (components at most {} and the smallest spatial "
         "extent {}, not all zero)",
         r[0], r[1], r[2], kMaxWilsonLoopExtent, l_min);
  check_t_max(g, t_max);
  const Location loc = U.location();
  const std::int64_t volume = g.volume();
  constexpr int t_dir = 3;
  const GaugeView<double> none{nullptr, 0, SiteIndexer::from(g)};
  const auto field = [](int t) { return std::size_t((t - 1) / 4); };
  const auto slot = [](int t) { return (t - 1) % 4; };
  // One step of a path field (slot_out of `out`); the caller exchanges out's halo once all the slots it
  // writes in this step are written.
  const auto extend = [&](const GaugeView<double>& in, GaugeField<double>& out, int step, int slot_in, int slot_out) {
    for_each(loc, volume, PathExtendKernel{U.view(), in, out.view(), std::abs(step) - 1, slot_in, slot_out, step < 0});
  };
  U.exchange_halo();
  // The time lines T_T, T = 1..t_max, four to a field.
  std::vector<GaugeField<double>> time_lines, h, h_next;
  for (std::size_t k = 0; k < field(t_max) + 1; ++k) {
    time_lines.emplace_back(g, loc);
    h.emplace_back(g, loc);
    h_next.emplace_back(g, loc);
  }
  for (int t = 1; t <= t_max; ++t) {
    extend(t == 1 ? none : time_lines[field(t - 1)].view(), time_lines[field(t)], t_dir + 1, t == 1 ? 0 : slot(t - 1),
           slot(t));
    time_lines[field(t)].exchange_halo();  // T_{t+1} reads T_t one site up
  }
  GaugeField<double> line(g, loc), line_next(g, loc), g_cur(g, loc), g_next(g, loc);
  std::vector<double> w(std::size_t(t_max), 0.0);
  const std::vector<std::vector<int>> images = cubic_images(staircase_path(r));
  for (const std::vector<int>& path : images) {
    for (std::size_t k = path.size(); k-- > 0;) {
      for (int t = 1; t <= t_max; ++t)
        extend(k + 1 == path.size() ? time_lines[field(t)].view() : h[field(t)].view(), h_next[field(t)], path[k],
               slot(t), slot(t));
      std::swap(h, h_next);
      for (auto& f : h) f.exchange_halo();  // once per field, all four slots written
      extend(k + 1 == path.size() ? none : line.view(), line_next, path[k], 0, 0);
      std::swap(line, line_next);
      line.exchange_halo();
    }
    for (int t = 1; t <= t_max; ++t) {
      extend(t == 1 ? line.view() : g_cur.view(), g_next, t_dir + 1, 0, 0);
      std::swap(g_cur, g_next);
      g_cur.exchange_halo();
      Sums<1> s = reduce<Sums<1>>(loc, volume, ClosedLoopKernel{h[field(t)].view(), g_cur.view(), slot(t), 0});
      comm::sum(g.grid, s.v);
      w[std::size_t(t - 1)] += s[0] / (3.0 * double(g.global_volume()) * double(images.size()));
    }
  }
  return w;
}

std::vector<std::vector<double>> wilson_loops(const GaugeField<double>& U, int r_max, int t_max, bool by_paths) {
  const Geometry& g = U.geometry();
  const int l_min = std::min(std::min(g.global[0], g.global[1]), g.global[2]);
  if (r_max < 1 || r_max > kMaxWilsonLoopExtent || r_max > l_min)
    fail("Wilson loops: R_max = {} out of range (1 to {} and the smallest spatial extent {})", r_max,
         kMaxWilsonLoopExtent, l_min);
  check_t_max(g, t_max);
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
