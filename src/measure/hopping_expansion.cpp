#include "measure/hopping_expansion.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.hpp"
#include "fields/global_order.hpp"

namespace lqcd {

namespace {

using Block = HoppingExpansion::ChiralBlock;

// Where spin s sits in the chirality blocks of the gamma basis: block (0: gamma_5 = +1) and position in it.
struct ChiralLayout {
  int block[4];
  int position[4];
};

ChiralLayout chiral_layout() {
  const SpinMatrix g5 = SpinMatrix::basis(15);
  ChiralLayout c{};
  int count[2] = {0, 0};
  for (int s = 0; s < 4; ++s) {
    for (int t = 0; t < 4; ++t)
      if (t != s && norm2(g5.m[s][t]) != 0) throw Error("hopping expansion: gamma_5 is not diagonal in this basis");
    const int b = g5.m[s][s].re > 0 ? 0 : 1;
    c.block[s] = b;
    c.position[s] = count[b]++;
  }
  if (count[0] != 2 || count[1] != 2) throw Error("hopping expansion: gamma_5 does not have two +1 and two -1 entries");
  return c;
}

// The inverse of a 6 x 6 block by Gauss-Jordan elimination with partial pivoting.
Block invert(Block a, std::int64_t site) {
  Block inv{};
  for (int i = 0; i < 6; ++i) inv[std::size_t(i)][std::size_t(i)] = 1.0;
  for (std::size_t col = 0; col < 6; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < 6; ++r)
      if (norm2(a[r][col]) > norm2(a[pivot][col])) pivot = r;
    if (norm2(a[pivot][col]) == 0) throw Error(fmt::format("hopping expansion: the site term is singular at site {}", site));
    std::swap(a[pivot], a[col]);
    std::swap(inv[pivot], inv[col]);
    const Complex<double> d = conj(a[col][col]) * (1.0 / norm2(a[col][col]));
    for (std::size_t k = 0; k < 6; ++k) {
      a[col][k] *= d;
      inv[col][k] *= d;
    }
    for (std::size_t r = 0; r < 6; ++r) {
      if (r == col) continue;
      const Complex<double> f = a[r][col];
      for (std::size_t k = 0; k < 6; ++k) {
        a[r][k] -= f * a[col][k];
        inv[r][k] -= f * inv[col][k];
      }
    }
  }
  return inv;
}

int global_parity(const Geometry& g, std::int64_t local_site) {
  int x[4];
  lexicographic_coords(local_site, g.local.data(), x);
  return (x[0] + g.offset[0] + x[1] + g.offset[1] + x[2] + g.offset[2] + x[3] + g.offset[3]) & 1;
}

LexicographicSpinor apply_local(const LinearOperator<double>& M, const LexicographicSpinor& v) {
  const SpinorField<double> in = local_to_spinor_field(v, M.geometry(), M.location());
  SpinorField<double> out = M.make_field();
  M.apply(out, in);
  return to_local_lexicographic(out);
}

// A^-1(x) v(x) at one site.
ColorSpinor<double> apply_inverse(const std::array<Block, 2>& inv, const ColorSpinor<double>& v, const ChiralLayout& L) {
  ColorSpinor<double> r{};
  for (int s = 0; s < 4; ++s)
    for (int t = 0; t < 4; ++t) {
      if (L.block[s] != L.block[t]) continue;
      const Block& b = inv[std::size_t(L.block[s])];
      for (int c = 0; c < 3; ++c)
        for (int d = 0; d < 3; ++d)
          r.s[s].c[c] += b[std::size_t(L.position[s] * 3 + c)][std::size_t(L.position[t] * 3 + d)] * v.s[t].c[d];
    }
  return r;
}

// A^-1(x)_{i, j}, i and j spin * 3 + colour: zero between the chiralities.
Complex<double> inverse_entry(const std::array<Block, 2>& inv, int i, int j, const ChiralLayout& L) {
  const int s = i / 3, c = i % 3, t = j / 3, d = j % 3;
  if (L.block[s] != L.block[t]) return {};
  return inv[std::size_t(L.block[s])][std::size_t(L.position[s] * 3 + c)][std::size_t(L.position[t] * 3 + d)];
}

}  // namespace

std::vector<unsigned char> two_hop_classes(const Dims& n) {
  const std::int64_t V = std::int64_t(n[0]) * n[1] * n[2] * n[3];
  std::vector<unsigned char> cls(std::size_t(V), 255);
  const auto index = [&](const int x[4]) {
    return x[0] + std::int64_t(n[0]) * (x[1] + std::int64_t(n[1]) * (x[2] + std::int64_t(n[2]) * x[3]));
  };
  for (std::int64_t i = 0; i < V; ++i) {
    int x[4];
    lexicographic_coords(i, n.data(), x);
    std::uint64_t used = 0;
    // the sites two hops away: x +- mu +- nu (mu < nu) and x +- 2 mu
    for (int mu = 0; mu < 4; ++mu)
      for (int nu = mu; nu < 4; ++nu)
        for (int a = -1; a <= 1; a += 2)
          for (int b = -1; b <= 1; b += 2) {
            if (mu == nu && a != b) continue;  // back to x
            int y[4] = {x[0], x[1], x[2], x[3]};
            y[mu] = ((y[mu] + a) % n[mu] + n[mu]) % n[mu];
            y[nu] = ((y[nu] + b) % n[nu] + n[nu]) % n[nu];
            const std::int64_t j = index(y);
            if (j != i && cls[std::size_t(j)] != 255) used |= std::uint64_t(1) << cls[std::size_t(j)];
          }
    int c = 0;
    while (used & (std::uint64_t(1) << c)) ++c;  // at most 32 neighbours: c <= 32
    cls[std::size_t(i)] = static_cast<unsigned char>(c);
  }
  return cls;
}

HoppingExpansion hopping_expansion(const LinearOperator<double>& M, int order) {
  if (order != 0 && order != 2 && order != 4)
    throw Error(fmt::format("hopping expansion: order {} (expected 0, 2 or 4)", order));
  if (M.subset() != Subset::Full) throw Error("hopping expansion: needs the full-lattice operator");
  HoppingExpansion e;
  e.order = order;
  if (order == 0) return e;
  const Geometry& g = M.geometry();
  const std::int64_t V = g.volume();
  const ChiralLayout L = chiral_layout();
  std::vector<int> parity(static_cast<std::size_t>(V));
  for (std::int64_t x = 0; x < V; ++x) parity[std::size_t(x)] = global_parity(g, x);

  // A(x): M on the unit vector e_j at every site of one parity is A(x) e_j there (H leads to the other parity).
  std::vector<std::array<Block, 2>> A(static_cast<std::size_t>(V));
  double largest = 0, mixing = 0;
  for (int p = 0; p < 2; ++p)
    for (int j = 0; j < 12; ++j) {
      LexicographicSpinor v(static_cast<std::size_t>(V));
      for (std::int64_t x = 0; x < V; ++x)
        if (parity[std::size_t(x)] == p) v[std::size_t(x)].s[j / 3].c[j % 3] = 1.0;
      const LexicographicSpinor Mv = apply_local(M, v);
      const int t = j / 3, d = j % 3;
      for (std::int64_t x = 0; x < V; ++x) {
        if (parity[std::size_t(x)] != p) continue;
        for (int s = 0; s < 4; ++s)
          for (int c = 0; c < 3; ++c) {
            const Complex<double> a = Mv[std::size_t(x)].s[s].c[c];
            largest = std::max(largest, abs(a));
            if (L.block[s] != L.block[t])
              mixing = std::max(mixing, abs(a));
            else
              A[std::size_t(x)][std::size_t(L.block[s])][std::size_t(L.position[s] * 3 + c)][std::size_t(L.position[t] * 3 + d)] = a;
          }
      }
    }
  if (mixing > 1e-12 * largest)
    throw Error(fmt::format("hopping expansion: the operator's site term mixes the chiralities ({:.3e} of its largest "
                            "entry); the expansion needs one that commutes with gamma_5", mixing / largest));
  e.site_inverse.resize(static_cast<std::size_t>(V));
  e.exact_diagonal.assign(std::size_t(V), SpinMatrix{});
  for (std::int64_t x = 0; x < V; ++x) {
    for (int b = 0; b < 2; ++b) e.site_inverse[std::size_t(x)][std::size_t(b)] = invert(A[std::size_t(x)][std::size_t(b)], x);
    for (int s = 0; s < 4; ++s)
      for (int t = 0; t < 4; ++t)
        for (int c = 0; c < 3; ++c) e.exact_diagonal[std::size_t(x)].m[s][t] += inverse_entry(e.site_inverse[std::size_t(x)], s * 3 + c, t * 3 + c, L);
  }
  if (order < 4) return e;

  // k = 2: probe kappa^2 [H A^-1 H](x, x) with e_j on one class of one parity: M e_j on the other parity is
  // -kappa H e_j; A^-1 of it, and M again back on the first parity gives kappa^2 H A^-1 H e_j, whose value at
  // each probed site is its own column j (no other probed site lies two hops away). Then fold
  // A^-1 (that column) into A^-1 G A^-1's colour trace.
  const std::vector<unsigned char> cls = two_hop_classes(g.global);
  const int classes = 1 + *std::max_element(cls.begin(), cls.end());
  const std::vector<unsigned char> local_class = local_part(cls, g, 1);
  for (int p = 0; p < 2; ++p)
    for (int k = 0; k < classes; ++k)
      for (int j = 0; j < 12; ++j) {
        LexicographicSpinor v(static_cast<std::size_t>(V));
        for (std::int64_t x = 0; x < V; ++x)
          if (parity[std::size_t(x)] == p && local_class[std::size_t(x)] == k) v[std::size_t(x)].s[j / 3].c[j % 3] = 1.0;
        LexicographicSpinor w = apply_local(M, v);
        for (std::int64_t x = 0; x < V; ++x)
          w[std::size_t(x)] = parity[std::size_t(x)] == p ? ColorSpinor<double>{}
                                                          : apply_inverse(e.site_inverse[std::size_t(x)], w[std::size_t(x)], L);
        const LexicographicSpinor u = apply_local(M, w);
        for (std::int64_t x = 0; x < V; ++x) {
          if (parity[std::size_t(x)] != p || local_class[std::size_t(x)] != k) continue;
          const auto& inv = e.site_inverse[std::size_t(x)];
          const ColorSpinor<double> y = apply_inverse(inv, u[std::size_t(x)], L);
          for (int s = 0; s < 4; ++s)
            for (int t = 0; t < 4; ++t)
              for (int c = 0; c < 3; ++c) e.exact_diagonal[std::size_t(x)].m[s][t] += y.s[s].c[c] * inverse_entry(inv, j, t * 3 + c, L);
        }
      }
  return e;
}

LexicographicSpinor apply_site_inverse(const HoppingExpansion& e, LexicographicSpinor psi) {
  if (e.order == 0) throw Error("hopping expansion: order 0 keeps no site inverse");
  if (e.site_inverse.size() != psi.size()) throw Error("hopping expansion: the field is not on the expansion's box");
  const ChiralLayout L = chiral_layout();
#pragma omp parallel for schedule(static)
  for (std::int64_t x = 0; x < std::int64_t(psi.size()); ++x)
    psi[std::size_t(x)] = apply_inverse(e.site_inverse[std::size_t(x)], psi[std::size_t(x)], L);
  return psi;
}

LexicographicSpinor hopping_expansion_remainder(const HoppingExpansion& e, const LinearOperator<double>& M,
                                                LexicographicSpinor psi) {
  for (int k = 0; k < e.order; ++k) {
    const LexicographicSpinor r = apply_site_inverse(e, apply_local(M, psi));
#pragma omp parallel for schedule(static)
    for (std::int64_t x = 0; x < std::int64_t(psi.size()); ++x)
      for (int s = 0; s < 4; ++s)
        for (int c = 0; c < 3; ++c) psi[std::size_t(x)].s[s].c[c] -= r[std::size_t(x)].s[s].c[c];
  }
  return psi;
}

}  // namespace lqcd
