// Chroma's hadron-spectrum regression sample (JeffersonLab/chroma, tests/chroma/hadron/spectrum/:
// spectrum.ini.xml and the expected spectrum.out.xml, compared there to 2e-5 relative) reproduced by lqcd:
// 4^3 x 8, Chroma's WEAK_FIELD configuration from RNG seed 11 11 11 0 (tests/measure/chroma_weak_field.hpp),
// Wilson kappa = 0.11, antiperiodic in time, a point source at the origin smeared as Chroma's
// GAUGE_INV_GAUSSIAN shell source (wvf_param 2, wvfIntPar 5: (1 + 0.2 Laplacian)^5 on unsmeared links,
// spatial), point sink. Chroma's propagator is 2 kappa times lqcd's (M = (4 + m) - D/2 against lqcd's
// hopping form), so its mesons are (2 kappa)^2 and its baryons (2 kappa)^3 times lqcd's. Asserted to
// Chroma's own tolerance 2e-5 (measured: the proton within 1e-6 of Chroma's 7 printed digits); the proton
// fails without Chroma's Sigma_3 in the projector or with its sign flipped. The unpolarised proton (baryon 9),
// shell-point at rest and moving and shell-shell at rest, is lqcd's nucleon_Pplus as `lqcd spectrum` writes it.
#include <gtest/gtest.h>

#include <cmath>

#include "dirac/dirac_operator_factory.hpp"
#include "gauge/observables.hpp"
#include "io/gauge_file.hpp"
#include "measure/baryon_interpolators.hpp"
#include "measure/meson_correlator.hpp"
#include "measure/propagator.hpp"
#include "chroma_weak_field.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

TEST(ChromaRegression, WeakFieldIsChromasConfiguration) {
  test::QdpLatticeRandom rng({11, 11, 11, 0});
  const LexicographicGauge lex = test::chroma_weak_field({4, 4, 4, 8}, rng);
  // The seed after the 24 fills, and the gauge observables, as spectrum.out.xml prints them (w_plaq, link).
  // Chroma computes in single precision: measured 3e-9 (plaquette) and 2e-10 (link) apart.
  EXPECT_EQ(rng.limbs(), (std::array<std::uint64_t, 4>{1835, 3491, 1302, 1242}));
  const GaugeField<double> U = to_gauge_field(lex, Geometry::single_process({4, 4, 4, 8}), Location::Host);
  const GaugeObservables o = gauge_observables(U);
  EXPECT_NEAR(o.plaquette, 0.994803997506905, 1e-8);
  EXPECT_NEAR(o.link_trace, 0.379449337626284, 1e-8);
}

// The same generator in double precision gives the weak-field file Chroma wrote in double precision
// (../shared/testdata/chroma_weak_field_4x4x4x8.lime, read by the ILDG reader), link by link: measured 1.9e-9
// apart at worst (the last digits come from Chroma's own arithmetic, not rebuilt here), where any other
// configuration would differ by O(0.1). Its plaquette 0.994804132267 (tests/io) is ours to 1e-12.
TEST(ChromaRegression, WeakFieldInDoubleIsChromasFile) {
  test::QdpLatticeRandom rng({11, 11, 11, 0});
  const LexicographicGauge mine = test::chroma_weak_field({4, 4, 4, 8}, rng, false);
  const io::GaugeFile file = io::read_gauge_file(test::testdata("chroma_weak_field_4x4x4x8.lime"));
  ASSERT_EQ(file.field.links.size(), mine.links.size());
  double worst = 0;
  for (std::size_t i = 0; i < mine.links.size(); ++i)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        worst = std::max({worst, std::abs(mine.links[i].m[a][b].re - file.field.links[i].m[a][b].re),
                          std::abs(mine.links[i].m[a][b].im - file.field.links[i].m[a][b].im)});
  std::printf("    largest link difference to the file: %.2e\n", worst);
  EXPECT_LT(worst, 1e-8);
  const GaugeField<double> U = to_gauge_field(mine, Geometry::single_process({4, 4, 4, 8}), Location::Host);
  EXPECT_NEAR(plaquette(U), 0.994804132267, 1e-11);
}

TEST(ChromaRegression, PionProtonAndScalarEqualChromasSpectrumSample) {
  test::QdpLatticeRandom rng({11, 11, 11, 0});
  const Dims dims{4, 4, 4, 8};
  const GaugeField<double> U = to_gauge_field(test::chroma_weak_field(dims, rng), Geometry::single_process(dims), Location::Host);
  FermionParams f;
  const double kappa = 0.11;
  f.wilson.kappa = kappa;
  f.wilson.boundary.phase[3] = Complex<double>(-1);
  PropagatorOptions o;
  o.solver.tolerance = 1e-12;
  o.smearing_links = &U;
  o.source_smearing = GaussianParams::from_width(2.0, 5);
  SourceSpec point;
  point.position = {0, 0, 0, 0};
  const PointPropagator S = compute_propagator(make_dirac_operators(U, f), true, point, o);
  // Shell-point pion, p = 0 (spectrum.out.xml, gamma_value 15).
  const double chroma_pion[8] = {0.1910607, 0.01582019, 0.006116664, 0.002812381,
                                 0.001962239, 0.00280976, 0.006112748, 0.015805};
  const std::vector<double> pion = pion_correlator_from_norms(S);
  for (int t = 0; t < 8; ++t)
    EXPECT_NEAR(pion[std::size_t(t)] * 4 * kappa * kappa, chroma_pion[t], 2e-5 * chroma_pion[t]) << "pion t " << t;
  // Shell-point proton (baryon_num 0: eps (u^T C g5 d) u with Chroma's T = (1 + Sigma_3)(1 + g_t)/2,
  // Sigma_3 = -i g_x g_y), real and imaginary parts.
  const double chroma_proton[8][2] = {{0.02196985, -9.85e-06}, {0.0006598962, 0}, {0.0001406866, 0}, {3.920441e-05, 0},
                                      {1.496889e-05, 0},       {1.144931e-05, 0}, {1.534159e-05, 0}, {2.80671e-05, 0}};
  SpinMatrix sigma3 = SpinMatrix::gamma(0) * SpinMatrix::gamma(1);
  for (auto& row : sigma3.m)
    for (auto& z : row) z = Complex<double>(0, -1) * z;
  SpinMatrix one_plus_sigma3 = SpinMatrix::identity();
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) one_plus_sigma3.m[i][j] += sigma3.m[i][j];
  const SpinMatrix T = one_plus_sigma3 * parity_projector(+1);
  const auto proton_lqcd = baryon_correlator({&S, &S, nullptr}, proton(), spin_half_projection(T), {{0, 0, 0}},
                                             Complex<double>(-1), "proton")[0];
  const double norm = std::pow(2 * kappa, 3);
  for (int t = 0; t < 8; ++t) {
    std::printf("    t %d: proton %.8e %+.3e i (Chroma %.8e)\n", t, proton_lqcd[std::size_t(t)].re * norm,
                proton_lqcd[std::size_t(t)].im * norm, chroma_proton[t][0]);
    EXPECT_NEAR(proton_lqcd[std::size_t(t)].re * norm, chroma_proton[t][0], 2e-5 * chroma_proton[t][0]) << "proton t " << t;
  }
  EXPECT_NEAR(proton_lqcd[0].im * norm, chroma_proton[0][1], 2e-5 * chroma_proton[0][0]);

  // Shell-point baryon 9 (Cg5 with the unpolarised (1 + g_t)/2: lqcd's nucleon_Pplus) at rest and at |p| = 2 pi / L,
  // the latter averaged over the six momenta as Chroma's avg_equiv_mom does.
  const double chroma_b9[2][8] = {{0.02196995, 0.0006599012, 0.0001406875, 3.920448e-05, 1.496907e-05, 1.144915e-05,
                                   1.534167e-05, 2.806415e-05},
                                  {0.00761007, 8.662246e-05, 5.403082e-06, 7.126908e-07, 1.668746e-07, 1.859032e-07,
                                   6.1145e-07, 4.043995e-06}};
  const auto b9 = baryon_correlator({&S, &S, nullptr}, proton(), spin_half_projection(parity_projector(+1)),
                                    {{0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}},
                                    Complex<double>(-1), "proton");
  for (int t = 0; t < 8; ++t) {
    double moving = 0;
    for (std::size_t k = 1; k < 7; ++k) moving += b9[k][std::size_t(t)].re / 6;
    EXPECT_NEAR(b9[0][std::size_t(t)].re * norm, chroma_b9[0][t], 2e-5 * chroma_b9[0][t]) << "shell-point baryon 9, t " << t;
    EXPECT_NEAR(moving * norm, chroma_b9[1][t], 2e-5 * chroma_b9[1][t]) << "shell-point baryon 9, |p| = 1, t " << t;
  }

  // The shell-point pion at |p| = 2 pi / L, averaged over the six momenta as Chroma's avg_equiv_mom does.
  const double chroma_pion_p1[4] = {0.0489777, 0.001067753, 0.000145561, 3.248991e-05};
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const auto moving = meson_correlator(S, g5, g5, {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}});
  for (int t = 0; t < 4; ++t) {
    double mean = 0;
    for (const auto& c : moving) mean += c[std::size_t(t)].re / 6;
    EXPECT_NEAR(mean * 4 * kappa * kappa, chroma_pion_p1[t], 2e-5 * chroma_pion_p1[t]) << "pion p = 1, t " << t;
  }
  // Shell-shell Gamma = 1 (gamma_value 0) at rest: the sink smeared as the source. Chroma's meson
  // (mesons_w) is tr[(g5 S g5)^dag G S G], without the closed quark loop's sign; lqcd's is
  // <(qbar G q)(x) (qbar G q)^dag(x0)> = -tr[G S (g_t G^dag g_t) g5 S^dag g5]. So Chroma's is -e_G times
  // lqcd's, g_t G^dag g_t = e_G G: +1 for the pion (G = g5, e = -1), -1 for G = 1 (e = +1).
  o.sink_smearing = o.source_smearing;
  const PointPropagator shell = compute_propagator(make_dirac_operators(U, f), true, point, o);
  const auto scalar = meson_correlator(shell, SpinMatrix::identity(), SpinMatrix::identity(), {{0, 0, 0}})[0];
  const double chroma_scalar[2] = {2.724953, -0.002349273};
  for (int t = 0; t < 2; ++t)
    EXPECT_NEAR(-scalar[std::size_t(t)].re * 4 * kappa * kappa, chroma_scalar[t], 2e-5 * std::abs(chroma_scalar[t])) << "t " << t;
  // Shell-shell baryon_num 9 at rest: the proton's Cg5 diquark with Chroma's unpolarised (1 + g_t)/2, which is
  // what `lqcd spectrum` writes as nucleon_Pplus (the projector lqcd passes by default).
  const double chroma_proton_ss[8] = {0.377682,     0.0030247,    0.0001604629, 3.762573e-05,
                                      1.42665e-05,  1.092615e-05, 1.556877e-05, 6.539406e-05};
  const auto nucleon_ss = baryon_correlator({&shell, &shell, nullptr}, proton(), spin_half_projection(parity_projector(+1)),
                                            {{0, 0, 0}}, Complex<double>(-1), "proton")[0];
  for (int t = 0; t < 8; ++t)
    EXPECT_NEAR(nucleon_ss[std::size_t(t)].re * norm, chroma_proton_ss[t], 2e-5 * chroma_proton_ss[t]) << "shell-shell proton t " << t;
}

// Every local meson of Chroma's sample at rest (spectrum.out.xml of chroma 3.9.0, Shell_Point_Wilson_Mesons and
// Shell_Shell_Wilson_Mesons, gamma_value 0..15, the printed real parts; imaginary parts zero or 1e-21):
// Chroma's is tr[(g5 S g5)^dag G S G] = -e_G x lqcd's C_G x (2 kappa)^2, with g_t G^dag g_t = e_G G (the table
// in docs/conventions.md). To Chroma's 2e-5 relative, every t (512 numbers). Without -e_G 96 of them fail,
// and with the sink smeared in the shell-point case all 128 shell-point ones.
TEST(ChromaRegression, EveryLocalMesonShellPointAndShellShellEqualsChromas) {
  const double chroma[2][16][8] = {
    {
      {0.1877153, -0.002443227, -0.001982347, -0.001825009, -0.001784889, -0.001824588, -0.001981968, -0.002443217},  // 0
      {0.1899479, 0.01558859, 0.006044542, 0.002793884, 0.00195738, 0.002791229, 0.006039815, 0.01557497},  // 1
      {0.1899364, 0.01558831, 0.006044004, 0.002793654, 0.001957366, 0.002791263, 0.006040968, 0.01557217},  // 2
      {-0.1899403, 0.00199237, 0.001841737, 0.001789984, 0.001776561, 0.001789711, 0.001841493, 0.001992838},  // 3
      {0.18996, 0.01559567, 0.006045924, 0.00279426, 0.001957556, 0.00279152, 0.00604264, 0.01557827},  // 4
      {-0.1899168, 0.00199725, 0.001842979, 0.001790207, 0.001776575, 0.00178979, 0.001842544, 0.001999363},  // 5
      {-0.1899281, 0.001999381, 0.001842936, 0.001790151, 0.001776686, 0.001790095, 0.001843775, 0.001997541},  // 6
      {-0.1877335, -0.01513441, -0.005901901, -0.002757387, -0.001948065, -0.002754909, -0.005898777, -0.01511837},  // 7
      {0.1910401, -0.001772535, -0.00177267, -0.001772747, -0.001772561, -0.001772607, -0.001772964, -0.001772806},  // 8
      {-0.1888391, -0.01536444, -0.005973476, -0.002775634, -0.001952758, -0.002773169, -0.005971153, -0.01534653},  // 9
      {-0.1888505, -0.01536475, -0.005974085, -0.002775897, -0.001952784, -0.002773134, -0.005970005, -0.01534929},  // 10
      {-0.1888087, 0.002223733, 0.001913222, 0.001807657, 0.001780762, 0.001807341, 0.001913383, 0.002223801},  // 11
      {-0.1888275, -0.01535762, -0.005972153, -0.002775276, -0.001952587, -0.002772862, -0.005968307, -0.01534299},  // 12
      {-0.1888315, 0.002219026, 0.001912034, 0.001807453, 0.001780754, 0.001807274, 0.001912335, 0.002217319},  // 13
      {-0.1888203, 0.00221691, 0.001912066, 0.00180749, 0.001780634, 0.00180696, 0.001911086, 0.002218995},  // 14
      {0.1910607, 0.01582019, 0.006116664, 0.002812381, 0.001962239, 0.00280976, 0.006112748, 0.01580499},  // 15
    },
    {
      {2.724953, -0.002349273, -0.001919501, -0.001771897, -0.001733642, -0.001770771, -0.001921233, -0.002346826},  // 0
      {2.72756, 0.03738896, 0.006243364, 0.002715134, 0.001898123, 0.002711363, 0.006245108, 0.03730334},  // 1
      {2.727535, 0.03738912, 0.006242426, 0.002714887, 0.00189811, 0.002711377, 0.006246678, 0.03730212},  // 2
      {-2.727555, 0.00192697, 0.001786766, 0.001738309, 0.001725416, 0.001737307, 0.00178839, 0.001925551},  // 3
      {2.727574, 0.03739525, 0.006244344, 0.002715389, 0.001898296, 0.002711618, 0.006247884, 0.03730832},  // 4
      {-2.727516, 0.001931693, 0.001787895, 0.00173852, 0.001725439, 0.001737383, 0.001789455, 0.001931819},  // 5
      {-2.727542, 0.00193299, 0.001787882, 0.001738514, 0.001725528, 0.00173766, 0.001790606, 0.001930241},  // 6
      {-2.724971, -0.03696996, -0.006110465, -0.002681114, -0.001889746, -0.002677626, -0.006114101, -0.0368847},  // 7
      {2.72883, -0.001721137, -0.001721518, -0.001721726, -0.001721378, -0.001720793, -0.001723602, -0.001720328},  // 8
      {-2.72626, -0.03718268, -0.006176934, -0.002698127, -0.001894016, -0.002694633, -0.006181784, -0.03709592},  // 9
      {-2.726285, -0.03718248, -0.006177864, -0.002698371, -0.001894023, -0.002694604, -0.006180186, -0.03709709},  // 10
      {-2.726228, 0.002143519, 0.001854261, 0.001755308, 0.00172959, 0.00175425, 0.001856451, 0.002141712},  // 11
      {-2.726246, -0.03717636, -0.00617594, -0.002697865, -0.001893835, -0.002694362, -0.006178981, -0.03709085},  // 12
      {-2.726267, 0.002138799, 0.001853122, 0.001755098, 0.00172957, 0.001754176, 0.001855397, 0.002135432},  // 13
      {-2.726241, 0.002137471, 0.001853142, 0.001755108, 0.001729486, 0.001753901, 0.001854234, 0.002136963},  // 14
      {2.728849, 0.03760176, 0.006309862, 0.002732161, 0.001902402, 0.002728385, 0.00631282, 0.03751463},  // 15
    }};
  test::QdpLatticeRandom rng({11, 11, 11, 0});
  const Dims dims{4, 4, 4, 8};
  const GaugeField<double> U = to_gauge_field(test::chroma_weak_field(dims, rng), Geometry::single_process(dims), Location::Host);
  FermionParams f;
  const double kappa = 0.11;
  f.wilson.kappa = kappa;
  f.wilson.boundary.phase[3] = Complex<double>(-1);
  PropagatorOptions o;
  o.solver.tolerance = 1e-12;
  o.smearing_links = &U;
  o.source_smearing = GaussianParams::from_width(2.0, 5);
  SourceSpec point;
  point.position = {0, 0, 0, 0};
  const DiracOperators D = make_dirac_operators(U, f);
  for (int sink = 0; sink < 2; ++sink) {
    if (sink == 1) o.sink_smearing = o.source_smearing;
    const PointPropagator S = compute_propagator(D, true, point, o);
    for (int n = 0; n < 16; ++n) {
      const SpinMatrix G = SpinMatrix::basis(n);
      // e_G from g_t G^dag g_t = e_G G, read off G's first non-zero entry
      const SpinMatrix R = SpinMatrix::gamma(3) * G.dagger() * SpinMatrix::gamma(3);
      double e = 0;
      for (int i = 0; i < 4 && e == 0; ++i)
        for (int j = 0; j < 4 && e == 0; ++j)
          if (norm2(G.m[i][j]) > 0) e = (R.m[i][j] * conj(G.m[i][j])).re / norm2(G.m[i][j]);
      const auto c = meson_correlator(S, G, G, {{0, 0, 0}})[0];
      for (int t = 0; t < 8; ++t) {
        const double want = chroma[sink][n][t], got = -e * c[std::size_t(t)].re * 4 * kappa * kappa;
        EXPECT_NEAR(got, want, 2e-5 * std::abs(want)) << (sink ? "shell-shell" : "shell-point") << " gamma_value " << n << " t " << t;
      }
    }
  }
}

}  // namespace
}  // namespace lqcd
