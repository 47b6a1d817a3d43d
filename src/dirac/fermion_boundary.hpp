#pragma once
// The fermion boundary phases of the Wilson-type operators (DESIGN.md conventions): a hop across the
// lattice boundary in +mu carries e^{i theta_mu}, one in -mu its conjugate. Its own header so that code
// which only needs the phases (the multigrid's coarse links, the input readers) does not include the
// hopping kernels (dirac/wilson_kernels.hpp).

#include "math/complex.hpp"
#include "core/macros.hpp"

namespace lqcd {

struct FermionBoundary {
  Complex<double> phase[4];  // e^{i theta_mu}: 1 periodic, -1 antiperiodic
  // Periodic or antiperiodic in every direction (the phases the input files offer).
  LQCD_HOST_DEVICE bool real() const {
    return phase[0].im == 0.0 && phase[1].im == 0.0 && phase[2].im == 0.0 && phase[3].im == 0.0;
  }
};

}  // namespace lqcd
