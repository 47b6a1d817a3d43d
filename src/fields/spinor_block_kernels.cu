// Device instantiations of the spinor-block kernels: the copies between spinor fields and blocks
// (pack_rhs, unpack_rhs) and the block BLAS-1 (spinor_block_blas.cpp), in every storage precision.
#include "core/exec_cuda.cuh"
#include "fields/spinor_block_blas_kernels.hpp"
#include "fields/spinor_block_kernels.hpp"

#define LQCD_INSTANTIATE_SPINOR_BLOCK_KERNELS(Real)                            \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::RhsCopyKernel<Real>)                  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockAxpyKernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockAxpyXpayKernel<Real>)            \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::BlockNorm2Kernel<Real>)            \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::BlockAxpyNorm2Kernel<Real>)
LQCD_INSTANTIATE_SPINOR_BLOCK_KERNELS(double)
LQCD_INSTANTIATE_SPINOR_BLOCK_KERNELS(float)
LQCD_INSTANTIATE_SPINOR_BLOCK_KERNELS(lqcd::Half)
