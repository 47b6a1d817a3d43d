// Device instantiations of the stream-resident CG's kernels (resident_cg_kernels.hpp).
#include "core/exec_cuda.cuh"
#include "solvers/resident_cg_kernels.hpp"

using lqcd::Sums;
using lqcd::solver_detail::CgResidualFinish;
using lqcd::solver_detail::StorePAp;
using lqcd::solver_detail::StoreRho;

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::solver_detail::CgStartKernel)

#define LQCD_INSTANTIATE_RESIDENT_CG(Real)                                                       \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, StorePAp, lqcd::Norm2Kernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<2>, StorePAp, lqcd::DotKernel<Real>)                  \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, StoreRho, lqcd::Norm2Kernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, CgResidualFinish, lqcd::solver_detail::CgResidualUpdate<Real>) \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::solver_detail::CgSolutionUpdate<Real>)
LQCD_INSTANTIATE_RESIDENT_CG(double)
LQCD_INSTANTIATE_RESIDENT_CG(float)
LQCD_INSTANTIATE_RESIDENT_CG(lqcd::Half)
#undef LQCD_INSTANTIATE_RESIDENT_CG
