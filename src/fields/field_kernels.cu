// Device instantiations of the fields layer's site kernels (spinor BLAS-1, precision conversion).
#include "core/exec_cuda.cuh"
#include "fields/halo_kernels.hpp"
#include "fields/precision_kernels.hpp"
#include "fields/spinor_blas_kernels.hpp"

#define LQCD_INSTANTIATE_BLAS_KERNELS(Real)                                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::AxpyKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::XpayKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ScaleKernel<Real>)                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ZeroKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<2>, lqcd::DotKernel<Real>)        \
  LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<1>, lqcd::Norm2Kernel<Real>)
LQCD_INSTANTIATE_BLAS_KERNELS(double)
LQCD_INSTANTIATE_BLAS_KERNELS(float)

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertComponentsKernel<float, double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertComponentsKernel<double, float>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CompressLinksKernel<double, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CompressLinksKernel<float, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CompressLinksKernel<double, 4>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CompressLinksKernel<float, 4>)
LQCD_INSTANTIATE_DEVICE_REDUCE(double, lqcd::LinkReconstructionErrorKernel<double, 4>)
LQCD_INSTANTIATE_DEVICE_REDUCE(double, lqcd::LinkReconstructionErrorKernel<float, 4>)

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HaloCopyKernel<lqcd::Complex<double>>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HaloCopyKernel<lqcd::Complex<float>>)
