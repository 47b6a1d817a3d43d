// Device instantiations of the molecular-dynamics site kernels.
#include "core/exec_cuda.cuh"
#include "hmc/md_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::MomentumHeatbathKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::Sums<1>, lqcd::KineticEnergyKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::LinkUpdateKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::LinkAxpyKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::LinkZeroKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaugeForceKernel<false>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaugeForceKernel<true>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::HoppingForceKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CloverInsertionKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CloverForceKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::Gamma5Kernel)
