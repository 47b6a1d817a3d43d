// Device instantiations of the multigrid transfer on blocks of fields (transfer_block_kernels.hpp;
// issue 46), for every tile of kRhsTiles (solvers/multigrid/coarse_operator_kernels.hpp).
#include "core/exec_cuda.cuh"
#include "solvers/multigrid/transfer_block_kernels.hpp"

#define LQCD_INSTANTIATE_TRANSFER_TILE(Real, T)                           \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::RestrictBlockKernel<Real, T>) \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ProlongBlockKernel<Real, T>)
#define LQCD_INSTANTIATE_TRANSFER_BLOCK(Real) \
  LQCD_INSTANTIATE_TRANSFER_TILE(Real, 1)     \
  LQCD_INSTANTIATE_TRANSFER_TILE(Real, 4)     \
  LQCD_INSTANTIATE_TRANSFER_TILE(Real, 8)     \
  LQCD_INSTANTIATE_TRANSFER_TILE(Real, 12)    \
  LQCD_INSTANTIATE_TRANSFER_TILE(Real, 16)
LQCD_INSTANTIATE_TRANSFER_BLOCK(double)
LQCD_INSTANTIATE_TRANSFER_BLOCK(float)
// multigrid.transfer_half: the single-precision cycle's transfers from 16-bit vectors
#define LQCD_INSTANTIATE_HALF_TRANSFER_TILE(T)                                                     \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::RestrictBlockKernel<float, T, lqcd::HalfTestVectors>) \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ProlongBlockKernel<float, T, lqcd::HalfTestVectors>)
LQCD_INSTANTIATE_HALF_TRANSFER_TILE(1)
LQCD_INSTANTIATE_HALF_TRANSFER_TILE(4)
LQCD_INSTANTIATE_HALF_TRANSFER_TILE(8)
LQCD_INSTANTIATE_HALF_TRANSFER_TILE(12)
LQCD_INSTANTIATE_HALF_TRANSFER_TILE(16)
#undef LQCD_INSTANTIATE_HALF_TRANSFER_TILE
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HalfTestVectorScaleKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HalfTestVectorPackKernel)
#undef LQCD_INSTANTIATE_TRANSFER_BLOCK
#undef LQCD_INSTANTIATE_TRANSFER_TILE
