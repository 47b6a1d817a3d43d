#pragma once
// The coarse levels of a multigrid whose fine lattice is split over processes (--grid): every process
// holds the whole coarse lattice ("coarse-grid agglomeration", here onto all processes at once). The
// fine level stays distributed: each process aggregates its own box (blocks never cross processes),
// restricts and prolongs there, and builds the coarse operator's rows of its own coarse sites (by
// probing with the distributed fine operator, solvers/multigrid/coarse_operator.hpp). Those parts are gathered
// once per setup into the whole coarse operator, and each coarse right-hand side once per cycle (the
// coarse vector is 2 n_v / (block volume) of a fine one: 0.75 MB for 32^4, 4^4 blocks, 24 vectors, in
// single precision). Every process then runs the same coarse solve on the same numbers, without a
// coarse halo or a global sum per coarse iteration, and takes its own sites of the solution back.
//
// This trades the coarse solves' parallel speed-up for no communication inside them, which suits a
// coarse lattice small enough for one device: split further, its per-process part would be too small
// to keep a GPU busy (the coarse levels are where GPU multigrid loses its efficiency). The fine-level
// work (smoother, transfers, setup) scales with the processes as the Krylov solvers do.

#include "core/geometry.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/coarse_operator.hpp"

namespace lqcd {

class CoarseAgglomeration {
 public:
  // fine: the (possibly distributed) fine lattice; agg: its aggregation over this process's box.
  CoarseAgglomeration(const Geometry& fine, const Aggregation& agg);

  // Whether the coarse lattice is split, i.e. gather and scatter communicate.
  bool distributed() const { return coarse_.distributed(); }
  // The whole coarse lattice, sites in lexicographic order of the global coarse coordinates.
  CoarseLattice whole() const { return CoarseLattice::of(coarse_.global); }
  // This process's part of it (the aggregation's coarse lattice).
  CoarseLattice part() const { return CoarseLattice::of(coarse_.local); }
  // The coarse lattice decomposed like the fine one.
  const Geometry& geometry() const { return coarse_; }

  // whole <- every process's part (collective). On one process a copy.
  template <typename Real>
  void gather(CoarseField<Real>& whole, const CoarseField<Real>& part) const;
  // part <- this process's sites of whole (no communication).
  template <typename Real>
  void scatter(CoarseField<Real>& part, const CoarseField<Real>& whole) const;
  // The whole coarse operator from every process's rows (collective): each process's part holds the
  // blocks of its own coarse sites, its neighbour blocks coupling to the neighbouring sites of the
  // whole lattice (across the process boundaries where they lie there).
  template <typename Real>
  void gather(CoarseOperator<Real>& whole, const CoarseOperator<Real>& part) const;

 private:
  Geometry coarse_;  // the coarse lattice decomposed like the fine one: global, local, offset, grid
};

}  // namespace lqcd
