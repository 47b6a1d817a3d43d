#pragma once
// The even-odd coarse operator's hopping pass on a block of right-hand sides (CoarseParityHopKernel with
// CoarseHalfHopRows, solvers/multigrid/coarse_schur_kernels.hpp) on the tensor cores, in single precision
// (issue 46). Per site of one parity, out = x + sign sum_{d > 0} A-hat_d in(neighbour_d) is a sum of complex
// products A (dof x dof) X (dof x n), each done as the real product
//   [Re A | Im A] (dof x 2 dof, the parts interleaved by column) times
//   [[Re X, Im X], [-Im X, Re X]] (2 dof x 2 n, interleaved likewise),
// whose 2 n real columns are the n columns' real and imaginary parts in the order the block field stores
// them: no work is wasted on the complex structure. The products run on mma.sync m16n8k8 tiles with TF32
// inputs and FP32 accumulation, one warp per site and 16 rows.
//
// Precision: TF32 keeps 11 significant bits of the 16-bit link words and of the input (relative rounding
// 2^-11 per factor) where the CUDA-core pass keeps them whole. The coarse solves are preconditioner solves to
// a relative residual of 0.1 inside a flexible outer GCR whose residual is the fine operator's in double,
// so the solution's accuracy does not depend on it; their convergence may (docs/performance.md, issue 46).

#include "solvers/multigrid/coarse_schur_kernels.hpp"

namespace lqcd {

struct CoarseHopMmaPass {
  CoarseHalfStencilView H;
  const Complex<float>* in;
  const Complex<float>* x;  // nullptr: 0
  Complex<float>* out;
  int parity;
  float sign;
  int zero_other;  // out = 0 on the other parity's sites
  int n;           // right-hand sides in the block
};

// The widths the tensor-core pass takes (one to four tiles of 8 real columns).
inline constexpr int kCoarseHopMmaMinRhs = 4;
inline constexpr int kCoarseHopMmaMaxRhs = 16;

// Runs the pass on the device and returns true, or returns false (nothing done) where it does not apply:
// n outside [kCoarseHopMmaMinRhs, kCoarseHopMmaMaxRhs], or a device older than sm_80 (no TF32). The
// caller then runs CoarseParityHopKernel. Defined in the CUDA backend only.
bool coarse_hop_mma_on_device(const CoarseHopMmaPass& p);

}  // namespace lqcd
