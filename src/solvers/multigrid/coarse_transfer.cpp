#include "solvers/multigrid/coarse_transfer.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/block_orthonormalisation.hpp"

namespace lqcd {

template <typename Real>
CoarseTransferOperator<Real>::CoarseTransferOperator(const CoarseLattice& fine, int dof_f, const Dims& block,
                                                     int test_vectors, Location loc, const std::string& key,
                                                     const Dims& grid)
    : fine_(fine),
      dof_f_(dof_f),
      tables_(Aggregation::make_coarse(fine, block, key, grid), loc),
      agg_(tables_.aggregation()),
      nv_(test_vectors),
      v_() {
  if (dof_f < 2 || dof_f % 2 != 0) fail("internal: a coarse level with {} components per site", dof_f);
  if (test_vectors < 1) fail("{}: at least 1 test vector is needed", key);
  v_ = Buffer<Complex<Real>>(std::size_t(fine.sites) * std::size_t(dof_f) * std::size_t(test_vectors), loc);
}

template <typename Real>
void CoarseTransferOperator<Real>::check_fine(const CoarseField<Real>& f) const {
  if (f.sites() != fine_.sites || f.dof() != dof_f_ || f.location() != location())
    fail("internal: coarse-level transfer on a field of another shape or location");
}

template <typename Real>
void CoarseTransferOperator<Real>::set_vector(int k, const CoarseField<Real>& v) {
  check_fine(v);
  for_each(location(), v.size(), CoarseTestVectorCopyKernel<Real>{vectors(), v.view().data, k, 1});
}

template <typename Real>
void CoarseTransferOperator<Real>::get_vector(int k, CoarseField<Real>& v) const {
  check_fine(v);
  for_each(location(), v.size(), CoarseTestVectorCopyKernel<Real>{vectors(), v.view().data, k, 0});
}

template <typename Real>
void CoarseTransferOperator<Real>::random_field(CoarseField<Real>& v, std::uint64_t seed, int k,
                                                const Geometry& placement) const {
  check_fine(v);
  const CoarseLattice whole = CoarseLattice::of(placement.global);
  if (CoarseLattice::of(placement.local).sites != fine_.sites)
    fail("internal: a coarse level's random field placed on a lattice of another shape");
  CoarseGaussianKernel<Real> kernel{v.view().data, seed, k, dof_f_, fine_, whole, {}};
  for (int mu = 0; mu < 4; ++mu) kernel.offset[mu] = placement.offset[std::size_t(mu)];
  for_each(location(), v.size(), kernel);
}

template <typename Real>
void CoarseTransferOperator<Real>::orthonormalise() {
  block_orthonormalise(location(), agg_, BlockRows<Real>{v_.data(), nv_, dof_f_ / 2});
}

template <typename Real>
void CoarseTransferOperator<Real>::prolong(CoarseField<Real>& fine, const CoarseField<Real>& coarse) const {
  check_fine(fine);
  for_each(location(), fine.size(), CoarseBlockProlongKernel<Real>{agg_, vectors(), coarse.view().data, fine.view().data, 1, 0});
}

template <typename Real>
void CoarseTransferOperator<Real>::prolong_add(CoarseField<Real>& fine, const CoarseField<Real>& coarse) const {
  check_fine(fine);
  for_each(location(), fine.size(), CoarseBlockProlongKernel<Real>{agg_, vectors(), coarse.view().data, fine.view().data, 1, 1});
}

template <typename Real>
void CoarseTransferOperator<Real>::restrict_to(CoarseField<Real>& coarse, const CoarseField<Real>& fine) const {
  check_fine(fine);
  for_each(location(), coarse.size(), CoarseBlockRestrictKernel<Real>{agg_, vectors(), fine.view().data, coarse.view().data, 1});
}

template <typename Real>
void CoarseTransferOperator<Real>::check_blocks(const CoarseBlockField<Real>& fine, const CoarseBlockField<Real>& coarse) const {
  if (fine.sites() != fine_.sites || fine.dof() != dof_f_ || coarse.rhs() != fine.rhs() ||
      coarse.sites() != agg_.coarse.sites || coarse.dof() != coarse_dof() || fine.location() != location() ||
      coarse.location() != location())
    fail("internal: a block transfer between coarse levels on fields of another shape or location");
}

template <typename Real>
void CoarseTransferOperator<Real>::prolong(CoarseBlockField<Real>& fine, const CoarseBlockField<Real>& coarse) const {
  check_blocks(fine, coarse);
  for_each(location(), fine.size(),
           CoarseBlockProlongKernel<Real>{agg_, vectors(), coarse.view().data, fine.view().data, fine.rhs(), 0});
}

template <typename Real>
void CoarseTransferOperator<Real>::restrict_to(CoarseBlockField<Real>& coarse, const CoarseBlockField<Real>& fine) const {
  check_blocks(fine, coarse);
  for_each(location(), coarse.size(),
           CoarseBlockRestrictKernel<Real>{agg_, vectors(), fine.view().data, coarse.view().data, fine.rhs()});
}

template class CoarseTransferOperator<double>;
template class CoarseTransferOperator<float>;

}  // namespace lqcd
