#pragma once
// Quark propagators: the 12 solves M psi = eta_{s,c} for the spin-colour components of one source
// (sources.hpp), optionally through the even-odd (Schur) operator, with optional Gaussian smearing
// at the source and at the sink. Every solution is checked against the full (unpreconditioned)
// operator: the relative residual ||eta - M psi|| / ||eta|| must reach the solver tolerance, so an
// even-odd solve can never hand back a solution that only solves the preconditioned system.
// On a decomposed lattice (the operators' geometry) this is collective, and the result holds this
// rank's box of the propagator.

#include <functional>
#include <memory>

#include "dirac/gaussian_smearing.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "measure/meson_correlator.hpp"
#include "measure/sources.hpp"
#include "solvers/multigrid/multigrid.hpp"
#include "solvers/solver.hpp"

namespace lqcd {

// A multigrid set up by an earlier solve_sources call, for the next ones on the same operator (the
// perambulators' 4 nv solves come in blocks of up to 12; one setup serves them all).
struct MultigridCache {
  std::unique_ptr<MultigridPreconditioner<float>> single;
  std::unique_ptr<MultigridPreconditioner<double>> double_;
};

struct PropagatorOptions {
  SolverParams solver;
  // Gaussian smearing of the source and of the sink with these (usually APE-smeared) links;
  // nullptr or zero iterations: none.
  const GaugeField<double>* smearing_links = nullptr;
  GaussianParams source_smearing;
  GaussianParams sink_smearing;
  // Solve the sources together: with solver.type CG the 12 even-odd systems by the multi-RHS CG
  // (solvers/krylov/multi_rhs_cg.hpp; needs even_odd and the operators made with block_rhs = 12,
  // make_dirac_operators); with Multigrid the full systems by the block solve (solve_multigrid on N).
  bool multi_rhs = false;
  // solver.type = Multigrid: the multigrid's parameters (solvers/multigrid/multigrid.hpp). One setup serves the
  // 12 solves; solver.precision double or single is the precision of its cycle. The full system is
  // solved (even_odd is not used). on_multigrid_setup, when set, is told what the setup built and took.
  MultigridParams multigrid;
  std::function<void(const MultigridPreconditionerInfo&)> on_multigrid_setup;
  // When set, the multigrid is taken from here (set up and kept here the first time).
  std::shared_ptr<MultigridCache> multigrid_cache;
};

// What one of the 12 solves did, for the log.
struct PropagatorSolve {
  int spin = 0, colour = 0;
  SolverResult result;         // of the system the solver saw (the Schur complement if preconditioned)
  double full_residual = 0;    // ||eta - M psi|| / ||eta|| with the full operator
  // > 0: solved in a block of this many (multi_rhs), in block_rounds block solves (propagator.cpp).
  // result then holds this system's iterations and Schur residual, the block's inner corrections
  // (mixed precision), and its share (1 / block_rhs) of the block's seconds and FLOPs; no residual
  // history.
  int block_rhs = 0;
  int block_rounds = 0;
};

// The solves M psi_j = eta_j of count (1..12) sources eta_j = make(j), as compute_propagator makes
// them (the same solver choices, the same check of every solution with the full operator, smearing
// at the source and sink); each solution is handed to on_solution(j, psi) where it lives. The
// multi-RHS CG pads a short block with zero sources. PropagatorSolve's spin and colour are j / 3 and
// j % 3.
using SourceMaker = std::function<SpinorField<double>(int)>;
using SolutionSink = std::function<void(int, SpinorField<double>&)>;
void solve_sources(const DiracOperators& ops, bool even_odd, int count, const SourceMaker& make,
                   const PropagatorOptions& options, const SolutionSink& on_solution,
                   const std::function<void(const PropagatorSolve&)>& on_solve = {});

// ops: the quark's operators (make_dirac_operators); even_odd: solve with ops.even_odd and reconstruct,
// else with ops.full. options.solver.precision = Single solves with the single-precision copies
// (solve_mixed), which ops must then hold. options.multi_rhs solves the 12 together (even_odd only). on_solve is called after each of the 12 solves. Throws
// SolverError when a solve fails.
PointPropagator compute_propagator(const DiracOperators& ops, bool even_odd, const SourceSpec& source,
                                   const PropagatorOptions& options,
                                   const std::function<void(const PropagatorSolve&)>& on_solve = {});

}  // namespace lqcd
