// Device instantiations of the copies between spinor fields and spinor block fields (pack_rhs,
// unpack_rhs), in every storage precision.
#include "core/exec_cuda.cuh"
#include "fields/spinor_block_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::RhsCopyKernel<double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::RhsCopyKernel<float>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::RhsCopyKernel<lqcd::Half>)
