#pragma once
// The transfer between two coarse levels of the multigrid (the second and third level,
// solvers/multigrid/multigrid.hpp): the finer level's coarse lattice cut into blocks (solvers/multigrid/aggregation.hpp,
// Aggregation::make_coarse), n_v test vectors on it split by the finer level's chirality (its first
// dof_f / 2 components gamma_5 = +1) and orthonormalised per block and chirality, exactly as the
// finest level's TransferOperator does with spinors; so the coarser operator P^dag A P
// (CoarseOperator::build_galerkin) keeps the gamma_5-structure again.

#include <cstdint>
#include <string>

#include "core/geometry.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/coarse_transfer_kernels.hpp"

namespace lqcd {

template <typename Real>
class CoarseTransferOperator {
 public:
  // fine: the finer coarse lattice with dof_f components per site (even); this process's part of it
  // where it is split over `grid`. Throws naming `key` for a block that does not tile it.
  CoarseTransferOperator(const CoarseLattice& fine, int dof_f, const Dims& block, int test_vectors, Location loc,
                         const std::string& key, const Dims& grid = {1, 1, 1, 1});

  const Aggregation& aggregation() const { return agg_; }
  Location location() const { return v_.location(); }
  int test_vectors() const { return nv_; }
  int fine_dof() const { return dof_f_; }
  int coarse_dof() const { return 2 * nv_; }
  CoarseField<Real> make_coarse() const { return CoarseField<Real>(agg_.coarse, coarse_dof(), location()); }
  CoarseField<Real> make_fine() const { return CoarseField<Real>(fine_, dof_f_, location()); }
  CoarseTestVectors<Real> vectors() const { return {v_.data(), dof_f_, nv_}; }

  void set_vector(int k, const CoarseField<Real>& v);
  void get_vector(int k, CoarseField<Real>& v) const;
  // Gaussian random components keyed by (seed, component, k), the components numbered on the whole
  // finer lattice: placement is its decomposition over the processes (global, local = the finer lattice
  // here, offset), so that any split gives the whole lattice's numbers.
  void random_field(CoarseField<Real>& v, std::uint64_t seed, int k, const Geometry& placement) const;
  void random_field(CoarseField<Real>& v, std::uint64_t seed, int k) const {  // the finer lattice whole here
    random_field(v, seed, k, whole_geometry(fine_));
  }
  void orthonormalise();

  void prolong(CoarseField<Real>& fine, const CoarseField<Real>& coarse) const;      // fine = P coarse
  void prolong_add(CoarseField<Real>& fine, const CoarseField<Real>& coarse) const;  // fine += P coarse
  void restrict_to(CoarseField<Real>& coarse, const CoarseField<Real>& fine) const;  // coarse = P^dag fine
  // The same for each column of N right-hand sides (blocks of equal width).
  void prolong(CoarseBlockField<Real>& fine, const CoarseBlockField<Real>& coarse) const;
  void restrict_to(CoarseBlockField<Real>& coarse, const CoarseBlockField<Real>& fine) const;

 private:
  void check_fine(const CoarseField<Real>& f) const;
  void check_blocks(const CoarseBlockField<Real>& fine, const CoarseBlockField<Real>& coarse) const;
  CoarseLattice fine_;
  int dof_f_;
  AggregationTables tables_;
  Aggregation agg_;
  int nv_;
  Buffer<Complex<Real>> v_;
};

}  // namespace lqcd
