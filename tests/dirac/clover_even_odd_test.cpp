// Even-odd preconditioning of the Wilson-clover / twisted-clover operator: the Schur complement, the
// prepared source and the reconstruction are exact rewritings of M x = b (checked without a solver),
// M_hat^dag is the adjoint of M_hat, and it reduces to the Wilson Schur operator for c_sw = 0 or unit
// links. Plus the operator factory of the application layer.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "clover_test_support.hpp"
#include "core/error_type.hpp"
#include "dirac/clover_even_odd.hpp"
#include "dirac/dirac_operator_factory.hpp"
#include "dirac/wilson_even_odd.hpp"
#include "fields/spinor_blas.hpp"

namespace lqcd {
namespace {

using namespace clover_test;

SpinorField<double> random_field(const Geometry& g, Location loc, Subset subset, std::uint64_t seed) {
  const SpinorField<double> full = to_spinor_field(random_spinor(g, seed), g, loc);
  if (subset == Subset::Full) return full.clone(loc);
  return full.parity_part(subset == Subset::Even ? 0 : 1);
}

// |a - b| / |a|
double relative_difference(const SpinorField<double>& a, const SpinorField<double>& b) {
  SpinorField<double> d = a.clone(a.location());
  axpy(Complex<double>(-1.0), b, d);
  return std::sqrt(norm2(d) / norm2(a));
}

WilsonParams params(double kappa, double mu) {
  WilsonParams p;
  p.kappa = kappa;
  p.mu = mu;
  return p;
}

// The two lattices of the tests: hypercubic and not.
const std::vector<Geometry>& geometries() {
  static const std::vector<Geometry> g{Geometry::single_process({4, 4, 4, 4}), Geometry::single_process({4, 4, 4, 8})};
  return g;
}

std::string name(const Geometry& g) { return dims_string(g.global); }

// Every piece of two Schur operators agrees on random fields: apply, apply_dagger, prepare_source,
// reconstruct.
void expect_same_schur(const SchurOperator<double>& a, const SchurOperator<double>& b, double tol, const std::string& what) {
  const Geometry& g = a.geometry();
  const Location loc = a.location();
  const SpinorField<double> in = random_field(g, loc, Subset::Even, 31);
  SpinorField<double> oa = a.make_field(), ob = b.make_field();
  a.apply(oa, in);
  b.apply(ob, in);
  EXPECT_LT(relative_difference(oa, ob), tol) << what << ": apply";
  a.apply_dagger(oa, in);
  b.apply_dagger(ob, in);
  EXPECT_LT(relative_difference(oa, ob), tol) << what << ": apply_dagger";
  const SpinorField<double> src = random_field(g, loc, Subset::Full, 32);
  EXPECT_LT(relative_difference(a.prepare_source(src), b.prepare_source(src)), tol) << what << ": prepare_source";
  EXPECT_LT(relative_difference(a.reconstruct(in, src), b.reconstruct(in, src)), tol) << what << ": reconstruct";
}

class CloverEvenOddTest : public ::testing::TestWithParam<Location> {};

// b = M psi for a random psi: M_hat psi_e must equal the prepared source, and the reconstruction from
// psi_e must give back psi.
TEST_P(CloverEvenOddTest, SchurComplementSourceAndReconstructionAreExact) {
  for (const Geometry& geom : geometries()) {
    const GaugeField<double> U = rough_gauge(geom, GetParam(), 23);
    for (double mu : {0.0, 0.05}) {
      const WilsonParams prm = params(0.11, mu);
      const WilsonCloverOperator<double> M(U, prm, 1.2);
      const WilsonCloverEvenOddOperator<double> Mhat(U, prm, 1.2);
      EXPECT_EQ(Mhat.subset(), Subset::Even);
      const SpinorField<double> psi = random_field(geom, GetParam(), Subset::Full, 5);
      SpinorField<double> b = psi.like();
      M.apply(b, psi);
      const SpinorField<double> psi_even = psi.parity_part(0);
      SpinorField<double> lhs = Mhat.make_field();
      Mhat.apply(lhs, psi_even);
      EXPECT_LT(relative_difference(Mhat.prepare_source(b), lhs), 1e-12) << name(geom) << " mu = " << mu;
      EXPECT_LT(relative_difference(Mhat.reconstruct(psi_even, b), psi), 1e-12) << name(geom) << " mu = " << mu;
      // The same with the adjoints: M^dag psi = b' <=> M_hat^dag psi_e = b'_e + kappa (H^dag)_eo A_oo^{-dag} b'_o;
      // checked through gamma_5-hermiticity instead of a second set of methods: M_hat^dag psi_e
      // computed directly must match the Schur complement of M^dag built from its own pieces.
      SpinorField<double> bd = psi.like();
      M.apply_dagger(bd, psi);
      SpinorField<double> bd_odd = bd.parity_part(1);
      M.apply_clover_inverse(bd_odd, bd_odd, true);
      SpinorField<double> expected = Mhat.make_field();
      M.hop(expected, bd_odd, nullptr, prm.kappa, true);
      axpy(Complex<double>(1.0), bd.parity_part(0), expected);
      Mhat.apply_dagger(lhs, psi_even);
      EXPECT_LT(relative_difference(expected, lhs), 1e-12) << name(geom) << " mu = " << mu << " (dagger)";
    }
  }
}

TEST_P(CloverEvenOddTest, DaggerIsTheAdjoint) {
  for (const Geometry& geom : geometries()) {
    const GaugeField<double> U = rough_gauge(geom, GetParam(), 24);
    for (double mu : {0.0, 0.05}) {
      const WilsonCloverEvenOddOperator<double> Mhat(U, params(0.11, mu), 1.2);
      const SpinorField<double> chi = random_field(geom, GetParam(), Subset::Even, 6);
      const SpinorField<double> psi = random_field(geom, GetParam(), Subset::Even, 7);
      SpinorField<double> a = chi.like(), b = chi.like();
      Mhat.apply(a, psi);
      Mhat.apply_dagger(b, chi);
      const Complex<double> lhs = dot(chi, a), rhs = dot(b, psi);
      EXPECT_NEAR(lhs.re, rhs.re, 1e-12 * abs(lhs)) << name(geom) << " mu = " << mu;
      EXPECT_NEAR(lhs.im, rhs.im, 1e-12 * abs(lhs)) << name(geom) << " mu = " << mu;
      // not trivially Hermitian: M_hat^dag differs from M_hat
      SpinorField<double> c = chi.like();
      Mhat.apply(c, chi);
      EXPECT_GT(relative_difference(b, c), 1e-3) << name(geom) << " mu = " << mu;
    }
  }
}

// c_sw = 0: A = 1 + 2 i kappa mu gamma_5 and the clover Schur operator is the Wilson / twisted-mass one.
TEST_P(CloverEvenOddTest, ZeroCswEqualsWilsonEvenOdd) {
  for (const Geometry& geom : geometries()) {
    const GaugeField<double> U = rough_gauge(geom, GetParam(), 25);
    for (double mu : {0.0, 0.05}) {
      const WilsonParams prm = params(0.11, mu);
      const WilsonCloverEvenOddOperator<double> C(U, prm, 0.0);
      const WilsonEvenOddOperator<double> W(U, prm);
      expect_same_schur(C, W, 1e-13, name(geom) + " mu = " + std::to_string(mu));
    }
  }
}

// Unit links: F = 0, so for any c_sw the clover Schur operator is the Wilson / twisted-mass one.
TEST_P(CloverEvenOddTest, UnitGaugeEqualsWilsonEvenOdd) {
  for (const Geometry& geom : geometries()) {
    GaugeField<double> U(geom, GetParam());
    set_unit_gauge(U);
    for (double mu : {0.0, 0.05}) {
      const WilsonParams prm = params(0.11, mu);
      const WilsonCloverEvenOddOperator<double> C(U, prm, 1.2);
      const WilsonEvenOddOperator<double> W(U, prm);
      expect_same_schur(C, W, 1e-13, name(geom) + " mu = " + std::to_string(mu));
    }
  }
}

// The factory's clover operators: `full` is M, `even_odd` its Schur complement (one shared clover
// field), for clover and for twisted mass with c_sw (twisted clover).
TEST_P(CloverEvenOddTest, FactoryCloverOperatorsAreConsistent) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> U = rough_gauge(geom, GetParam(), 26);
  for (FermionAction action : {FermionAction::Clover, FermionAction::TwistedMass}) {
    FermionParams p;
    p.action = action;
    p.wilson = params(0.11, 0.05);
    p.csw = 1.2;
    const DiracOperators ops = make_dirac_operators(U, p);
    ASSERT_TRUE(ops.full && ops.even_odd);
    EXPECT_EQ(ops.full->subset(), Subset::Full);
    EXPECT_EQ(ops.even_odd->subset(), Subset::Even);
    EXPECT_EQ(ops.full->location(), GetParam());
    EXPECT_NE(dynamic_cast<const WilsonCloverEvenOddOperator<double>*>(ops.even_odd.get()), nullptr);
    const WilsonCloverOperator<double> M(U, p.wilson, p.csw);
    const SpinorField<double> psi = random_field(geom, GetParam(), Subset::Full, 8);
    SpinorField<double> a = psi.like(), b = psi.like();
    ops.full->apply(a, psi);
    M.apply(b, psi);
    EXPECT_LT(relative_difference(a, b), 1e-14) << fermion_action_name(action);
    ops.full->apply_dagger(a, psi);
    M.apply_dagger(b, psi);
    EXPECT_LT(relative_difference(a, b), 1e-14) << fermion_action_name(action);
    ops.full->apply(b, psi);
    const SpinorField<double> psi_even = psi.parity_part(0);
    SpinorField<double> lhs = ops.even_odd->make_field();
    ops.even_odd->apply(lhs, psi_even);
    EXPECT_LT(relative_difference(ops.even_odd->prepare_source(b), lhs), 1e-12) << fermion_action_name(action);
    EXPECT_LT(relative_difference(ops.even_odd->reconstruct(psi_even, b), psi), 1e-12) << fermion_action_name(action);
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, CloverEvenOddTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(WilsonCloverEvenOdd, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({8, 8, 8, 8});
  const GaugeField<double> Uh = rough_gauge(geom, Location::Host);
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  const WilsonParams prm = params(0.11, 0.05);
  const WilsonCloverEvenOddOperator<double> Mh(Uh, prm, 1.2), Md(Ud, prm, 1.2);
  const LexicographicSpinor psi = random_spinor(geom, 4);
  const SpinorField<double> ih = to_spinor_field(psi, geom, Location::Host);
  const SpinorField<double> id = to_spinor_field(psi, geom, Location::Device);
  const SpinorField<double> eh = ih.parity_part(0), ed = id.parity_part(0);
  SpinorField<double> oh = Mh.make_field(), od = Md.make_field();
  Mh.apply(oh, eh);
  Md.apply(od, ed);
  EXPECT_LT(relative_difference(oh, od.clone(Location::Host)), 1e-12) << "apply";
  Mh.apply_dagger(oh, eh);
  Md.apply_dagger(od, ed);
  EXPECT_LT(relative_difference(oh, od.clone(Location::Host)), 1e-12) << "apply_dagger";
  EXPECT_LT(relative_difference(Mh.prepare_source(ih), Md.prepare_source(id).clone(Location::Host)), 1e-12);
  EXPECT_LT(relative_difference(Mh.reconstruct(eh, ih), Md.reconstruct(ed, id).clone(Location::Host)), 1e-12);
}

// MILC's clover term (the field strength's trace kept, FermionParams::clover_trace_kept) on the device
// equals the host's, full and even-odd operators, and is another operator than the traceless one on a
// rough field (the flag reaches the device kernel).
TEST(WilsonCloverTraceKept, HostAndDeviceAgree) {
  if (!device_available()) GTEST_SKIP() << "no CUDA device: " << device_description();
  const Geometry geom = Geometry::single_process({4, 4, 4, 8});
  const GaugeField<double> Uh = rough_gauge(geom, Location::Host, 27);
  const GaugeField<double> Ud = Uh.clone(Location::Device);
  FermionParams p;
  p.action = FermionAction::Clover;
  p.wilson = params(0.11, 0.0);
  p.csw = 1.2;
  p.clover_trace_kept = true;
  const DiracOperators h = make_dirac_operators(Uh, p), d = make_dirac_operators(Ud, p);
  p.clover_trace_kept = false;
  const DiracOperators traceless = make_dirac_operators(Uh, p);
  const SpinorField<double> psi = random_field(geom, Location::Host, Subset::Full, 9);
  SpinorField<double> a = psi.like(), b = psi.like(), c = psi.like(), bd = psi.clone(Location::Device);
  const SpinorField<double> psid = psi.clone(Location::Device);
  h.full->apply(a, psi);
  d.full->apply(bd, psid);
  b.copy_from(bd.clone(Location::Host));
  EXPECT_LT(relative_difference(a, b), 1e-12) << "full operator";
  traceless.full->apply(c, psi);
  EXPECT_GT(relative_difference(a, c), 1e-4) << "trace kept against traceless";
  const SpinorField<double> e = psi.parity_part(0), ed = psid.parity_part(0);
  SpinorField<double> oh = h.even_odd->make_field(), od = d.even_odd->make_field();
  h.even_odd->apply(oh, e);
  d.even_odd->apply(od, ed);
  EXPECT_LT(relative_difference(oh, od.clone(Location::Host)), 1e-12) << "even-odd operator";
}

// ---------------------------------------------------------------------------------------------
// Factory
// ---------------------------------------------------------------------------------------------

TEST(DiracOperatorFactory, ParsesActionNames) {
  EXPECT_EQ(fermion_action_from_name("wilson"), FermionAction::Wilson);
  EXPECT_EQ(fermion_action_from_name("clover"), FermionAction::Clover);
  EXPECT_EQ(fermion_action_from_name("twisted_mass"), FermionAction::TwistedMass);
  for (FermionAction a : {FermionAction::Wilson, FermionAction::Clover, FermionAction::TwistedMass})
    EXPECT_EQ(fermion_action_from_name(fermion_action_name(a)), a);
  for (const char* bad : {"Wilson", "twisted-mass", "", "staggered"}) {
    const std::string msg = test::error_of([&] { fermion_action_from_name(bad); });
    EXPECT_EQ(msg.rfind("action: ", 0), 0u) << msg;  // the parameter's name, not an input key (app/ names those)
    EXPECT_NE(msg.find("\"wilson\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"clover\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"twisted_mass\""), std::string::npos) << msg;
  }
  const std::string msg = test::error_of([] { fermion_action_from_name("dwf", "hmc.monomial[2].action"); });
  EXPECT_NE(msg.find("hmc.monomial[2].action"), std::string::npos) << msg;
  EXPECT_NE(msg.find("dwf"), std::string::npos) << msg;
}

TEST(DiracOperatorFactory, BuildsTheOperatorsOfEachAction) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  struct Case {
    FermionAction action;
    double mu, csw;
    bool clover;
  };
  for (const Case c : {Case{FermionAction::Wilson, 0.0, 0.0, false}, Case{FermionAction::TwistedMass, 0.1, 0.0, false},
                       Case{FermionAction::Clover, 0.0, 1.2, true}, Case{FermionAction::Clover, 0.1, 1.2, true},
                       Case{FermionAction::TwistedMass, 0.1, 1.2, true}}) {
    FermionParams p;
    p.action = c.action;
    p.wilson = params(0.11, c.mu);
    p.csw = c.csw;
    const DiracOperators ops = make_dirac_operators(U, p);
    ASSERT_TRUE(ops.full && ops.even_odd);
    EXPECT_EQ(ops.full->subset(), Subset::Full);
    EXPECT_EQ(ops.even_odd->subset(), Subset::Even);
    EXPECT_EQ(ops.even_odd->geometry(), geom);
    const bool is_clover = dynamic_cast<const WilsonCloverEvenOddOperator<double>*>(ops.even_odd.get()) != nullptr;
    const bool is_wilson = dynamic_cast<const WilsonEvenOddOperator<double>*>(ops.even_odd.get()) != nullptr;
    EXPECT_EQ(is_clover, c.clover) << fermion_action_name(c.action) << " csw " << c.csw;
    EXPECT_EQ(is_wilson, !c.clover) << fermion_action_name(c.action) << " csw " << c.csw;
    if (!c.clover) {
      EXPECT_NE(dynamic_cast<const WilsonOperator<double>*>(ops.full.get()), nullptr);
    }
    EXPECT_GT(ops.full->flops_per_site(), 1320);
    EXPECT_GT(ops.even_odd->flops_per_site(), 2 * 1320);
  }
}

TEST(DiracOperatorFactory, RejectsBadParameters) {
  const Geometry geom = Geometry::single_process({4, 4, 4, 4});
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto error = [&](FermionAction action, double kappa, double mu, double csw) {
    FermionParams p;
    p.action = action;
    p.wilson = params(kappa, mu);
    p.csw = csw;
    return test::error_of([&] { make_dirac_operators(U, p); });
  };
  EXPECT_EQ(error(FermionAction::Clover, 0.11, 0.05, 1.2), "");
  EXPECT_NE(error(FermionAction::Wilson, 0.0, 0.0, 0.0).find("kappa: must be positive"), std::string::npos);
  EXPECT_NE(error(FermionAction::Clover, -0.1, 0.0, 1.0).find("kappa: must be positive"), std::string::npos);
  EXPECT_NE(error(FermionAction::Clover, nan, 0.0, 1.0).find("kappa: must be a finite number"), std::string::npos);
  EXPECT_NE(error(FermionAction::TwistedMass, 0.11, nan, 0.0).find("mu: must be a finite number"), std::string::npos);
  EXPECT_NE(error(FermionAction::Clover, 0.11, 0.0, nan).find("csw: must be a finite number"), std::string::npos);
  EXPECT_EQ(error(FermionAction::Clover, 0.11, 0.0, -1.0), "");  // unusual, not wrong
  EXPECT_NE(error(FermionAction::Clover, std::numeric_limits<double>::infinity(), 0.0, 1.0).find("kappa: must be a finite"),
            std::string::npos);
  // wilson with a clover coefficient or a twisted mass is a mistake, not silently something else
  EXPECT_NE(error(FermionAction::Wilson, 0.11, 0.0, 1.0).find("csw = 1 is set"), std::string::npos);
  EXPECT_NE(error(FermionAction::Wilson, 0.11, 0.1, 0.0).find("mu = 0.1 is set"), std::string::npos);
}

// The closed-form zero-mode test against a brute-force minimum of |D(p)|^2 over every momentum of the
// lattice (the formula written out here, not the function's reasoning about Brillouin-zone corners).
double min_free_eigenvalue_squared(const WilsonParams& w, const Dims& dims) {
  double best = std::numeric_limits<double>::infinity();
  for (int n0 = 0; n0 < dims[0]; ++n0)
    for (int n1 = 0; n1 < dims[1]; ++n1)
      for (int n2 = 0; n2 < dims[2]; ++n2)
        for (int n3 = 0; n3 < dims[3]; ++n3) {
          const int n[4] = {n0, n1, n2, n3};
          double a = w.mass(), s2 = 0;
          for (int mu = 0; mu < 4; ++mu) {
            const double theta = std::atan2(w.boundary.phase[mu].im, w.boundary.phase[mu].re);
            const double p = (2 * M_PI * n[mu] + theta) / dims[std::size_t(mu)];
            a += 1 - std::cos(p);
            s2 += std::sin(p) * std::sin(p);
          }
          best = std::min(best, a * a + s2 + w.mu * w.mu);
        }
  return best;
}

TEST(DiracOperatorFactory, FreeFieldZeroModesExactlyWhereTheSpectrumVanishes) {
  const Complex<double> P(1), A(-1);
  const FermionBoundary boundaries[] = {{{P, P, P, P}}, {{P, P, P, A}}, {{A, A, A, A}}, {{A, P, A, P}}};
  const Dims lattices[] = {{4, 4, 4, 4}, {4, 4, 4, 8}, {3, 4, 4, 5}, {2, 3, 2, 3}};
  // m0 = 0, -2, -4 (kappa undefined: skipped), -6, -8 are the candidates; the others never vanish.
  const double kappas[] = {0.125, 0.25, -0.25, -0.125, 0.15, 0.12, 0.13, 0.2, 1.0, -0.15};
  int singular = 0, regular = 0;
  for (const auto& bc : boundaries)
    for (const Dims& dims : lattices)
      for (double kappa : kappas)
        for (double mu : {0.0, 0.1, 4.0}) {
          WilsonParams w;
          w.kappa = kappa;
          w.mu = mu;
          w.boundary = bc;
          const bool vanishes = min_free_eigenvalue_squared(w, dims) < 1e-20;
          const auto mode = free_field_zero_mode(w, dims);
          EXPECT_EQ(mode.has_value(), vanishes) << "kappa " << kappa << " mu " << mu << " dims " << dims_string(dims);
          (vanishes ? singular : regular)++;
          if (vanishes)
            EXPECT_NE(test::error_of([&] { check_free_field_invertible(w, dims); }).find("kappa = "),
                      std::string::npos);
          else
            EXPECT_NO_THROW(check_free_field_invertible(w, dims));
        }
  EXPECT_GT(singular, 10);  // the table has both kinds
  EXPECT_GT(regular, 100);
  // The input of other codes' regression tests, kappa = 0.15 (m0 = -2/3) on a periodic 4^4 free field,
  // runs: min_p |M(p)|^2 = (2 kappa m0)^2 = 0.04, at p = 0. kappa = 1/8 (m0 = 0) is singular there, and
  // invertible with antiperiodic time on an even T.
  WilsonParams w;
  w.kappa = 0.15;
  w.boundary = {{P, P, P, P}};
  EXPECT_NO_THROW(check_free_field_invertible(w, {4, 4, 4, 4}));
  w.kappa = 0.125;
  EXPECT_EQ(test::error_of([&] { check_free_field_invertible(w, {4, 4, 4, 4}); }),
            "kappa = 0.125 (m0 = 0) makes the free-field operator singular on 4x4x4x4: the momentum p = (0, "
            "0, 0, 0) is an exact zero mode with these boundary conditions (m0 = -2 x the number of components equal "
            "to pi); change kappa, give a twisted mass or change the boundary conditions");
  w.boundary = {{P, P, P, A}};
  EXPECT_NO_THROW(check_free_field_invertible(w, {4, 4, 4, 8}));
  w.kappa = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(test::error_of([&] { check_free_field_invertible(w, {4, 4, 4, 4}); }).find("kappa: must be a finite"),
            std::string::npos);
}

}  // namespace
}  // namespace lqcd
