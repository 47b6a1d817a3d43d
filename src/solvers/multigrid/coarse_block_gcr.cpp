#include "solvers/multigrid/coarse_block_gcr.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/coarse_gcr_kernels.hpp"

namespace lqcd {

namespace {
// Gram-Schmidt batch width: the reduction takes at most 256 sums (2 N nb of them).
int batch_width(int rhs) { return std::max(1, std::min(kCoarseBatch, 128 / rhs)); }
}  // namespace

template <typename Real>
CoarseBlockGcr<Real>::CoarseBlockGcr(const CoarseBlockField<Real>& like, int m)
    : r_(like.lattice(), like.dof(), like.rhs(), like.location()),
      sums_(std::size_t(2 * kCoarseBatch * like.rhs()), like.location()),
      state_(std::size_t(like.rhs()), like.location()),
      state_host_(std::size_t(like.rhs()), Location::Host),
      states_(std::size_t(like.rhs())) {
  if (m < 1 || m > kCoarseGcrMaxRestart)
    fail("multigrid: a coarse GCR restart length of {} (expected 1 to {})", m, kCoarseGcrMaxRestart);
  if (like.rhs() > kMaxCoarseBlockRhs)
    fail("multigrid: {} right-hand sides in one coarse block (at most {})", like.rhs(), kMaxCoarseBlockRhs);
  for (int i = 0; i < m; ++i) {
    z_.emplace_back(like.lattice(), like.dof(), like.rhs(), like.location());
    q_.emplace_back(like.lattice(), like.dof(), like.rhs(), like.location());
  }
}

template <typename Real>
void CoarseBlockGcr<Real>::start(const CoarseBlockField<Real>& b, double tolerance) {
  const Location loc = b.location();
  const int n = rhs();
  if (b.rhs() != n || x_->rhs() != n || b.size() != r_.size())
    fail("internal: a coarse block GCR for {} right-hand sides given a block of {}", n, b.rhs());
  for_each(loc, x_->size(), CoarseBlockZeroKernel<Real>{x_->view().data});
  r_.copy_from(b);
  // Deflated, each tolerance is relative to the residual the start's projection leaves (as CoarseGcr's).
  if (deflation_) deflation_->project(x_->view().data, r_.view().data, r_.size(), n);
  const std::vector<double> b2 = reduce_each(loc, r_.size(), n, CoarseBlockNorm2Kernel<Real>{r_.view().data});
  for (int j = 0; j < n; ++j) {
    CoarseBlockGcrState& s = states_[std::size_t(j)];
    s = CoarseBlockGcrState{};
    s.r2 = b2[std::size_t(j)];
    s.target2 = tolerance * tolerance * s.r2;
    s.active = s.r2 > 0 && std::isfinite(s.r2) ? 1 : 0;
    s.breakdown = std::isfinite(s.r2) ? 0 : 1;
    state_host_.data()[j] = s;
  }
  state_.copy_from(state_host_);
}

template <typename Real>
const std::vector<CoarseBlockGcrState>& CoarseBlockGcr<Real>::read_states() {
  state_host_.copy_from(state_);
  for (int j = 0; j < rhs(); ++j) states_[std::size_t(j)] = state_host_.data()[j];
  return states_;
}

// q_k and z_k against the q_j, z_j (j < k) of each column: batched classical Gram-Schmidt, twice.
template <typename Real>
void CoarseBlockGcr<Real>::orthogonalise(int k) {
  CoarseBlockField<Real>& qk = q_[std::size_t(k)];
  CoarseBlockField<Real>& zk = z_[std::size_t(k)];
  const Location loc = qk.location();
  const int n = rhs(), width = batch_width(n);
  for (int pass = 0; pass < 2; ++pass)
    for (int j0 = 0; j0 < k; j0 += width) {
      const int nb = std::min(width, k - j0);
      CoarseBlockMultiDotKernel<Real> dk{};
      dk.y = qk.view().data;
      dk.nb = nb;
      CoarseBlockGcrMultiAxpyKernel<Real> ax{};
      ax.q = qk.view().data;
      ax.z = zk.view().data;
      ax.sums = sums_.data();
      ax.state = state_.data();
      ax.nb = nb;
      ax.n = n;
      for (int b = 0; b < nb; ++b) {
        dk.x[b] = ax.xq[b] = q_[std::size_t(j0 + b)].view().data;
        ax.xz[b] = z_[std::size_t(j0 + b)].view().data;
      }
      reduce_each_into(loc, 2 * nb * qk.size(), 2 * nb * n, dk, sums_.data());
      for_each(loc, qk.size(), ax);
    }
}

template <typename Real>
void CoarseBlockGcr<Real>::iterate(int k) {
  CoarseBlockField<Real>& qk = q_[std::size_t(k)];
  CoarseBlockField<Real>& zk = z_[std::size_t(k)];
  const Location loc = qk.location();
  const int n = rhs();
  if (deflation_) deflation_->orthogonalise(qk.view().data, zk.view().data, qk.size(), n);
  orthogonalise(k);
  reduce_each_into(loc, qk.size(), n, CoarseBlockNorm2Kernel<Real>{qk.view().data}, sums_.data());
  for_each(loc, n, CoarseBlockGcrInverseNormKernel{sums_.data(), state_.data()});
  for_each(loc, qk.size(), CoarseBlockGcrNormaliseKernel<Real>{qk.view().data, zk.view().data, state_.data(), n});
  // alpha = <q_k, r> into sums[0, 2N), then the update's norms into sums[2N, 3N).
  CoarseBlockMultiDotKernel<Real> alpha{};
  alpha.x[0] = qk.view().data;
  alpha.y = r_.view().data;
  alpha.nb = 1;
  reduce_each_into(loc, 2 * qk.size(), 2 * n, alpha, sums_.data());
  reduce_each_into(loc, qk.size(), n,
                   CoarseBlockGcrUpdateKernel<Real>{x_->view().data, zk.view().data, r_.view().data, qk.view().data,
                                                    sums_.data(), state_.data(), n},
                   sums_.data() + 2 * n);
  for_each(loc, n, CoarseBlockGcrResidualStateKernel{sums_.data() + 2 * n, state_.data(), 0});
}

template <typename Real>
void CoarseBlockGcr<Real>::true_residual(const CoarseBlockField<Real>& b) {
  const Location loc = b.location();
  const int n = rhs();
  reduce_each_into(loc, r_.size(), n, CoarseBlockGcrResidualKernel<Real>{b.view().data, q_[0].view().data, r_.view().data},
                   sums_.data());
  if (deflation_) {  // r stays b - A x
    deflation_->project(x_->view().data, r_.view().data, r_.size(), n);
    reduce_each_into(loc, r_.size(), n, CoarseBlockNorm2Kernel<Real>{r_.view().data}, sums_.data());
  }
  for_each(loc, n, CoarseBlockGcrResidualStateKernel{sums_.data(), state_.data(), 1});
}

template class CoarseBlockGcr<double>;
template class CoarseBlockGcr<float>;

}  // namespace lqcd
