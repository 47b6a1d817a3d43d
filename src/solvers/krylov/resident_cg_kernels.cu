// Device instantiations of the stream-resident CG's kernels (resident_cg_kernels.hpp), with the
// local-sum versions of its reductions for decomposed lattices (global_reduce_into).
#include "core/exec_cuda.cuh"
#include "solvers/krylov/resident_cg_kernels.hpp"

using lqcd::Sums;
using namespace lqcd::solver_detail;

LQCD_INSTANTIATE_DEVICE_FOR_EACH(CgStartKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<1>, StorePAp>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<2>, StorePAp>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<1>, StoreRho>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<1>, CgResidualFinish>)

#define LQCD_INSTANTIATE_RESIDENT_CG(Real)                                                               \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, StorePAp, lqcd::Norm2Kernel<Real>)                        \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<2>, StorePAp, lqcd::DotKernel<Real>)                          \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, StoreRho, lqcd::Norm2Kernel<Real>)                        \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, CgResidualFinish, CgResidualUpdate<Real>)                 \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(CgSolutionUpdate<Real>)                                               \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, StoreLocalSum<Sums<1>>, lqcd::Norm2Kernel<Real>)          \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<2>, StoreLocalSum<Sums<2>>, lqcd::DotKernel<Real>)            \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, StoreLocalSum<Sums<1>>, CgResidualUpdate<Real>)
LQCD_INSTANTIATE_RESIDENT_CG(double)
LQCD_INSTANTIATE_RESIDENT_CG(float)
LQCD_INSTANTIATE_RESIDENT_CG(lqcd::Half)
#undef LQCD_INSTANTIATE_RESIDENT_CG
