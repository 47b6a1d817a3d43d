// Device instantiations of the coarse solves' deflation kernels (solvers/multigrid/coarse_deflation_kernels.hpp).
#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_deflation_kernels.hpp"

#define LQCD_INSTANTIATE_COARSE_DEFLATION(Real)                                  \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::CoarseBlockMultiDotKernel<Real, true>) \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDeflationAxpyKernel<Real>)
LQCD_INSTANTIATE_COARSE_DEFLATION(double)
LQCD_INSTANTIATE_COARSE_DEFLATION(float)
#undef LQCD_INSTANTIATE_COARSE_DEFLATION

// The coarse GCR's residual norm after a restart's projection (solvers/multigrid/coarse_gcr.hpp).
#include "solvers/multigrid/coarse_gcr_kernels.hpp"
LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(lqcd::Sums<1>, lqcd::StoreGcrResidual, lqcd::CoarseNorm2Kernel<double>)
LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(lqcd::Sums<1>, lqcd::StoreGcrResidual, lqcd::CoarseNorm2Kernel<float>)
