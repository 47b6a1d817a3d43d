#pragma once
// Site kernels of the multigrid transfer operator (solvers/multigrid/transfer_operator.hpp) between a fine
// spinor field and a coarse field.
//
// The test vectors: n_v fine fields, each split by chirality (spins 0, 1: gamma_5 = +1; spins 2, 3:
// gamma_5 = -1 in the DeGrand-Rossi basis, math/gamma.hpp) and restricted to the blocks of the
// aggregation; P maps coarse component (Y, chi * n_v + k) to vector k's chirality-chi part on block Y.
// Stored as V[((i * 2 + chi) * 6 + a) * n_v + k] for fine site i (its full-field index), chirality chi,
// and the a-th component (spin 2 chi + a / 3, colour a % 3) of that chirality: a thread reads one fine
// site's vectors in one run of memory, and the threads of one coarse site and chirality (one per k)
// read consecutive words.

#include <cmath>
#include <cstdint>

#include "fields/spinor_field.hpp"
#include "math/precision.hpp"
#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"

namespace lqcd {

// Where element (i, chi, a, k) lies (fine site i's chirality-chi row, i * 2 + chi, holds 6 n_v of them).
LQCD_HOST_DEVICE constexpr std::int64_t test_vector_index(std::int64_t i, int chi, int a, int k, int nv) {
  return ((i * 2 + chi) * 6 + a) * nv + k;
}

template <typename Real>
struct TestVectors {
  Complex<Real>* v;
  int nv;
  LQCD_HOST_DEVICE Complex<Real>& at(std::int64_t i, int chi, int a, int k) const {
    return v[test_vector_index(i, chi, a, k, nv)];
  }
  LQCD_HOST_DEVICE Complex<Real> load(std::int64_t i, int chi, int a, int k) const { return at(i, chi, a, k); }
};

// The same vectors in 16-bit fixed point for the transfers of a single-precision cycle
// (multigrid.transfer_half; issue 46): the transfers are bound by reading the vectors (2.4 GB in single
// precision for 24 vectors on 32^4, twice per cycle). Each fine site's chirality-chi row of 6 n_v numbers is
// scaled by its largest |re|, |im| (QUDA keeps its null vectors in half precision likewise).
struct HalfTestVectors {
  Complex<std::int16_t>* v;  // in TestVectors' order
  float* scale;              // [i * 2 + chi]
  int nv;
  LQCD_HOST_DEVICE Complex<float> load(std::int64_t i, int chi, int a, int k) const {
    return decode<Half>(v[test_vector_index(i, chi, a, k, nv)], scale[i * 2 + chi]);
  }
};

// HalfTestVectors from TestVectors<float>: the scales (one thread per fine site and chirality), then the
// codes (one thread per element).
struct HalfTestVectorScaleKernel {
  TestVectors<float> V;
  HalfTestVectors H;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const Complex<float>* row = V.v + t * 6 * V.nv;
    float m = 0;
    for (int e = 0; e < 6 * V.nv; ++e) m = fmaxf(m, fmaxf(fabsf(row[e].re), fabsf(row[e].im)));
    H.scale[t] = m > 0 ? m : 1.0f;
  }
};
struct HalfTestVectorPackKernel {
  TestVectors<float> V;
  HalfTestVectors H;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    H.v[t] = encode<Half>(V.v[t], 1.0f / H.scale[t / (6 * V.nv)]);
  }
};

// Component a (spin 2 chi + a / 3, colour a % 3) of chirality chi.
template <typename T>
LQCD_HOST_DEVICE inline Complex<T> spinor_component(const ColorSpinor<T>& psi, int chi, int a) {
  return psi.s[2 * chi + a / 3].c[a % 3];
}

// Vector k <- psi (fine sites i of psi, a full field).
template <typename Real>
struct SetTestVectorKernel {
  TestVectors<Real> V;
  SpinorView<Real> psi;
  int k;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const ColorSpinor<Real> s = psi.load(psi.parity_of(i), psi.cb_of(i));
    for (int chi = 0; chi < 2; ++chi)
      for (int a = 0; a < 6; ++a) V.at(i, chi, a, k) = spinor_component(s, chi, a);
  }
};

// psi <- vector k.
template <typename Real>
struct GetTestVectorKernel {
  TestVectors<Real> V;
  SpinorView<Real> psi;
  int k;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    ColorSpinor<Real> s;
    for (int chi = 0; chi < 2; ++chi)
      for (int a = 0; a < 6; ++a) s.s[2 * chi + a / 3].c[a % 3] = V.at(i, chi, a, k);
    psi.store(psi.parity_of(i), psi.cb_of(i), s);
  }
};

// The probe of colour c and coarse column col = chi * n_v + k: P e, e = 1 at component col of every
// coarse site of colour c (solvers/multigrid/aggregation.hpp), i.e. vector k's chirality-chi part on those blocks;
// colour kAllColours: on every block.
constexpr int kAllColours = -1;

template <typename Real>
struct ProbeKernel {
  Aggregation agg;
  TestVectors<Real> V;
  SpinorView<Real> fine;
  int colour, col;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = fine.parity_of(i);
    const std::int64_t s = fine.cb_of(i);
    ColorSpinor<Real> psi;
    if (colour == kAllColours || agg.colour_at(agg.coarse_of(i)) == colour) {
      const int chi = col / V.nv, k = col % V.nv;
      for (int a = 0; a < 6; ++a) psi.s[2 * chi + a / 3].c[a % 3] = V.at(i, chi, a, k);
    }
    fine.store(p, s, psi);
  }
};

// Column col of the coarse operator's blocks, from Dp = D (probe of colour c, column col): for coarse
// site Y of colour c, A_0(Y)[row, col] = (P^dag Dp)(Y, row); for Y whose colour differs from c in
// direction mu only, A_{+mu}(Y)[row, col] is P^dag Dp summed over Y's upper mu-face when Y + mu-hat has
// colour c, and A_{-mu}(Y) over the lower face when Y - mu-hat has (solvers/multigrid/aggregation.hpp). Every entry
// of the blocks is written by exactly one (colour, column). Two passes, so that the work spreads over
// all threads: ProbeProjectKernel forms w(x, row) = V(x, row)^dag Dp(x) for the fine sites x that some
// entry needs (one thread per site and row), ProbeSumKernel sums w over each block or face (one
// thread per coarse site and row, in a fixed order).
struct ProbeGeometry {
  Aggregation agg;
  int colour;
  // Which digit of the colour differs from Y's: -1 none (Y has the colour), mu (exactly one), -2 several.
  LQCD_HOST_DEVICE int differing_direction(std::int64_t Y) const {
    int differ = 0, mu = -1, a = agg.colour_at(Y), b = colour;
    for (int nu = 0; nu < 4; ++nu) {
      const int m = agg.colour_period[nu];
      if (a % m != b % m) {
        ++differ;
        mu = nu;
      }
      a /= m;
      b /= m;
    }
    return differ == 0 ? -1 : differ == 1 ? mu : -2;
  }
  // Whether the face of Y in direction mu, dir (+1 upper, -1 lower) receives from a probed neighbour.
  LQCD_HOST_DEVICE bool probed_neighbour(std::int64_t Y, int mu, int dir) const {
    return agg.colour_at(agg.neighbour_at(Y, mu, dir)) == colour;
  }
  // Whether fine site i enters an entry of this probe.
  LQCD_HOST_DEVICE bool needed(std::int64_t i) const {
    const std::int64_t Y = agg.coarse_of(i);
    const int mu = differing_direction(Y);
    if (mu == -1) return true;
    if (mu < 0) return false;
    const int local = agg.local(i, mu), b = agg.b[mu];
    return (local == b - 1 && probed_neighbour(Y, mu, 1)) || (local == 0 && probed_neighbour(Y, mu, -1));
  }
};

template <typename Real>
struct ProbeProjectKernel {
  ProbeGeometry g;
  TestVectors<Real> V;
  SpinorView<Real> fine;  // Dp
  Complex<Real>* w;       // w[i * dof + row], i the fine site's full-field index
  int dof;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t i = t / dof;
    const int row = int(t - i * dof), chi = row / V.nv, k = row % V.nv;
    if (!g.needed(i)) return;
    const ColorSpinor<Real> psi = fine.load(fine.parity_of(i), fine.cb_of(i));
    Complex<Real> acc;
    for (int a = 0; a < 6; ++a) acc = conj_multiply_add(V.at(i, chi, a, k), spinor_component(psi, chi, a), acc);
    w[t] = acc;
  }
};

template <typename Real>
struct ProbeSumKernel {
  ProbeGeometry g;
  const Complex<Real>* w;
  CoarseStencilView<Real> A;
  int col;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t Y = t / A.dof;
    const int row = int(t - Y * A.dof);
    const int mu = g.differing_direction(Y);
    if (mu == -1) {
      A.at(0, Y, row, col) = face_sum(Y, row, -1, 0);
    } else if (mu >= 0) {
      for (int dir = 1; dir >= -1; dir -= 2)
        if (g.probed_neighbour(Y, mu, dir))
          A.at(stencil_direction(mu, dir), Y, row, col) = face_sum(Y, row, mu, dir > 0 ? g.agg.b[mu] - 1 : 0);
    }
  }
  // w summed over the block sites with local coordinate `layer` in direction mu (mu < 0: all).
  LQCD_HOST_DEVICE Complex<Real> face_sum(std::int64_t Y, int row, int mu, int layer) const {
    Complex<Real> acc;
    for (int j = 0; j < g.agg.block_sites; ++j) {
      const std::int64_t i = g.agg.fine_of(Y, j);
      if (mu >= 0 && g.agg.local(i, mu) != layer) continue;
      acc += w[i * A.dof + row];
    }
    return acc;
  }
};

}  // namespace lqcd
