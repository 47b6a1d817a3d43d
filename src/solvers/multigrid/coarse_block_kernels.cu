// Device instantiations of the multi-RHS coarse kernels (solvers/multigrid/coarse_block_kernels.hpp, and the
// tiled passes of solvers/multigrid/coarse_operator_kernels.hpp and coarse_schur_kernels.hpp for every tile of
// kRhsTiles; the single-field tile T = 1 of the Schur passes is in multigrid_kernels.cu, the block
// transfer in transfer_block_kernels.cu; issue 46).
#include "core/exec_cuda.cuh"
#include "solvers/multigrid/coarse_block_kernels.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"
#include "solvers/multigrid/coarse_schur_kernels.hpp"

#define LQCD_INSTANTIATE_COARSE_TILE(Real, T)                                                              \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseApplyBlockKernel<Real, T>)                                  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseSelfInverseApplyKernel<Real, T>)                            \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseParityHopKernel<Real, lqcd::CoarseHopRows<Real>, T>)        \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseParityHopKernel<Real, lqcd::CoarseHalfHopRows<Real>, T>)
#define LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS(Real)                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarsePackRhsKernel<Real>)   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseUnpackRhsKernel<Real>) \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseApplyBlockKernel<Real, 1>) \
  LQCD_INSTANTIATE_COARSE_TILE(Real, 4)                               \
  LQCD_INSTANTIATE_COARSE_TILE(Real, 8)                               \
  LQCD_INSTANTIATE_COARSE_TILE(Real, 12)                              \
  LQCD_INSTANTIATE_COARSE_TILE(Real, 16)
LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS(double)
LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS(float)
#undef LQCD_INSTANTIATE_COARSE_BLOCK_KERNELS
#undef LQCD_INSTANTIATE_COARSE_TILE

// The multi-RHS coarse GCR (coarse_block_gcr_kernels.hpp).
#include "solvers/multigrid/coarse_block_gcr_kernels.hpp"
#define LQCD_INSTANTIATE_COARSE_BLOCK_GCR(Real)                                        \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockZeroKernel<Real>)                  \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::CoarseBlockNorm2Kernel<Real>)              \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::CoarseBlockMultiDotKernel<Real>)           \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockGcrMultiAxpyKernel<Real>)          \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockGcrNormaliseKernel<Real>)          \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::CoarseBlockGcrUpdateKernel<Real>)          \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::CoarseBlockGcrResidualKernel<Real>)         \
  LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::CoarseBlockMrSumsKernel<Real>)             \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockMrUpdateKernel<Real>)              \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockDifferenceKernel<Real>)
LQCD_INSTANTIATE_COARSE_BLOCK_GCR(double)
LQCD_INSTANTIATE_COARSE_BLOCK_GCR(float)
#undef LQCD_INSTANTIATE_COARSE_BLOCK_GCR
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockGcrInverseNormKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockGcrResidualStateKernel)
