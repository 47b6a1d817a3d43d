#pragma once
// The transfer between a fine spinor field and a multigrid coarse field: aggregation-based
// prolongation P with n_v test vectors, as in DD-alphaAMG (A. Frommer, K. Kahl, S. Krieg, B. Leder,
// M. Rottmann, SIAM J. Sci. Comput. 36 (2014) A1581) and QUDA's multigrid (R. Babich et al.,
// PRL 105 (2010) 201602; M. A. Clark et al., SC16). The fine lattice is cut into blocks (the
// aggregates, solvers/multigrid/aggregation.hpp); on each block each test vector is split into its two
// chiralities, and the 2 n_v pieces, orthonormalised per block and chirality, are the columns of P
// belonging to that coarse site. So P^dag P = 1, and gamma_5 P = P gamma_5^c with gamma_5^c = +1 on the
// first n_v coarse components and -1 on the rest: the coarse operator P^dag D P inherits D's
// gamma_5-hermiticity. Restriction is R = P^dag.
//
// Real = double or float: the precision of the vectors, the fields and the arithmetic.

#include <cstdint>
#include <string>
#include <vector>

#include "dirac/hopping_part.hpp"
#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "fields/spinor_field.hpp"
#include "solvers/multigrid/aggregation.hpp"
#include "solvers/multigrid/transfer_kernels.hpp"

namespace lqcd {

template <typename Real>
struct SpinorFieldsView;  // solvers/multigrid/transfer_block_kernels.hpp

template <typename Real>
class TransferOperator {
 public:
  // Test vectors uninitialised (set_vector, then orthonormalise). Throws naming `key` for a block that
  // does not tile the lattice (Aggregation::make).
  TransferOperator(const Geometry& fine, const Dims& block, int test_vectors, Location loc,
                   const std::string& key = "multigrid.block");

  const Geometry& fine_geometry() const { return fine_; }
  const Aggregation& aggregation() const { return agg_; }
  Location location() const { return v_.location(); }
  int test_vectors() const { return nv_; }
  int coarse_dof() const { return 2 * nv_; }
  CoarseField<Real> make_coarse() const { return CoarseField<Real>(agg_.coarse, coarse_dof(), location()); }
  SpinorField<Real> make_fine() const { return SpinorField<Real>(fine_, location()); }

  void set_vector(int k, const SpinorField<Real>& v);
  void get_vector(int k, SpinorField<Real>& v) const;
  // Gaussian random field keyed by (seed, global site, k): the same on any device and thread count.
  void random_field(SpinorField<Real>& v, std::uint64_t seed, int k) const;
  // Orthonormalises the vectors on every block and chirality (and packs their 16-bit copy when the
  // transfers use one).
  void orthonormalise();
  // The transfers from a 16-bit copy of the vectors (multigrid.transfer_half; single precision only):
  // half the bytes they read. The coarse operator is still built from the single-precision vectors.
  void use_half_vectors(bool on);

  void prolong(SpinorField<Real>& fine, const CoarseField<Real>& coarse) const;          // fine = P coarse
  void prolong_add(SpinorField<Real>& fine, const CoarseField<Real>& coarse) const;      // fine += P coarse
  void restrict_to(CoarseField<Real>& coarse, const SpinorField<Real>& fine) const;      // coarse = P^dag fine
  // The same for N <= kMaxCoarseBlockRhs fields at once, field j to and from column j of a coarse block
  // at least N wide (issue 46; solvers/multigrid/transfer_block_kernels.hpp): the test vectors are read once
  // for a tile of fields instead of once per field. Each column equals the single-field result bit for
  // bit; the block's columns from N on are left as they are.
  void restrict_block(CoarseBlockField<Real>& coarse, const std::vector<const SpinorField<Real>*>& fine) const;
  void prolong_block(const std::vector<SpinorField<Real>*>& fine, const CoarseBlockField<Real>& coarse,
                     bool add) const;

  // Probing (solvers/multigrid/coarse_operator.hpp): the probe of a colour (or kAllColours) and column, and the
  // coarse blocks' column from the fine operator applied to it.
  void probe(SpinorField<Real>& out, int colour, int col) const;
  // work: fine volume x coarse_dof() complex numbers (make_probe_work()).
  void restrict_probe(const CoarseStencilView<Real>& A, const SpinorField<Real>& D_probe, int colour, int col,
                      Buffer<Complex<Real>>& work) const;
  Buffer<Complex<Real>> make_probe_work() const {
    return Buffer<Complex<Real>>(std::size_t(fine_.volume()) * std::size_t(coarse_dof()), location());
  }
  // From the links (solvers/multigrid/coarse_links_kernels.hpp): the neighbour blocks A_d, d = 1 .. 8, from the
  // hopping part H of D; then the self block's column col from c = P^dag D (probe of every block, column
  // col), restricted.
  void hopping_blocks(const CoarseStencilView<Real>& A, const WilsonHoppingPart<Real>& H) const;
  void self_block_from_restriction(const CoarseStencilView<Real>& A, const CoarseField<Real>& c, int col) const;

 private:
  TestVectors<Real> vectors() const { return {v_.data(), nv_}; }
  HalfTestVectors half_vectors() const { return {v_half_.data(), v_half_scale_.data(), nv_}; }
  void pack_half_vectors();  // the 16-bit copy from v_ (where there is one)
  // f(the vectors the transfers read): vectors(), or the 16-bit copy.
  template <typename F>
  void with_transfer_vectors(F&& f) const;
  void check_fine(const SpinorField<Real>& f) const;
  void prolong_one(SpinorField<Real>& fine, const CoarseField<Real>& coarse, bool add) const;
  // The fields f to and from the columns of `coarse` (a coarse block, or a coarse field as one column):
  // the block kernels with the tile for f.n fields.
  void restrict_fields(const CoarseBlockView<Real>& coarse, const SpinorFieldsView<Real>& f) const;
  void prolong_fields(const SpinorFieldsView<Real>& f, const CoarseBlockView<Real>& coarse, bool add) const;
  // Throws unless `fields` fields fit a coarse block of `coarse`'s shape.
  void check_block(std::size_t fields, const CoarseBlockField<Real>& coarse) const;
  Geometry fine_;
  AggregationTables tables_;
  Aggregation agg_;  // tables_.aggregation()
  int nv_;
  Buffer<Complex<Real>> v_;
  Buffer<Complex<std::int16_t>> v_half_;  // empty unless use_half_vectors(true)
  Buffer<float> v_half_scale_;
};

}  // namespace lqcd
