#pragma once
// The generalised eigenvalue problem of a correlator matrix (C. Michael, Nucl. Phys. B 259 (1985) 58;
// M. Luescher and U. Wolff, Nucl. Phys. B 339 (1990) 222; B. Blossier et al., JHEP 04 (2009) 094):
//   C(t) v_n(t, t0) = lambda_n(t, t0) C(t0) v_n(t, t0),
// with the principal correlators lambda_n(t, t0) ~ e^{-E_n (t - t0)} and the effective energies
// E_n(t) = log(lambda_n(t) / lambda_n(t + 1)). C(t) is replaced by its Hermitian part (C + C^dag) / 2;
// the eigenvalues are ordered by size at each t, so that state 0 is the ground state (largest first for
// t > t0, smallest first for t < t0, where lambda = e^{-E (t - t0)} > 1), without following eigenvectors
// across t.

#include <complex>
#include <vector>

#include "math/complex.hpp"

namespace lqcd {

struct GevpResult {
  int t0 = 0, n = 0;
  std::vector<std::vector<double>> lambda;            // [t][state], lambda(t0) = 1
  std::vector<std::vector<double>> effective_energy;  // [t][state] for t = 0..T-2; NaN where undefined
};

// values[t] is the N x N matrix C(t) (row-major [i][j]) for t = 0..T-1. Throws lqcd::Error if C(t0)
// is not positive definite or t0 is outside 0..T-1.
GevpResult solve_gevp(const std::vector<std::vector<Complex<double>>>& values, int n, int t0);

}  // namespace lqcd
