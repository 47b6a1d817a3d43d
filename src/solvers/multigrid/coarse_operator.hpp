#pragma once
// The coarse-grid operator of a multigrid level, D_c = P^dag D P (the Galerkin product;
// solvers/multigrid/transfer_operator.hpp): for a nearest-neighbour fine operator D, a 9-point stencil on the
// coarse lattice with a dense dof x dof block per direction and site (solvers/multigrid/coarse_operator_kernels.hpp).
//
// Built from the links where D says that its couplings between sites are the Wilson hopping term
// (LinearOperator::hopping_part: Wilson, clover, twisted mass, twisted clover; on one process): the
// neighbour blocks from U and the test vectors directly, the self blocks from dof applications of D
// to P e with e = 1 at one component of every coarse site (solvers/multigrid/coarse_links_kernels.hpp): 48
// applications for 24 test vectors. Otherwise by probing: D is applied to P e for unit vectors e that
// are summed over all coarse sites of one colour (solvers/multigrid/aggregation.hpp), one column of the blocks
// per colour and coarse component, so that (colours) x (dof) applications of D give every block
// exactly, whatever D is: 16 colours for even coarse extents, 768 applications for 24 test vectors.
// A third level's operator is the Galerkin product of the second's, formed from its blocks directly.

#include <memory>

#include "dirac/linear_operator.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/coarse_halo.hpp"
#include "solvers/multigrid/coarse_operator_kernels.hpp"
#include "solvers/multigrid/coarse_transfer.hpp"
#include "solvers/multigrid/transfer_operator.hpp"

namespace lqcd {

template <typename Real>
class CoarseOperator {
 public:
  CoarseOperator(const CoarseLattice& lattice, int dof, Location loc);
  // This process's rows of a coarse lattice split over processes (solvers/multigrid/coarse_halo.hpp):
  // lattice = halo->geometry().local; apply() exchanges the faces first, and make_field() gives fields
  // whose reductions sum over the processes. Only apply(CoarseField) is defined on such an operator.
  CoarseOperator(const CoarseLattice& lattice, int dof, Location loc, std::shared_ptr<const CoarseHalo> halo);
  // The blocks of P^dag D P: D acts on full fields of T's fine lattice, at T's location.
  // Returns the number of applications of D it made.
  int build(const LinearOperator<Real>& D, const TransferOperator<Real>& T);
  // The two constructions, each on its own (build chooses): from the links needs D.hopping_part().
  int build_from_links(const LinearOperator<Real>& D, const TransferOperator<Real>& T);
  int build_by_probing(const LinearOperator<Real>& D, const TransferOperator<Real>& T);
  // The next level down: P^dag A P for the coarse operator A of the level above and the transfer T
  // between the two coarse levels (solvers/multigrid/coarse_transfer_kernels.hpp: CoarseGalerkinHopKernel,
  // CoarseGalerkinBlockSumKernel). Where A is split over processes (collective), the rows of this
  // process's blocks, each coupling to the neighbouring blocks of the whole lattice
  // (CoarseAgglomeration::gather makes the whole operator of them).
  void build_galerkin(const CoarseOperator<Real>& A, const CoarseTransferOperator<Real>& T);

  // Scales the coarse twisted mass by `factor` (CoarseTwistScaleKernel); 1: no change.
  void scale_twisted_mass(double factor);

  void apply(CoarseField<Real>& out, const CoarseField<Real>& in) const;         // D_c in
  void apply_dagger(CoarseField<Real>& out, const CoarseField<Real>& in) const;  // D_c^dag in
  // D_c on every right-hand side of a block at once, each link word read once for all of them (issue 46).
  void apply(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const;

  const CoarseLattice& lattice() const { return lattice_; }
  int dof() const { return dof_; }
  Location location() const { return a_.location(); }
  CoarseField<Real> make_field() const { return CoarseField<Real>(lattice_, dof_, location(), placement().grid); }
  // Whether this holds a split lattice's rows (the constructor with a halo).
  bool distributed() const { return halo_ != nullptr; }
  // This lattice as decomposed over the processes: the halo's decomposition where split, else whole here.
  Geometry placement() const { return halo_ ? halo_->geometry() : whole_geometry(lattice_); }
  // Such a lattice's decomposition over the processes (null where not distributed).
  const CoarseHalo* halo() const { return halo_.get(); }
  CoarseStencilView<Real> view() const { return {a_.data(), lattice_, dof_}; }
  // FLOPs of one application per coarse site: 9 blocks of dof^2 complex multiply-adds.
  double flops_per_site() const { return 9.0 * dof_ * dof_ * 8.0; }
  // Bytes of one application per coarse site: the blocks, read once, and the vectors in and out.
  double bytes_per_site() const { return bytes_per_site(1); }
  // The same for `rhs` right-hand sides in one application (blocks read once, every vector in and out).
  double bytes_per_site(int rhs) const { return (9.0 * dof_ * dof_ + 2.0 * dof_ * rhs) * sizeof(Complex<Real>); }

 private:
  void run(CoarseField<Real>& out, const CoarseField<Real>& in, int dagger) const;
  void check_shapes(const LinearOperator<Real>& D, const TransferOperator<Real>& T) const;
  void refuse_if_distributed(const char* what) const;
  CoarseLattice lattice_;
  int dof_;
  Buffer<Complex<Real>> a_;
  std::shared_ptr<const CoarseHalo> halo_;
  mutable Buffer<Complex<Real>> send_, ghost_;  // the face exchange's (grown on first use)
};

}  // namespace lqcd
