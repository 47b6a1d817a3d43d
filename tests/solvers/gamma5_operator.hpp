#pragma once
// gamma_5 as a LinearOperator on full-lattice host fields: Hermitian and indefinite, so that a source
// with equal weight in both chiralities has <b, gamma_5 b> = 0 and BiCGStab and GCR break down on it
// at once (the solvers must say so), while CG on gamma_5^2 = 1 converges in one iteration.
#include "dirac/linear_operator.hpp"
#include "math/gamma.hpp"
#include "field_test_support.hpp"

namespace lqcd::test {

class Gamma5Operator : public LinearOperator<double> {
 public:
  explicit Gamma5Operator(const Geometry& g) : geom_(g) {}
  void apply(SpinorField<double>& out, const SpinorField<double>& in) const override {
    LexicographicSpinor v = to_lexicographic(in);
    for (auto& s : v) s = apply_gamma(kGamma5, s);
    out.copy_from(to_spinor_field(v, geom_, Location::Host));
  }
  void apply_dagger(SpinorField<double>& out, const SpinorField<double>& in) const override { apply(out, in); }
  Subset subset() const override { return Subset::Full; }
  const Geometry& geometry() const override { return geom_; }
  Location location() const override { return Location::Host; }
  double flops_per_site() const override { return 0; }

 private:
  Geometry geom_;
};

// A source with equal weight in both chiralities (gamma_5 = diag(1, 1, -1, -1)): <b, gamma_5 b> = 0.
inline SpinorField<double> chirally_balanced_source(const Geometry& geom, std::uint64_t seed) {
  LexicographicSpinor lex = random_spinor(geom, seed, 11);
  for (auto& s : lex) {
    s.s[2] = s.s[0];
    s.s[3] = s.s[1];
  }
  return to_spinor_field(lex, geom, Location::Host);
}

}  // namespace lqcd::test
