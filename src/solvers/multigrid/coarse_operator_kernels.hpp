#pragma once
// Site kernels of the coarse operator (solvers/multigrid/coarse_operator.hpp): its storage, and its application
// as a 9-point stencil of dense dof x dof blocks.

#include <cstdint>
#include <type_traits>

#include "core/macros.hpp"
#include "math/precision.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field.hpp"

namespace lqcd {

// The stencil's coupling blocks: direction d = 0 the site itself, d = 1 + 2 mu the neighbour
// Y + mu-hat, d = 2 + 2 mu the neighbour Y - mu-hat; (D_c psi)(Y) = sum_d A_d(Y) psi(neighbour_d(Y)).
// Block d of site Y is stored column-major, element (row, col) at ((d * sites + Y) * dof + col) * dof + row:
// the threads of one site, one row each, read consecutive words.
constexpr int kStencilDirections = 9;

LQCD_HOST_DEVICE inline int stencil_direction(int mu, int dir) { return dir > 0 ? 1 + 2 * mu : 2 + 2 * mu; }

template <typename Real>
struct CoarseStencilView {
  Complex<Real>* a;
  CoarseLattice lattice;
  int dof;
  LQCD_HOST_DEVICE Complex<Real>& at(int d, std::int64_t Y, int row, int col) const {
    return a[((std::int64_t(d) * lattice.sites + Y) * dof + col) * dof + row];
  }
  LQCD_HOST_DEVICE std::int64_t neighbour(std::int64_t Y, int d) const {
    return d == 0 ? Y : lattice.neighbour(Y, (d - 1) / 2, (d - 1) % 2 == 0 ? 1 : -1);
  }
};

// sum_{d in [d_first, d_end)} sum_col A_d(Y)[row, col] in(neighbour_d(Y), col): one row of the stencil,
// summed over d and then col in this order (stencil_rows below, on blocks of right-hand sides, keeps it).
template <typename Real>
LQCD_HOST_DEVICE Complex<Real> stencil_row(const CoarseStencilView<Real>& A, const Complex<Real>* in, std::int64_t Y,
                                           int row, int d_first, int d_end) {
  const int dof = A.dof;
  Complex<Real> acc;
  for (int d = d_first; d < d_end; ++d) {
    const Complex<Real>* v = in + A.neighbour(Y, d) * dof;
    const Complex<Real>* m = &A.at(d, Y, row, 0);
    for (int col = 0; col < dof; ++col) acc = multiply_add(m[std::int64_t(col) * dof], v[col], acc);
  }
  return acc;
}

// out(Y, row) = sum_d sum_col A_d(Y)[row, col] in(neighbour_d(Y), col), one element per thread; with
// dagger the adjoint: (D_c^dag)[Y, Z] = D_c[Z, Y]^dag, i.e. block A_{d'}(Z)^dag with d' the opposite
// direction (FLOPs per element: 9 * dof * 8).
template <typename Real>
struct CoarseApplyKernel {
  CoarseStencilView<Real> A;
  CoarseView<Real> in, out;
  int dagger;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int dof = A.dof;
    const std::int64_t Y = i / dof;
    const int row = int(i - Y * dof);
    if (!dagger) {
      out.data[i] = stencil_row(A, in.data, Y, row, 0, kStencilDirections);
      return;
    }
    Complex<Real> acc;
    for (int d = 0; d < kStencilDirections; ++d) {
      const std::int64_t Z = A.neighbour(Y, d);
      const Complex<Real>* v = in.data + Z * dof;
      const int opposite = d == 0 ? 0 : (d % 2 == 1 ? d + 1 : d - 1);
      const Complex<Real>* m = &A.at(opposite, Z, 0, row);  // column `row` of A_{d'}(Z)
      for (int col = 0; col < dof; ++col) acc = conj_multiply_add(m[col], v[col], acc);
    }
    out.data[i] = acc;
  }
};

// Multi-RHS passes over a block of n right-hand sides (solvers/multigrid/coarse_block_field.hpp, issue 46) give
// each thread one row of one site for a tile of T right-hand sides j0 .. j0 + T - 1: the thread reads
// each coupling-block element once and applies it to all T vectors from registers, so that a block
// element comes from memory once per tile instead of once per right-hand side (the threads of one site
// and row, T = 1, each read it again). Thread t = ((k * tiles) + tile) * dof + row: consecutive threads
// take consecutive rows (consecutive block words), and the tiles of one site run side by side, so a
// block element read by the first tile is still in cache for the next. Tiles past n are clamped: lane
// j >= n reads right-hand side n - 1 and is not written.
struct RhsTile {
  std::int64_t k;  // the site (or the k-th site of a parity)
  int row, j0;
};
LQCD_HOST_DEVICE inline int rhs_tiles(int n, int T) { return (n + T - 1) / T; }
LQCD_HOST_DEVICE inline RhsTile rhs_tile(std::int64_t t, int dof, int n, int T) {
  const int tiles = rhs_tiles(n, T);
  const std::int64_t kc = t / dof;
  const std::int64_t k = kc / tiles;
  return {k, int(t - kc * dof), int(kc - k * tiles) * T};
}
// Threads of a tiled pass over `sites` sites.
inline std::int64_t rhs_tile_threads(std::int64_t sites, int dof, int n, int T) {
  return sites * dof * rhs_tiles(n, T);
}

// The right-hand side of a tile's lane t: j0 + t, or the last one, n - 1, for lanes past n (their
// results are not stored).
LQCD_HOST_DEVICE constexpr int tile_lane(int j0, int t, int n) { return j0 + t < n ? j0 + t : n - 1; }

// x[t] = p[j0 + t], the T right-hand sides j0 .. j0 + T - 1 of one component of a block of n (lanes
// past n read p[n - 1]). A whole tile in single precision that starts on 16 bytes comes in T / 2
// 16-byte loads (FloatPair) instead of T 8-byte ones: the tiled passes issue one load per two FMAs of
// a right-hand side otherwise, and the load units, not the memory, bound them.
template <int T, typename Real>
LQCD_HOST_DEVICE void load_lanes(const Complex<Real>* p, int j0, int n, Complex<Real> (&x)[T]) {
  if constexpr (std::is_same_v<Real, float> && T % 2 == 0) {
    if (j0 + T <= n && (reinterpret_cast<std::uintptr_t>(p + j0) & 15) == 0) {
      const FloatPair* q = reinterpret_cast<const FloatPair*>(p + j0);
      LQCD_UNROLL
      for (int t = 0; t < T / 2; ++t) {
        const FloatPair v = q[t];
        x[2 * t] = v.z[0];
        x[2 * t + 1] = v.z[1];
      }
      return;
    }
  }
  LQCD_UNROLL
  for (int t = 0; t < T; ++t) x[t] = p[tile_lane(j0, t, n)];
}

// A tile's column loop is unrolled twice on the device (two columns' loads in flight). On the H200
// (docs/history/2026-11.md, thirtieth session, calls 1 and 3) the even-odd pass on 12 right-hand sides
// took 0.90 ms (tile 12) against 1.02 ms with the plain loop (its best tile, 4), while the same
// unrolling made the one-field pass (T = 1) slower, 0.157 -> 0.221 ms; that one keeps the plain loop.
// Columns whose block elements a tiled pass loads ahead (stencil_rows).
inline constexpr int kCoarsePrefetch = 8;

#if defined(__CUDACC__)
#define LQCD_COARSE_TILE_COLUMNS _Pragma("unroll 2")
#else
#define LQCD_COARSE_TILE_COLUMNS
#endif

// stencil_row for the T right-hand sides j0 .. j0 + T - 1 of a block of n (solvers/multigrid/coarse_block_field.hpp:
// component (Z, col) of right-hand side j at (Z * dof + col) * n + j; clamped to n - 1): acc[t]
// is right-hand side j0 + t's row, summed in stencil_row's order, so it equals stencil_row bit for bit.
template <int T, typename Real>
LQCD_HOST_DEVICE void stencil_rows(const CoarseStencilView<Real>& A, const Complex<Real>* in, std::int64_t Y, int row,
                                   int d_first, int d_end, int j0, int n, Complex<Real> (&acc)[T]) {
  const int dof = A.dof;
  LQCD_UNROLL
  for (int t = 0; t < T; ++t) acc[t] = Complex<Real>();
  for (int d = d_first; d < d_end; ++d) {
    const Complex<Real>* v = in + A.neighbour(Y, d) * dof * n;
    const Complex<Real>* m = &A.at(d, Y, row, 0);
    const auto column = [&](int col) {
      const Complex<Real> a = m[std::int64_t(col) * dof];
      Complex<Real> x[T];
      load_lanes<T>(v + std::int64_t(col) * n, j0, n, x);
      LQCD_UNROLL
      for (int t = 0; t < T; ++t) acc[t] = multiply_add(a, x[t], acc[t]);
    };
    if constexpr (T == 1) {
      for (int col = 0; col < dof; ++col) column(col);
    } else if constexpr (T < 8) {  // (T = 4 with the prefetch below takes 235 registers, against 48)
      LQCD_COARSE_TILE_COLUMNS
      for (int col = 0; col < dof; ++col) column(col);
    } else {
      // The block elements of kCoarsePrefetch columns loaded before their FMAs: the elements come from
      // memory (the vectors from L1), so that a thread keeps that many of those long loads in flight
      // instead of one or two. The same sums in the same order.
      int col = 0;
      for (; col + kCoarsePrefetch <= dof; col += kCoarsePrefetch) {
        Complex<Real> a[kCoarsePrefetch];
        LQCD_UNROLL
        for (int c = 0; c < kCoarsePrefetch; ++c) a[c] = m[std::int64_t(col + c) * dof];
        LQCD_UNROLL
        for (int c = 0; c < kCoarsePrefetch; ++c) {
          Complex<Real> x[T];
          load_lanes<T>(v + std::int64_t(col + c) * n, j0, n, x);
          LQCD_UNROLL
          for (int t = 0; t < T; ++t) acc[t] = multiply_add(a[c], x[t], acc[t]);
        }
      }
      LQCD_COARSE_TILE_COLUMNS
      for (; col < dof; ++col) column(col);
    }
  }
}

// The tiles the multi-RHS coarse passes use (instantiated for the device in coarse_block_kernels.cu
// and multigrid_kernels.cu): 1 for a single field.
constexpr int kRhsTiles[] = {1, 4, 8, 12, 16};

// The tile for n right-hand sides: the one of kRhsTiles with the fewest lanes in all (tiles x T), the
// larger on a tie (fewer reads of the blocks); LQCD_COARSE_RHS_TILE = 1, 4, 8, 12 or 16 forces one
// (for measuring the choice). Defined in coarse_operator.cpp.
int coarse_rhs_tile(int n);

// f(std::integral_constant<int, T>{}) for T = coarse_rhs_tile(n).
template <typename F>
void with_rhs_tile(int n, F&& f) {
  switch (coarse_rhs_tile(n)) {
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    case 12: f(std::integral_constant<int, 12>{}); break;
    case 16: f(std::integral_constant<int, 16>{}); break;
    default: f(std::integral_constant<int, 1>{}); break;
  }
}

// The stencil on a block of right-hand sides, one thread per site, row and tile (rhs_tile).
// FLOPs per element: 9 * dof * 8.
template <typename Real, int T>
struct CoarseApplyBlockKernel {
  CoarseStencilView<Real> A;
  CoarseBlockView<Real> in, out;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = in.rhs;
    const RhsTile r = rhs_tile(t, A.dof, n, T);
    Complex<Real> acc[T];
    stencil_rows<T>(A, in.data, r.k, r.row, 0, kStencilDirections, r.j0, n, acc);
    Complex<Real>* o = &out.at(r.k, r.row, 0);
    LQCD_UNROLL
    for (int j = 0; j < T; ++j)
      if (r.j0 + j < n) o[r.j0 + j] = acc[j];
  }
};

// The twisted mass on the coarse grid scaled by `factor` (QUDA's coarse "mu factor"; DD-alphaAMG for
// twisted mass likewise raises the coarse mu): for a fine operator D = H + i m gamma_5 with H
// gamma_5-hermitian (Wilson, clover; m = 2 kappa mu in hopping form), A_0(Y) = H_c + i m G with
// G = diag(+1 on the first dof/2 components, -1 on the rest) and G H_c Hermitian, so
// m = sum_r G_r Im A_0(Y)[r, r] / dof exactly; A_0 gets i (factor - 1) m G added. With mu = 0 this adds
// nothing. One thread per coarse site.
template <typename Real>
struct CoarseTwistScaleKernel {
  CoarseStencilView<Real> A;
  double factor;
  LQCD_HOST_DEVICE void operator()(std::int64_t Y) const {
    const int dof = A.dof, half = dof / 2;
    double m = 0;
    for (int r = 0; r < dof; ++r) m += (r < half ? 1.0 : -1.0) * double(A.at(0, Y, r, r).im);
    m /= dof;
    const Real add = Real((factor - 1.0) * m);
    for (int r = 0; r < dof; ++r) A.at(0, Y, r, r).im += r < half ? add : -add;
  }
};

}  // namespace lqcd
