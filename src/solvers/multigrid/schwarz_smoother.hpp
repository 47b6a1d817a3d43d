#pragma once
// The Schwarz alternating procedure (SAP) as the multigrid's smoother: H. A. Schwarz (1870); for lattice
// QCD M. Luscher, Comput. Phys. Commun. 156 (2004) 209, and the smoother of DD-alphaAMG (Frommer et al.,
// SIAM J. Sci. Comput. 36 (2014) A1581). The lattice is cut into the multigrid's aggregates, coloured
// red and black so that no two blocks of one colour touch; one sweep solves, for the red and then the
// black blocks, D_B delta = (r - D e) restricted to the block, D_B the Dirac operator with the block's
// outside cut off (Dirichlet), and adds delta to e. The block systems are solved approximately, all
// blocks of a colour at once, by `block_iterations` minimal-residual steps with one step length per
// block. D_B is D itself applied to a field that vanishes off the blocks of one colour, its result
// kept on those blocks: no two same-coloured blocks are neighbours, so nothing else enters. Hence the
// smoother needs nothing of D but D (Wilson, clover, twisted mass alike). Where D says what it is
// (LinearOperator::hopping_part: links, boundary phases, site term), D_B is applied on the blocks of
// the colour only, with the MR step's site sums in the same pass (SchwarzBlockOperatorKernel): half
// the sites, and no second pass over t. On the device a colour's residuals and block solves for up to
// 16 sources run in one kernel, each block's links, site term and residuals in shared memory
// (solvers/multigrid/schwarz_colour_sweep.hpp); where that does not fit, the steps of a colour for up
// to 4 sources (solvers/multigrid/schwarz_block_mr.hpp).

#include <optional>
#include <vector>

#include "dirac/linear_operator.hpp"
#include "solvers/multigrid/aggregation.hpp"

namespace lqcd {

template <typename Real>
class SchwarzSmoother {
 public:
  // D: a full-lattice operator; the blocks: agg's aggregates (even coarse extents, for the colouring).
  // Throws naming multigrid.block when a coarse extent is odd. block_iterations = 0: an unused smoother
  // (no check).
  SchwarzSmoother(const LinearOperator<Real>& D, const Aggregation& agg, int block_iterations);
  // e = `sweeps` SAP sweeps on D e = r from e = 0, or from the e given (from_guess: the multigrid's
  // post-smoothing of its iterate, z += S (r - D z) without forming r - D z on the whole lattice). Returns
  // the applications of D made (a residual on one colour's blocks counts as one).
  int smooth(SpinorField<Real>& e, const SpinorField<Real>& r, int sweeps, bool from_guess = false);
  // The same for each e[i], r[i]: the same fields as one smooth each, with the device's block solves of
  // up to kMaxSchwarzRhs sources in one launch (schwarz_block_mr.hpp; LQCD_SCHWARZ_RHS sets how many,
  // 1 for one at a time). rho: N work fields of D's shape. Returns the applications of D made.
  int smooth(const std::vector<SpinorField<Real>*>& e, const std::vector<const SpinorField<Real>*>& r,
             const std::vector<SpinorField<Real>*>& rho, int sweeps, bool from_guess = false);
  // How many sources the block smooth takes to one launch, and whether it needs a work field for each
  // (not with the colour-sweep kernel): callers group their fields by it.
  int sources_per_launch() const;
  bool needs_work_fields() const { return !sweep_; }
  // Launches of the colour-sweep kernel so far (tests: that it ran).
  int colour_sweeps() const { return colour_sweeps_; }

 private:
  // Where sweep_: the colour's block solves for all fields by schwarz_colour_sweep.hpp's kernel, their
  // right-hand sides r - D e (or r itself where `residual` is false, e = 0) formed there.
  void sweep_colour(const std::vector<SpinorField<Real>*>& e, const std::vector<const SpinorField<Real>*>& r,
                    int colour, bool residual);
  // The blocks of `colour` solved with rho[i] as their right-hand sides, e[i] += the solutions.
  void solve_colour(const std::vector<SpinorField<Real>*>& e, const std::vector<SpinorField<Real>*>& rho, int colour);
  void solve_blocks(SpinorField<Real>& e, SpinorField<Real>& s, int colour);
  // rho = r - D e on the blocks of `colour` (at least: on one process only there, BlockResidualKernel;
  // otherwise everywhere, through D).
  void residual(SpinorField<Real>& rho, const SpinorField<Real>& r, const SpinorField<Real>& e, int colour);
  const LinearOperator<Real>& D_;
  std::optional<WilsonHoppingPart<Real>> parts_;  // D's links and site term, where it gives them
  Aggregation agg_;
  int block_iterations_;
  SpinorField<Real> rho_, s_, t_;
  Buffer<Complex<double>> w_, alpha_;
  bool fused_;  // the fused device kernels where they apply (LQCD_SCHWARZ_FUSED=0: never, for comparison)
  // The colour-sweep kernel: on the device, one process, D's parts known, the blocks within its shared
  // memory (LQCD_SCHWARZ_SWEEP=0: never, the block-MR kernel and the residual pass instead).
  bool sweep_;
  int colour_sweeps_ = 0;
  int fused_rhs_;  // sources per fused launch (lowered to 1 where more do not fit), 1 .. kMaxSchwarzRhs (LQCD_SCHWARZ_RHS)
};

}  // namespace lqcd
