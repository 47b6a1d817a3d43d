#pragma once
// The block orthonormalisation of a multigrid level's test vectors, written once for the finest
// level's transfer (TransferOperator, spinor fields) and the coarse levels' (CoarseTransferOperator).
//
// Block Gram-Schmidt with P and R themselves: R f holds f's inner products with every vector on every
// block and chirality, so for vector k, f <- f - P (the part of R f on vectors l < k) removes its
// projections on the earlier ones everywhere at once. Classical Gram-Schmidt applied twice ("twice is
// enough": L. Giraud, J. Langou, M. Rozloznik, J. van den Eshof, Numer. Math. 101 (2005) 87); then
// R of the stored vector k gives its block norms^2, which normalise(k, c) divides out.

#include "core/dispatch.hpp"
#include "solvers/transfer_kernels.hpp"

namespace lqcd {

template <typename Real, typename Transfer, typename Fine, typename Coarse, typename Normalise>
void block_gram_schmidt(Transfer& T, Fine& f, Coarse& c, const Normalise& normalise) {
  const int nv = T.test_vectors();
  for (int k = 0; k < nv; ++k) {
    T.get_vector(k, f);
    if (k > 0) {
      for (int pass = 0; pass < 2; ++pass) {
        T.restrict_to(c, f);
        for_each(T.location(), c.size(), EarlierProjectionsKernel<Real>{c.view().data, nv, k});
        T.prolong_add(f, c);
      }
      T.set_vector(k, f);
    }
    T.restrict_to(c, f);
    normalise(k, c);
  }
}

}  // namespace lqcd
