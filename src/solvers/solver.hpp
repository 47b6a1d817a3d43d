#pragma once
// Krylov solvers for M x = b with a LinearOperator (dirac/linear_operator.hpp): full-lattice
// operators or even-odd Schur complements, on host or device fields alike (the solvers use only
// M.apply / M.apply_dagger and the BLAS-1 of fields/spinor_blas.hpp).
//
//   CG        conjugate gradients on the normal equations M^dag M x = M^dag b (CGNR; M. R. Hestenes,
//             E. Stiefel, J. Res. Nat. Bur. Standards 49 (1952) 409)
//   BiCGStab  H. A. van der Vorst, SIAM J. Sci. Stat. Comput. 13 (1992) 631
//   GCR       GCR(m), restarted every m = gcr_restart iterations (S. C. Eisenstat, H. C. Elman,
//             M. H. Schultz, SIAM J. Numer. Anal. 20 (1983) 345)
//
// The stopping criterion is the true relative residual ||b - M x|| / ||b|| of the system passed in
// (for CG: of M x = b, not of the normal equations). Each method iterates on its recursively
// updated residual; when that estimate falls below the tolerance the true residual is recomputed,
// and if it is not yet met the method restarts from the current x with the true residual
// (a "reliable update"). A returned result has always met the tolerance; everything else
// (iteration limit, breakdown, NaN, stagnation) throws SolverError.
//
// Precision: solve() works in the operator's precision (double, float or Half). solve_mixed() solves a
// double-precision system with inner solves in a lower precision (single or half): defect correction
// (iterative refinement), r = b - M x in double, M_sloppy e = r to a relative tolerance delta in the
// lower precision, x += e, until ||b - M x|| / ||b|| meets the tolerance. Each correction gains a
// factor delta, so about log(tol) / log(delta) corrections are needed; the tolerance is met in double.

#include <string>
#include <utility>
#include <vector>

#include "core/error_type.hpp"
#include "dirac/linear_operator.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

// Multigrid: flexible GCR preconditioned by solvers/multigrid/multigrid.hpp (solve_multigrid; not through solve()).
enum class SolverType { CG, BiCGStab, GCR, Multigrid };
// Double: everything in double precision. Single / Half: double-precision residuals with inner
// solves in single precision / in 16-bit fixed point (math/precision.hpp; solve_mixed).
enum class SolverPrecision { Double, Single, Half };

// "cg", "bicgstab", "gcr" or "multigrid"; anything else throws lqcd::Error naming `key`.
SolverType solver_type_from_name(const std::string& name, const std::string& key = "solver.type");
std::string solver_type_name(SolverType type);
// "double", "single" or "half" (double outer, single / half inner: solve_mixed); anything else
// throws naming `key`.
SolverPrecision solver_precision_from_name(const std::string& name, const std::string& key = "solver.precision");
std::string solver_precision_name(SolverPrecision precision);

struct SolverParams {
  SolverType type = SolverType::CG;
  double tolerance = 1e-10;     // on ||b - M x|| / ||b||
  int max_iterations = 10000;   // CG and BiCGStab: 2 operator applications per iteration, GCR: 1
  int gcr_restart = 16;         // GCR: search directions kept before a restart
  SolverPrecision precision = SolverPrecision::Double;  // Single, Half: solve_mixed
  // solve_mixed: relative residual reduction of each inner solve; half-precision inner solves aim at
  // no less than kHalfInnerTolerance, what 16-bit fixed point reaches reliably.
  // 1e-5: each correction restarts the Krylov space, and at 32^4, kappa = 0.22, tolerance 1e-10 two
  // corrections of 1e-5 took 251 iterations against three of 1e-4 taking 261 (docs/performance.md).
  double inner_tolerance = 1e-5;
  // M is Hermitian and positive definite (e.g. NormalOperator): CG (type must be CG) iterates on M
  // itself, one application per iteration, and the tolerance is on ||b - M x|| / ||b|| of that system
  // (solve_hermitian). solve_mixed then corrects with CG on the sloppy M in the same way.
  bool hermitian = false;
  // solve_mixed with hermitian = true: CG in the sloppy precision with reliable updates (solve_cg_reliable)
  // when > 0, a double-precision update whenever the iterated residual has fallen by this factor below
  // its largest value since the last one; 0: defect correction, each inner CG started afresh.
  double reliable_delta = 0.1;
};

inline constexpr double kHalfInnerTolerance = 1e-3;

struct SolverResult {
  bool converged = false;
  int iterations = 0;
  double true_residual = 0;  // ||b - M x|| / ||b||, recomputed from x at the end
  double seconds = 0;
  // The iterated relative residual: entry 0 is the initial (true) one, entry k the one after iteration k.
  std::vector<double> residual_history;
  // The FLOPs counted: operator applications by DESIGN.md's counts and BLAS-1 operations by the fields
  // they touch (solvers/krylov/krylov_detail.hpp), whatever the kernels fused; and their rate over `seconds`.
  double flops = 0;
  double gflops = 0;
  SolverType type = SolverType::CG;  // which solver produced it (named by summary())
  SolverPrecision precision = SolverPrecision::Double;
  int corrections = 0;  // solve_mixed: the inner solves (defect corrections) made
  // Multi-RHS solves (multi_rhs_cg.hpp): per right-hand side, the true residual and the iterations it
  // took (iterations above counts the lock-step iterations, the most of any rhs; true_residual is the
  // largest). Empty for one-field solves.
  std::vector<double> rhs_true_residuals;
  std::vector<int> rhs_iterations;

  // One line: "cg: converged in 123 iterations, true residual 8.1e-11, 0.42 s, 12.3 GFLOPS".
  std::string summary() const;
  // Sets flops, and gflops from it and seconds (set first).
  void set_flops(double f) {
    flops = f;
    gflops = seconds > 0 ? f / seconds * 1e-9 : 0.0;
  }
};

// A solve that did not reach the tolerance: breakdown, iteration limit, NaN/Inf, stagnation.
// what() is one line naming the solver, the iteration, the residual reached and what to try.
class SolverError : public Error {
 public:
  explicit SolverError(const std::string& message, SolverResult result = {})
      : Error(message), result_(std::move(result)) {}
  // The state when the solver gave up (converged = false; true_residual is the last one computed).
  const SolverResult& result() const { return result_; }

 private:
  SolverResult result_;
};

// Solves M x = b to p.tolerance in M's precision (Real = double, float or Half; p.precision must be
// Double). x is the initial guess on entry (callers zero it) and the solution on return; x and b
// have M's shape (M.make_field()). b = 0 gives x = 0 after 0 iterations.
template <typename Real>
SolverResult solve(const LinearOperator<Real>& M, SpinorField<Real>& x, const SpinorField<Real>& b,
                   const SolverParams& p);

// Solves A x = b by conjugate gradients on A itself, which must be Hermitian and positive definite
// (e.g. NormalOperator: the fermion actions of HMC). p.type is ignored; the stopping criterion is the
// true residual ||b - A x|| / ||b||. One application of A per iteration.
template <typename Real>
SolverResult solve_hermitian(const LinearOperator<Real>& A, SpinorField<Real>& x, const SpinorField<Real>& b,
                             const SolverParams& p);

// Whether CG (on a Hermitian operator: solve_hermitian, p.hermitian; and CGNR: p.type = CG) and
// BiCGStab run stream-resident for fields at `loc` on `processes` processes: their scalars stay on the
// device and the host queues iterations ahead of the residuals it reads, with no round trip per
// iteration (solvers/krylov/resident_loop.hpp; the same iterates bit for bit); so does the multi-RHS CG
// (solvers/krylov/multi_rhs_cg.hpp). GCR keeps its host loop. In one process: on the device unless LQCD_STREAM_RESIDENT=0; with =1 for host fields
// too. On a decomposed lattice (processes > 1, every rank of the run) only with =1 (on two GPUs it
// gained nothing): the global sums stay in the stream as NCCL all-reduces, so on the device only where
// NCCL connects the ranks (comm::device_messages_available; collective: every rank must ask); host
// fields sum through MPI. Any other value of the variable is an Error.
bool stream_resident_solver(Location loc, int processes);

// Solves (A + s_k) x_k = b for every shift s_k >= 0 at once, A Hermitian positive definite, by the
// multi-shift CG (B. Jegerlehner, hep-lat/9612014; the residuals of the shifted systems are collinear
// with the base system's, r_k = zeta_k r). The base system is the smallest shift. Every x_k's true
// residual ||b - (A + s_k) x_k|| / ||b|| is recomputed; one above p.tolerance is refined by CG on its own
// system from x_k. x is resized to the shifts; result.true_residual is the largest of them.
SolverResult solve_multishift(const LinearOperator<double>& A, const std::vector<double>& shifts,
                              std::vector<SpinorField<double>>& x, const SpinorField<double>& b, const SolverParams& p);

// The same with A_sloppy, A in single precision. With p.reliable_delta > 0 (the default): the multi-shift CG
// with reliable updates, its first stretch in double and the rest in single, the solutions accumulated in
// double, to p.tolerance itself (solver.cpp, multishift_reliable_iterations). With p.reliable_delta = 0: in
// single precision to max(p.tolerance, p.inner_tolerance). Then every shift still above p.tolerance is
// refined by solve_mixed (residuals in double, CG on the single-precision shifted system).
SolverResult solve_multishift_mixed(const LinearOperator<double>& A, const LinearOperator<float>& A_sloppy,
                                    const std::vector<double>& shifts, std::vector<SpinorField<double>>& x,
                                    const SpinorField<double>& b, const SolverParams& p);

// Solves M x = b to p.tolerance (in double) with the corrections solved by M_sloppy, the same
// operator in single or half precision (Sloppy = float or Half), to p.inner_tolerance each. Throws
// SolverError when the corrections stop reducing the residual or the iterations (summed over the
// corrections) reach the limit. With p.hermitian and p.reliable_delta > 0: solve_cg_reliable.
template <typename Sloppy>
SolverResult solve_mixed(const LinearOperator<double>& M, const LinearOperator<Sloppy>& M_sloppy,
                         SpinorField<double>& x, const SpinorField<double>& b, const SolverParams& p);

// CG on a Hermitian positive-definite A to p.tolerance (true relative residual, in double) with the
// iterations in A_sloppy's precision (float or Half) and reliable updates (G. L. G. Sleijpen,
// H. A. van der Vorst, Computing 56 (1996) 141; for lattice QCD M. A. Clark et al., Comput. Phys.
// Commun. 181 (2010) 1517, Sec. 5.2): whenever the iterated residual has fallen by p.reliable_delta
// below its largest value since the last update, or below the tolerance, the sloppy partial solution
// is added to x in double and r = b - A x is recomputed in double; the search direction carries on
// (made orthogonal to the new residual, as QUDA does), so the Krylov space built so far is kept where
// defect correction (solve_mixed's other form) throws it away at every correction. x holds the
// initial guess on entry. corrections counts the reliable updates.
template <typename Sloppy>
SolverResult solve_cg_reliable(const LinearOperator<double>& A, const LinearOperator<Sloppy>& A_sloppy,
                               SpinorField<double>& x, const SpinorField<double>& b, const SolverParams& p);

}  // namespace lqcd
