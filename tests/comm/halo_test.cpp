// Halos on one process: a geometry whose halo layers are filled from its own opposite faces must give
// exactly what the periodic (halo-free) geometry gives. This runs every index, pack and unpack path of
// the MPI decomposition (interior, faces, edges, corners) without MPI; tests/mpi runs them across ranks.
#include <gtest/gtest.h>

#include <limits>
#include <set>

#include "dirac/dirac_operator_factory.hpp"
#include "dirac/face_exchange.hpp"
#include "fields/spinor_blas.hpp"
#include "field_test_support.hpp"
#include "gauge/observables.hpp"

namespace lqcd {
namespace {

Geometry with_halo(const Dims& dims, const Dims& halo) {
  Geometry g = Geometry::single_process(dims);
  g.halo = halo;
  return g;
}

// The periodic image of local coordinates (halo sites included) in the box.
void wrap(int x[4], const Dims& n) {
  for (int mu = 0; mu < 4; ++mu) x[mu] = ((x[mu] % n[mu]) + n[mu]) % n[mu];
}

TEST(Halo, IndicesOfTheExtendedBoxAreDenseAndDistinctPerParity) {
  const Geometry g = with_halo({4, 6, 2, 4}, {2, 0, 1, 2});
  const SiteIndexer idx = SiteIndexer::from(g);
  std::set<std::pair<int, std::int64_t>> seen;
  for (int t = -2; t < 6; ++t)
    for (int z = -1; z < 3; ++z)
      for (int y = 0; y < 6; ++y)
        for (int x = -2; x < 6; ++x) {
          const int c[4] = {x, y, z, t};
          const std::int64_t s = idx.cb_index(c);
          EXPECT_EQ(idx.inside(c), s < g.half_volume());
          EXPECT_LT(s, g.stored_half_volume());
          EXPECT_TRUE(seen.insert({SiteIndexer::parity(c), s}).second) << x << "," << y << "," << z << "," << t;
        }
  EXPECT_EQ(std::int64_t(seen.size()), g.extended_volume());
}

TEST(Halo, ExchangeFillsHaloLinksAndSpinorsWithTheirPeriodicImages) {
  const Geometry plain = Geometry::single_process({4, 4, 6, 4});
  const Geometry g = with_halo(plain.local, {1, 2, 0, 2});
  const LexicographicGauge lex = to_lexicographic(test::rough_gauge(plain, Location::Host));
  for (Location loc : test::locations()) {
    const GaugeField<double> U = to_gauge_field(lex, g, loc);  // exchanges
    const GaugeField<double> host = U.clone(Location::Host);
    const GaugeView<double> v = host.view();
    const SiteIndexer plain_idx = SiteIndexer::from(plain);
    double worst = 0;
    for (int t = -2; t < 6; ++t)
      for (int z = 0; z < 6; ++z)
        for (int y = -2; y < 6; ++y)
          for (int x = -1; x < 5; ++x) {
            int c[4] = {x, y, z, t}, w[4] = {x, y, z, t};
            wrap(w, plain.local);
            for (int mu = 0; mu < 4; ++mu)
              worst = std::max(worst, test::max_abs_diff(v.link(c, mu), lex(plain_idx.lex(w), mu)));
          }
    EXPECT_EQ(worst, 0.0) << to_string(loc);

    // A parity field: only its own parity is stored and exchanged.
    const SpinorField<double> full = to_spinor_field(test::random_spinor(plain, 3), g, loc);
    const SpinorField<double> odd = full.parity_part(1);
    odd.exchange_halo(2);
    const SpinorField<double> odd_host = odd.clone(Location::Host);
    const LexicographicSpinor ref = test::random_spinor(plain, 3);
    double worst_spinor = 0;
    for (int t = -2; t < 6; ++t)
      for (int y = -2; y < 6; ++y)
        for (int x = -1; x < 5; ++x) {
          int c[4] = {x, y, 1, t}, w[4] = {x, y, 1, t};
          if (SiteIndexer::parity(c) != 1) continue;
          wrap(w, plain.local);
          const ColorSpinor<double> a = odd_host.view().load(1, odd_host.view().idx.cb_index(c));
          const ColorSpinor<double>& b = ref[std::size_t(plain_idx.lex(w))];
          for (int s = 0; s < 4; ++s)
            for (int k = 0; k < 3; ++k) worst_spinor = std::max(worst_spinor, abs(a.s[s].c[k] - b.s[s].c[k]));
        }
    EXPECT_EQ(worst_spinor, 0.0) << to_string(loc);
  }
}

// Single precision stores spinors and compressed links in 16-byte pairs (math/precision.hpp), and the
// exchange moves the pairs: every halo site, poisoned with NaN first, equals its periodic image in the
// same field to the bit.
TEST(Halo, SinglePrecisionPairsAreExchangedExactly) {
  const Geometry plain = Geometry::single_process({4, 4, 6, 4});
  const Geometry g = with_halo(plain.local, {1, 2, 0, 2});
  const GaugeField<double> U = to_gauge_field(to_lexicographic(test::rough_gauge(plain, Location::Host)), g,
                                              Location::Host);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto outside = [&](const int c[4]) {
    for (int mu = 0; mu < 4; ++mu)
      if (c[mu] < 0 || c[mu] >= plain.local[mu]) return true;
    return false;
  };
  for (Location loc : test::locations()) {
    // Links, 12 reals: convert_links fills the box only; the halo is poisoned, then exchanged.
    GaugeField<float, 6> L = convert_links<float, 6>(U).clone(Location::Host);
    SU3<float> poison;
    for (auto& row : poison.m)
      for (auto& z : row) z = Complex<float>(nan, nan);
    for (int t = -2; t < 6; ++t)
      for (int y = -2; y < 6; ++y)
        for (int x = -1; x < 5; ++x)
          for (int z = 0; z < 6; ++z) {
            const int c[4] = {x, y, z, t};
            if (outside(c))
              for (int mu = 0; mu < 4; ++mu) L.view().store(mu, SiteIndexer::parity(c), L.view().idx.cb_index(c), poison);
          }
    GaugeField<float, 6> Ld = L.clone(loc);
    Ld.exchange_halo();
    const GaugeField<float, 6> back = Ld.clone(Location::Host);
    int mismatches = 0;
    for (int t = -2; t < 6; ++t)
      for (int y = -2; y < 6; ++y)
        for (int x = -1; x < 5; ++x)
          for (int z = 0; z < 6; ++z) {
            int c[4] = {x, y, z, t}, w[4] = {x, y, z, t};
            wrap(w, plain.local);
            for (int mu = 0; mu < 4; ++mu) {
              const SU3<float> a = back.view().link(c, mu), b = back.view().link(w, mu);
              for (int i = 0; i < 2; ++i)  // the stored rows
                for (int j = 0; j < 3; ++j)
                  mismatches += !(a.m[i][j].re == b.m[i][j].re && a.m[i][j].im == b.m[i][j].im);
            }
          }
    EXPECT_EQ(mismatches, 0) << "links, " << to_string(loc);

    // A parity spinor field, depth 2.
    SpinorField<float> f(g, Location::Host, Subset::Odd);
    convert_precision(f, to_spinor_field(test::random_spinor(plain, 3), g, Location::Host).parity_part(1));
    ColorSpinor<float> bad;
    for (auto& sp : bad.s)
      for (auto& z : sp.c) z = Complex<float>(nan, nan);
    for (int t = -2; t < 6; ++t)
      for (int y = -2; y < 6; ++y)
        for (int x = -1; x < 5; ++x)
          for (int z = 0; z < 6; ++z) {
            const int c[4] = {x, y, z, t};
            if (outside(c) && SiteIndexer::parity(c) == 1) f.view().store(1, f.view().idx.cb_index(c), bad);
          }
    const SpinorField<float> fd = f.clone(loc);
    fd.exchange_halo(2);
    const SpinorField<float> fh = fd.clone(Location::Host);
    mismatches = 0;
    for (int t = -2; t < 6; ++t)
      for (int y = -2; y < 6; ++y)
        for (int x = -1; x < 5; ++x)
          for (int z = 0; z < 6; ++z) {
            int c[4] = {x, y, z, t}, w[4] = {x, y, z, t};
            if (SiteIndexer::parity(c) != 1) continue;
            wrap(w, plain.local);
            const ColorSpinor<float> a = fh.view().load(1, fh.view().idx.cb_index(c));
            const ColorSpinor<float> b = fh.view().load(1, fh.view().idx.cb_index(w));
            for (int sp = 0; sp < 4; ++sp)
              for (int k = 0; k < 3; ++k)
                mismatches += !(a.s[sp].c[k].re == b.s[sp].c[k].re && a.s[sp].c[k].im == b.s[sp].c[k].im);
          }
    EXPECT_EQ(mismatches, 0) << "spinors, " << to_string(loc);
  }
}

TEST(Halo, OperatorsObservablesAndUpdatesEqualThePeriodicOnes) {
  const Geometry plain = Geometry::single_process({4, 4, 4, 8});
  const Geometry g = with_halo(plain.local, {2, 0, 2, 2});
  const GaugeAction action = GaugeAction::from_name("wilson", 5.8);
  for (Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    GaugeField<double> U0 = test::rough_gauge(plain, loc);
    GaugeField<double> U1 = test::rough_gauge(g, loc);  // hot start and heatbath on the halo geometry
    heatbath_sweep(U0, action, 5, 1);
    overrelaxation_sweep(U0, action);
    heatbath_sweep(U1, action, 5, 1);
    overrelaxation_sweep(U1, action);
    const LexicographicGauge a = to_lexicographic(U0), b = to_lexicographic(U1);
    double worst = 0;
    for (std::size_t i = 0; i < a.links.size(); ++i) worst = std::max(worst, test::max_abs_diff(a.links[i], b.links[i]));
    EXPECT_EQ(worst, 0.0) << "heatbath and overrelaxation are identical with halos";

    const GaugeObservables o0 = gauge_observables(U0), o1 = gauge_observables(U1);
    EXPECT_EQ(o0.plaquette, o1.plaquette);
    EXPECT_EQ(o0.rectangle, o1.rectangle);
    EXPECT_EQ(o0.polyakov_loop.re, o1.polyakov_loop.re);

    const LexicographicSpinor src = test::random_spinor(plain, 11);
    for (FermionAction act : {FermionAction::Wilson, FermionAction::Clover, FermionAction::TwistedMass}) {
      FermionParams p;
      p.action = act;
      p.wilson.kappa = 0.12;
      p.wilson.mu = act == FermionAction::TwistedMass ? 0.05 : 0.0;
      p.csw = act == FermionAction::Clover ? 1.7 : 0.0;
      const DiracOperators d0 = make_dirac_operators(U0, p), d1 = make_dirac_operators(U1, p);
      const SpinorField<double> in0 = to_spinor_field(src, plain, loc), in1 = to_spinor_field(src, g, loc);
      SpinorField<double> out0 = in0.like(), out1 = in1.like();
      d0.full->apply(out0, in0);
      d1.full->apply(out1, in1);
      // The hops across faces are added after the interior (face_exchange.hpp): the same terms in
      // another order, so equal up to rounding (entries are O(1)).
      EXPECT_LT(test::max_diff(to_lexicographic(out0), to_lexicographic(out1)), 1e-14) << int(act);
      d0.full->apply_dagger(out0, in0);
      d1.full->apply_dagger(out1, in1);
      EXPECT_LT(test::max_diff(to_lexicographic(out0), to_lexicographic(out1)), 1e-14) << int(act);
      const SpinorField<double> e0 = in0.parity_part(0), e1 = in1.parity_part(0);
      SpinorField<double> f0 = e0.like(), f1 = e1.like();
      d0.even_odd->apply(f0, e0);
      d1.even_odd->apply(f1, e1);
      SpinorField<double> full0(plain, loc), full1(g, loc);
      set_zero(full0);
      set_zero(full1);
      full0.set_parity_part(0, f0);
      full1.set_parity_part(0, f1);
      EXPECT_LT(test::max_diff(to_lexicographic(full0), to_lexicographic(full1)), 1e-14) << int(act);
    }
  }
}

// The boundary of the face-exchange tests: antiperiodic in t.
FermionBoundary antiperiodic_in_t() {
  FermionBoundary b{};
  for (int mu = 0; mu < 4; ++mu) b.phase[mu] = Complex<double>(mu == 3 ? -1.0 : 1.0);
  return b;
}

// The even-site field e (any precision) as a full lexicographic field, its odd sites zero.
template <typename Real>
LexicographicSpinor lex_of_even(const SpinorField<Real>& e) {
  SpinorField<double> full(e.geometry(), e.location()), even(e.geometry(), e.location(), Subset::Even);
  set_zero(full);
  convert_precision(even, e);
  full.set_parity_part(0, even);
  return to_lexicographic(full);
}

// The reference of the face-exchange tests: 0.7 H (H^dag with dagger) of src's odd sites on the even
// sites of the periodic, unsplit lattice, double precision, 18-real links U0.
LexicographicSpinor periodic_hop(const GaugeField<double>& U0, const LexicographicSpinor& src,
                                 const FermionBoundary& b, int dagger) {
  const Geometry& plain = U0.geometry();
  const Location loc = U0.location();
  const SpinorField<double> in0 = to_spinor_field(src, plain, loc).parity_part(1);
  SpinorField<double> out0(plain, loc, Subset::Even);
  const WilsonHoppingKernel<double> k0{U0.view(), in0.view(), out0.view(), out0.view(), b, 0.7, 0, 0, 0, dagger};
  run_hopping_term(k0, k0.U, in0, out0, b, 0.7, dagger);
  return lex_of_even(out0);
}

// The face exchange of the hopping term with 12-real links and single precision, each side of every
// direction with a halo, against the periodic 18-real double-precision hopping term; the exchange's
// parts run one after the other (as lqcd bench times them) give the same result; and so does every
// t-tiled visiting order of the interior (dirac/visiting_order.hpp), to the bit.
TEST(Halo, FaceExchangeOf12RealSinglePrecisionHoppingTermEqualsThePeriodicOne) {
  const Geometry plain = Geometry::single_process({4, 6, 4, 8});
  const Geometry g = with_halo(plain.local, {2, 2, 0, 2});
  const LexicographicSpinor src = test::random_spinor(plain, 5);
  const FermionBoundary b = antiperiodic_in_t();
  for (Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    const GaugeField<double> U0 = test::rough_gauge(plain, loc), U1 = test::rough_gauge(g, loc);
    const GaugeField<float> U1f = convert_precision<float>(U1);
    const GaugeField<float, 6> U1c = compress_links(U1f);
    for (int dagger : {0, 1}) {
      const LexicographicSpinor a = periodic_hop(U0, src, b, dagger);
      const SpinorField<double> in1d = to_spinor_field(src, g, loc).parity_part(1);
      SpinorField<float> in1(g, loc, Subset::Odd), out1(g, loc, Subset::Even), out2(g, loc, Subset::Even);
      convert_precision(in1, in1d);
      LexicographicSpinor storage_order;
      for (int tile : {1, 2, 4}) {
        WilsonHoppingKernel<float, 6> k1{U1c.view(), in1.view(), out1.view(), out1.view(), b, 0.7, 0, 0, 0, dagger};
        k1.t_tile = tile;
        run_hopping_term(k1, k1.U, in1, out1, b, 0.7, dagger);
        FaceExchange<float, 6> faces(k1.U, in1, out2, dagger);
        faces.wait();
        WilsonHoppingKernel<float, 6> k2 = k1;
        k2.out = out2.view();
        for_each(loc, out2.sites(), k2);
        faces.add_face_hops(k1.U, out2, b, 0.7, dagger);

        const LexicographicSpinor c = lex_of_even(out1);
        EXPECT_LT(test::max_diff(a, c), 2e-5) << dagger << ", tile " << tile;
        EXPECT_GT(test::max_norm(a), 1.0) << "a non-trivial result";
        EXPECT_EQ(test::max_diff(c, lex_of_even(out2)), 0.0) << dagger << ", tile " << tile;
        if (tile == 1) storage_order = c;
        EXPECT_EQ(test::max_diff(c, storage_order), 0.0) << dagger << ", tile " << tile;
      }
    }
  }
}

// Half precision with 12- and 8-real links through the face exchange (float messages): the periodic
// double-precision 18-real result to half precision's 1e-3.
TEST(Halo, FaceExchangeOfHalfPrecisionHoppingTermEqualsThePeriodicOne) {
  const Geometry plain = Geometry::single_process({4, 6, 4, 8});
  const Geometry g = with_halo(plain.local, {2, 0, 2, 2});
  const LexicographicSpinor src = test::random_spinor(plain, 6);
  const FermionBoundary b = antiperiodic_in_t();
  for (Location loc : test::locations()) {
    SCOPED_TRACE(to_string(loc));
    const GaugeField<double> U0 = test::rough_gauge(plain, loc), U1 = test::rough_gauge(g, loc);
    const GaugeField<Half, 6> U12 = convert_links<Half, 6>(U1);
    const GaugeField<Half, 4> U8 = convert_links<Half, 4>(U1);
    for (int dagger : {0, 1}) {
      const LexicographicSpinor a = periodic_hop(U0, src, b, dagger);
      SpinorField<Half> in1(g, loc, Subset::Odd), out1(g, loc, Subset::Even);
      convert_precision(in1, to_spinor_field(src, g, loc).parity_part(1));
      auto check = [&](const auto& U, int reals) {
        const WilsonHoppingKernel<Half, std::remove_cvref_t<decltype(U)>::kComponents> k{
            U.view(), in1.view(), out1.view(), out1.view(), b, 0.7, 0, 0, 0, dagger};
        run_hopping_term(k, k.U, in1, out1, b, 0.7, dagger);
        EXPECT_LT(test::max_diff(a, lex_of_even(out1)), 1e-3 * test::max_norm(a)) << reals << " reals, dagger "
                                                                                 << dagger;
      };
      check(U12, 12);
      check(U8, 8);
    }
  }
}

}  // namespace
}  // namespace lqcd
