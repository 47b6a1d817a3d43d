#pragma once
// The optimal (minimax relative error) rational approximation of x^{-1/2} on [lambda_min, lambda_max],
// of degree [n, n]: Zolotarev's closed-form solution of the problem the Remez algorithm solves
// iteratively (E. I. Zolotarev 1877; in the form of T.-W. Chiu et al., Phys. Rev. D 66 (2002) 114502,
// eq. 13; A. D. Kennedy, Nucl. Phys. Proc. Suppl. 140 (2005) 190):
//   R(x) = scale * prod_{l=1}^{n} (x + a_l) / (x + b_l),
//   a_l = lambda_min c_{2l},  b_l = lambda_min c_{2l-1},  c_r = sn^2(r K / (2n+1); k) / cn^2(r K / (2n+1); k),
//   k^2 = 1 - lambda_min / lambda_max,  K = K(k),
// and `scale` chosen so that sqrt(x) R(x) - 1 equioscillates between -delta and +delta (the Chebyshev
// criterion of optimality, checked on a dense grid at construction; delta is reported).
// Partial fractions: R(x) = scale (1 + sum_l residue_l / (x + b_l)).

#include <vector>

namespace lqcd {

struct RationalApproximation {
  double lambda_min = 0, lambda_max = 0;
  int degree = 0;
  double scale = 0;
  std::vector<double> zeros_shift;  // a_l: R's numerator factors x + a_l
  std::vector<double> poles_shift;  // b_l: R's denominator factors x + b_l (the multi-shift CG shifts)
  std::vector<double> residues;     // R(x) = scale (1 + sum_l residues[l] / (x + b_l))
  double max_relative_error = 0;    // max |sqrt(x) R(x) - 1| on [lambda_min, lambda_max] (dense grid)
  int error_extrema = 0;            // alternating extrema of sqrt(x) R(x) - 1 found (2n + 2 for the optimum)

  double operator()(double x) const;  // R(x) from the partial fractions
};

// Throws lqcd::Error naming the key (monomial.degree, monomial.lambda_min, ...) on bad parameters.
RationalApproximation zolotarev_inverse_sqrt(int degree, double lambda_min, double lambda_max);

// Jacobi elliptic sn, cn with parameter m = k^2 (arithmetic-geometric mean; Abramowitz-Stegun 16.4),
// and the complete elliptic integral K(m).
void jacobi_sn_cn(double u, double m, double& sn, double& cn);
double elliptic_k(double m);

}  // namespace lqcd
