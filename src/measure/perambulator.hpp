#pragma once
// Perambulators of distillation (M. Peardon et al., Phys. Rev. D 80 (2009) 054506, eq. 7): the quark
// propagator between the distillation spaces of time slices t and t0,
//   tau(t, t0)_{alpha a, beta b} = sum_{x, y} v_a(x, t)^dag M^-1(x, t; y, t0)_{alpha beta} v_b(y, t0),
// from 4 nv solves M psi = v_b(t0) e_beta (colour vector b on slice t0 in spin beta), made in blocks of
// up to 12 (the multi-RHS CG when the options ask for it), each solution projected onto every slice's
// eigenvectors by matrix products (core/dense_linear_algebra).

#include <cstdint>
#include <functional>

#include "measure/laplacian_eigenvectors.hpp"
#include "measure/propagator.hpp"

namespace lqcd {

struct Perambulator {
  int t0 = 0, nv = 0, nt = 0;  // nt: T, the global time extent
  // The sink slices this process holds (all on one process; a time-split lattice: those of E) and the
  // process grid, whose processes hold the other slices.
  int t_begin = 0, local_nt = 0;
  Dims grid{1, 1, 1, 1};
  // [t][alpha][beta]: 16 column-major nv x nv blocks per local time slice t (global t_begin + t), block
  // (alpha, beta) holding (a, b) -> tau(t, t0)_{alpha a, beta b}; where the eigenvectors lived.
  Buffer<Complex<double>> data;
  int solves = 0;
  std::int64_t iterations = 0;  // summed over the solves
  double seconds = 0;           // solves and projections

  std::int64_t block() const { return std::int64_t(nv) * nv; }
  const Complex<double>* slice(int t) const { return data.data() + std::int64_t(t) * 16 * block(); }
};

// ops on the lattice of E (one process, or split along t as E is: collective then), where E's vectors live; options as compute_propagator's
// (sink smearing must be off: the projection is the smearing). Throws SolverError when a solve fails.
Perambulator perambulator(const DiracOperators& ops, bool even_odd, const LaplacianEigenvectors& E, int t0,
                          const PropagatorOptions& options,
                          const std::function<void(const PropagatorSolve&)>& on_solve = {});

}  // namespace lqcd
