// Device instantiations of the stream-resident multi-RHS CG's finishers (resident_block_cg_kernels.hpp).
#include "core/exec_cuda.cuh"
#include "solvers/krylov/resident_block_cg_kernels.hpp"

using namespace lqcd::solver_detail;

LQCD_INSTANTIATE_DEVICE_FOR_EACH(BlockCgStartKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(BlockCgStepKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(BlockCgResidualFinish)
