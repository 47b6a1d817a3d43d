// Device instantiations of the multigrid's kernels: the transfer operator (transfer_kernels.hpp,
// block_orthonormalisation_kernels.hpp), the
// coarse operator (coarse_operator_kernels.hpp, coarse_links_kernels.hpp) and its even-odd form
// (coarse_schur_kernels.hpp), in double and single precision.
#include "core/exec_cuda.cuh"
#include "solvers/multigrid/block_orthonormalisation_kernels.hpp"
#include "solvers/multigrid/coarse_halo.hpp"
#include "solvers/multigrid/coarse_links_kernels.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"
#include "solvers/multigrid/coarse_schur_kernels.hpp"
#include "solvers/multigrid/coarse_transfer_kernels.hpp"
#include "solvers/multigrid/transfer_kernels.hpp"

#define LQCD_INSTANTIATE_MULTIGRID(Real)                                           \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::SetTestVectorKernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::GetTestVectorKernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockGramKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockRotateKernel<Real>)                  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ProbeKernel<Real>)                        \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ProbeProjectKernel<Real>)                 \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::ProbeSumKernel<Real>)                     \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseApplyKernel<Real>)                  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseHaloApplyKernel<Real>)              \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseFacePackKernel<Real>)               \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseTwistScaleKernel<Real>)                  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseHoppingKernel<Real>)                     \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseSelfBlockKernel<Real>)                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseInverseCopyKernel<Real>)                 \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseInverseFinishKernel<Real>)               \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseLeftInverseKernel<Real>)                 \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseSelfInverseApplyKernel<Real>)            \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseParityHopKernel<Real, lqcd::CoarseHopRows<Real>>)      \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseParityHopKernel<Real, lqcd::CoarseHalfHopRows<Real>>)  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseParityHopKernel<Real, lqcd::CoarseHaloHopRows<Real>>)  \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseHalfScaleKernel<Real>)                   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseHalfPackKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseTestVectorCopyKernel<Real>)              \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseGaussianKernel<Real>)                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockProlongKernel<Real>)                \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseBlockRestrictKernel<Real>)               \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseGalerkinHopKernel<Real>)                 \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseGalerkinBlockSumKernel<Real>)
LQCD_INSTANTIATE_MULTIGRID(double)
LQCD_INSTANTIATE_MULTIGRID(float)
#undef LQCD_INSTANTIATE_MULTIGRID
// The coarse GCR with device scalars (coarse_gcr_kernels.hpp).
#include "solvers/multigrid/coarse_gcr_kernels.hpp"
#define LQCD_INSTANTIATE_COARSE_GCR(Real)                                                                          \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(lqcd::Sums<1>, lqcd::StoreGcrInverseNorm, lqcd::CoarseNorm2Kernel<Real>)     \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(lqcd::Sums<2>, lqcd::StoreGcrAlpha, lqcd::CoarseDotKernel<Real>)             \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(lqcd::Sums<1>, lqcd::StoreGcrResidual, lqcd::CoarseGcrUpdateKernel<Real>)    \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(lqcd::Sums<1>, lqcd::StoreGcrResidual, lqcd::CoarseGcrResidualKernel<Real>)  \
  LQCD_INSTANTIATE_DEVICE_REDUCE_INTO(lqcd::Sums<2 * lqcd::kCoarseBatch>, lqcd::StoreGcrCoefficients,              \
                                      lqcd::CoarseMultiDotKernel<Real>)                                            \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseGcrMultiAxpyKernel<Real>)                                           \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseGcrNormaliseKernel<Real>)
LQCD_INSTANTIATE_COARSE_GCR(double)
LQCD_INSTANTIATE_COARSE_GCR(float)
#undef LQCD_INSTANTIATE_COARSE_GCR
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseInversePivotKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseInverseEliminateKernel)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockCholeskyInverseKernel)

// The Schwarz smoother (schwarz_kernels.hpp).
#include "solvers/multigrid/schwarz_kernels.hpp"
#define LQCD_INSTANTIATE_SCHWARZ(Real)                                    \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockMaskKernel<Real>)           \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockMrPartialKernel<Real>)      \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::SchwarzBlockOperatorKernel<Real>) \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockMrStepKernel<Real>)         \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockMrUpdateKernel<Real>)   \
  LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::BlockResidualKernel<Real>)
LQCD_INSTANTIATE_SCHWARZ(double)
LQCD_INSTANTIATE_SCHWARZ(float)
#undef LQCD_INSTANTIATE_SCHWARZ
// The coarsest level's direct solve (coarse_direct_solve_kernels.hpp).
#include "solvers/multigrid/coarse_direct_solve_kernels.hpp"
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectGatherKernel<float, lqcd::Complex<double>>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectGatherKernel<double, lqcd::Complex<double>>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectGatherKernel<float, lqcd::Complex<float>>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectScatterKernel<double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectScatterKernel<float>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectUnitKernel<double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectUnitKernel<float>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectNarrowTransposeKernel<double>)
LQCD_INSTANTIATE_DEVICE_FOR_EACH(lqcd::CoarseDirectNarrowTransposeKernel<float>)
