// Device instantiations of the measure layer's site kernels (distillation).
#include "core/exec_cuda.cuh"
#include "measure/distillation_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::NegativeLaplacianKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::DisplacedPhaseKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::SliceSourceKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::SliceGatherKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::SpinTraceKernel)
