#pragma once
// One colour of a Schwarz sweep (solvers/multigrid/schwarz_smoother.hpp) for many sources in one device
// kernel: one thread block per block of the colour. The block's links and site term are read from memory
// once, into shared memory, and serve every source and every minimal-residual step; each source's
// right-hand side on the block, r - D e (the whole operator, its hops reaching into the neighbouring
// blocks), is formed in the same kernel. Per colour and sweep this reads the links and the clover term
// once instead of once per source and step (schwarz_block_mr.hpp re-reads them at every step from L2 and
// memory: Nsight Compute put its L2 at 88% of its throughput, DRAM 1.9 TB/s, on the H100), and it needs
// no residual pass of its own (BlockResidualKernel).
// Threads: `slots` sources in flight, one thread per site and slot; the sources go through the slots in
// turns. Each source's steps, and the order of its block sums, are those of schwarz_block_mr.hpp.

#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/schwarz_kernels.hpp"

namespace lqcd {

// Per launch. The kernel's argument (2 x 16 spinor views) may pass the classic 4 KB limit of kernel
// arguments: CUDA 12.1 and later take up to 32 KB on Volta and newer (lqcd builds for sm_90).
inline constexpr int kMaxSweepSources = 16;

template <typename Real>
struct SchwarzColourSweep {
  Aggregation agg;
  WilsonSiteOperator<Real> D;
  SpinorView<Real> r[kMaxSweepSources];  // the right-hand sides
  SpinorView<Real> e[kMaxSweepSources];  // e += the block solutions, on the blocks of `colour`
  int rhs;                               // 1 .. kMaxSweepSources
  int colour;
  int steps;
  int residual;  // 1: the blocks' right-hand side is r - D e; 0: r itself (e = 0)
};

// Whether the kernel takes blocks of `block_sites` sites (with a clover term or not) on this device: at most
// 256 sites, their operator and one source's residuals within the shared memory.
template <typename Real>
bool schwarz_colour_sweep_fits(int block_sites, bool clover);

// Runs the colour's block solves on the device and returns true; false (nothing done) where the blocks do
// not fit (schwarz_colour_sweep_fits) or rhs is out of range. D must be one process's (the residual's hops
// are not exchanged).
template <typename Real>
bool schwarz_colour_sweep_on_device(const SchwarzColourSweep<Real>& a);

}  // namespace lqcd
