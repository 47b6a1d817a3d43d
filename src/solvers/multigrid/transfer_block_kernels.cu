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
#undef LQCD_INSTANTIATE_TRANSFER_BLOCK
#undef LQCD_INSTANTIATE_TRANSFER_TILE
