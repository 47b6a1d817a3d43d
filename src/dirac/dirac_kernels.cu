// Device instantiations of the Dirac layer's site kernels: the operators in double and single
// precision (Wilson, twisted mass and the clover operator of the inner solves also in half); the
// clover field is computed (and inspected) in double only.
#include "core/exec_cuda.cuh"
#include "dirac/clover_kernels.hpp"
#include "dirac/face_kernels.hpp"
#include "dirac/wilson_kernels.hpp"

#define LQCD_INSTANTIATE_DIRAC_KERNELS(Real)                          \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel<Real>)   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::TwistedSiteKernel<Real>)     \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CloverSiteKernel<Real>)      \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonCloverKernel<Real>)
LQCD_INSTANTIATE_DIRAC_KERNELS(double)
LQCD_INSTANTIATE_DIRAC_KERNELS(float)

// 12- and 8-real links (the Wilson even-odd operators' compressed forms, lqcd bench --reconstruct 12|8),
// and half precision, which is stored with compressed links only.
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel<double, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel<float, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel<double, 4>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel<float, 4>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel<lqcd::Half, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonHoppingKernel<lqcd::Half, 4>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::TwistedSiteKernel<lqcd::Half>)

// The clover operator of the mixed-precision solves' inner CG (compressed_clover_even_odd.hpp): single
// precision with 12-real links, half precision (clover blocks in single) with 12-real links.
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonCloverKernel<float, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::WilsonCloverKernel<lqcd::Half, 6>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CloverSiteKernel<lqcd::Half>)

// The face messages of the hopping term on a decomposed lattice (face_exchange.hpp), for every link
// storage the hopping kernel has.
#define LQCD_INSTANTIATE_FACE_KERNELS(Real, Components)                         \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FacePackKernel<Real, Components>)      \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::FaceHopKernel<Real, Components>)
LQCD_INSTANTIATE_FACE_KERNELS(double, 9)
LQCD_INSTANTIATE_FACE_KERNELS(float, 9)
LQCD_INSTANTIATE_FACE_KERNELS(double, 6)
LQCD_INSTANTIATE_FACE_KERNELS(float, 6)
LQCD_INSTANTIATE_FACE_KERNELS(double, 4)
LQCD_INSTANTIATE_FACE_KERNELS(float, 4)
LQCD_INSTANTIATE_FACE_KERNELS(lqcd::Half, 6)
LQCD_INSTANTIATE_FACE_KERNELS(lqcd::Half, 4)

LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CloverComputeKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CutQuarkLinksKernel)
LQCD_INSTANTIATE_DEVICE_REDUCE(lqcd::CloverStats, lqcd::CloverStatsKernel)
