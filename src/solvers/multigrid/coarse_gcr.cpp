#include "solvers/multigrid/coarse_gcr.hpp"

#include "core/error.hpp"

namespace lqcd {

template <typename Real>
CoarseGcr<Real>::CoarseGcr(const CoarseField<Real>& like, int m)
    : r_(like.like()), scalars_(1, like.location()), host_(1, Location::Host) {
  if (m < 1 || m > kCoarseGcrMaxRestart)
    fail("multigrid: a coarse GCR restart length of {} (expected 1 to {})", m, kCoarseGcrMaxRestart);
  for (int i = 0; i < m; ++i) {
    z_.push_back(like.like());
    q_.push_back(like.like());
  }
  reset_scalars();
}

template <typename Real>
void CoarseGcr<Real>::reset_scalars() {
  *host_.data() = CoarseGcrScalars{};
  scalars_.copy_from(host_);
}

template <typename Real>
const CoarseGcrScalars& CoarseGcr<Real>::read_scalars() {
  if (scalars_.location() == Location::Host) return *scalars_.data();
  host_.copy_from(scalars_);
  return *host_.data();
}

// q_k and z_k against the q_j, z_j (j < k): batched classical Gram-Schmidt, twice, the coefficients
// staying on the device (solvers/multigrid/coarse_field.cpp's gcr_orthogonalise with device scalars).
template <typename Real>
void CoarseGcr<Real>::orthogonalise(int k) {
  CoarseField<Real>& qk = q_[std::size_t(k)];
  CoarseField<Real>& zk = z_[std::size_t(k)];
  const Location loc = qk.location();
  for (int pass = 0; pass < 2; ++pass) {
    for (int j0 = 0; j0 < k; j0 += kCoarseBatch) {
      CoarseMultiDotKernel<Real> dk{};
      dk.y = qk.view().data;
      dk.n = std::min(kCoarseBatch, k - j0);
      for (int j = 0; j < dk.n; ++j) dk.x[j] = q_[std::size_t(j0 + j)].view().data;
      reduce_into<Sums<2 * kCoarseBatch>>(loc, qk.size(), dk, StoreGcrCoefficients{scalars_.data(), j0, dk.n});
    }
    for (int j0 = 0; j0 < k; j0 += kCoarseBatch) {
      CoarseGcrMultiAxpyKernel<Real> aq{}, az{};
      aq.s = az.s = scalars_.data();
      aq.j0 = az.j0 = j0;
      aq.n = az.n = std::min(kCoarseBatch, k - j0);
      aq.y = qk.view().data;
      az.y = zk.view().data;
      for (int j = 0; j < aq.n; ++j) {
        aq.x[j] = q_[std::size_t(j0 + j)].view().data;
        az.x[j] = z_[std::size_t(j0 + j)].view().data;
      }
      for_each(loc, qk.size(), aq);
      for_each(loc, zk.size(), az);
    }
  }
}

template class CoarseGcr<double>;
template class CoarseGcr<float>;

}  // namespace lqcd
