#pragma once
// The block orthonormalisation of a multigrid level's test vectors, written once for the finest
// level's transfer (TransferOperator) and the coarse levels' (CoarseTransferOperator): on every
// aggregate (coarse site and chirality) the vectors' pieces are made orthonormal in order, by Cholesky
// QR done twice (solvers/multigrid/block_orthonormalisation_kernels.hpp).

#include <type_traits>

#include "core/dispatch.hpp"
#include "core/memory.hpp"
#include "solvers/multigrid/block_orthonormalisation_kernels.hpp"
#include "solvers/multigrid/block_orthonormalisation_staged.hpp"

namespace lqcd {

template <typename Real>
void block_orthonormalise(Location loc, const Aggregation& agg, const BlockRows<Real>& V) {
  const std::int64_t aggregates = 2 * agg.coarse.sites, entries = std::int64_t(V.nv) * V.nv;
  Buffer<Complex<double>> r(std::size_t(aggregates * entries), loc);
  // single precision on the device: the passes with the rows staged in shared memory where they fit
  [[maybe_unused]] constexpr bool single = std::is_same_v<Real, float>;
  const auto gram = [&] {
#if LQCD_HAVE_CUDA
    if constexpr (single)
      if (loc == Location::Device && block_gram_on_device(agg, V, r.data())) return;
#endif
    for_each(loc, aggregates * entries, BlockGramKernel<Real>{agg, V, r.data()});
  };
  const auto rotate = [&] {
#if LQCD_HAVE_CUDA
    if constexpr (single)
      if (loc == Location::Device && block_rotate_on_device(agg, V, r.data())) return;
#endif
    for_each(loc, agg.fine_volume * 2 * V.half, BlockRotateKernel<Real>{agg, V, r.data()});
  };
  for (int pass = 0; pass < 2; ++pass) {
    gram();
    for_each(loc, aggregates, BlockCholeskyInverseKernel{r.data(), V.nv});
    rotate();
  }
}

}  // namespace lqcd
