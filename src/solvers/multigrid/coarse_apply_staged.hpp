#pragma once
// The coarse operator on a block of right-hand sides with each neighbour's vectors staged in shared memory
// (issue 46). CoarseApplyBlockKernel (coarse_operator_kernels.hpp) gives each thread one row of one site
// and reads the neighbour's dof x n vector entries from global memory for every row: 48 threads of a site
// read the same 4.6 kB (dof = 48, n = 12) through L1 and L2, and the 12-source pass ran at 13 TFLOP/s, a
// fifth of the FP32 peak, while its coupling blocks (680 MB) alone would take 0.23 ms of the 0.61 ms. Here
// a thread block of S sites loads the S neighbour blocks of one direction once, cooperatively and
// coalesced, into shared memory; its threads (one per site and row, all n right-hand sides in registers)
// then read the block elements from memory and the vectors from shared memory. The sums run in
// stencil_rows's order (direction, then column), so the result equals CoarseApplyBlockKernel's.

#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"

namespace lqcd {

// The widest block of right-hand sides and the largest dof the staged pass takes.
inline constexpr int kCoarseStagedMaxRhs = 16;
inline constexpr int kCoarseStagedMaxDof = 64;

// out = D_c in on the device, in single precision, and returns true; or returns false (nothing done) where
// it does not apply: n > kCoarseStagedMaxRhs, dof > kCoarseStagedMaxDof, or LQCD_COARSE_STAGED=0 (for
// measuring). The caller then runs CoarseApplyBlockKernel. Defined in the CUDA backend only.
bool coarse_apply_staged_on_device(const CoarseStencilView<float>& A, const CoarseBlockView<float>& in,
                                   const CoarseBlockView<float>& out);

}  // namespace lqcd
