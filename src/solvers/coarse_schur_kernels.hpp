#pragma once
// Site kernels of the coarse operator's even-odd (Schur) form (solvers/coarse_schur.hpp). The blocks
// A-hat: A-hat_0(Y) = A_0(Y)^{-1}, A-hat_d(Y) = A_0(Y)^{-1} A_d(Y) for d = 1 .. 8, stored as the coarse
// operator's (CoarseStencilView); with even coarse extents every neighbour of a site has the other
// parity (the parity of the coarse coordinates' sum).

#include <cstdint>

#include "solvers/coarse_operator_kernels.hpp"

namespace lqcd {

// The largest number of components per coarse site (2 x 64 test vectors; check_multigrid_params).
constexpr int kMaxCoarseDof = 128;

LQCD_HOST_DEVICE inline int coarse_parity(const CoarseLattice& lattice, std::int64_t Y) {
  int X[4];
  lattice.coords(Y, X);
  return (X[0] + X[1] + X[2] + X[3]) & 1;
}

// A-hat_0(Y) = A_0(Y)^{-1} by Gauss-Jordan elimination with partial pivoting, in double, in place in
// `work` (dof^2 per site, row-major); one thread per coarse site. singular[Y] = 1 where a pivot is 0.
template <typename Real>
struct CoarseSelfInverseKernel {
  CoarseStencilView<Real> A, Ahat;
  Complex<double>* work;
  int* singular;
  LQCD_HOST_DEVICE void operator()(std::int64_t Y) const {
    const int n = A.dof;
    Complex<double>* M = work + Y * n * n;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) {
        const Complex<Real> a = A.at(0, Y, r, c);
        M[r * n + c] = Complex<double>(double(a.re), double(a.im));
      }
    int pivot_row[kMaxCoarseDof];
    for (int k = 0; k < n; ++k) {
      int p = k;
      double best = norm2(M[k * n + k]);
      for (int i = k + 1; i < n; ++i)
        if (norm2(M[i * n + k]) > best) {
          best = norm2(M[i * n + k]);
          p = i;
        }
      if (!(best > 0)) {
        singular[Y] = 1;
        return;
      }
      pivot_row[k] = p;
      if (p != k)
        for (int c = 0; c < n; ++c) {
          const Complex<double> t = M[k * n + c];
          M[k * n + c] = M[p * n + c];
          M[p * n + c] = t;
        }
      const Complex<double> inv = conj(M[k * n + k]) * (1.0 / best);
      M[k * n + k] = Complex<double>(1.0);
      for (int c = 0; c < n; ++c) M[k * n + c] = M[k * n + c] * inv;
      for (int i = 0; i < n; ++i) {
        if (i == k) continue;
        const Complex<double> f = M[i * n + k];
        M[i * n + k] = Complex<double>();
        for (int c = 0; c < n; ++c) M[i * n + c] -= f * M[k * n + c];
      }
    }
    // The row exchanges become column exchanges of the inverse, undone in reverse order.
    for (int k = n - 1; k >= 0; --k)
      if (pivot_row[k] != k)
        for (int r = 0; r < n; ++r) {
          const Complex<double> t = M[r * n + k];
          M[r * n + k] = M[r * n + pivot_row[k]];
          M[r * n + pivot_row[k]] = t;
        }
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < n; ++c) Ahat.at(0, Y, r, c) = Complex<Real>(Real(M[r * n + c].re), Real(M[r * n + c].im));
    singular[Y] = 0;
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

// out = A-hat_0 in (= A_0^{-1} in) on every site; one thread per component.
template <typename Real>
struct CoarseSelfInverseApplyKernel {
  CoarseStencilView<Real> Ahat;
  const Complex<Real>* in;
  Complex<Real>* out;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t Y = t / Ahat.dof;
    out[t] = stencil_row(Ahat, in, Y, int(t - Y * Ahat.dof), 0, 1);
  }
};

// On the sites of `parity`: out = x + sign sum_{d > 0} A-hat_d in(neighbour) (x == nullptr: 0); on the
// other sites out = 0 where zero_other, else unchanged. One thread per component.
template <typename Real>
struct CoarseParityHopKernel {
  CoarseStencilView<Real> Ahat;
  const Complex<Real>* in;
  const Complex<Real>* x;
  Complex<Real>* out;
  int parity;
  Real sign;
  int zero_other;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const std::int64_t Y = t / Ahat.dof;
    if (coarse_parity(Ahat.lattice, Y) != parity) {
      if (zero_other) out[t] = Complex<Real>();
      return;
    }
    Complex<Real> h = stencil_row(Ahat, in, Y, int(t - Y * Ahat.dof), 1, kStencilDirections);
    h = Complex<Real>(sign * h.re, sign * h.im);
    out[t] = x ? x[t] + h : h;
  }
};

}  // namespace lqcd
