#pragma once
// Steps of the multigrid setup and cycle written once for any level's fields (SpinorField on the
// finest level, CoarseField below it; the vector operations of fields/spinor_blas.hpp and
// solvers/multigrid/coarse_field.hpp): minimal-residual smoothing, the improvement of test vectors and the fixed
// number of GCR iterations it uses.

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "math/complex.hpp"
#include "solvers/krylov/flexible_gcr.hpp"

namespace lqcd {

// e = steps minimal-residual steps on A e = r from e = 0 (r_work, p_work: fields of r's shape).
// apply(out, in): out = A in. Stops early where A r vanishes (r already 0).
template <typename Field, typename Apply>
void minimal_residual_steps(const Apply& apply, Field& e, const Field& r, Field& r_work, Field& p_work, int steps) {
  set_zero(e);
  r_work.copy_from(r);
  for (int s = 0; s < steps; ++s) {
    apply(p_work, r_work);
    const double pp = norm2(p_work);
    if (!(pp > 0) || !std::isfinite(pp)) break;
    const Complex<double> pr = dot(p_work, r_work);
    const Complex<double> alpha(pr.re / pp, pr.im / pp);
    axpy(alpha, r_work, e);
    axpy(-alpha, p_work, r_work);
  }
}

// A correction for improve_test_vectors: correct(z, r) runs exactly `iterations` GCR(work.restart())
// iterations on A z = r from z = 0 (no tolerance). apply and work must outlive the returned function.
template <typename Field, typename Apply>
auto gcr_iterations_from_zero(const Apply& apply, GcrWorkspace<Field>& work, int iterations) {
  return [&apply, &work, iterations](Field& z, const Field& r) {
    GcrControl c;
    c.tolerance = 1e-30;  // a fixed number of iterations
    c.max_iterations = iterations;
    c.restart = work.restart();
    const auto identity = [](Field& out, const Field& in) { out.copy_from(in); };
    flexible_gcr(apply, identity, z, r, c, work, false);
  };
}

// Each test vector x_k <- x_k + z with z ~ A^{-1} (-A x_k) from correct(z, -A x_k) (a few Krylov
// iterations, or a multigrid cycle): inverse iteration, which leaves x_k rich in the low modes of A.
// Then x_k is made orthogonal to the vectors before it (globally, Gram-Schmidt: inverse iteration
// turns every random start towards the same lowest modes, and nearly parallel vectors would leave
// the block orthonormalisation only rounding noise; QUDA orthonormalises its null vectors likewise)
// and normalised. res, z: work fields of the vectors' shape. `what` names the level in errors.
template <typename Field>
void orthonormalise_test_vector(std::vector<Field>& vectors, std::size_t k, const char* what) {
  Field& x = vectors[k];
  if constexpr (BatchedVectorField<Field>) {
    std::vector<const Field*> earlier;
    for (std::size_t j = 0; j < k; ++j) earlier.push_back(&vectors[j]);
    classical_gram_schmidt(earlier, x);
  } else {
    for (std::size_t j = 0; j < k; ++j) axpy(-dot(vectors[j], x), vectors[j], x);
  }
  const double n2 = norm2(x);
  if (!(n2 > 0) || !std::isfinite(n2))
    fail("multigrid setup: {} test vector {} became {} (is the operator invertible at this kappa?)", what, k,
         n2 > 0 ? "not finite" : "zero");
  scale(Complex<double>(1.0 / std::sqrt(n2)), x);
}

template <typename Field, typename Apply, typename Correct>
void improve_test_vectors(const Apply& apply, const Correct& correct, std::vector<Field>& vectors, Field& res,
                          Field& z, const char* what) {
  for (std::size_t k = 0; k < vectors.size(); ++k) {
    Field& x = vectors[k];
    apply(res, x);
    scale(Complex<double>(-1.0), res);
    correct(z, res);
    axpy(Complex<double>(1.0), z, x);
    orthonormalise_test_vector(vectors, k, what);
  }
}

// The same with the corrections of res.size() vectors at a time: correct(zs, rs) on vectors of pointers
// (a block multigrid cycle). Vector k's correction depends on x_k alone (its Gram-Schmidt follows it),
// so the result is improve_test_vectors's up to the rounding of the block correction.
template <typename Field, typename Apply, typename CorrectBlock>
void improve_test_vectors_blocked(const Apply& apply, const CorrectBlock& correct, std::vector<Field>& vectors,
                                  std::vector<Field>& res, std::vector<Field>& z, const char* what) {
  const std::size_t width = res.size();
  for (std::size_t k0 = 0; k0 < vectors.size(); k0 += width) {
    const std::size_t n = std::min(width, vectors.size() - k0);
    std::vector<Field*> zs;
    std::vector<const Field*> rs;
    for (std::size_t i = 0; i < n; ++i) {
      apply(res[i], vectors[k0 + i]);
      scale(Complex<double>(-1.0), res[i]);
      zs.push_back(&z[i]);
      rs.push_back(&res[i]);
    }
    correct(zs, rs);
    for (std::size_t i = 0; i < n; ++i) {
      axpy(Complex<double>(1.0), z[i], vectors[k0 + i]);
      orthonormalise_test_vector(vectors, k0 + i, what);
    }
  }
}

}  // namespace lqcd
