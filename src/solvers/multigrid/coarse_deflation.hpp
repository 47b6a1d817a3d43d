#pragma once
// Deflation of the multigrid's coarse solves (issue 46): near κ_c the coarse system A (D_c, or its
// even-odd Schur complement) has a few eigenvalues close to zero that restarted GCR(m) resolves slowly
// or not at all, so that the coarse solves sit at their iteration cap and the outer iteration can
// stall. The near-null space of A is known from the setup: the test vectors v_i (D v_i ≈ 0) lie in the
// range of the prolongator, so their restrictions c_i = P^dag v_i satisfy D_c c_i = P^dag D v_i ≈ 0.
// Split by chirality, they give 2 n_v candidates w.
//
// From the candidates this keeps k pairs (v_b, u_b) with A v_b = u_b and the u_b orthonormal
// (Gram-Schmidt on A w, twice, the same combinations applied to w), and the coarse GCR works in the
// complement of span{u_b}: GCR augmented by a fixed subspace, i.e. GCRO with the recycled space held
// fixed (E. de Sturler, SIAM J. Numer. Anal. 36 (1999) 864; M. L. Parks et al., SIAM J. Sci. Comput.
// 28 (2006) 1651). At the start and at each restart the residual is projected, x += V U^dag r,
// r -= U U^dag r (which minimises ||r|| over that space), and each new direction q = A z is made
// orthogonal to the u_b, z following with the v_b: the iteration then sees A's action on the
// complement only, where the smallest singular values have been removed. The answers are those of A
// itself (every step keeps r = b - A x).

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/memory.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field.hpp"

namespace lqcd {

template <typename Real>
class CoarseDeflation {
 public:
  // From candidates w (fields of the system's shape; moved in), apply(out, in): out = A in. A candidate
  // whose A w keeps less than kDrop of its norm after orthogonalisation against the pairs before it
  // adds nothing new and is dropped.
  template <typename Apply>
  CoarseDeflation(const Apply& apply, std::vector<CoarseField<Real>> w);
  static constexpr double kDrop = 1e-3;
  int size() const { return int(u_.size()); }

  // For each of the n right-hand sides interleaved in x and r (a block field's data, or n = 1 for a
  // single field; `count` components in all): c = U^dag r, x += V c, r -= U c. After it r is orthogonal
  // to every u_b and still b - A x.
  void project(Complex<Real>* x, Complex<Real>* r, std::int64_t count, int n);
  // A new GCR direction q = A z: c = U^dag q, q -= U c, z -= V c (q = A z still holds).
  void orthogonalise(Complex<Real>* q, Complex<Real>* z, std::int64_t count, int n);

 private:
  void remove(Complex<Real>* y, Complex<Real>* w, std::int64_t count, int n, Real w_sign);
  std::vector<CoarseField<Real>> u_, v_;
  Buffer<double> sums_;
};

template <typename Real>
template <typename Apply>
CoarseDeflation<Real>::CoarseDeflation(const Apply& apply, std::vector<CoarseField<Real>> w)
    : sums_(1, w.empty() ? Location::Host : w.front().location()) {
  for (CoarseField<Real>& wi : w) {
    CoarseField<Real> y = wi.like();
    apply(y, wi);
    const double n0 = std::sqrt(norm2(y));
    if (!(n0 > 0) || !std::isfinite(n0)) continue;
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t b = 0; b < u_.size(); ++b) {
        const Complex<double> c = dot(u_[b], y);
        axpy(-c, u_[b], y);
        axpy(-c, v_[b], wi);
      }
    const double n1 = std::sqrt(norm2(y));
    if (!(n1 > kDrop * n0)) continue;
    scale(Complex<double>(1.0 / n1), y);
    scale(Complex<double>(1.0 / n1), wi);
    u_.push_back(std::move(y));
    v_.push_back(std::move(wi));
  }
  if (!u_.empty()) sums_ = Buffer<double>(std::size_t(2 * size() * kMaxCoarseBlockRhs), u_.front().location());
}

}  // namespace lqcd
