#pragma once
// Operations on a propagator's sink (its x), for other codes' conventions (issue 49; docs/conventions.md,
// "Other codes' conventions"):
//   rotated sink (MILC's rotate_3D, the Fermilab action's field rotation; A. X. El-Khadra, A. S. Kronfeld,
//     P. B. Mackenzie, Phys. Rev. D 55 (1997) 3933):
//       psi(x) -> psi(x) - d1 sum_{i=1..3} gamma_i (1/2) [U_i(x) psi(x + i) - U_i(x - i)^dag psi(x - i)],
//     MILC's rotate_3D_wvec, src + (d1/4)(Dslash_3D(+) - Dslash_3D(-)) src, with the Wilson hops' (1 -+ gamma)
//     forward projectors of lqcd (tests/measure/milc_clover_invert2_test.cpp reproduces MILC's sample, whose pion at
//     rest sees d1 only at second order: the sign is the code's, not checked by the sample);
//   wavefunction sink (MILC's "gaussian" sink, meant for Coulomb gauge):
//       psi(x) -> sum_{y, y_t = x_t} exp(-r(x, y)^2 / r0^2) psi(y),
//     r the periodic (minimal-image) spatial distance, the same function as the gaussian_wavefunction
//     source (measure/sources.hpp).
// Each acts on every column of S in place, one process only (the whole lattice in the box).

#include "fields/gauge_field.hpp"
#include "measure/meson_correlator.hpp"

namespace lqcd {

void rotate_sink(PointPropagator& S, const GaugeField<double>& U, double d1);
void wavefunction_sink(PointPropagator& S, double radius);

}  // namespace lqcd
