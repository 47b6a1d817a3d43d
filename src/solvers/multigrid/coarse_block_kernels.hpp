#pragma once
// Site kernels of solvers/multigrid/coarse_block_field.hpp: one right-hand side copied in or out of a block.

#include <cstdint>

#include "solvers/multigrid/coarse_block_field.hpp"

namespace lqcd {

// block(s, k, j) <- x(s, k), one component per thread.
template <typename Real>
struct CoarsePackRhsKernel {
  CoarseBlockView<Real> block;
  CoarseView<Real> x;
  int j;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { block.data[i * block.rhs + j] = x.data[i]; }
};

// x(s, k) <- block(s, k, j), one component per thread.
template <typename Real>
struct CoarseUnpackRhsKernel {
  CoarseView<Real> x;
  CoarseBlockView<Real> block;
  int j;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const { x.data[i] = block.data[i * block.rhs + j]; }
};

}  // namespace lqcd
