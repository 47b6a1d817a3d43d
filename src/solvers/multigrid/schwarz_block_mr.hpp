#pragma once
// All block minimal-residual steps of one colour of the Schwarz smoother (solvers/multigrid/schwarz_smoother.hpp)
// in one device kernel: one thread block per block of the colour, one thread per site, the block's
// residual kept in shared memory from the first step to the last. The portable form (a pass of
// SchwarzBlockOperatorKernel, BlockMrStepKernel and BlockMrUpdateKernel per step, each over the whole
// lattice with the other colour's sites idle) reads and writes three fields per step; this reads the
// residual and e once and writes e once, and its hops stay inside the block in shared memory.
// It computes the same steps (the block sums in another order).

#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/schwarz_kernels.hpp"

namespace lqcd {

template <typename Real>
struct SchwarzBlockMr {
  Aggregation agg;
  WilsonSiteOperator<Real> D;
  SpinorView<Real> rho;  // the residual; read on the blocks of `colour` only
  SpinorView<Real> e;    // e += the block solutions on the blocks of `colour`
  int colour;
  int steps;
};

// Runs the steps on the device and returns true, or returns false (nothing done) where the kernel
// cannot take the blocks (more than 256 sites, or their spinors beyond the shared memory) or this
// build has no CUDA backend: the caller then takes the portable form.
template <typename Real>
bool schwarz_block_mr_on_device(const SchwarzBlockMr<Real>& a);

}  // namespace lqcd
