// Device instantiations of the stream-resident BiCGStab's kernels (resident_bicgstab_kernels.hpp),
// with the local-sum versions of its reductions for decomposed lattices (global_reduce_into).
#include "core/exec_cuda.cuh"
#include "solvers/krylov/resident_bicgstab_kernels.hpp"

using lqcd::Sums;
using namespace lqcd::solver_detail;

LQCD_INSTANTIATE_DEVICE_FOR_EACH(BiCgStabStart)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<3>, FinishAlpha>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<1>, FinishHalfStep>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<3>, FinishOmega>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(FinishGlobalSum<Sums<3>, FinishIteration>)

#define LQCD_INSTANTIATE_RESIDENT_BICGSTAB(Real)                                                       \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(BiCgStabDirection<Real>)                                            \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<3>, FinishAlpha, lqcd::DotNorm2Kernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, FinishHalfStep, BiCgStabHalfStep<Real>)                 \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<3>, FinishOmega, lqcd::DotNorm2Kernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<3>, FinishIteration, BiCgStabUpdate<Real>)                  \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<3>, StoreLocalSum<Sums<3>>, lqcd::DotNorm2Kernel<Real>)     \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<1>, StoreLocalSum<Sums<1>>, BiCgStabHalfStep<Real>)         \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(Sums<3>, StoreLocalSum<Sums<3>>, BiCgStabUpdate<Real>)
LQCD_INSTANTIATE_RESIDENT_BICGSTAB(double)
LQCD_INSTANTIATE_RESIDENT_BICGSTAB(float)
LQCD_INSTANTIATE_RESIDENT_BICGSTAB(lqcd::Half)
#undef LQCD_INSTANTIATE_RESIDENT_BICGSTAB
