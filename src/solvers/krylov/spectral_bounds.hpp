#pragma once
// The extreme eigenvalues of a Hermitian operator A estimated by the Lanczos process (C. Lanczos, J. Res.
// Nat. Bur. Standards 45 (1950) 255): k steps from a start vector give the tridiagonal T_k = V^dag A V,
// whose eigenvalues (Ritz values) lie in [lambda_min(A), lambda_max(A)]: the smallest Ritz value bounds
// A's smallest eigenvalue from above, the largest bounds A's largest from below, and both converge to
// them fastest of all Ritz values. So a Ritz value outside an interval proves A's spectrum leaves it (what
// the RHMC's check of its rational approximation's range needs); one inside proves nothing by itself.
// No reorthogonalisation: its loss makes copies of converged Ritz values, never values outside the hull.

#include "dirac/linear_operator.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

struct SpectralBounds {
  double lambda_min = 0;  // the smallest Ritz value: >= A's smallest eigenvalue
  double lambda_max = 0;  // the largest: <= A's largest eigenvalue
  int iterations = 0;     // Lanczos steps made (fewer than asked when an invariant subspace was found)
};

// `iterations` Lanczos steps on A (Hermitian) from `start` (nonzero; random for a generic estimate).
SpectralBounds lanczos_extremes(const LinearOperator<double>& A, const SpinorField<double>& start, int iterations);

}  // namespace lqcd
