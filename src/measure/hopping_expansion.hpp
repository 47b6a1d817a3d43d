#pragma once
// The hopping-parameter expansion as variance reduction of noise estimates of the quark loops
// tr[G M^-1(x, x)] (issue 49). With M = A - kappa H in hopping form, A the site term (1, the twisted mass,
// the clover term) and H the Wilson hopping term,
//   M^-1 = sum_{k < n} (kappa A^-1 H)^k A^-1 + (kappa A^-1 H)^n M^-1,      kappa A^-1 H = 1 - A^-1 M.
// The first n terms' diagonal is taken exactly; the noise estimates only the remainder,
// eta^dag G (1 - A^-1 M)^n psi with psi = M^-1 eta. The remainder couples sites at most n - 1 hops apart only
// through its higher orders, so the noise that the near couplings of M^-1 carry is gone (C. Thron, S.-J. Dong,
// K.-F. Liu, H.-P. Ying, Phys. Rev. D 57 (1998) 1642; G. S. Bali, S. Collins, A. Schaefer, Comput. Phys.
// Commun. 181 (2010) 1570, section 3.2). The estimate stays unbiased: the exact part is added to every noise
// vector's estimate.
//
// Orders n = 2 and 4. H joins even and odd sites only, so the odd terms have no diagonal; the k = 0 term
// is A^-1(x); the k = 2 term is kappa^2 A^-1(x) sum_{y = x +- mu} H(x, y) A^-1(y) H(y, x) A^-1(x), zero for
// Wilson quarks ((1 - gamma_mu)(1 + gamma_mu) = 0) but not with a clover term or a twisted mass.
// Everything comes from M's own applications (no convention of H is restated here): A(x) from M on unit
// vectors of one parity (24 applications), the k = 2 term by probing with unit vectors on classes of
// sites of one parity of which no two lie two hops apart (a greedy colouring of the global lattice, the same
// on every process: 24 + 48 x classes applications in all, with 8 classes where every extent is a multiple of
// 4 and up to about 19 otherwise). The site term must commute
// with gamma_5 (it does for every action lqcd has): A^-1 is kept as two 6 x 6 chirality blocks per site.
// Collective on a decomposed lattice (M's applications); the per-site data are this process's box.

#include <array>
#include <vector>

#include "dirac/linear_operator.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {

struct HoppingExpansion {
  int order = 0;  // n: 0 (none), 2 or 4
  // A^-1(x) for each site of the box (lexicographic): the blocks of the chiralities gamma_5 = +1 and -1,
  // each [row][column] over (spin of the block, colour) = 2 x 3 indices.
  using ChiralBlock = std::array<std::array<Complex<double>, 6>, 6>;
  std::vector<std::array<ChiralBlock, 2>> site_inverse;
  // sum_{k < n} [(kappa A^-1 H)^k A^-1](x, x), traced over colour: the exact part of the loops at each site.
  std::vector<SpinMatrix> exact_diagonal;
};

// The expansion of the full-lattice operator M (subset Full, in hopping form) to order 0, 2 or 4; throws
// lqcd::Error for another order, or when M's site term mixes the chiralities.
HoppingExpansion hopping_expansion(const LinearOperator<double>& M, int order);

// A^-1 psi, site by site, for psi on this process's box (lexicographic). Needs order > 0.
LexicographicSpinor apply_site_inverse(const HoppingExpansion& e, LexicographicSpinor psi);

// (kappa A^-1 H)^n psi = (1 - A^-1 M)^n psi for psi on this process's box (lexicographic); psi itself for
// order 0. Collective.
LexicographicSpinor hopping_expansion_remainder(const HoppingExpansion& e, const LinearOperator<double>& M,
                                                LexicographicSpinor psi);

// The classes of the probing: class[i] for each global site (lexicographic, x fastest), such that two
// different sites of the same parity and class are never two hops apart (with the periodic wrap).
// Deterministic, so that every process finds the same classes.
std::vector<unsigned char> two_hop_classes(const Dims& global);

}  // namespace lqcd
