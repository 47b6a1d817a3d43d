#pragma once
// Site kernels of the block orthonormalisation of a multigrid level's test vectors
// (solvers/multigrid/block_orthonormalisation.hpp).
//
// Both levels store the test vectors row by row: the n_v vectors' values at one fine site i, one
// chirality chi and one component a < half of that chirality are n_v consecutive numbers, at
// ((i * 2 + chi) * half + a) * n_v (TestVectors: half = 6; CoarseTestVectors: half = dof_f / 2). On an
// aggregate (coarse site Y, chirality chi) the rows of its block sites form a tall matrix V_(Y,chi)
// with n_v columns; orthonormalising its columns in order is the QR factorisation V = Q R with R upper
// triangular and positive on the diagonal, unique, so the result is the Gram-Schmidt one.
//
// Cholesky QR: R from the Gram matrix G = V^dag V = R^dag R, then Q = V R^{-1}; done twice ("CholeskyQR2":
// T. Fukaya, Y. Nakatsukasa, Y. Yanagisawa, Y. Yamamoto, 2014 5th Workshop on Latest Advances in Scalable
// Algorithms for Large-Scale Systems, doi:10.1109/ScalA.2014.11), the second pass taking away what the
// first left of rounding. G, R and R^{-1} are formed in double whatever the vectors' precision, so
// that the first pass is accurate for condition numbers of V far beyond what single precision holds.
// Three passes over the vectors per Cholesky QR, instead of the 5 n_v restrictions and prolongations of
// Gram-Schmidt through P and R.

#include <cmath>
#include <cstdint>

#include "math/complex.hpp"
#include "solvers/multigrid/aggregation.hpp"

namespace lqcd {

template <typename Real>
struct BlockRows {
  Complex<Real>* v;
  int nv, half;  // vectors; components per chirality per fine site
  LQCD_HOST_DEVICE Complex<Real>* row(std::int64_t i, int chi, int a) const {
    return v + ((i * 2 + chi) * half + a) * std::int64_t(nv);
  }
};

// G_(Y,chi)[l][k] = sum over the aggregate's rows of conj(V[l]) V[k], for l <= k (the upper triangle,
// all that the Cholesky factorisation reads); one thread per entry, the aggregate g = 2 Y + chi.
// g[(g * n_v + l) * n_v + k].
template <typename Real>
struct BlockGramKernel {
  Aggregation agg;
  BlockRows<Real> V;
  Complex<double>* gram;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int nv = V.nv;
    const int k = int(t % nv), l = int(t / nv % nv);
    if (l > k) return;
    const std::int64_t g = t / (std::int64_t(nv) * nv), Y = g / 2;
    const int chi = int(g % 2);
    Complex<double> acc;
    for (int j = 0; j < agg.block_sites; ++j) {
      const std::int64_t i = agg.fine_of(Y, j);
      for (int a = 0; a < V.half; ++a) {
        const Complex<Real>* r = V.row(i, chi, a);
        acc = conj_multiply_add(Complex<double>(r[l]), Complex<double>(r[k]), acc);
      }
    }
    gram[t] = acc;
  }
};

// In place on one aggregate's n_v x n_v matrix (one thread per aggregate): the upper triangle of G
// becomes R (G = R^dag R), then R^{-1} (upper triangular, in place as LAPACK's unblocked trtri does:
// column j from the already inverted leading block). A non-positive pivot means that column k lies in
// the span of the columns before it on this aggregate (or is zero there): Q's column k is then set to
// zero, as the Gram-Schmidt form did for a vanishing block norm (R's row k made e_k, and R^{-1}'s
// column k zero).
struct BlockCholeskyInverseKernel {
  Complex<double>* m;
  int nv;
  LQCD_HOST_DEVICE void operator()(std::int64_t g) const {
    Complex<double>* a = m + g * std::int64_t(nv) * nv;
    const auto at = [a, this](int r, int c) -> Complex<double>& { return a[r * nv + c]; };
    std::uint64_t dropped = 0;  // n_v <= 64 (multigrid.test_vectors)
    for (int k = 0; k < nv; ++k) {
      double d = at(k, k).re;
      for (int l = 0; l < k; ++l) d -= norm2(at(l, k));
      if (!(d > 0) || !std::isfinite(d)) {
        dropped |= std::uint64_t(1) << k;
        at(k, k) = Complex<double>(1.0);
        for (int c = k + 1; c < nv; ++c) at(k, c) = Complex<double>();
        continue;
      }
      const double rkk = sqrt(d), inv = 1.0 / rkk;
      at(k, k) = Complex<double>(rkk);
      for (int c = k + 1; c < nv; ++c) {
        Complex<double> s = at(k, c);
        for (int l = 0; l < k; ++l) s -= conj_mul(at(l, k), at(l, c));
        at(k, c) = s * inv;
      }
    }
    for (int j = 0; j < nv; ++j) {
      const double djj = 1.0 / at(j, j).re;
      at(j, j) = Complex<double>(djj);
      for (int i = 0; i < j; ++i) {  // x = T x with T the inverted leading j x j block, x = R[0:j, j]
        Complex<double> s;
        for (int l = i; l < j; ++l) s = multiply_add(at(i, l), at(l, j), s);
        at(i, j) = s;
      }
      for (int i = 0; i < j; ++i) at(i, j) *= -djj;
    }
    for (int k = 0; k < nv; ++k)  // column k of R^{-1} to zero (its row is e_k: k enters no other column)
      if (dropped >> k & 1)
        for (int l = 0; l <= k; ++l) at(l, k) = Complex<double>();
  }
};

// Each row of V <- row R^{-1} (Q = V R^{-1} on its aggregate): Q[k] = sum_{l <= k} V[l] R^{-1}[l][k], in
// place from k = n_v - 1 down, so that every V[l] read is still the original. One thread per row.
template <typename Real>
struct BlockRotateKernel {
  Aggregation agg;
  BlockRows<Real> V;
  const Complex<double>* rinv;
  LQCD_HOST_DEVICE void operator()(std::int64_t t) const {
    const int rows_per_site = 2 * V.half, nv = V.nv;
    const std::int64_t i = t / rows_per_site;
    const int chi = int(t - i * rows_per_site) / V.half, a = int(t - i * rows_per_site) % V.half;
    const Complex<double>* m = rinv + (agg.coarse_of(i) * 2 + chi) * std::int64_t(nv) * nv;
    Complex<Real>* r = V.row(i, chi, a);
    for (int k = nv - 1; k >= 0; --k) {
      Complex<double> acc;
      for (int l = 0; l <= k; ++l) acc = multiply_add(Complex<double>(r[l]), m[l * nv + k], acc);
      r[k] = Complex<Real>(acc);
    }
  }
};

}  // namespace lqcd
