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
// thread per fine site, spin-colour row (chirality chi, component a: row = 6 chi + a) and tile of T
// fields, the row fastest and the tile outermost (t = (tile * volume + i) * 12 + row). Consecutive threads
// then read consecutive runs of the test vectors (V.at(i, chi, a, k): k fastest), where a thread per site
// read 12 such runs 2.3 kB apart from its neighbours' (8.5 ms per prolongation of 12 fields at 32^4 on
// the H100, against 1.6 ms for its data). Each element's sum runs over k in the same order as before.
template <typename Real, int T, typename Vectors = TestVectors<Real>>
struct ProlongBlockKernel {
  static constexpr int kRows = 12;  // 2 chiralities x 6 spin-colour components
  Aggregation agg;
  Vectors V;
  CoarseBlockView<Real> coarse;
  SpinorFieldsView<Real> fine;
  std::int64_t volume;
  int add;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int n = fine.n, w = coarse.rhs;
    const std::int64_t u = t / kRows;
    const int row = int(t - u * kRows), chi = row / 6, a = row - 6 * chi;
    const std::int64_t tile = u / volume, i = u - tile * volume;
    const int j0 = int(tile) * T;
    int lane[T];
    LQCD_UNROLL
    for (int l = 0; l < T; ++l) lane[l] = tile_lane(j0, l, n);
    const Complex<Real>* c = &coarse.at(agg.coarse_of(i), chi * V.nv, 0);
    const std::int64_t o = fine.offset(i, row);
    Complex<Real> acc[T];
    LQCD_UNROLL
    for (int l = 0; l < T; ++l) acc[l] = add ? fine.data[lane[l]][o] : Complex<Real>();
    for (int k = 0; k < V.nv; ++k) {
      const Complex<Real> vk = V.load(i, chi, a, k);
      LQCD_UNROLL
      for (int l = 0; l < T; ++l) acc[l] = multiply_add(vk, c[std::int64_t(k) * w + lane[l]], acc[l]);
    }
    LQCD_UNROLL
    for (int l = 0; l < T; ++l)
      if (j0 + l < n) fine.data[j0 + l][o] = acc[l];
  }
};

}  // namespace lqcd
