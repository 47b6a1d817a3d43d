// Device instantiations of the Dirac layer's smearing kernels (kept apart from dirac_kernels.cu).
#include "core/exec_cuda.cuh"
#include "dirac/gaussian_smearing_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GaussianSmearKernel)
