#include "solvers/multigrid/coarse_deflation.hpp"

#include <algorithm>

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/coarse_deflation_kernels.hpp"

namespace lqcd {

// Classical Gram-Schmidt against all u_b at once (they are orthonormal): every coefficient from the
// same y, then the updates, kCoarseBatch vectors (fewer for wide blocks: at most 256 sums) a launch.
template <typename Real>
void CoarseDeflation<Real>::remove(Complex<Real>* y, Complex<Real>* w, std::int64_t count, int n, Real w_sign) {
  if (u_.empty()) return;
  if (n < 1 || n > kMaxCoarseBlockRhs || count != u_.front().size() * n)
    fail("internal: a coarse deflation for fields of {} components given {} for {} right-hand sides",
         u_.front().size(), count, n);
  const Location loc = u_.front().location();
  const int k = size(), width = std::max(1, std::min(kCoarseBatch, 128 / n));
  for (int b0 = 0; b0 < k; b0 += width) {
    CoarseBlockMultiDotKernel<Real, true> dk{};
    dk.y = y;
    dk.nb = std::min(width, k - b0);
    dk.n = n;
    for (int b = 0; b < dk.nb; ++b) dk.x[b] = u_[std::size_t(b0 + b)].view().data;
    reduce_each_into(loc, 2 * dk.nb * count, 2 * dk.nb * n, dk, sums_.data() + 2 * b0 * n);
  }
  for (int b0 = 0; b0 < k; b0 += width) {
    CoarseDeflationAxpyKernel<Real> ax{};
    ax.y = y;
    ax.w = w;
    ax.sums = sums_.data() + 2 * b0 * n;
    ax.kb = std::min(width, k - b0);
    ax.n = n;
    ax.w_sign = w_sign;
    for (int b = 0; b < ax.kb; ++b) {
      ax.u[b] = u_[std::size_t(b0 + b)].view().data;
      ax.v[b] = v_[std::size_t(b0 + b)].view().data;
    }
    for_each(loc, count, ax);
  }
}

template <typename Real>
void CoarseDeflation<Real>::project(Complex<Real>* x, Complex<Real>* r, std::int64_t count, int n) {
  remove(r, x, count, n, Real(1));
}

template <typename Real>
void CoarseDeflation<Real>::orthogonalise(Complex<Real>* q, Complex<Real>* z, std::int64_t count, int n) {
  remove(q, z, count, n, Real(-1));
}

template class CoarseDeflation<double>;
template class CoarseDeflation<float>;

}  // namespace lqcd
