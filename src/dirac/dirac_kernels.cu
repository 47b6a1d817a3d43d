// Device instantiations of the Dirac layer's site kernels.
#include "core/exec_cuda.cuh"
#include "dirac/clover_kernels.hpp"
#include "dirac/wilson_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::TwistedSiteKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CloverComputeKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CloverSiteKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonCloverKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::CloverStats, lqcd::CloverStatsKernel)
