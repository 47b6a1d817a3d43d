#pragma once
// Site kernels of the coarse operator's even-odd (Schur) form (solvers/multigrid/coarse_schur.hpp). The blocks
// A-hat: A-hat_0(Y) = A_0(Y)^{-1}, A-hat_d(Y) = A_0(Y)^{-1} A_d(Y) for d = 1 .. 8, stored as the coarse
// operator's (CoarseStencilView); with even coarse extents every neighbour of a site has the other
// parity (the parity of the coarse coordinates' sum).

#include <cstdint>

#include "math/precision.hpp"
#include "solvers/multigrid/coarse_halo.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"

namespace lqcd {

// The k-th coarse site of parity p (k < sites / 2, even extents), and in `other` the k-th of the other
// parity: along each x-row the sites alternate parity, so both are in row k / (n_x / 2). The parity
// passes below run one thread per component of one parity only (a thread per component of both, half
// of them idle, left the pass bound by the latency of half the threads instead of by memory).
LQCD_HOST_DEVICE inline std::int64_t coarse_site_of_parity(const CoarseLattice& L, int p, std::int64_t k,
                                                           std::int64_t& other) {
  const int half = L.n[0] / 2;
  const std::int64_t row = k / half;
  const int j = int(k - row * half);
  const int x1 = int(row % L.n[1]), x23 = int(row / L.n[1]);
  const int row_parity = (x1 + x23 % L.n[2] + x23 / L.n[2]) & 1;
  other = row * L.n[0] + 2 * j + ((1 - p + row_parity) & 1);
  return row * L.n[0] + 2 * j + ((p + row_parity) & 1);
}

// A-hat_0(Y) = A_0(Y)^{-1} by Gauss-Jordan elimination with partial pivoting, in double, in place in
// `work` (dof^2 per site, row-major), for all sites at once: per pivot k one launch of
// CoarseInversePivotKernel (one thread per site) and one of CoarseInverseEliminateKernel (one thread
// per site and row), so that the work spreads over sites x dof threads.
struct CoarseInverseWork {
  Complex<double>* m;  // [(Y * n + row) * n + col]
  int* pivot_row;      // [Y * n + k]
  int* singular;       // [Y]: 1 where a pivot was 0
  int n;
  LQCD_HOST_DEVICE Complex<double>& at(std::int64_t Y, int r, int c) const { return m[(Y * n + r) * n + c]; }
};

// work = A_0 (in double), singular = 0; one thread per entry.
template <typename Real>
struct CoarseInverseCopyKernel {
  CoarseStencilView<Real> A;
  CoarseInverseWork w;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = w.n;
    const std::int64_t Y = t / (std::int64_t(n) * n);
    const int r = int(t / n % n), c = int(t % n);
    const Complex<Real> a = A.at(0, Y, r, c);
    w.at(Y, r, c) = Complex<double>(double(a.re), double(a.im));
    if (r == 0 && c == 0) w.singular[Y] = 0;
  }
};

// Pivot k: the largest |entry| of column k at or below row k swapped into row k, and row k divided
// by it (its own entry set to 1 first, so that it ends as the pivot's inverse: the in-place form).
struct CoarseInversePivotKernel {
  CoarseInverseWork w;
  int k;
  LQCD_HOST_DEVICE void operator()(std::int64_t Y) const {
    if (w.singular[Y]) return;
    const int n = w.n;
    int p = k;
    double best = norm2(w.at(Y, k, k));
    for (int i = k + 1; i < n; ++i)
      if (norm2(w.at(Y, i, k)) > best) {
        best = norm2(w.at(Y, i, k));
        p = i;
      }
    if (!(best > 0)) {
      w.singular[Y] = 1;
      return;
    }
    w.pivot_row[Y * n + k] = p;
    if (p != k)
      for (int c = 0; c < n; ++c) {
        const Complex<double> t = w.at(Y, k, c);
        w.at(Y, k, c) = w.at(Y, p, c);
        w.at(Y, p, c) = t;
      }
    const Complex<double> inv = conj(w.at(Y, k, k)) * (1.0 / best);
    w.at(Y, k, k) = Complex<double>(1.0);
    for (int c = 0; c < n; ++c) w.at(Y, k, c) = w.at(Y, k, c) * inv;
  }
};

// Pivot k: row i -= (its column-k entry) row k, for every row i != k (column k ending as -entry / pivot).
struct CoarseInverseEliminateKernel {
  CoarseInverseWork w;
  int k;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = w.n;
    const std::int64_t Y = t / n;
    const int i = int(t - Y * n);
    if (i == k || w.singular[Y]) return;
    const Complex<double> f = w.at(Y, i, k);
    w.at(Y, i, k) = Complex<double>();
    for (int c = 0; c < n; ++c) w.at(Y, i, c) -= f * w.at(Y, k, c);
  }
};

// The row exchanges undone as column exchanges in reverse order, and row r of the inverse stored as
// A-hat_0 (in Real); one thread per site and row.
template <typename Real>
struct CoarseInverseFinishKernel {
  CoarseInverseWork w;
  CoarseStencilView<Real> Ahat;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = w.n;
    const std::int64_t Y = t / n;
    const int r = int(t - Y * n);
    if (w.singular[Y]) return;
    for (int k = n - 1; k >= 0; --k) {
      const int p = w.pivot_row[Y * n + k];
      if (p != k) {
        const Complex<double> s = w.at(Y, r, k);
        w.at(Y, r, k) = w.at(Y, r, p);
        w.at(Y, r, p) = s;
      }
    }
    for (int c = 0; c < n; ++c) {
      const Complex<double> v = w.at(Y, r, c);
      Ahat.at(0, Y, r, c) = Complex<Real>(Real(v.re), Real(v.im));
    }
  }
};

// A-hat_d(Y) = A-hat_0(Y) A_d(Y), d = 1 .. 8; one thread per entry, t in the blocks' own order.
template <typename Real>
struct CoarseLeftInverseKernel {
  CoarseStencilView<Real> A, Ahat;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = A.dof;
    const std::int64_t per_direction = A.lattice.sites * n * n;
    const int d = 1 + int(t / per_direction);
    const std::int64_t rest = t - (d - 1) * per_direction;
    const std::int64_t Y = rest / (std::int64_t(n) * n);
    const int col = int(rest / n % n), row = int(rest % n);
    Complex<Real> acc;
    for (int k = 0; k < n; ++k) acc = multiply_add(Ahat.at(0, Y, row, k), A.at(d, Y, k, col), acc);
    Ahat.at(d, Y, row, col) = acc;
  }
};

// out = A-hat_0 in (= A_0^{-1} in) on every site, or A_0 in from D_c's own view (its block 0); one thread per
// site, row and tile of T of the n right-hand sides of a block (solvers/multigrid/coarse_block_field.hpp;
// rhs_tile), n = T = 1 for a single field.
template <typename Real, int T = 1>
struct CoarseSelfInverseApplyKernel {
  CoarseStencilView<Real> Ahat;
  const Complex<Real>* in;
  Complex<Real>* out;
  int n = 1;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const RhsTile r = rhs_tile(t, Ahat.dof, n, T);
    Complex<Real> acc[T];
    stencil_rows<T>(Ahat, in, r.k, r.row, 0, 1, r.j0, n, acc);
    Complex<Real>* o = out + (r.k * Ahat.dof + r.row) * n;
    LQCD_UNROLL
    for (int j = 0; j < T; ++j)
      if (r.j0 + j < n) o[r.j0 + j] = acc[j];
  }
};

// The hopping blocks A-hat_d, d = 1 .. 8, in 16-bit fixed point for the coarse solves (QUDA stores its
// coarse links in half precision likewise): each block scaled by its largest |real or imaginary part|,
// entries as math/precision.hpp's fixed-point codes. Half the bytes of single precision, and the coarse
// Schur operator is bound by reading them.
struct CoarseHalfStencilView {
  Complex<std::int16_t>* a;  // block d at index d - 1, entry order as CoarseStencilView
  float* scale;              // [(d - 1) * sites + Y]
  CoarseLattice lattice;
  int dof;
  LQCD_HOST_DEVICE std::int64_t block(int d, std::int64_t Y) const { return (d - 1) * lattice.sites + Y; }
  LQCD_HOST_DEVICE Complex<std::int16_t>& at(int d, std::int64_t Y, int row, int col) const {
    return a[(block(d, Y) * dof + col) * dof + row];
  }
};

// scale(d, Y) = the largest |re|, |im| of A-hat_d(Y) (1 for a zero block); one thread per block.
template <typename Real>
struct CoarseHalfScaleKernel {
  CoarseStencilView<Real> Ahat;
  CoarseHalfStencilView H;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int d = 1 + int(t / H.lattice.sites);
    const std::int64_t Y = t % H.lattice.sites;
    float m = 0;
    for (int col = 0; col < H.dof; ++col)
      for (int row = 0; row < H.dof; ++row) {
        const Complex<Real> z = Ahat.at(d, Y, row, col);
        m = fmaxf(m, fmaxf(fabsf(float(z.re)), fabsf(float(z.im))));
      }
    H.scale[t] = m > 0 ? m : 1.0f;
  }
};

// The codes of A-hat_d; one thread per entry (d = 1 .. 8, the blocks' order).
template <typename Real>
struct CoarseHalfPackKernel {
  CoarseStencilView<Real> Ahat;
  CoarseHalfStencilView H;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t per_block = std::int64_t(H.dof) * H.dof;
    const std::int64_t b = t / per_block;
    const int d = 1 + int(b / H.lattice.sites);
    const std::int64_t Y = b % H.lattice.sites;
    const int col = int(t % per_block / H.dof), row = int(t % H.dof);
    const Complex<Real> z = Ahat.at(d, Y, row, col);
    H.at(d, Y, row, col) = encode<Half>(Complex<float>(float(z.re), float(z.im)), 1.0f / H.scale[b]);
  }
};

// The hopping part sum_{d > 0} A-hat_d(Y) in(neighbour_d(Y)) of one row, for the T right-hand sides
// j0 .. j0 + T - 1 of a block of n (stencil_rows; a single field is n = T = 1, j0 = 0) ...
template <typename Real>
struct CoarseHopRows {
  CoarseStencilView<Real> A;
  LQCD_HOST_DEVICE const CoarseLattice& lattice() const { return A.lattice; }
  LQCD_HOST_DEVICE int dof() const { return A.dof; }
  template <int T>
  LQCD_HOST_DEVICE void rows(const Complex<Real>* in, std::int64_t Y, int r, int j0, int n,
                             Complex<Real> (&h)[T]) const {
    stencil_rows<T>(A, in, Y, r, 1, kStencilDirections, j0, n, h);
  }
};

// ... or from the 16-bit blocks: per direction the integer codes times the input summed, then scaled once.
template <typename Real>
struct CoarseHalfHopRows {
  CoarseHalfStencilView H;
  LQCD_HOST_DEVICE const CoarseLattice& lattice() const { return H.lattice; }
  LQCD_HOST_DEVICE int dof() const { return H.dof; }
  template <int T>
  LQCD_HOST_DEVICE void rows(const Complex<Real>* in, std::int64_t Y, int r, int j0, int n,
                             Complex<Real> (&h)[T]) const {
    const int dof = H.dof;
    LQCD_UNROLL
    for (int t = 0; t < T; ++t) h[t] = Complex<Real>();
    for (int d = 1; d < kStencilDirections; ++d) {
      const Complex<Real>* v = in + H.lattice.neighbour(Y, (d - 1) / 2, (d - 1) % 2 == 0 ? 1 : -1) * dof * n;
      const Complex<std::int16_t>* m = &H.at(d, Y, r, 0);
      Complex<Real> acc[T];
      LQCD_UNROLL
      for (int t = 0; t < T; ++t) acc[t] = Complex<Real>();
      const auto column = [&](int col) {
        const Complex<float> q = fixed_values(m[std::int64_t(col) * dof]);
        const Complex<Real> a(Real(q.re), Real(q.im));
        Complex<Real> x[T];
        load_lanes<T>(v + std::int64_t(col) * n, j0, n, x);
        LQCD_UNROLL
        for (int t = 0; t < T; ++t) acc[t] = multiply_add(a, x[t], acc[t]);
      };
      if constexpr (T == 1) {  // as stencil_rows: the plain loop for one field, unrolled for tiles
        for (int col = 0; col < dof; ++col) column(col);
      } else {
        LQCD_COARSE_TILE_COLUMNS
        for (int col = 0; col < dof; ++col) column(col);
      }
      const Real unit = Real(H.scale[H.block(d, Y)]) * (Real(1) / Real(kFixedPointMax));
      LQCD_UNROLL
      for (int t = 0; t < T; ++t) h[t] += Complex<Real>(acc[t].re * unit, acc[t].im * unit);
    }
  }
};

// ... or on this process's part of a split level (coarse_distributed; one field, T = 1), the hops across
// the process boundaries from the exchanged faces (solvers/multigrid/coarse_halo.hpp).
template <typename Real>
struct CoarseHaloHopRows {
  CoarseStencilView<Real> A;
  CoarseFaceLayout L;
  const Complex<Real>* ghost;
  LQCD_HOST_DEVICE const CoarseLattice& lattice() const { return A.lattice; }
  LQCD_HOST_DEVICE int dof() const { return A.dof; }
  template <int T>
  LQCD_HOST_DEVICE void rows(const Complex<Real>* in, std::int64_t Y, int r, int, int, Complex<Real> (&h)[T]) const {
    static_assert(T == 1, "a split level's parity passes take one field");
    h[0] = halo_stencil_row(A, L, in, ghost, Y, r, 1, kStencilDirections);
  }
};

// On the sites of `parity`: out = x + sign sum_{d > 0} A-hat_d in(neighbour) (x == nullptr: 0); on the
// other sites out = 0 where zero_other, else unchanged. One thread per row of a site of `parity` and
// tile of T of the n right-hand sides of a block (rhs_tile; n = T = 1 for a single field).
// Rows: CoarseHopRows or CoarseHalfHopRows.
template <typename Real, typename Rows, int T = 1>
struct CoarseParityHopKernel {
  Rows rows;
  const Complex<Real>* in;
  const Complex<Real>* x;
  Complex<Real>* out;
  int parity;
  Real sign;
  int zero_other;
  int n = 1;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int dof = rows.dof();
    const RhsTile r = rhs_tile(t, dof, n, T);
    std::int64_t other;
    const std::int64_t Y = coarse_site_of_parity(rows.lattice(), parity, r.k, other);
    Complex<Real> h[T];
    rows.template rows<T>(in, Y, r.row, r.j0, n, h);
    const std::int64_t i0 = (Y * dof + r.row) * n, o0 = (other * dof + r.row) * n;
    LQCD_UNROLL
    for (int j = 0; j < T; ++j) {
      if (r.j0 + j >= n) continue;
      const std::int64_t i = i0 + r.j0 + j;
      if (zero_other) out[o0 + r.j0 + j] = Complex<Real>();
      const Complex<Real> s(sign * h[j].re, sign * h[j].im);
      out[i] = x ? x[i] + s : s;
    }
  }
};

}  // namespace lqcd
