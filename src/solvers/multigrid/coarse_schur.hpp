#pragma once
// The coarse operator D_c = A_0 + sum_{d > 0} A_d (solvers/multigrid/coarse_operator.hpp) in even-odd form, for
// its solves inside the multigrid cycle, as DD-alphaAMG and QUDA solve their coarse grids. With the
// block-Jacobi scaling A-hat = A_0^{-1} D_c = 1 + H-hat (H-hat couples only sites of opposite parity
// when every coarse extent is even):
//   D_c x = b   <=>   S x_e = b-hat_e - H-hat_eo b-hat_o,   x_o = b-hat_o - H-hat_oe x_e,
//   S = 1 - H-hat_eo H-hat_oe,   b-hat = A_0^{-1} b.
// S is better conditioned than D_c (Krylov iterations roughly halved) and one application costs about
// one of D_c. The fields are full coarse fields whose odd sites are kept at zero in the Schur system.
// On a level split over processes (coarse_distributed) each process holds its own sites' rows (local
// extents even, so that local and global parities agree) and every parity pass first exchanges the faces
// of its input; single fields only, blocks in Real.

#include <memory>

#include "solvers/multigrid/coarse_block_field.hpp"
#include "solvers/multigrid/coarse_field.hpp"
#include "solvers/multigrid/coarse_schur_kernels.hpp"
#include "solvers/multigrid/coarse_operator.hpp"

namespace lqcd {

template <typename Real>
class CoarseSchurComplement {
 public:
  // Whether the even-odd form exists: every coarse extent even.
  static bool possible(const CoarseLattice& lattice);
  // Allocates; update() computes from the coarse operator's current blocks. Dc must outlive this.
  // half: apply() reads the hopping blocks in 16-bit fixed point (CoarseHalfStencilView); prepare()
  // and reconstruct() use them in Real.
  CoarseSchurComplement(const CoarseOperator<Real>& Dc, bool half);
  // After every build of the coarse operator. Throws lqcd::Error where a self block is singular.
  void update();

  // rhs <- b-hat_e - H-hat_eo b-hat_o (odd sites 0); keeps b-hat for reconstruct().
  void prepare(CoarseField<Real>& rhs, const CoarseField<Real>& b);
  // out <- S in on the even sites, 0 on the odd ones (in: odd sites ignored).
  void apply(CoarseField<Real>& out, const CoarseField<Real>& in) const;
  // x_o <- b-hat_o - H-hat_oe x_e, with x_e the Schur system's solution and b-hat from prepare().
  void reconstruct(CoarseField<Real>& x) const;
  // The same on every right-hand side of a block at once (issue 46), each block element read once for
  // all of them; the work fields of the block are allocated at the first call with its width.
  void prepare(CoarseBlockField<Real>& rhs, const CoarseBlockField<Real>& b);
  void apply(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const;
  void reconstruct(CoarseBlockField<Real>& x) const;
  // out <- D_c in on the whole coarse lattice from this form's blocks: A_0 (in + H-hat in), both parities'
  // hopping passes reading H-hat as apply() does (16-bit where half, on the tensor cores where
  // LQCD_COARSE_MMA), then each site's A_0. Where half, D_c to the blocks' 16-bit rounding, with half the
  // hopping bytes of CoarseOperator::apply (issue 46: the K-cycle's second level).
  void apply_full(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const;
  // The hopping blocks one apply() reads (each once): 8 dof x dof blocks per site, in 16-bit fixed
  // point with a scale each or in Real. The traffic floor of apply() on any number of right-hand sides.
  double hop_bytes() const {
    const double entries = double(kStencilDirections - 1) * double(Dc_.lattice().sites) * Dc_.dof() * Dc_.dof();
    return half_enabled_ ? entries * sizeof(Complex<std::int16_t>) +
                               double(kStencilDirections - 1) * double(Dc_.lattice().sites) * sizeof(float)
                         : entries * sizeof(Complex<Real>);
  }

 private:
  CoarseStencilView<Real> view() const { return {ahat_.data(), Dc_.lattice(), Dc_.dof()}; }
  // One parity pass over fields of `n` right-hand sides with `size` components in all.
  template <typename Rows>
  void pass(const Rows& rows, const Complex<Real>* in, const Complex<Real>* x, Complex<Real>* out, std::int64_t size,
            int n, int parity, double sign, bool zero_other) const;
  template <typename Field>
  void apply_any(Field& out, const Field& in, Field& odd) const;
  template <typename Field>
  void prepare_any(Field& rhs, const Field& b, Field& bhat) const;
  // The block work fields for `rhs` right-hand sides (made, or made again for another width).
  void ensure_block(int rhs) const;
  CoarseHalfStencilView half_view() const { return {half_.data(), half_scale_.data(), Dc_.lattice(), Dc_.dof()}; }
  // f(rows) with the hopping blocks as the passes read them: 16-bit where half, else in Real.
  template <typename F>
  void with_hop_rows(F&& f) const {
    if (half_enabled_)
      f(CoarseHalfHopRows<Real>{half_view()});
    else
      f(CoarseHopRows<Real>{view()});
  }
  const CoarseOperator<Real>& Dc_;
  Buffer<Complex<Real>> ahat_;
  bool half_enabled_;
  Buffer<Complex<std::int16_t>> half_;
  Buffer<float> half_scale_;
  // LQCD_COARSE_MMA=1: in single precision with half blocks, block passes of 4 to 16 right-hand sides on the
  // device's tensor cores (solvers/multigrid/coarse_hop_mma.hpp). Off by default until it has been run and
  // measured on a GPU (written in a session without one; docs/history/2026-12.md).
  bool mma_;
  CoarseField<Real> bhat_;
  mutable CoarseField<Real> odd_;
  mutable std::unique_ptr<CoarseBlockField<Real>> bhat_block_, odd_block_;
  mutable Buffer<Complex<Real>> halo_send_, halo_ghost_;  // a split level's face exchange (grown on first use)
};

}  // namespace lqcd
