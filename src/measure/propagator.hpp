#pragma once
// Quark propagators: the 12 solves M psi = eta_{s,c} for the spin-colour components of one source
// (sources.hpp), optionally through the even-odd (Schur) operator, with optional Gaussian smearing
// at the source and at the sink. Every solution is checked against the full (unpreconditioned)
// operator: the relative residual ||eta - M psi|| / ||eta|| must reach the solver tolerance, so an
// even-odd solve can never hand back a solution that only solves the preconditioned system.
// On a decomposed lattice (the operators' geometry) this is collective, and the result holds this
// rank's box of the propagator.

#include <functional>

#include "dirac/gaussian_smearing.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "measure/meson_correlator.hpp"
#include "measure/sources.hpp"
#include "solvers/solver.hpp"

namespace lqcd {

struct PropagatorOptions {
  SolverParams solver;
  // Gaussian smearing of the source and of the sink with these (usually APE-smeared) links;
  // nullptr or zero iterations: none.
  const GaugeField<double>* smearing_links = nullptr;
  GaussianParams source_smearing;
  GaussianParams sink_smearing;
};

// What one of the 12 solves did, for the log.
struct PropagatorSolve {
  int spin = 0, colour = 0;
  SolverResult result;         // of the system the solver saw (the Schur complement if preconditioned)
  double full_residual = 0;    // ||eta - M psi|| / ||eta|| with the full operator
};

// ops: the quark's operators (make_dirac_operators); even_odd: solve with ops.even_odd and reconstruct,
// else with ops.full. options.solver.precision = Single solves with the single-precision copies
// (solve_mixed), which ops must then hold. on_solve is called after each of the 12 solves. Throws
// SolverError when a solve fails.
PointPropagator compute_propagator(const DiracOperators& ops, bool even_odd, const SourceSpec& source,
                                   const PropagatorOptions& options,
                                   const std::function<void(const PropagatorSolve&)>& on_solve = {});

}  // namespace lqcd
