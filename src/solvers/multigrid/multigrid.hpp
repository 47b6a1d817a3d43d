#pragma once
// Two- and three-level adaptive aggregation multigrid for the Dirac equation D x = b on the full lattice, after
// DD-alphaAMG (A. Frommer, K. Kahl, S. Krieg, B. Leder, M. Rottmann, SIAM J. Sci. Comput. 36 (2014)
// A1581) and QUDA's multigrid (M. A. Clark, B. Joo, A. Strelchenko, M. Cheng, A. Gambhir, R. Brower,
// SC16, arXiv:1612.07873).
//
//   Setup     n_v random fields, each smoothed towards the near-null space of D by inverse iteration
//             (setup_sweeps Schwarz sweeps, then setup_iterations GCR(8) iterations on D x = 0), split into chiralities and
//             orthonormalised per block (solvers/multigrid/transfer_operator.hpp); the coarse operator
//             D_c = P^dag D P (solvers/multigrid/coarse_operator.hpp); then adaptive_cycles bootstrap passes that
//             improve every test vector with the two-level cycle itself (x <- x - K D x) and rebuild.
//   Cycle K   z = S^pre r; r' = r - D z; z += P D_c^{-1} P^dag r' (the coarse system solved by GCR to
//             coarse_tolerance, at most coarse_max_iterations, in even-odd form where the coarse
//             extents allow: solvers/multigrid/coarse_schur.hpp); r'' = r - D z; z += S^post r'';
//             S = sweeps of the Schwarz alternating procedure over the aggregates (SAP, as DD-alphaAMG;
//             solvers/multigrid/schwarz_smoother.hpp) or minimal-residual (MR) steps on D e = r, from e = 0.
//   Solve     flexible GCR in double precision with K as the right preconditioner (K in the
//             precision Real of its operator: float for production, double for checks).
//   3 levels  the second level's coarse lattice aggregated again (coarse_block, coarse_test_vectors
//             from coarse_setup_iterations GCR(8) iterations on D_c x = 0; solvers/multigrid/coarse_transfer.hpp),
//             D_cc = P_c^dag D_c P_c (CoarseOperator::build_galerkin; at the setup's first and last rebuild,
//             the adaptive cycles between keeping the earlier one); the coarse solve is then flexible
//             GCR on D_c (coarse_tolerance, coarse_max_iterations) preconditioned by
//             K_c r = P_c D_cc^{-1} P_c^dag r followed by coarse_smoothing MR steps on D_c, the third
//             level solved exactly by the dense inverse of its even-odd form where it has at most
//             coarsest_direct_max unknowns (solvers/multigrid/coarse_direct_solve.hpp), else by GCR (even-odd
//             where possible) to coarsest_tolerance: the K-cycle.
//   --grid    the fine level distributed as D is, the coarse levels whole on every process
//             (solvers/multigrid/coarse_agglomeration.hpp): restriction gathers, prolongation scatters; or,
//             with coarse_distributed, the second level split as the fine one (solvers/multigrid/coarse_halo.hpp)
//             and a third gathered whole (ThirdLevel).
//
// The preconditioner keeps references to its fine operator, which must outlive it.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dirac/linear_operator.hpp"
#include "solvers/multigrid/coarse_agglomeration.hpp"
#include "solvers/multigrid/coarse_block_gcr.hpp"
#include "solvers/multigrid/coarse_direct_solve.hpp"
#include "solvers/multigrid/coarse_gcr.hpp"
#include "solvers/multigrid/coarse_operator.hpp"
#include "solvers/multigrid/coarse_schur.hpp"
#include "solvers/multigrid/coarse_transfer.hpp"
#include "solvers/krylov/flexible_gcr.hpp"
#include "solvers/multigrid/schwarz_smoother.hpp"
#include "solvers/solver.hpp"
#include "solvers/multigrid/transfer_operator.hpp"

namespace lqcd {

// The fine-level smoother: Schwarz (SAP, solvers/multigrid/schwarz_smoother.hpp; pre_smoothing / post_smoothing
// count its sweeps) or minimal-residual steps on D (they count MR steps).
enum class MultigridSmoother { Schwarz, MR };

struct MultigridParams {
  Dims block{4, 4, 4, 4};         // fine sites per aggregate in each direction
  int test_vectors = 24;          // n_v: the coarse operator has 2 n_v components per site
  int setup_iterations = 40;      // GCR(8) iterations on D x = 0 for each test vector
  // Before them, Schwarz sweeps x <- x - S D x (SAP iterations on D x = 0) on all test vectors together:
  // smoother iterations as in DD-alphaAMG's initial setup (Frommer et al., Sec. 4, which applies the SAP
  // smoother to the vectors as right-hand sides, v <- S v, instead). Needs the Schwarz smoother; 0: none.
  int setup_sweeps = 0;
  int adaptive_cycles = 3;        // bootstrap passes with the cycle (3: docs/performance.md, second part)
  MultigridSmoother smoother = MultigridSmoother::Schwarz;
  int pre_smoothing = 0;          // smoother sweeps (SAP) or steps (MR) before the coarse correction
  int post_smoothing = 2;         // after it
  int block_iterations = 4;       // SAP: MR steps on each block system
  double coarse_tolerance = 0.1;  // relative residual of each coarse solve
  int coarse_max_iterations = 50;
  int coarse_restart = 16;        // GCR(m) on the coarse lattice
  // The coarse system solved in even-odd form (solvers/multigrid/coarse_schur.hpp) where every coarse extent is
  // even; otherwise, or false, on the whole coarse lattice.
  bool coarse_even_odd = true;
  // The even-odd coarse operator's hopping blocks in 16-bit fixed point in the coarse solves (half the
  // bytes; solvers/multigrid/coarse_schur_kernels.hpp).
  bool coarse_half = false;
  // The fine level's restriction and prolongation from a 16-bit copy of the test vectors (half the bytes
  // they read; the coarse operator still from the single-precision ones). Single-precision cycle only.
  bool transfer_half = false;
  // The coarse solves (the third level's with 3 levels) deflated by the restrictions of the level
  // above's test vectors, split by chirality (solvers/multigrid/coarse_deflation.hpp).
  bool coarse_deflation = false;
  // The coarse level split over the processes as the fine one is (solvers/multigrid/coarse_halo.hpp: each
  // process its own coarse sites, D_c with a face exchange, GCR with global sums) instead of whole on every
  // process (solvers/multigrid/coarse_agglomeration.hpp). The second level's solves by host-driven GCR (in
  // even-odd form where the local coarse extents are even); a third level is gathered whole onto every
  // process (ThirdLevel); not with coarse_deflation or coarse_half.
  bool coarse_distributed = false;
  int outer_restart = 16;         // flexible GCR(m) on the fine lattice
  // Its restart cycles' corrections kept as search directions across restarts and defect-correction
  // cycles (GcrControl::recycle; LGMRES's augmentation): what a restart would forget of the slow modes.
  int outer_recycle = 0;
  // With a single-precision cycle: the restart length of the flexible GCR in double around the
  // single-precision GCR(outer_restart) cycles (solvers/multigrid/multigrid_solve.cpp), which keeps D's lowest
  // modes resolved in double near the critical mass; 0 is plain defect correction (for comparison).
  int outer_double_restart = 4;
  // Twisted mass: the coarse operator's mu times this (QUDA's coarse mu factor); 1 keeps the Galerkin
  // operator. Solutions are unchanged (the outer solve uses the fine operator); convergence may not be.
  double coarse_mu_factor = 1.0;
  // 2 or 3; 0 (the default): 3 where the coarse lattice is at least 8 sites in every direction and
  // coarse_block tiles it, else 2 (multigrid_levels). Near the critical mass two levels leave the
  // coarse system nearly singular (its GCR at its cap, the outer solve stalling on some sources); the
  // third level resolves it (docs/performance.md, multigrid).
  int levels = 0;
  Dims coarse_block{2, 2, 2, 2};            // 3 levels: second-level sites per third-level aggregate
  int coarse_test_vectors = 24;             // 3 levels: test vectors on the second level
  int coarse_setup_iterations = 20;         // their GCR(8) iterations on D_c x = 0
  int coarse_smoothing = 4;                 // MR steps on D_c after the third-level correction
  double coarsest_tolerance = 0.1;          // relative residual of each third-level solve (GCR)
  int coarsest_max_iterations = 100;
  // The third level solved exactly by the dense inverse of its even-odd operator
  // (solvers/multigrid/coarse_direct_solve.hpp) where that system has at most this many unknowns (8192:
  // 512 MB in single precision; the 4^4 x 48 level of 32^4 has 6144), else by GCR as above. 0: always GCR.
  // coarse_deflation then deflates nothing on the third level (its solve is exact).
  int coarsest_direct_max = 8192;
  std::uint64_t seed = 1;         // the random start of the test vectors
};

// Where a multigrid solve spends its time (seconds, device work synchronised at each boundary) and
// what it counted.
struct MultigridTimings {
  double setup_vectors = 0;   // random start, inverse iteration, adaptive cycles (less their rebuilds)
  double setup_coarse = 0;    // orthonormalisation and the coarse operator's construction
  double setup_orthonormalise = 0;  // of which the block orthonormalisation
  double setup_third_level = 0;     // of which the third level's (its test vectors, operator, direct inverse)
  double setup_cycles = 0;          // of setup_vectors: the bootstrap's cycles
  double smoother = 0;        // fine-level MR steps and residuals inside cycles
  double transfer = 0;        // restriction and prolongation inside cycles
  double coarse_solve = 0;    // GCR on the coarse lattice inside cycles
  double coarsest = 0;        // 3 levels, part of coarse_solve: the third-level corrections (transfers, solves)
  double coarse_smoothing = 0;  // 3 levels, part of coarse_solve: the MR steps on D_c after them
  long long cycles = 0;
  long long coarse_iterations = 0;
  long long coarsest_iterations = 0;  // third-level GCR iterations (3 levels)
  long long coarse_block_solves = 0;  // coarse solves of several right-hand sides together (block cycles)
  long long fine_applications = 0;  // of the fine operator inside cycles and the setup
  double setup() const { return setup_vectors + setup_coarse; }
  // The solves' fields (smoother .. coarse_block_solves) as b has them.
  void set_solve_timings(const MultigridTimings& b) {
    smoother = b.smoother;
    transfer = b.transfer;
    coarse_solve = b.coarse_solve;
    coarsest = b.coarsest;
    coarse_smoothing = b.coarse_smoothing;
    cycles = b.cycles;
    coarse_iterations = b.coarse_iterations;
    coarsest_iterations = b.coarsest_iterations;
    coarse_block_solves = b.coarse_block_solves;
  }
};

// What a setup built, for logs: "blocks 4x4x4x4 -> coarse 8x8x8x8 with 48 components per site".
struct MultigridPreconditionerInfo {
  Dims fine{}, block{}, coarse{};
  int coarse_dof = 0;
  int levels = 2;
  Dims coarsest{};  // 3 levels: the third level's lattice
  int coarsest_dof = 0;
  bool coarsest_direct = false;  // 3 levels: the third level solved by its dense inverse
  std::string precision;  // of the cycle: "double" or "single"
  bool coarse_even_odd = false;  // whether the coarse solves use the even-odd form
  bool coarse_distributed = false;  // whether the coarse level is split over the processes
  MultigridTimings timings;
  std::string summary() const;  // one line, the setup's times included
};

// Throws lqcd::Error naming the parameter of a value out of range by its field name, which is its key in the
// inputs' [multigrid] table (app/multigrid_input.cpp adds the table's name).
void check_multigrid_params(const MultigridParams& p);
// The number of levels p gives on a lattice of these global extents split over `grid` (p.levels, or what 0
// chooses; with coarse_distributed coarse_block must tile each process's part of the second level).
int multigrid_levels(const MultigridParams& p, const Dims& lattice, const Dims& grid = {1, 1, 1, 1});

// A lower bound of the bytes the multigrid holds per site of this process's fine box while it solves,
// beyond the operator and the solution and source: the test vectors twice (as the setup made them and
// block-orthonormalised), the cycle's fine work fields, the outer flexible GCR(outer_restart) (its
// vectors in the cycle's precision) and the coarse operator with its even-odd blocks (held whole by
// each of `processes`).
// real_bytes: 4 or 8, the cycle's precision; rhs: right-hand sides solved together (each with its
// own outer GCR). For refusing, before anything is allocated, a lattice that cannot fit (the commands'
// input checks).
double multigrid_bytes_per_site(const MultigridParams& p, int real_bytes, int processes, int rhs = 1);
// What those bytes are, for messages: "2 x 24 test vectors, the outer GCR(16) per right-hand side and the
// coarse operator" (with outer_recycle: "the outer GCR(16) with 8 recycled pairs ...").
std::string multigrid_memory_summary(const MultigridParams& p);

// The third level of a three-level hierarchy, with the second level's work fields.
// With the second level split over processes (coarse_distributed) the third is gathered whole onto
// every process (the level too small to split, as QUDA and Grid agglomerate their coarsest): each process
// aggregates, restricts and prolongs its own part of the second level, builds D_cc's rows of its own
// third-level sites (the Galerkin product reading the neighbours' test vectors across the boundaries),
// and the whole D_cc and each right-hand side are gathered; every process then solves the same system.
template <typename Real>
struct ThirdLevel {
  Geometry second;                        // the second level's decomposition over the processes
  CoarseTransferOperator<Real> transfer;  // second level -> third (this process's blocks)
  CoarseAgglomeration agglomeration;      // the third level decomposed like the second
  CoarseOperator<Real> op;                // D_cc on the whole third level
  // Second level split: this process's rows of D_cc, and its sites of r and e (null otherwise).
  std::unique_ptr<CoarseOperator<Real>> op_part;
  std::unique_ptr<CoarseField<Real>> r_part, e_part;
  std::unique_ptr<CoarseSchurComplement<Real>> schur;
  std::vector<CoarseField<Real>> vectors;  // the second level's test vectors as the setup made them
  CoarseField<Real> r, e, schur_rhs;       // third level
  CoarseField<Real> res, mr_r, mr_p, smoothed;  // second level
  CoarseGcr<Real> gcr;                     // the third level's GCR
  std::unique_ptr<CoarseDeflation<Real>> deflation;  // of its solves (null: none)
  std::unique_ptr<CoarseDirectSolve<Real>> direct;   // its direct solve instead (null: GCR)
  ThirdLevel(const CoarseOperator<Real>& Dc, const MultigridParams& p);
  void restrict_to_third(const CoarseField<Real>& f);  // r = P^dag f (collective where split)
  void prolong_from_third(CoarseField<Real>& f);       // f = P e
};

// The third level's fields for the block cycle (solvers/multigrid/multigrid_block_cycle.cpp): N columns of
// the third level's right-hand side, solution and Schur right-hand side, its block GCR, and the
// second level's block MR steps after the third-level correction.
template <typename Real>
struct ThirdLevelBlock {
  CoarseBlockField<Real> r, e, schur_rhs;
  CoarseBlockGcr<Real> gcr;
  CoarseBlockGcr<Real> smoother;  // restart 1: its minimal_residual_steps
  ThirdLevelBlock(const ThirdLevel<Real>& L, const CoarseBlockField<Real>& second, int restart)
      : r(L.r.lattice(), L.r.dof(), second.rhs(), second.location()),
        e(r.like()),
        schur_rhs(r.like()),
        gcr(r, restart),
        smoother(second, 1) {}
};

template <typename Real>
class MultigridPreconditioner {
 public:
  // D: a full-lattice operator (subset Full). Allocates the hierarchy; setup() computes it.
  MultigridPreconditioner(const LinearOperator<Real>& D, const MultigridParams& p);

  // Test vectors from random fields, coarse operator, adaptive cycles.
  void setup();
  // After D has changed slightly (the links of an HMC step): `iterations` GCR steps on D x = 0 from
  // each current test vector, then the coarse operator rebuilt; much cheaper than setup().
  void refresh(int iterations);
  // z = K r (one cycle); z and r are full fields of D's shape.
  void apply(SpinorField<Real>& z, const SpinorField<Real>& r);
  // *z[i] = K *r[i] for N right-hand sides at once (issue 46; solvers/multigrid/multigrid_block_cycle.cpp): the
  // fine-level steps one field at a time, the coarse solve of all N together (CoarseBlockGcr, the coarse
  // operator read once per iteration for all of them; with three levels the K-cycle's flexible GCR, the
  // third-level solves and the MR steps on blocks too). On one process; otherwise, or for N = 1, one
  // cycle after the other. The same cycle as apply() for each right-hand side, up to the coarse solve's
  // rounding and its columns' own stopping.
  void apply(const std::vector<SpinorField<Real>*>& z, const std::vector<const SpinorField<Real>*>& r);

  const MultigridParams& params() const { return p_; }
  const LinearOperator<Real>& fine_operator() const { return D_; }  // D in the cycle's precision
  const TransferOperator<Real>& transfer() const { return transfer_; }
  // The test vectors as the setup made them (before their block orthonormalisation).
  const std::vector<SpinorField<Real>>& test_vectors() const { return vectors_; }
  // The coarse operator on the whole coarse lattice (on every process; with coarse_distributed this
  // process's rows).
  const CoarseOperator<Real>& coarse_operator() const { return coarse_; }
  // Its even-odd form that the coarse solves use (null: they run on the whole coarse lattice).
  const CoarseSchurComplement<Real>* coarse_schur() const { return schur_.get(); }
  // c = P^dag f on the whole coarse lattice (collective on several processes).
  void restrict_to_coarse(CoarseField<Real>& c, const SpinorField<Real>& f);
  const ThirdLevel<Real>* third_level() const { return third_.get(); }  // null with two levels
  const MultigridTimings& timings() const { return t_; }
  MultigridPreconditionerInfo info() const;
  void reset_solve_timings();

 private:
  void setup_hierarchy();  // setup() without its message on an allocation failure
  void rebuild(bool third_level = true);  // third_level = false: the third level kept as it is
  void smooth(SpinorField<Real>& e, const SpinorField<Real>& r, int steps);  // e = S r
  void mr_steps(SpinorField<Real>& e, const SpinorField<Real>& r, int steps);
  void improve_vectors(int gcr_iterations, bool with_cycle);
  void solve_coarse();  // ec_ = D_c^{-1} rc_ to coarse_tolerance
  void setup_third_level();  // its test vectors from random ones, its operator
  void prolong_add_from_coarse(SpinorField<Real>& f, const CoarseField<Real>& c);  // f += P c
  void coarse_cycle(CoarseField<Real>& z, const CoarseField<Real>& r);  // z = K_c r (3 levels)
  // The same on blocks, with Az = D_c z (from the MR steps' residual where there are MR steps).
  void coarse_cycle(CoarseBlockField<Real>& z, CoarseBlockField<Real>& Az, const CoarseBlockField<Real>& r);
  void solve_coarsest();  // third level: L.e = D_cc^{-1} L.r to coarsest_tolerance
  // One field's smoothing and restriction (z = S r when pre-smoothing, the restricted residual in rc_),
  // and its prolongation and post-smoothing after the coarse solve left e_c in ec_.
  void cycle_start(SpinorField<Real>& z, const SpinorField<Real>& r);
  void cycle_finish(SpinorField<Real>& z, const SpinorField<Real>& r);
  // Their smoothing: z = S r and res = r - D z, returning res (without pre-smoothing z = 0, returning r;
  // z left as it is where `overwritten`: the block cycle's prolongation then sets it); and z += S (r - D z).
  const SpinorField<Real>& pre_smooth(SpinorField<Real>& z, const SpinorField<Real>& r, SpinorField<Real>& res,
                                      bool overwritten = false);
  void post_smooth(SpinorField<Real>& z, const SpinorField<Real>& r);
  // post_smooth on every z[i], r[i], the Schwarz smoother taking several fields to a launch.
  void post_smooth(const std::vector<SpinorField<Real>*>& z, const std::vector<const SpinorField<Real>*>& r);
  // z[i] += S (r[i] - D z[i]), `sweeps` Schwarz sweeps, in groups of the smoother's launches.
  void schwarz_from_guess(const std::vector<SpinorField<Real>*>& z, const std::vector<const SpinorField<Real>*>& r,
                          int sweeps);
  // D_c on blocks in the block cycle's K-cycle and MR steps: coarse_half_form_'s apply_full where there is
  // one, else D_c as built.
  void apply_coarse(CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) const;
  // Whether block cycles can run: this process alone holds the whole coarse level (one process, coarse
  // level neither gathered from others nor split).
  bool coarse_blocks_possible() const { return !coarse_part_ && !coarse_.distributed(); }
  void make_block(int rhs);  // the block coarse fields and GCR for at least `rhs` columns
  void release_block();      // those freed (after the setup's block cycles)
  const LinearOperator<Real>& D_;
  MultigridParams p_;
  TransferOperator<Real> transfer_;
  CoarseAgglomeration agglomeration_;
  CoarseOperator<Real> coarse_;  // the whole coarse lattice's (with coarse_distributed: this process's rows)
  // On several processes: this process's rows of D_c, and its parts of the coarse right-hand side
  // and solution (null / empty on one process, where the transfer works on coarse_'s fields).
  std::unique_ptr<CoarseOperator<Real>> coarse_part_;
  std::unique_ptr<CoarseField<Real>> rc_part_, ec_part_;
  // The test vectors as the setup made them (global fields); the transfer holds their block-
  // orthonormalised pieces, which the adaptive cycles must not start from.
  std::vector<SpinorField<Real>> vectors_;
  SpinorField<Real> res_, tmp_, e_, mr_r_, mr_p_;
  SchwarzSmoother<Real> schwarz_;
  CoarseField<Real> rc_, ec_;
  std::unique_ptr<CoarseSchurComplement<Real>> schur_;  // null: the coarse solves on the whole lattice
  // Three levels with coarse_half and LQCD_COARSE_HALF_FULL=1 (issue 46; slower on the H100 than D_c, so off by
  // default: docs/multigrid.md): D_c in the block cycle as A_0 (1 + H-hat) from 16-bit hopping blocks
  // (CoarseSchurComplement::apply_full); null: D_c.
  std::unique_ptr<CoarseSchurComplement<Real>> coarse_half_form_;
  CoarseField<Real> schur_rhs_;
  std::unique_ptr<ThirdLevel<Real>> third_;  // null: two levels
  std::unique_ptr<CoarseDeflation<Real>> deflation_;  // of the two-level coarse solves (null: none)
  // The block cycle's coarse fields and solver (made at the first block cycle, wide enough for it).
  std::unique_ptr<CoarseBlockField<Real>> rc_block_, ec_block_, schur_rhs_block_;
  std::vector<SpinorField<Real>> res_block_;  // with pre-smoothing: each field's residual, for the block restriction
  std::vector<SpinorField<Real>> post_block_;  // the block post-smoothing's work fields (one per source of a launch)
  std::unique_ptr<CoarseBlockGcr<Real>> block_gcr_;
  std::unique_ptr<ThirdLevelBlock<Real>> third_block_;  // 3 levels
  GcrWorkspace<CoarseField<Real>> coarse_work_;  // 3 levels: the coarse flexible GCR
  CoarseGcr<Real> coarse_gcr_;                   // 2 levels: the coarse GCR
  GcrWorkspace<SpinorField<Real>> setup_work_;  // the setup's GCR on D x = 0 (empty outside setup)
  static constexpr int kSetupGcrRestart = 8;
  static constexpr int kSetupBlockWidth = 12;  // test vectors per block cycle of the bootstrap
  MultigridTimings t_;
  bool ready_ = false;
};

// Solves D x = b (full lattice, double precision) to p.tolerance on ||b - D x|| / ||b|| by flexible
// GCR(outer_restart) preconditioned with K (whose operator is D in precision Sloppy: float or double).
// x is the initial guess on entry when nonzero... (callers zero it). p.max_iterations bounds the outer
// iterations. Throws SolverError when the tolerance is not met.
template <typename Sloppy>
SolverResult solve_multigrid(const LinearOperator<double>& D, MultigridPreconditioner<Sloppy>& K,
                             SpinorField<double>& x, const SpinorField<double>& b, const SolverParams& p);
// The same for N right-hand sides together (issue 46): N flexible GCRs in lockstep
// (flexible_gcr_lockstep), each stopping at its own tolerance, their cycles run as one block cycle.
// Holds per right-hand side 2 (outer_restart + outer_recycle) + 1 fields of the GCR around the cycles
// (double with a double cycle; single with a single one, inside a double GCR(outer_double_restart) of
// 2 outer_double_restart + 1 more). One result per right-hand side; its
// seconds are those of the whole block. Throws SolverError (with the first failing result) when a
// right-hand side misses the tolerance.
template <typename Sloppy>
std::vector<SolverResult> solve_multigrid(const LinearOperator<double>& D, MultigridPreconditioner<Sloppy>& K,
                                          const std::vector<SpinorField<double>*>& x,
                                          const std::vector<const SpinorField<double>*>& b, const SolverParams& p);
// The same for fields held in vectors: x[i] solves b[i].
template <typename Sloppy>
std::vector<SolverResult> solve_multigrid(const LinearOperator<double>& D, MultigridPreconditioner<Sloppy>& K,
                                          std::vector<SpinorField<double>>& x, const std::vector<SpinorField<double>>& b,
                                          const SolverParams& p) {
  std::vector<SpinorField<double>*> xp;
  std::vector<const SpinorField<double>*> bp;
  for (SpinorField<double>& f : x) xp.push_back(&f);
  for (const SpinorField<double>& f : b) bp.push_back(&f);
  return solve_multigrid(D, K, xp, bp, p);
}

}  // namespace lqcd
