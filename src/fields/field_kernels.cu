// Device instantiations of the fields layer's site kernels (spinor BLAS-1).
#include "core/exec_cuda.cuh"
#include "fields/spinor_blas_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::AxpyKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::XpayKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ScaleKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ZeroKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<2>, lqcd::DotKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<1>, lqcd::Norm2Kernel)
