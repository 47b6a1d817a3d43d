#include "measure/baryon_correlator.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "measure/momentum_projection.hpp"

namespace lqcd {

namespace {

using ColourBlocks = SpinMatrix[3][3];

// The propagator at box site x as colour blocks: block[a][a'].m[rho][rho'] = S^{aa'}_{rho rho'}(x).
void colour_blocks(const PointPropagator& S, std::size_t x, ColourBlocks& block) {
  for (int col = 0; col < 12; ++col)
    for (int row = 0; row < 12; ++row) block[row % 3][col % 3].m[row / 3][col / 3] = S.column[std::size_t(col)][x].s[row / 3].c[row % 3];
}

// tr[a b^T] = sum_ij a_ij b_ij
Complex<double> trace_with_transpose(const SpinMatrix& a, const SpinMatrix& b) {
  Complex<double> s{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s += a.m[i][j] * b.m[i][j];
  return s;
}

// tr[a b]
Complex<double> trace_of_product(const SpinMatrix& a, const SpinMatrix& b) {
  Complex<double> s{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s += a.m[i][j] * b.m[j][i];
  return s;
}

// tr[x m^T y] = sum_ijk x_ij m_kj y_ki
Complex<double> trace_x_mt_y(const SpinMatrix& x, const SpinMatrix& m, const SpinMatrix& y) {
  Complex<double> s{};
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 4; ++j) {
      Complex<double> xy{};  // (y x)_kj
      for (int i = 0; i < 4; ++i) xy += y.m[k][i] * x.m[i][j];
      s += xy * m.m[k][j];
    }
  return s;
}

// The six permutations (a, b, c) of (0, 1, 2) with the sign of eps_abc.
constexpr int kEpsilon[6][4] = {{0, 1, 2, 1}, {1, 2, 0, 1}, {2, 0, 1, 1}, {0, 2, 1, -1}, {2, 1, 0, -1}, {1, 0, 2, -1}};

// The Wick pairings: the sink's slot k joins the source's slot to[k].
struct Pairing {
  int to[3];
  int sign;
};
constexpr Pairing kPairings[6] = {{{0, 1, 2}, 1}, {{1, 0, 2}, -1}, {{2, 1, 0}, -1},
                                  {{0, 2, 1}, -1}, {{1, 2, 0}, 1},  {{2, 0, 1}, 1}};

// One pairing of one sink term with one source term: everything but the propagators.
struct Contraction {
  int pairing;                  // index into kPairings
  double weight;                // w_sink w_source sign
  std::array<int, 3> flavour;   // the sink's slots
  SpinMatrix g, g_t, h, h_t, o; // G, G^T, Ghat, Ghat^T, Ghat' W G'
};

// Every pairing's colour sum at one site (the table in the header), with A, B, C the sink slots' blocks.
Complex<double> colour_sum(const Contraction& k, const ColourBlocks& A, const ColourBlocks& B, const ColourBlocks& C) {
  SpinMatrix p[3][3], q[3][3];  // per-pairing intermediates, indexed [sink colour][source colour]
  Complex<double> d[3][3];
  const int which = k.pairing;
  for (int x = 0; x < 3; ++x)
    for (int y = 0; y < 3; ++y) switch (which) {
        case 0: p[x][y] = k.g * B[x][y] * k.h; d[x][y] = trace_of_product(k.o, C[x][y]); break;
        case 1: p[x][y] = k.g * B[x][y] * k.h_t; d[x][y] = trace_of_product(k.o, C[x][y]); break;
        case 2: p[x][y] = k.g * B[x][y] * k.h; q[x][y] = k.o * C[x][y]; break;
        case 3: p[x][y] = k.o * C[x][y] * k.h; q[x][y] = k.g * B[x][y]; break;
        case 4: p[x][y] = k.o * C[x][y] * k.h_t; q[x][y] = k.g * B[x][y]; break;
        default: p[x][y] = k.o * C[x][y] * k.h; q[x][y] = k.g_t * A[x][y]; break;
      }
  Complex<double> sum{};
  for (const auto& s : kEpsilon)
    for (const auto& sp : kEpsilon) {
      const int a = s[0], b = s[1], c = s[2], ap = sp[0], bp = sp[1], cp = sp[2];
      Complex<double> t;
      switch (which) {
        case 0: t = trace_with_transpose(p[b][bp], A[a][ap]) * d[c][cp]; break;
        case 1: t = trace_with_transpose(p[b][ap], A[a][bp]) * d[c][cp]; break;
        case 2: t = trace_x_mt_y(q[c][ap], p[b][bp], A[a][cp]); break;
        case 3: t = trace_x_mt_y(p[c][bp], A[a][ap], q[b][cp]); break;
        case 4: t = trace_x_mt_y(p[c][ap], A[a][bp], q[b][cp]); break;
        default: t = trace_x_mt_y(p[c][bp], B[b][ap], q[a][cp]); break;
      }
      sum += double(s[3] * sp[3]) * t;
    }
  return sum;
}

bool is_zero(const SpinMatrix& m) {
  for (const auto& row : m.m)
    for (const auto& z : row)
      if (z.re != 0 || z.im != 0) return false;
  return true;
}

// The interpolator's contractions (every sink term with every source term, every flavour-matching
// pairing), after checking that the propagators they need are there and fit together; *first receives one
// of them (the lattice and source of all).
std::vector<Contraction> make_contractions(const QuarkPropagators& quarks, const BaryonInterpolator& op,
                                           const BaryonProjection& W, const char* name,
                                           const PointPropagator** first_out) {
  const std::size_t n = op.components.size();
  if (n == 0 || W.size() != n)
    throw Error(fmt::format("{}: the projection has {} rows for {} interpolator components", name, W.size(), n));
  const PointPropagator* prop[3] = {quarks.up, quarks.down, quarks.strange};
  const char* flavour_name[3] = {"up", "down", "strange"};
  const SpinMatrix gt = SpinMatrix::gamma(3);
  std::vector<Contraction> contractions;
  for (std::size_t i = 0; i < n; ++i) {
    if (W[i].size() != n) throw Error(fmt::format("{}: projection row {} has {} entries, expected {}", name, i, W[i].size(), n));
    for (std::size_t j = 0; j < n; ++j) {
      if (is_zero(W[i][j])) continue;
      for (const BaryonTerm& sink : op.components[i])
        for (const BaryonTerm& source : op.components[j]) {
          const SpinMatrix h = gt * source.diquark.dagger() * gt.transpose();
          const SpinMatrix o = gt * source.outer.dagger() * gt * W[i][j] * sink.outer;
          for (int p = 0; p < 6; ++p) {
            bool matches = true;
            for (int k = 0; k < 3; ++k) matches = matches && sink.quarks[std::size_t(k)] == source.quarks[std::size_t(kPairings[p].to[k])];
            if (!matches) continue;
            std::array<int, 3> f{};
            for (int k = 0; k < 3; ++k) {
              f[std::size_t(k)] = int(sink.quarks[std::size_t(k)]);
              if (!prop[f[std::size_t(k)]])
                throw Error(fmt::format("{}: needs the {} quark's propagator", name, flavour_name[f[std::size_t(k)]]));
            }
            contractions.push_back({p, sink.weight * source.weight * kPairings[p].sign, f, sink.diquark,
                                    sink.diquark.transpose(), h, h.transpose(), o});
          }
        }
    }
  }
  const PointPropagator* first = nullptr;
  for (const PointPropagator* q : prop)
    if (q) {
      if (first) first->check_pair(*q, name);
      else q->check_columns();
      first = first ? first : q;
    }
  if (!first) throw Error(fmt::format("{}: no propagator", name));
  *first_out = first;
  return contractions;
}

// The three flavours' colour blocks at box site i (a flavour without a propagator stays unset).
void flavour_blocks(const QuarkPropagators& quarks, std::size_t i, ColourBlocks (&blocks)[3]) {
  const PointPropagator* prop[3] = {quarks.up, quarks.down, quarks.strange};
  for (int f = 0; f < 3; ++f)
    if (prop[f]) colour_blocks(*prop[f], i, blocks[f]);
}

}  // namespace

std::vector<std::vector<Complex<double>>> baryon_correlator(const QuarkPropagators& quarks,
                                                            const BaryonInterpolator& op, const BaryonProjection& W,
                                                            const std::vector<std::array<int, 3>>& momenta,
                                                            Complex<double> time_boundary_phase, const char* name) {
  const PointPropagator* first = nullptr;
  const std::vector<Contraction> contractions = make_contractions(quarks, op, W, name, &first);
  const Complex<double> wrapped = time_boundary_phase * time_boundary_phase * time_boundary_phase;
  // f(x) = sum_ij tr[W_ij G^{ij}(x)], with the boundary phase on slices before the source's
  // (measure/momentum_projection.hpp).
  return project_to_momenta(first->geometry, first->source, momenta, [&](std::int64_t i, const int* x) {
    ColourBlocks blocks[3];
    flavour_blocks(quarks, std::size_t(i), blocks);
    Complex<double> site{};
    for (const Contraction& k : contractions)
      site += k.weight * colour_sum(k, blocks[k.flavour[0]], blocks[k.flavour[1]], blocks[k.flavour[2]]);
    return x[3] < first->source[3] ? site * wrapped : site;
  });
}

BaryonSinkKernel baryon_sink_kernel(const QuarkPropagators& quarks, const BaryonInterpolator& op,
                                    const BaryonProjection& W, Quark flavour, int sink_t,
                                    Complex<double> time_boundary_phase, const char* name) {
  const PointPropagator* first = nullptr;
  const std::vector<Contraction> contractions = make_contractions(quarks, op, W, name, &first);
  const Geometry& geom = first->geometry;
  const int f = int(flavour);
  const PointPropagator* prop[3] = {quarks.up, quarks.down, quarks.strange};
  if (!prop[f]) throw Error(fmt::format("{}: no propagator for the current's flavour", name));
  BaryonSinkKernel out;
  const int lt = sink_t - geom.offset[3];
  if (lt < 0 || lt >= geom.local[3]) return out;  // this box does not hold the sink slice
  out.local_t = lt;
  const std::int64_t spatial = std::int64_t(geom.local[0]) * geom.local[1] * geom.local[2];
  out.at.assign(std::size_t(spatial), {});
  const Complex<double> wrapped = time_boundary_phase * time_boundary_phase * time_boundary_phase;
  const Complex<double> phase = sink_t < first->source[3] ? wrapped : Complex<double>(1);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t s = 0; s < spatial; ++s) {
    const std::size_t i = std::size_t(lt * spatial + s);
    ColourBlocks blocks[3];
    flavour_blocks(quarks, i, blocks);
    std::array<Complex<double>, 144>& k = out.at[std::size_t(s)];
    // f(x) is linear in each slot's block: its derivative by one entry of one slot is f with that slot's
    // block replaced by the unit matrix of the entry. Every slot of the flavour adds its derivative.
    ColourBlocks unit{};
    for (const Contraction& c : contractions)
      for (int slot = 0; slot < 3; ++slot) {
        if (c.flavour[std::size_t(slot)] != f) continue;
        for (int r = 0; r < 12; ++r)
          for (int col = 0; col < 12; ++col) {
            Complex<double>& e = unit[r % 3][col % 3].m[r / 3][col / 3];
            e = Complex<double>(1);
            const ColourBlocks& A = slot == 0 ? unit : blocks[c.flavour[0]];
            const ColourBlocks& B = slot == 1 ? unit : blocks[c.flavour[1]];
            const ColourBlocks& C = slot == 2 ? unit : blocks[c.flavour[2]];
            k[std::size_t(r * 12 + col)] += c.weight * phase * colour_sum(c, A, B, C);
            e = Complex<double>(0);
          }
      }
  }
  return out;
}

}  // namespace lqcd
