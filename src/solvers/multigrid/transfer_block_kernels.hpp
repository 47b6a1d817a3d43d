#pragma once
// The multigrid transfer (solvers/multigrid/transfer_kernels.hpp) on N fine fields at once, to and from the
// columns of a coarse block (solvers/multigrid/coarse_block_field.hpp; issue 46). Restriction and prolongation
// are bound by reading the test vectors, 12 n_v complex numbers per fine site (2.4 GB in single
// precision for 24 vectors on 32^4), against 24 per field; here each thread applies each test-vector
// element it reads to a tile of T fields (coarse_operator_kernels.hpp, rhs_tile) from registers, so
// the vectors are read once per tile instead of once per field. The single-field transfers are these
// kernels with a tile of one (transfer_operator.cpp); each column of a wider tile equals them bit for bit:
// the sums run in the same order.

#include <cstdint>

#include "solvers/multigrid/coarse_block_field.hpp"
#include "math/precision.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"
#include "solvers/multigrid/transfer_kernels.hpp"

namespace lqcd {

// N full fine fields of one shape: the first one's view for the layout, every field's data.
template <typename Real>
struct SpinorFieldsView {
  SpinorView<Real> shape;
  Complex<Real>* data[kMaxCoarseBlockRhs];
  int n;
  // Where component c (spin c / 3, colour c % 3) of fine site i (its full-field index) lies in each
  // field's data (SpinorView's component-major blocks, paired where single precision pairs them).
  LQCD_HOST_DEVICE std::int64_t offset(std::int64_t i, int c) const {
    const int p = shape.parity_of(i);
    return (shape.full ? std::int64_t(p) * 12 * shape.stride : 0) +
           component_offset(stored_in_pairs_v<Real, 12>, c, shape.stride, shape.cb_of(i));
  }
  // offset(i, c0 + a) - offset(i, c0) for an even c0: the step needs no site index, so a loop over a
  // site's components finds the site (its parity and checkerboard index) once.
  LQCD_HOST_DEVICE std::int64_t component_step(int a) const {
    return stored_in_pairs_v<Real, 12> ? 2 * ((a / 2) * shape.stride) + a % 2 : std::int64_t(a) * shape.stride;
  }
};

// Vectors: TestVectors<Real>, or HalfTestVectors (Real = float) for multigrid.transfer_half.
// Column j < fine.n of `coarse` <- P^dag field j; one thread per coarse component (Y, chi * n_v + k)
// and tile of T fields (rhs_tile over the n fields; the coarse block may be wider).
template <typename Real, int T, typename Vectors = TestVectors<Real>>
struct RestrictBlockKernel {
  Aggregation agg;
  Vectors V;
  SpinorFieldsView<Real> fine;
  CoarseBlockView<Real> coarse;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = fine.n;
    const RhsTile r = rhs_tile(t, coarse.dof, n, T);
    const int chi = r.row / V.nv, k = r.row % V.nv;
    const Complex<Real>* field[T];
    Complex<Real> acc[T];
    LQCD_UNROLL
    for (int l = 0; l < T; ++l) {
      field[l] = fine.data[tile_lane(r.j0, l, n)];
      acc[l] = Complex<Real>();
    }
    for (int j = 0; j < agg.block_sites; ++j) {
      const std::int64_t i = agg.fine_of(r.k, j);
      const std::int64_t o0 = fine.offset(i, 6 * chi);
      LQCD_UNROLL
      for (int a = 0; a < 6; ++a) {
        const Complex<Real> v = V.load(i, chi, a, k);
        const std::int64_t o = o0 + fine.component_step(a);
        LQCD_UNROLL
        for (int l = 0; l < T; ++l) acc[l] = conj_multiply_add(v, field[l][o], acc[l]);
      }
    }
    LQCD_UNROLL
    for (int l = 0; l < T; ++l)
      if (r.j0 + l < n) coarse.at(r.k, r.row, r.j0 + l) = acc[l];
  }
};

// Field j <- P (column j of `coarse`) (add = 0) or field j += P (column j) (add = 1), j < fine.n; one
// thread per fine site, pair of spin-colour rows (chirality chi, components a0 and a0 + 1: pair
// g = 3 chi + a0 / 2) and tile of T fields, the pair fastest and the tile outermost
// (t = (tile * volume + i) * 6 + g). Consecutive threads then read consecutive runs of the test vectors
// (V.at(i, chi, a, k): k fastest; a pair's two rows are one run of 2 n_v), where a thread per site read 12
// runs 2.3 kB apart from its neighbours' (8.5 ms per prolongation of 12 fields at 32^4 on the H100,
// against 1.6 ms for its data); the pair shares each coarse element it loads and, in single precision,
// stores its two components as one stored pair. Each element's sum runs over k in the same order as before.
template <typename Real, int T, typename Vectors = TestVectors<Real>>
struct ProlongBlockKernel {
  static constexpr int kRows = 6;  // row pairs per site: 2 chiralities x 3 pairs of spin-colour components
  Aggregation agg;
  Vectors V;
  CoarseBlockView<Real> coarse;
  SpinorFieldsView<Real> fine;
  std::int64_t volume;
  int add;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = fine.n, w = coarse.rhs;
    const std::int64_t u = t / kRows;
    const int g = int(t - u * kRows), chi = g / 3, a0 = 2 * (g - 3 * chi);
    const std::int64_t tile = u / volume, i = u - tile * volume;
    const int j0 = int(tile) * T;
    int lane[T];
    LQCD_UNROLL
    for (int l = 0; l < T; ++l) lane[l] = tile_lane(j0, l, n);
    const Complex<Real>* c = &coarse.at(agg.coarse_of(i), chi * V.nv, 0);
    const std::int64_t o0 = fine.offset(i, 6 * chi + a0), o1 = o0 + fine.component_step(1);
    Complex<Real> acc0[T], acc1[T];
    LQCD_UNROLL
    for (int l = 0; l < T; ++l) load_pair(fine.data[lane[l]], o0, o1, add, acc0[l], acc1[l]);
    for (int k = 0; k < V.nv; ++k) {
      const Complex<Real> v0 = V.load(i, chi, a0, k), v1 = V.load(i, chi, a0 + 1, k);
      LQCD_UNROLL
      for (int l = 0; l < T; ++l) {
        const Complex<Real> ck = c[std::int64_t(k) * w + lane[l]];
        acc0[l] = multiply_add(v0, ck, acc0[l]);
        acc1[l] = multiply_add(v1, ck, acc1[l]);
      }
    }
    LQCD_UNROLL
    for (int l = 0; l < T; ++l)
      if (j0 + l < n) store_pair(fine.data[j0 + l], o0, o1, acc0[l], acc1[l]);
  }
  // Components o0 and o1 of a field: one 16-byte access where single precision stores them as a pair.
  static LQCD_HOST_DEVICE void load_pair(const Complex<Real>* f, std::int64_t o0, std::int64_t o1, int add,
                                         Complex<Real>& z0, Complex<Real>& z1) {
    z0 = z1 = Complex<Real>();
    if (!add) return;
    if constexpr (stored_in_pairs_v<Real, 12>) {
      const FloatPair q = *reinterpret_cast<const FloatPair*>(f + o0);
      z0 = q.z[0];
      z1 = q.z[1];
    } else {
      z0 = f[o0];
      z1 = f[o1];
    }
  }
  static LQCD_HOST_DEVICE void store_pair(Complex<Real>* f, std::int64_t o0, std::int64_t o1, const Complex<Real>& z0,
                                          const Complex<Real>& z1) {
    if constexpr (stored_in_pairs_v<Real, 12>) {
      *reinterpret_cast<FloatPair*>(f + o0) = FloatPair{{z0, z1}};
    } else {
      f[o0] = z0;
      f[o1] = z1;
    }
  }
};

}  // namespace lqcd
