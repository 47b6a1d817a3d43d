#pragma once
// All block minimal-residual steps of one colour of the Schwarz smoother (solvers/multigrid/schwarz_smoother.hpp)
// in one device kernel: one thread block per block of the colour, one thread per site, the block's
// residual kept in shared memory from the first step to the last. The portable form (a pass of
// SchwarzBlockOperatorKernel, BlockMrStepKernel and BlockMrUpdateKernel per step, each over the whole
// lattice with the other colour's sites idle) reads and writes three fields per step; this reads the
// residual and e once and writes e once, and its hops stay inside the block in shared memory.
// It computes the same steps (the block sums in another order). Up to kMaxSchwarzRhs right-hand sides go
// through one launch, each thread doing its site for all of them: the links and the clover term a
// thread reads for the first are in L1 for the others, and the independent sources keep more loads in
// flight. Each source's steps, and their sums' order, are those of a launch for it alone.

#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/schwarz_kernels.hpp"

namespace lqcd {

inline constexpr int kMaxSchwarzRhs = 4;

template <typename Real>
struct SchwarzBlockMr {
  Aggregation agg;
  WilsonSiteOperator<Real> D;
  SpinorView<Real> rho[kMaxSchwarzRhs];  // the residuals; read on the blocks of `colour` only
  SpinorView<Real> e[kMaxSchwarzRhs];    // e += the block solutions on the blocks of `colour`
  int rhs;                               // 1 .. kMaxSchwarzRhs
  int colour;
  int steps;
};

// Runs the steps on the device and returns true, or returns false (nothing done) where the kernel
// cannot take the blocks (more than 256 sites, or the rhs blocks' spinors beyond the shared memory) or this
// build has no CUDA backend: the caller then takes the portable form.
template <typename Real>
bool schwarz_block_mr_on_device(const SchwarzBlockMr<Real>& a);

}  // namespace lqcd
