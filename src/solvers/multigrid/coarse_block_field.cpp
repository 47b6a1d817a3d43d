#include "solvers/multigrid/coarse_block_field.hpp"

#include "core/dispatch.hpp"
#include "core/error.hpp"
#include "solvers/multigrid/coarse_block_kernels.hpp"

namespace lqcd {

template <typename Real>
CoarseBlockField<Real>::CoarseBlockField(const CoarseLattice& lattice, int dof, int rhs, Location loc)
    : lattice_(lattice), dof_(dof), rhs_(rhs), data_(std::size_t(lattice.sites) * std::size_t(dof) * std::size_t(rhs), loc) {
  if (rhs < 1) fail("internal: a block of coarse fields needs at least one right-hand side (got {})", rhs);
}

namespace {
template <typename Real>
void check_column(const CoarseBlockField<Real>& block, int j, const CoarseField<Real>& x) {
  if (j < 0 || j >= block.rhs() || x.dof() != block.dof() || x.sites() != block.sites() ||
      x.location() != block.location())
    fail("internal: right-hand side {} of a block of {} does not fit a coarse field of this shape", j, block.rhs());
}
}  // namespace

template <typename Real>
void pack_rhs(CoarseBlockField<Real>& block, int j, const CoarseField<Real>& x) {
  check_column(block, j, x);
  for_each(block.location(), x.size(), CoarsePackRhsKernel<Real>{block.view(), x.view(), j});
}

template <typename Real>
void unpack_rhs(CoarseField<Real>& x, const CoarseBlockField<Real>& block, int j) {
  check_column(block, j, x);
  for_each(block.location(), x.size(), CoarseUnpackRhsKernel<Real>{x.view(), block.view(), j});
}

#define LQCD_INSTANTIATE(Real)                                                               \
  template class CoarseBlockField<Real>;                                                     \
  template void pack_rhs(CoarseBlockField<Real>&, int, const CoarseField<Real>&);            \
  template void unpack_rhs(CoarseField<Real>&, const CoarseBlockField<Real>&, int);
LQCD_INSTANTIATE(double)
LQCD_INSTANTIATE(float)
#undef LQCD_INSTANTIATE

}  // namespace lqcd
