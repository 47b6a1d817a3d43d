#pragma once
// The Gram matrices and the rotation of the block orthonormalisation (block_orthonormalisation_kernels.hpp)
// with one thread block per aggregate and its rows staged in shared memory (issue 46: the setup's
// orthonormalisation). BlockGramKernel gives each thread one entry G[l][k] and has it read the
// aggregate's 1536 rows (4^4 sites x 6 components, n_v = 24) itself, so that the block's threads read
// every row n_v (n_v + 1) / 2 times through L1 and L2: 17 ms a call on the fine level of the 32^4 setup, where
// the vectors (2.4 GB) take 0.8 ms to read. BlockRotateKernel reads R^{-1} (n_v^2 doubles) per row and
// its rows with a stride of n_v between threads. Here the aggregate's rows pass once through shared memory in
// chunks of whole sites, coalesced, R^{-1} sits in shared memory, and each thread keeps up to four Gram
// entries. The sums run in the portable kernels' order (sites, then components; l = 0 .. k), in double.

#include "math/complex.hpp"
#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/block_orthonormalisation_kernels.hpp"

namespace lqcd {

// gram as BlockGramKernel writes it (the upper triangle of each aggregate's n_v x n_v block), on the
// device; false (nothing done) where n_v (n_v + 1) / 2 > 1024 or one site's rows do not fit the shared
// memory. Defined in the CUDA backend only.
bool block_gram_on_device(const Aggregation& agg, const BlockRows<float>& V, Complex<double>* gram);
// V <- V R^{-1} on each aggregate as BlockRotateKernel does it, on the device; false (nothing done) where
// R^{-1} and one site's rows do not fit the shared memory or n_v > 64. Defined in the CUDA backend only.
bool block_rotate_on_device(const Aggregation& agg, const BlockRows<float>& V, const Complex<double>* rinv);

}  // namespace lqcd
