#include "hmc/chronological_guess.hpp"

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "fields/spinor_blas.hpp"
#include "math/complex.hpp"

namespace lqcd {

ChronologicalGuess::ChronologicalGuess(int depth) : depth_(depth) {
  if (depth < 0 || depth > kMaxDepth)
    fail("forecast: expected 0 (off) to {} kept solutions (got {})", kMaxDepth, depth);
}

void ChronologicalGuess::record(const SpinorField<double>& x) {
  if (depth_ == 0) return;
  if (int(past_.size()) == depth_) {
    SpinorField<double> oldest = std::move(past_.front());  // reuse its storage
    past_.pop_front();
    oldest.copy_from(x);
    past_.push_back(std::move(oldest));
  } else {
    past_.push_back(x.clone(x.location()));
  }
}

void ChronologicalGuess::guess(const LinearOperator<double>& A, SpinorField<double>& x,
                               const SpinorField<double>& b) const {
  set_zero(x);
  if (past_.empty()) return;
  // q_i: the kept solutions, newest first, orthonormalised by modified Gram-Schmidt (twice); a vector
  // that is (numerically) in the span of the ones before it is left out.
  std::vector<SpinorField<double>> q;
  for (auto it = past_.rbegin(); it != past_.rend(); ++it) {
    SpinorField<double> v = it->clone(it->location());
    const double n0 = norm2(v);
    for (int pass = 0; pass < 2; ++pass)
      for (const SpinorField<double>& u : q) axpy(-dot(u, v), u, v);
    const double n = norm2(v);
    if (!(n > 1e-20 * n0) || !std::isfinite(n)) continue;
    scale(Complex<double>(1.0 / std::sqrt(n)), v);
    q.push_back(std::move(v));
  }
  const std::size_t m = q.size();
  if (m == 0) return;
  // G = q^dag A q (Hermitian positive definite), v = q^dag b; G c = v by Cholesky G = L L^dag.
  std::vector<Complex<double>> G(m * m), v(m), L(m * m);
  SpinorField<double> Aq = b.like();
  for (std::size_t j = 0; j < m; ++j) {
    A.apply(Aq, q[j]);
    for (std::size_t i = 0; i < m; ++i) G[i * m + j] = dot(q[i], Aq);
    v[j] = dot(q[j], b);
  }
  for (std::size_t j = 0; j < m; ++j) {
    double d = G[j * m + j].re;
    for (std::size_t k = 0; k < j; ++k) d -= norm2(L[j * m + k]);
    if (!(d > 0)) return;  // not positive definite to rounding: no guess (the solve starts from zero)
    L[j * m + j] = Complex<double>(std::sqrt(d));
    for (std::size_t i = j + 1; i < m; ++i) {
      Complex<double> s = G[i * m + j];
      for (std::size_t k = 0; k < j; ++k) s -= L[i * m + k] * conj(L[j * m + k]);
      L[i * m + j] = s * (1.0 / L[j * m + j].re);
    }
  }
  std::vector<Complex<double>> y(m), c(m);
  for (std::size_t i = 0; i < m; ++i) {  // L y = v
    Complex<double> s = v[i];
    for (std::size_t k = 0; k < i; ++k) s -= L[i * m + k] * y[k];
    y[i] = s * (1.0 / L[i * m + i].re);
  }
  for (std::size_t i = m; i-- > 0;) {  // L^dag c = y
    Complex<double> s = y[i];
    for (std::size_t k = i + 1; k < m; ++k) s -= conj(L[k * m + i]) * c[k];
    c[i] = s * (1.0 / L[i * m + i].re);
  }
  for (std::size_t i = 0; i < m; ++i) axpy(c[i], q[i], x);
}

}  // namespace lqcd
