// Device instantiations of the coarse-field vector operations (coarse_field_kernels.hpp).
#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_field_kernels.hpp"

using lqcd::Sums;

#define LQCD_INSTANTIATE_COARSE_KERNELS(Real)                                       \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseAxpyKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_REDUCE(Sums<1>, lqcd::CoarseAxpyNorm2Kernel<Real>)        \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseScaleKernel<Real>)                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseZeroKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_REDUCE(Sums<2>, lqcd::CoarseDotKernel<Real>)              \
  LQCD_INSTANTIATE_DEVICE_REDUCE(Sums<1>, lqcd::CoarseNorm2Kernel<Real>)            \
  LQCD_INSTANTIATE_DEVICE_REDUCE(Sums<2 * lqcd::kCoarseBatch>, lqcd::CoarseMultiDotKernel<Real>) \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseMultiAxpyKernel<Real>)
LQCD_INSTANTIATE_COARSE_KERNELS(double)
LQCD_INSTANTIATE_COARSE_KERNELS(float)
#undef LQCD_INSTANTIATE_COARSE_KERNELS
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseConvertKernel<float, double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseConvertKernel<double, float>)
