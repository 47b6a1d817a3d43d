#pragma once
// Initial guesses for a fermion monomial's solves A X = b along a trajectory, from its last N solutions
// (the chronological inversion method: R. C. Brower, T. Ivanenko, A. R. Levi, K. N. Orginos, Nucl. Phys.
// B 484 (1997) 353). The gauge field moves little between two force evaluations, so the new solution is
// close to the span of the previous ones; the guess is the member of that span with the least A-norm
// error, x0 = sum_i c_i q_i with (q_i^dag A q_j) c = q_i^dag b, the q_i the previous solutions
// orthonormalised (so that the small system stays well conditioned although they are nearly
// parallel). It costs one application of A per kept solution and changes nothing but the solver's start:
// the solve still runs to its tolerance. A is Hermitian and positive definite (M^dag M).

#include <deque>

#include "dirac/linear_operator.hpp"
#include "fields/spinor_field.hpp"

namespace lqcd {

class ChronologicalGuess {
 public:
  static constexpr int kMaxDepth = 16;
  // depth: solutions kept (0: off, every guess is zero). Throws naming monomial.forecast outside
  // 0..kMaxDepth.
  explicit ChronologicalGuess(int depth = 0);
  int depth() const { return depth_; }
  // x = the guess for A x = b (zero without kept solutions); x has b's shape.
  void guess(const LinearOperator<double>& A, SpinorField<double>& x, const SpinorField<double>& b) const;
  // Keeps x (a copy) as the newest solution, dropping the oldest beyond depth.
  void record(const SpinorField<double>& x);
  // Forgets every solution (a new pseudofermion: the old solutions solve another system).
  void clear() { past_.clear(); }
  int kept() const { return int(past_.size()); }

 private:
  int depth_;
  std::deque<SpinorField<double>> past_;  // oldest first
};

}  // namespace lqcd
