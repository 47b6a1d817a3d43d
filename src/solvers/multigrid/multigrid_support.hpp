#pragma once
// What the multigrid's files share (solvers/multigrid/multigrid.cpp, multigrid_block_cycle.cpp,
// multigrid_solve.cpp): a stopwatch for its time split (MultigridTimings), which finishes device work at
// both ends of the stretch so that it is counted where it was queued, the block coarse solve, and the
// advice added to an allocation failure.

#include "core/error.hpp"
#include "core/memory.hpp"
#include "core/timer.hpp"
#include "solvers/multigrid/multigrid.hpp"

namespace lqcd {

inline void synchronise(Location loc) {
  if (loc == Location::Device) detail::device_synchronize();
}

// Adds the seconds of its own lifetime to `seconds`.
class Section {
 public:
  Section(double& seconds, Location loc) : seconds_(seconds), loc_(loc) { synchronise(loc_); }
  ~Section() {
    synchronise(loc_);
    seconds_ += watch_.seconds();
  }
  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;

 private:
  double& seconds_;
  Location loc_;
  Stopwatch watch_;
};

// N coarse systems A x_j = b_j solved together by `gcr` (from x = 0), in even-odd form where schur is not
// null (S x_e = rhs_e in schur_rhs, then x_o from x_e), else on A itself. The block cycle's coarse solves
// of two levels and its third-level solves.
template <typename Real>
std::vector<GcrOutcome> solve_block_system(CoarseBlockGcr<Real>& gcr, const CoarseOperator<Real>& A,
                                           CoarseSchurComplement<Real>* schur, CoarseBlockField<Real>& schur_rhs,
                                           CoarseBlockField<Real>& x, const CoarseBlockField<Real>& b, const GcrControl& c) {
  if (!schur)
    return gcr.solve([&A](CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) { A.apply(out, in); }, x, b, c);
  schur->prepare(schur_rhs, b);
  std::vector<GcrOutcome> o = gcr.solve(
      [schur](CoarseBlockField<Real>& out, const CoarseBlockField<Real>& in) { schur->apply(out, in); }, x, schur_rhs, c);
  schur->reconstruct(x);
  return o;
}

// f(), with an allocation failure's message completed by what the multigrid holds and the keys that
// make it smaller (the fields are allocated in setup and in the solve).
template <typename F>
void with_memory_advice(const MultigridParams& p, const F& f) {
  try {
    f();
  } catch (const OutOfMemory& e) {
    throw OutOfMemory(fmt::format("multigrid: {} (it holds {}); lower multigrid.outer_restart (8 fits a 48^4 lattice "
                                  "in 80 GB) or multigrid.test_vectors, or split the lattice over more processes (--grid)",
                                  e.what(), multigrid_memory_summary(p)));
  }
}

}  // namespace lqcd
