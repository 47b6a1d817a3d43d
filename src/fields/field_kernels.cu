// Device instantiations of the fields layer's site kernels (spinor BLAS-1, precision conversion).
#include "core/exec_cuda.cuh"
#include "fields/halo_kernels.hpp"
#include "fields/precision_kernels.hpp"
#include "fields/random_spinor_kernels.hpp"
#include "fields/spinor_blas_kernels.hpp"

#define LQCD_INSTANTIATE_BLAS_KERNELS(Real)                                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::AxpyKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::XpayKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ScaleKernel<Real>)                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ZeroKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<2>, lqcd::DotKernel<Real>)        \
  LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<1>, lqcd::Norm2Kernel<Real>)      \
  LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<1>, lqcd::AxpyNorm2Kernel<Real>)  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::AxpyXpayKernel<Real>)              \
  LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<3>, lqcd::DotNorm2Kernel<Real>)   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::AxpyThenXpayKernel<Real>)            \
  LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<3>, lqcd::AxpbypzAxpyNorm2DotKernel<Real>)
LQCD_INSTANTIATE_BLAS_KERNELS(double)
LQCD_INSTANTIATE_BLAS_KERNELS(float)
LQCD_INSTANTIATE_BLAS_KERNELS(lqcd::Half)
// Gram-Schmidt in batches (multi_dot, multi_axpy): the GCRs' double and float fields.
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<2 * lqcd::kSpinorBatch + 1>, lqcd::MultiDotKernel<double>)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<2 * lqcd::kSpinorBatch + 1>, lqcd::MultiDotKernel<float>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::MultiAxpyKernel<double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::MultiAxpyKernel<float>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertSpinorKernel<lqcd::Half, double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertSpinorKernel<double, lqcd::Half>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertSpinorKernel<lqcd::Half, float>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertSpinorKernel<float, lqcd::Half>)

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertComponentsKernel<float, double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertComponentsKernel<double, float>)
// Links in the operators' precisions and compressions (gauge_field.cpp's instantiations).
#define LQCD_INSTANTIATE_LINK_CONVERSION(To, Components, From)                              \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ConvertLinksKernel<To, Components, From>)
LQCD_INSTANTIATE_LINK_CONVERSION(double, 9, double)
LQCD_INSTANTIATE_LINK_CONVERSION(double, 6, double)
LQCD_INSTANTIATE_LINK_CONVERSION(double, 4, double)
LQCD_INSTANTIATE_LINK_CONVERSION(float, 6, float)
LQCD_INSTANTIATE_LINK_CONVERSION(float, 4, float)
LQCD_INSTANTIATE_LINK_CONVERSION(float, 9, double)
LQCD_INSTANTIATE_LINK_CONVERSION(float, 6, double)
LQCD_INSTANTIATE_LINK_CONVERSION(float, 4, double)
LQCD_INSTANTIATE_LINK_CONVERSION(lqcd::Half, 6, double)
LQCD_INSTANTIATE_LINK_CONVERSION(lqcd::Half, 4, double)
LQCD_INSTANTIATE_DEVICE_REDUCE(double, lqcd::LinkReconstructionErrorKernel<double, 4, double>)
LQCD_INSTANTIATE_DEVICE_REDUCE(double, lqcd::LinkReconstructionErrorKernel<float, 4, float>)
LQCD_INSTANTIATE_DEVICE_REDUCE(double, lqcd::LinkReconstructionErrorKernel<float, 4, double>)
LQCD_INSTANTIATE_DEVICE_REDUCE(double, lqcd::LinkReconstructionErrorKernel<lqcd::Half, 4, double>)

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HaloCopyKernel<lqcd::Complex<double>>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HaloCopyKernel<lqcd::Complex<float>>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HaloCopyKernel<lqcd::FixedPair>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HaloCopyKernel<lqcd::FloatPair>)

// Gaussian random spinors (random_spinor_kernels.hpp): the pseudofermions (double), the multigrid's start.
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaussianSpinorKernel<double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaussianSpinorKernel<float>)
