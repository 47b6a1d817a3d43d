// Device instantiations of the Dirac layer's site kernels.
#include "core/exec_cuda.cuh"
#include "dirac/wilson_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::TwistedSiteKernel)
