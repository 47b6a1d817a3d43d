// openQCD's open boundary conditions in time for the quarks (dirac/quark_time_boundary.hpp): the free
// wall-source propagator in closed form, the bulk operator equal to openQCD's (the periodic operator on
// fields that vanish on the boundary slices, plus the c_F term), and the boundary slices decoupled with
// the identity there; on the host and on the device.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dirac/dirac_operator_factory.hpp"
#include "dirac/quark_time_boundary.hpp"
#include "field_test_support.hpp"
#include "gauge/updates.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::max_diff;
using test::max_norm;
using test::random_spinor;

FermionParams open_params(FermionAction action, double kappa, double csw, double c_F) {
  FermionParams p;
  p.action = action;
  p.wilson.kappa = kappa;
  p.csw = csw;
  p.open_time = true;
  p.c_F = c_F;
  return p;
}

// M x as a lexicographic field (the full operator, hopping form).
LexicographicSpinor apply_full(const LinearOperator<double>& M, const LexicographicSpinor& x, const Geometry& g,
                               Location loc) {
  const SpinorField<double> in = to_spinor_field(x, g, loc);
  SpinorField<double> out = M.make_field();
  M.apply(out, in);
  return to_lexicographic(out.clone(Location::Host));
}

// With unit links and a wall source at time s (the same spin-colour vector chi on every site of the slice),
// the spatial hops give -3 in the mass form and the problem is one-dimensional: with P+- = (1 +- gamma_t) / 2,
//   D psi(t) = d(t) psi(t) - P- psi(t + 1) - P+ psi(t - 1),  d(t) = m0 + 1 + (c_F - 1) [t = 1 or T - 1],
// and psi(0) = psi(T) = 0, so that P+ psi is lower and P- psi upper bidiagonal:
//   P+ psi(t) = P+ chi prod_{u = s..t} 1 / d(u)  (s <= t <= T - 1),  P- psi(t) = P- chi prod_{u = t..s} 1 / d(u)
//   (1 <= t <= s), and lqcd's M = 2 kappa D. So M applied to that psi / (2 kappa) must give the source back, on
// every site, the boundary slices included (where both vanish). For Wilson quarks (c_F = 1) and for the clover
// action with c_F != 1 (F = 0 on unit links: the clover term is the identity, and the c_F term remains).
TEST(OpenBoundaryQuarks, FreeWallSourcePropagatorIsTheClosedForm) {
  for (const Location loc : test::locations()) {
    const Geometry g = Geometry::single_process({4, 4, 4, 10});
    GaugeField<double> U(g, loc);
    set_unit_gauge(U);
    const int T = g.global[kTimeDir] - 1;
    for (const auto& [action, csw, c_F] :
         {std::tuple{FermionAction::Wilson, 0.0, 1.0}, std::tuple{FermionAction::Clover, 1.3, 1.25},
          std::tuple{FermionAction::Clover, 0.0, 0.8}}) {
      const double kappa = 0.115;
      const DiracOperators ops = make_dirac_operators(U, open_params(action, kappa, csw, c_F));
      const double m0 = 1 / (2 * kappa) - 4;
      const auto d = [&](int t) { return m0 + 1 + (t == 1 || t == T - 1 ? c_F - 1 : 0.0); };
      const LexicographicSpinor noise = random_spinor(g, 5);
      const ColorSpinor<double> chi = noise[0];
      const ColorSpinor<double> up = Complex<double>(0.5) * (chi + apply_gamma(kTimeDir, chi));   // P+ chi
      const ColorSpinor<double> down = Complex<double>(0.5) * (chi - apply_gamma(kTimeDir, chi)); // P- chi
      for (const int s : {1, 4, T - 1}) {
        SCOPED_TRACE(std::string(to_string(loc)) + " action " + std::to_string(int(action)) + " c_F " +
                     std::to_string(c_F) + " source time " + std::to_string(s));
        LexicographicSpinor source(std::size_t(g.volume())), psi(std::size_t(g.volume()));
        const SiteIndexer idx = SiteIndexer::from(g);
        for (std::int64_t i = 0; i < g.volume(); ++i) {
          int x[4];
          idx.coords_lex(i, x);
          const int t = x[kTimeDir];
          if (t == s) source[std::size_t(i)] = chi;
          ColorSpinor<double> v{};
          if (t >= s && t <= T - 1) {
            double f = 1;
            for (int u = s; u <= t; ++u) f /= d(u);
            v += Complex<double>(f) * up;
          }
          if (t >= 1 && t <= s) {
            double f = 1;
            for (int u = t; u <= s; ++u) f /= d(u);
            v += Complex<double>(f) * down;
          }
          psi[std::size_t(i)] = Complex<double>(1 / (2 * kappa)) * v;
        }
        EXPECT_LT(max_diff(apply_full(*ops.full, psi, g, loc), source), 1e-13 * max_norm(source));
      }
    }
  }
}

// On rough links (clover c_sw = 1.7, c_F = 1.3): for x vanishing on the boundary slices, the open operator
// equals the periodic one on the bulk plus 2 kappa (c_F - 1) x at x0 = 1 and T - 1, and vanishes on the
// boundary slices: the bulk operator is openQCD's, with the clover term at x0 = 1 and T - 1 from the real links
// (a clover term from the cut links, or a hop left in, would differ by O(1)). For x on the boundary slices
// alone, M x = x: those slices decouple with the identity block.
TEST(OpenBoundaryQuarks, BulkOperatorIsOpenQcdsAndTheBoundarySlicesDecouple) {
  for (const Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    const Geometry g = Geometry::single_process({4, 4, 4, 8});
    const GaugeField<double> U = test::rough_gauge(g, loc);
    const double kappa = 0.12, csw = 1.7, c_F = 1.3;
    const DiracOperators open = make_dirac_operators(U, open_params(FermionAction::Clover, kappa, csw, c_F));
    FermionParams pp = open_params(FermionAction::Clover, kappa, csw, 1.0);
    pp.open_time = false;
    const DiracOperators periodic = make_dirac_operators(U, pp);
    const int T = g.global[kTimeDir] - 1;
    const SiteIndexer idx = SiteIndexer::from(g);
    const LexicographicSpinor r = random_spinor(g, 9);
    LexicographicSpinor bulk = r, edge = r;
    for (std::int64_t i = 0; i < g.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      const bool boundary = x[kTimeDir] == 0 || x[kTimeDir] == T;
      (boundary ? bulk : edge)[std::size_t(i)] = ColorSpinor<double>{};
    }
    const LexicographicSpinor got = apply_full(*open.full, bulk, g, loc);
    LexicographicSpinor want = apply_full(*periodic.full, bulk, g, loc);
    for (std::int64_t i = 0; i < g.volume(); ++i) {
      int x[4];
      idx.coords_lex(i, x);
      const int t = x[kTimeDir];
      if (t == 0 || t == T) want[std::size_t(i)] = ColorSpinor<double>{};
      if (t == 1 || t == T - 1) want[std::size_t(i)] += Complex<double>(2 * kappa * (c_F - 1)) * bulk[std::size_t(i)];
    }
    EXPECT_LT(max_diff(got, want), 1e-13 * max_norm(want)) << "the bulk";
    EXPECT_LT(max_diff(apply_full(*open.full, edge, g, loc), edge), 1e-14 * max_norm(edge)) << "the boundary slices";
  }
}

// Wilson quarks (no clover term) with open boundaries: c_F = 1 only, and the lattice needs 4 time slices.
TEST(OpenBoundaryQuarks, RefusesWhatItCannotBuild) {
  const Geometry g = Geometry::single_process({4, 4, 4, 8});
  GaugeField<double> U(g, Location::Host);
  set_unit_gauge(U);
  EXPECT_THROW(make_dirac_operators(U, open_params(FermionAction::Wilson, 0.12, 0, 1.2)), Error);
  FermionParams closed = open_params(FermionAction::Clover, 0.12, 1.0, 1.2);
  closed.open_time = false;
  EXPECT_THROW(make_dirac_operators(U, closed), Error);
  const Geometry short_time = Geometry::single_process({4, 4, 4, 2});
  GaugeField<double> V(short_time, Location::Host);
  set_unit_gauge(V);
  EXPECT_THROW(make_dirac_operators(V, open_params(FermionAction::Wilson, 0.12, 0, 1.0)), Error);
}

}  // namespace
}  // namespace lqcd
