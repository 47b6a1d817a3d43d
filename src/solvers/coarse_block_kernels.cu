// Device instantiations of the multi-RHS coarse kernels (fields/coarse_block_kernels.hpp and the
// block apply of solvers/coarse_operator_kernels.hpp; issue 46).
#include "core/exec_cuda.cuh"
#include "fields/coarse_block_kernels.hpp"
#include "solvers/coarse_operator_kernels.hpp"

#define LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS(Real)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarsePackRhsKernel<Real>)    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseUnpackRhsKernel<Real>)  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseApplyBlockKernel<Real>)
LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS(double)
LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS(float)
#undef LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS
