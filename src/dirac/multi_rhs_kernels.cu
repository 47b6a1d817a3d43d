// Device instantiations of the multi-right-hand-side hopping kernel (wilson_multi_rhs.cpp): only the
// storages that are used, to keep the CUDA build short: lqcd bench dslash --rhs's (12-real links in
// double, single and half; 18-real links in single) and the propagators' double-precision block
// operator (18-real links: the links as read, dirac_operator_factory.cpp).
#include "core/exec_cuda.cuh"
#include "dirac/wilson_multi_rhs_kernels.hpp"

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernelMultiRHS<double, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernelMultiRHS<float, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernelMultiRHS<lqcd::Half, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernelMultiRHS<float, 9>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernelMultiRHS<double, 9>)
// The hopping term with its norm / axpy-and-norm (WilsonEvenOddMultiRHS's fused CG steps): 12-real
// links in double, single and half; 18-real in double.
LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::WilsonHoppingNormKernelMultiRHS<double, 6>)
LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::WilsonHoppingNormKernelMultiRHS<float, 6>)
LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::WilsonHoppingNormKernelMultiRHS<lqcd::Half, 6>)
LQCD_INSTANTIATE_DEVICE_REDUCE_EACH(lqcd::WilsonHoppingNormKernelMultiRHS<double, 9>)
