#pragma once
// Gauge fixing to the Landau gauge (sum_mu d_mu A_mu = 0) or the Coulomb gauge (sum_{i=1..3} d_i A_i = 0
// on every time slice) by maximising the functional
//   F[U] = (1 / (3 ndir V)) sum_x sum_{mu < ndir} Re tr U_mu(x),   ndir = 4 (Landau), 3 (Coulomb),
// whose stationary points are the gauge condition. Its violation is measured by
//   theta = (1 / (3 V)) sum_x tr Delta(x)^2,   Delta(x) = sum_{mu < ndir} [A_mu(x) - A_mu(x - mu)],
// A_mu(x) the traceless part of (U_mu(x) - U_mu(x)^dag) / (2i) (the definition of QUDA and Chroma:
// theta -> 0 at the gauge; 1e-14 is a usual target in double precision).
//
// Two methods:
// - Fourier-accelerated steepest descent (C. T. H. Davies et al., Phys. Rev. D 37 (1988) 1581):
//   g(x) = exp(-i alpha F^-1[ p2max / p^2 F[Delta] ](x)), U_mu(x) <- g(x) U_mu(x) g(x + mu)^dag (alpha as
//   Davies et al.'s, whose Delta is 2i times this one: gauge_fixing_kernels.hpp), with
//   the 4D (Landau) or per-time-slice 3D (Coulomb) FFT (core/fourier_transform: FFTW on the host, cuFFT on
//   the GPU). One process only: the FFT is not distributed.
// - Overrelaxation (J. E. Mandula, M. Ogilvie, Phys. Lett. B 248 (1990) 156): a local maximisation by
//   SU(2) subgroups on even, then odd sites, raised to the power omega. Local, so it runs with --grid.
// Every iteration is an exact gauge transformation up to rounding (g from exponentials of Hermitian
// matrices or SU(2) products), so the links are not reunitarised by default: a field read from 32-bit
// storage is SU(3) only to 1e-7, and projecting it would change the plaquette by that much, while the
// rounding of 10^4 iterations in double stays near 1e-14. `reunitarize_every` > 0 projects the links
// every so many iterations.
//
// The maximum reached is a local one (a Gribov copy) that depends on the start; on smooth fields it is
// the same up to the residual global symmetry: a constant g (Landau) or one g(t) per time slice
// (Coulomb).

#include <functional>
#include <string>

#include "fields/gauge_field.hpp"

namespace lqcd {

enum class GaugeCondition { Landau, Coulomb };
enum class GaugeFixMethod { Fourier, Overrelaxation };

std::string to_string(GaugeCondition g);
std::string to_string(GaugeFixMethod m);

struct GaugeFixParams {
  GaugeCondition gauge = GaugeCondition::Landau;
  GaugeFixMethod method = GaugeFixMethod::Fourier;
  double precision = 1e-14;   // stop when theta < precision
  int max_iterations = 20000;
  double alpha = 0.08;        // steepest-descent step (Davies et al.: 0.08 near optimal; 0.1 diverges on rough fields)
  double omega = 1.7;         // overrelaxation exponent, [1, 2)
  int reunitarize_every = 0;  // 0: never (see above)
};

// Throws lqcd::Error naming PREFIX.precision, .max_iterations, .alpha, .omega or .reunitarize_every.
void check_gauge_fix_params(const GaugeFixParams& p, const std::string& prefix = "gaugefix");

struct GaugeFixQuality {
  double functional = 0;  // F above, in [-1/2, 1]
  double theta = 0;       // theta above
};

// F and theta of U for the condition (global over all processes).
GaugeFixQuality gauge_fix_quality(const GaugeField<double>& U, GaugeCondition gauge);

struct GaugeFixResult {
  int iterations = 0;  // gauge transformations applied
  bool converged = false;
  GaugeFixQuality initial, final;
  // Fourier method: the step in use at the end, and how often it was halved because F fell (a step too
  // long for the field; fix_gauge).
  double alpha = 0;
  int step_halvings = 0;
};

// Fixes U in place. `progress` (when given) sees (iteration, quality) before each iteration and at the
// end. Not reaching the precision in max_iterations is not an error here: the result says so.
GaugeFixResult fix_gauge(GaugeField<double>& U, const GaugeFixParams& p,
                         const std::function<void(int, const GaugeFixQuality&)>& progress = {});

}  // namespace lqcd
