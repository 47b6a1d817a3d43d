// lqcd spectrum and lqcd propagator as a user runs them. The free-field correlators are checked
// against an independent momentum-space computation (rung 3 of the ladder), the interacting ones on
// the beta = 6.0 MILC configuration for positivity and a reported pion mass.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "dirac/wilson_operator.hpp"
#include "fields/spinor_blas.hpp"
#include "gauge/updates.hpp"
#include "io/gauge_file.hpp"
#include "io/hdf5_correlators.hpp"
#include "io/propagator_lime.hpp"
#include "measure/spin_matrix.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;
using cd = std::complex<double>;
using Spin = std::array<std::array<cd, 4>, 4>;

Spin to_spin(const SpinMatrix& s) {
  Spin r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r[i][j] = cd(s.m[i][j].re, s.m[i][j].im);
  return r;
}
Spin mul(const Spin& a, const Spin& b) {
  Spin r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) r[i][j] += a[i][k] * b[k][j];
  return r;
}
Spin dag(const Spin& a) {
  Spin r{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) r[i][j] = std::conj(a[j][i]);
  return r;
}

struct FreeQuark {
  std::array<int, 4> dims;
  double m0, mu;
  std::array<double, 4> theta;  // boundary phases e^{i theta}
  double csw = 0;  // clover coefficient: F = 0 on the unit field, so the reference ignores it
  // Gaussian smearing of source and sink, (1 + alpha Laplacian)^N: diagonal in momentum space,
  // lambda(p) = [1 - alpha sum_i 2 (1 - cos p_i)]^N, so each propagator S(t, p) becomes
  // lambda(p) S(t, p) lambda(p) (spatial boundary phases must be periodic: the smearing has none).
  double smear_alpha = 0;
  int smear_steps = 0;
  // A wall source (1 on every site of the source time slice) instead of a point: by translation
  // invariance its propagator is S(t, p = 0) on every sink site, so only p = 0 contributes, V_s^2 times
  // its share of the point correlator's Parseval sum.
  bool wall = false;
  // A gaussian wavefunction source exp(-r^2/r0^2) about a centre y0 instead of a point (r0 > 0; spatial
  // boundary phases must be periodic): its propagator is the point one convolved with phi, so
  // S(t, p) becomes phi(p) S(t, p) with phi(p) = sum_d phi(d) e^{-i p.d} (the centre's phase e^{-i p.y0}
  // drops out of |S|^2). phi factorises over the three directions, each factor real (phi(d) = phi(-d)).
  double wavefunction_radius = 0;
};

// The free point-source meson correlator from momentum space, independent of the position-space
// code: M = 2 kappa D, D(p) = m0 + sum(1 - cos p) + i sum gamma_mu sin p_mu + i mu gamma_5, whose
// inverse is [A - i sum gamma sin p - i mu gamma_5] / (A^2 + sum sin^2 p + mu^2);
// S(t, p_vec) = (1/T) sum_{p4} e^{i p4 t} M(p)^{-1}, and by Parseval
//   C(t) = - (3 / V_s) sum_{p_vec} tr[G S(t, p) Gbar g5 S(t, p)^dag g5]   (3 colours).
std::vector<double> free_correlator(const FreeQuark& q, const SpinMatrix& g_snk, const SpinMatrix& g_src) {
  const auto& n = q.dims;
  const double kappa = 1.0 / (2 * q.m0 + 8);
  const Spin g5 = to_spin(SpinMatrix::gamma(kGamma5)), gt = to_spin(SpinMatrix::gamma(3));
  Spin gamma[4];
  for (int mu = 0; mu < 4; ++mu) gamma[mu] = to_spin(SpinMatrix::gamma(mu));
  const Spin a = to_spin(g_snk), b = mul(mul(mul(gt, dag(to_spin(g_src))), gt), g5);
  std::vector<double> c(std::size_t(n[3]), 0.0);
  const double vs = double(n[0]) * n[1] * n[2];
  const int kmax[3] = {q.wall ? 1 : n[0], q.wall ? 1 : n[1], q.wall ? 1 : n[2]};
  const double norm = q.wall ? vs : 1.0 / vs;
  for (int k0 = 0; k0 < kmax[0]; ++k0)
    for (int k1 = 0; k1 < kmax[1]; ++k1)
      for (int k2 = 0; k2 < kmax[2]; ++k2) {
        const int k[3] = {k0, k1, k2};
        for (int t = 0; t < n[3]; ++t) {
          Spin s{};
          for (int k3 = 0; k3 < n[3]; ++k3) {
            double p[4];
            for (int mu = 0; mu < 3; ++mu) p[mu] = (2 * M_PI * k[mu] + q.theta[mu]) / n[mu];
            p[3] = (2 * M_PI * k3 + q.theta[3]) / n[3];
            double A = q.m0, s2 = 0;
            for (int mu = 0; mu < 4; ++mu) A += 1 - std::cos(p[mu]), s2 += std::sin(p[mu]) * std::sin(p[mu]);
            const double den = (A * A + s2 + q.mu * q.mu) * 2 * kappa * n[3];
            const cd phase = std::exp(cd(0, p[3] * t));
            for (int i = 0; i < 4; ++i)
              for (int j = 0; j < 4; ++j) {
                cd v = i == j ? cd(A) : cd(0);
                for (int mu = 0; mu < 4; ++mu) v -= cd(0, std::sin(p[mu])) * gamma[mu][i][j];
                v -= cd(0, q.mu) * g5[i][j];
                s[i][j] += phase * v / den;
              }
          }
          if (q.wavefunction_radius > 0) {
            double phi = 1;
            for (int mu = 0; mu < 3; ++mu) {
              const double p = (2 * M_PI * k[mu] + q.theta[mu]) / n[mu];
              double f = 0;
              for (int d = 0; d < n[mu]; ++d) {
                const int dmin = std::min(d, n[mu] - d);  // the periodic distance of d from the centre
                f += std::exp(-double(dmin * dmin) / (q.wavefunction_radius * q.wavefunction_radius)) * std::cos(p * d);
              }
              phi *= f;
            }
            for (auto& row : s)
              for (cd& v : row) v *= phi;
          }
          if (q.smear_steps > 0) {
            double lap = 0;  // minus the lattice Laplacian's eigenvalue
            for (int mu = 0; mu < 3; ++mu) lap += 2 * (1 - std::cos((2 * M_PI * k[mu] + q.theta[mu]) / n[mu]));
            const double lambda = std::pow(1 - q.smear_alpha * lap, q.smear_steps);
            for (auto& row : s)
              for (cd& v : row) v *= lambda * lambda;
          }
          const Spin m = mul(mul(mul(a, s), b), mul(dag(s), g5));  // b holds Gbar g5
          cd tr = 0;
          for (int i = 0; i < 4; ++i) tr += m[i][i];
          c[std::size_t(t)] -= 3 * tr.real() * norm;
        }
      }
  return c;
}

// `solver`, `precision` and the lines `solver_keys` go to [solver]; `extra` adds tables other than
// [lattice], [gauge], [fermion], [solver], [output].
std::string free_input(const FreeQuark& q, const std::string& action, const std::string& extra,
                       const std::string& solver = "cg", const std::string& precision = "double",
                       const std::string& solver_keys = "") {
  const double kappa = 1.0 / (2 * q.m0 + 8);
  std::string bc;
  for (int mu = 0; mu < 4; ++mu) bc += std::string(mu ? ", " : "") + (q.theta[mu] == 0 ? "\"periodic\"" : "\"antiperiodic\"");
  return fmt::format(
      "[lattice]\ndims = [{}, {}, {}, {}]\n[gauge]\nconfig = \"unit\"\n[fermion]\naction = \"{}\"\nkappa = {:.17g}\n"
      "mu = {:.17g}\ncsw = {}\nboundary = [{}]\n[solver]\ntype = \"{}\"\nprecision = \"{}\"\ntolerance = 1e-12\n{}"
      "[output]\nprefix = \"out/free\"\n{}",
      q.dims[0], q.dims[1], q.dims[2], q.dims[3], action, kappa, q.mu, q.csw, bc, solver, precision, solver_keys, extra);
}

nlohmann::json spectrum_json(const test::TempDir& dir, const std::string& input) {
  test::write_text(dir / "in.toml", input);
  const auto r = run_lqcd("spectrum in.toml --json", dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::count_lines(r.out), 1) << "--json prints exactly one object: " << r.out;
  return r.exit_code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

void expect_close(const nlohmann::json& got, const std::vector<double>& want, double rel, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double scale = 0;
  for (double w : want) scale = std::max(scale, std::abs(w));
  for (std::size_t t = 0; t < want.size(); ++t)
    EXPECT_NEAR(got[t].get<double>(), want[t], rel * scale) << what << " t = " << t;
}

TEST(SpectrumCommand, FreeFieldCorrelatorsMatchMomentumSpace) {
  test::TempDir dir;
  const FreeQuark cases[] = {{{4, 4, 4, 8}, 0.2, 0.0, {0, 0, 0, M_PI}},
                             {{4, 4, 4, 8}, 0.2, 0.0, {0, 0, 0, 0}},
                             {{4, 6, 4, 6}, 0.1, 0.0, {0, M_PI, 0, M_PI}}};
  for (const FreeQuark& q : cases)
    for (const char* position : {"[0, 0, 0, 0]", "[1, 2, 3, 3]"})
      for (const char* solver : {"cg", "bicgstab"}) {
        SCOPED_TRACE(fmt::format("dims {}x{}x{}x{} m0 {} source {} solver {}", q.dims[0], q.dims[1], q.dims[2],
                                 q.dims[3], q.m0, position, solver));
        const auto j = spectrum_json(
            dir, free_input(q, "wilson",
                            fmt::format("[source]\nposition = {}\n[spectrum]\nmomenta = [[0, 0, 0], [1, 0, 0]]\n", position),
                            solver));
        ASSERT_TRUE(j.contains("correlators"));
        const SpinMatrix g5 = SpinMatrix::gamma(kGamma5), one = SpinMatrix::identity();
        const std::vector<double> pion = free_correlator(q, g5, g5);
        expect_close(j["correlators"]["pion"], pion, 1e-9, "pion");
        expect_close(j["correlators"]["a0"], free_correlator(q, one, one), 1e-9, "a0");
        std::vector<double> rho(pion.size(), 0.0);
        for (int i = 0; i < 3; ++i) {
          const std::vector<double> c = free_correlator(q, SpinMatrix::gamma(i), SpinMatrix::gamma(i));
          for (std::size_t t = 0; t < c.size(); ++t) rho[t] += c[t] / 3;
        }
        expect_close(j["correlators"]["rho"], rho, 1e-9, "rho");
        // PCAC mass from the momentum-space A0-P correlator.
        const std::vector<double> ap = free_correlator(q, SpinMatrix::gamma(3) * g5, g5);
        const auto& m = j["correlators"]["pcac_mass"];
        const std::size_t T = pion.size();
        EXPECT_TRUE(m[0].is_null());
        EXPECT_TRUE(m[T - 1].is_null());
        for (std::size_t t = 1; t + 1 < T; ++t)
          EXPECT_NEAR(m[t].get<double>(), (ap[t + 1] - ap[t - 1]) / (4 * pion[t]), 1e-7) << "t = " << t;
        // The pion is positive and exactly symmetric about T/2 for the free field.
        for (std::size_t t = 0; t < T; ++t) {
          EXPECT_GT(j["correlators"]["pion"][t].get<double>(), 0);
          EXPECT_NEAR(j["correlators"]["pion"][t].get<double>(), j["correlators"]["pion"][(T - t) % T].get<double>(),
                      1e-10 * pion[0]);
        }
      }
}

// Wall sources in Coulomb gauge ([gauge_fixing], issue 29): on the unit field the wall-to-point pion is
// the p = 0 momentum-space correlator; on a pure gauge (the unit field randomly gauge transformed, written
// as a file) the Coulomb gauge fixing brings back the same correlator; a wall source without gauge fixing
// and a bad gauge_fixing key are one-line errors.
// The input run on a pure gauge instead of the unit field: the unit field randomly gauge transformed
// (seed), written as DIR/pure_gauge.ildg.
std::string on_pure_gauge(const test::TempDir& dir, std::string input, const Dims& dims, std::uint64_t seed) {
  GaugeField<double> U(Geometry::single_process(dims), Location::Host);
  set_unit_gauge(U);
  random_gauge_transformation(U, seed);
  io::write_ildg(dir / "pure_gauge.ildg", to_lexicographic(U), io::WriteOptions{});
  const std::string unit = "config = \"unit\"";
  input.replace(input.find(unit), unit.size(), "config = \"pure_gauge.ildg\"");
  return input;
}

// Progress (issue 31): the 12 solves of the source counted on stderr as they finish (LQCD_PROGRESS=1 stands
// for a terminal), with rate and ETA; nothing with --quiet or --json.
TEST(SpectrumCommand, CountsItsSolvesUnlessQuiet) {
  test::TempDir dir;
  FreeQuark q{{4, 4, 4, 8}, 0.2, 0.0, {0, 0, 0, M_PI}};
  test::write_text(dir / "in.toml", free_input(q, "wilson", ""));
  const auto r = run_lqcd("spectrum in.toml", dir.path(), "LQCD_PROGRESS=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (int k : {1, 6, 12}) EXPECT_NE(r.err.find(fmt::format("[u solves] {}/12 |", k)), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("| ETA "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("12/12"), std::string::npos);
  for (const char* quiet : {"--quiet", "--json"}) {
    const auto s = run_lqcd(std::string("spectrum in.toml ") + quiet, dir.path(), "LQCD_PROGRESS=1");
    ASSERT_EQ(s.exit_code, 0) << s.err;
    EXPECT_EQ(s.err.find("solves]"), std::string::npos) << quiet << ": " << s.err;
  }
}

TEST(SpectrumCommand, WallSourceInCoulombGaugeMatchesMomentumSpace) {
  test::TempDir dir;
  FreeQuark q{{4, 4, 4, 8}, 0.2, 0.0, {0, 0, 0, M_PI}};
  q.wall = true;
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const std::vector<double> want = free_correlator(q, g5, g5);
  const std::string wall = "[source]\ntype = \"wall\"\nposition = [0, 0, 0, 2]\n[gauge_fixing]\ngauge = \"coulomb\"\n";
  const auto unit = spectrum_json(dir, free_input(q, "wilson", wall));
  ASSERT_TRUE(unit.contains("correlators"));
  // The source sits at t = 2: the correlator is reported relative to it.
  expect_close(unit["correlators"]["pion"], want, 1e-9, "wall pion, unit field");
  const auto pure = spectrum_json(dir, on_pure_gauge(dir, free_input(q, "wilson", wall), q.dims, 7));
  ASSERT_TRUE(pure.contains("correlators"));
  expect_close(pure["correlators"]["pion"], want, 1e-8, "wall pion, pure gauge fixed to Coulomb gauge");
  for (const auto& [extra, key] :
       {std::pair<std::string, std::string>{"[source]\ntype = \"wall\"\n", "source.type"},
        {wall + "precision = 0\n", "gauge_fixing.precision"},
        {"[gauge_fixing]\ngauge = \"axial\"\n", "gauge_fixing.gauge"},
        {"[gauge_fixing]\ngauge = \"landau\"\nmethod = \"cg\"\n", "gauge_fixing.method"}}) {
    SCOPED_TRACE(extra);
    test::write_text(dir / "bad.toml", free_input(q, "wilson", extra));
    const auto r = run_lqcd("spectrum bad.toml", dir.path());
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(test::error_line(r.err).find(key), std::string::npos) << r.err;
  }
}

// Open boundaries in time (issue 50): with unit links and a wall source on slice s the propagator at every
// sink site is (1/2 kappa)[f+(t) P+ + f-(t) P-], with f+(t) = prod_{u = s..t} 1/d(u) (s <= t <= T - 1),
// f-(t) = prod_{u = t..s} 1/d(u) (1 <= t <= s), d(u) = m0 + 1 + (c_F - 1)[u = 1, T - 1] (the closed form of
// tests/dirac/open_boundary_quarks_test.cpp), so the pion, 3 V_s tr[S S^dag] in free_correlator's wall
// normalisation, is 6 V_s (f+^2 + f-^2) / (4 kappa^2): zero on the boundary slices, times relative to the source.
TEST(SpectrumCommand, OpenBoundaryWallSourcePionIsTheClosedForm) {
  test::TempDir dir;
  const int n0 = 10, T = n0 - 1, s = 3;
  const double kappa = 0.115, c_F = 1.2, m0 = 1 / (2 * kappa) - 4, vs = 4 * 4 * 4;
  const auto d = [&](int u) { return m0 + 1 + (u == 1 || u == T - 1 ? c_F - 1 : 0.0); };
  std::vector<double> want(std::size_t(n0), 0.0);
  for (int tau = 0; tau < n0; ++tau) {
    const int t = (s + tau) % n0;
    double up = 0, down = 0;
    if (t >= s && t <= T - 1) {
      up = 1;
      for (int u = s; u <= t; ++u) up /= d(u);
    }
    if (t >= 1 && t <= s) {
      down = 1;
      for (int u = t; u <= s; ++u) down /= d(u);
    }
    want[std::size_t(tau)] = 6 * vs * (up * up + down * down) / (4 * kappa * kappa);
  }
  const std::string input = fmt::format(
      "[lattice]\ndims = [4, 4, 4, {}]\n[gauge]\nconfig = \"unit\"\n[fermion]\naction = \"clover\"\nkappa = {:.17g}\n"
      "csw = 1.0\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"open\"]\nc_F = {}\n[solver]\n"
      "type = \"bicgstab\"\ntolerance = 1e-12\n[source]\ntype = \"wall\"\nposition = [0, 0, 0, {}]\n[gauge_fixing]\n"
      "gauge = \"coulomb\"\n[output]\nprefix = \"out/open\"\n",
      n0, kappa, c_F, s);
  const auto j = spectrum_json(dir, input);
  ASSERT_TRUE(j.contains("correlators"));
  expect_close(j["correlators"]["pion"], want, 1e-9, "open-boundary wall pion");
}

// Gaussian wavefunction sources in Coulomb gauge (issue 29; MILC's "gaussian" source): on the unit field
// the pion is the momentum-space correlator weighted by the wavefunction's Fourier transform; on a pure
// gauge (the unit field randomly gauge transformed, written as a file) the Coulomb gauge fixing brings
// back the unit field's correlator (up to a gauge rotation constant on each time slice, which the
// colour-blind source does not see); without gauge fixing, or with a radius that is not > 0, it is a
// one-line error naming the key.
TEST(SpectrumCommand, GaussianWavefunctionSourceInCoulombGauge) {
  test::TempDir dir;
  FreeQuark q{{4, 4, 4, 8}, 0.2, 0.0, {0, 0, 0, M_PI}};
  q.wavefunction_radius = 1.5;
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const std::vector<double> want = free_correlator(q, g5, g5);
  FreeQuark point = q;
  point.wavefunction_radius = 0;
  const std::vector<double> point_pion = free_correlator(point, g5, g5);
  const std::string fix = "[gauge_fixing]\ngauge = \"coulomb\"\n";
  const std::string source = "[source]\ntype = \"gaussian_wavefunction\"\nposition = [1, 2, 3, 2]\n";
  const std::string gaussian = source + "radius = 1.5\n" + fix;
  const auto unit = spectrum_json(dir, free_input(q, "wilson", gaussian));
  ASSERT_TRUE(unit.contains("correlators"));
  expect_close(unit["correlators"]["pion"], want, 1e-9, "gaussian wavefunction pion, unit field");
  // Not the point source's correlator (which the weight could leave unchanged if it were 1).
  EXPECT_GT(std::abs(want[0] - point_pion[0]), 0.1 * point_pion[0]);
  EXPECT_EQ(unit["source"]["type"], "gaussian_wavefunction");
  EXPECT_EQ(unit["source"]["radius"].get<double>(), 1.5);
  const io::CorrelatorFile unit_file = io::read_correlators_hdf5(dir / "out/free.h5");
  EXPECT_EQ(unit_file.number_attributes.at("source_radius"), 1.5);
  EXPECT_EQ(unit_file.string_attributes.at("gauge_fixing"), "coulomb");
  const auto pure = spectrum_json(dir, on_pure_gauge(dir, free_input(q, "wilson", gaussian), q.dims, 11));
  ASSERT_TRUE(pure.contains("correlators"));
  const auto& unit_pion = unit["correlators"]["pion"];
  std::vector<double> unit_values;
  for (const auto& c : unit_pion) unit_values.push_back(c.get<double>());
  expect_close(pure["correlators"]["pion"], unit_values, 1e-8, "gaussian wavefunction pion, pure gauge in Coulomb gauge");
  for (const auto& [extra, key] : {std::pair<std::string, std::string>{source, "source.type"},
                                   {source + "radius = 0\n" + fix, "source.radius"},
                                   {source + "radius = -1\n" + fix, "source.radius"},
                                   {source + "radius = inf\n" + fix, "source.radius"}}) {
    SCOPED_TRACE(extra);
    test::write_text(dir / "bad.toml", free_input(q, "wilson", extra));
    const auto r = run_lqcd("spectrum bad.toml", dir.path());
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(test::error_line(r.err).find(key), std::string::npos) << r.err;
  }
  // The message says what to set.
  test::write_text(dir / "bad.toml", free_input(q, "wilson", source));
  EXPECT_NE(run_lqcd("spectrum bad.toml", dir.path()).err.find("gauge_fixing.gauge = \"coulomb\""), std::string::npos);
}

// lqcd propagator with a gaussian wavefunction source: the saved columns solve M psi = eta with eta
// exp(-r^2/r0^2) on the source slice (r the periodic distance, computed here), and the file's metadata
// records the radius.
TEST(PropagatorCommand, GaussianWavefunctionColumnsSolveTheDiracEquation) {
  test::TempDir dir;
  const FreeQuark q{{4, 4, 4, 4}, 0.25, 0.0, {0, 0, 0, M_PI}};
  test::write_text(dir / "in.toml",
                   free_input(q, "wilson",
                              "[source]\ntype = \"gaussian_wavefunction\"\nposition = [3, 0, 2, 1]\nradius = 1.25\n"
                              "[gauge_fixing]\ngauge = \"coulomb\"\n"));
  const auto r = run_lqcd("propagator in.toml", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const io::PropagatorFile prop = io::read_propagator_lime(dir / "out/free.prop.lime");
  EXPECT_NE(prop.file_xml.find("<source type=\"gaussian_wavefunction\" radius=\"1.25\">3 0 2 1</source>"),
            std::string::npos)
      << prop.file_xml;
  const Geometry geom = Geometry::single_process(q.dims);
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  WilsonParams prm;
  prm.kappa = 1.0 / (2 * q.m0 + 8);
  const WilsonOperator<double> M(U, prm);
  // Periodic distances on L = 4 from centre coordinate c: |x - c| folded to 0, 1, 2, 1.
  auto d2 = [](int x, int c) {
    const int d = (x - c + 4) % 4;
    return d == 3 ? 1 : d * d;
  };
  for (int col = 0; col < 12; ++col) {
    const SpinorField<double> psi = to_spinor_field(prop.columns[std::size_t(col)], geom, Location::Host);
    SpinorField<double> eta = psi.like();
    M.apply(eta, psi);
    LexicographicSpinor e = to_lexicographic(eta);
    double b2 = 0;
    for (int z = 0; z < 4; ++z)
      for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
          const double phi = std::exp(-(d2(x, 3) + d2(y, 0) + d2(z, 2)) / (1.25 * 1.25));
          e[std::size_t(x + 4 * (y + 4 * (z + 4 * 1)))].s[col / 3].c[col % 3] -= Complex<double>(phi);
          b2 += phi * phi;
        }
    double r2 = 0;
    for (const auto& s : e) r2 += norm2(s);
    EXPECT_LT(std::sqrt(r2 / b2), 1e-11) << "column " << col;
  }
}

TEST(SpectrumCommand, FreeTwistedMassAndCloverMatchMomentumSpace) {
  test::TempDir dir;
  const FreeQuark q{{4, 4, 4, 8}, 0.15, 0.3, {0, 0, 0, M_PI}};
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  // Twisted mass: the charged pion sum |S_u|^2.
  const auto tm = spectrum_json(dir, free_input(q, "twisted_mass", ""));
  expect_close(tm["correlators"]["pion"], free_correlator(q, g5, g5), 1e-9, "twisted-mass charged pion");
  ASSERT_TRUE(tm["correlators"].contains("pion0_connected"));
  // Clover on the unit gauge field is Wilson (F = 0), also with a twisted mass.
  FreeQuark tc = q;
  tc.csw = 1.769;
  const auto cl = spectrum_json(dir, free_input(tc, "twisted_mass", ""));
  expect_close(cl["correlators"]["pion"], free_correlator(q, g5, g5), 1e-9, "twisted clover pion");
  FreeQuark w = q;
  w.mu = 0;
  w.csw = 1.0;
  const auto clover = spectrum_json(dir, free_input(w, "clover", ""));
  expect_close(clover["correlators"]["pion"], free_correlator(w, g5, g5), 1e-9, "clover pion");
}

// Inputs from other codes' regression tests, refused before issue 26 as "beyond the free-field critical
// value": Wilson and twisted-mass quarks at kappa = 0.15 (m0 = -2/3 < 0) on a 4^4 free field periodic in
// every direction, point source. The operator is invertible (min_p |M(p)|^2 = 0.04 at mu = 0), and the
// correlators are the momentum-space ones to 1e-10.
TEST(SpectrumCommand, FreeQuarksAtKappaBeyondOneEighthMatchMomentumSpace) {
  test::TempDir dir;
  const double m0 = 1 / (2 * 0.15) - 4;
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5), one = SpinMatrix::identity();
  for (double mu : {0.0, 4.0}) {
    SCOPED_TRACE(fmt::format("mu = {}", mu));
    const FreeQuark q{{4, 4, 4, 4}, m0, mu, {0, 0, 0, 0}};
    for (const char* solver : {"cg", "bicgstab"}) {
      const auto j = spectrum_json(dir, free_input(q, mu == 0 ? "wilson" : "twisted_mass", "", solver));
      ASSERT_TRUE(j.contains("correlators")) << solver;
      expect_close(j["correlators"]["pion"], free_correlator(q, g5, g5), 1e-10, "pion");
      expect_close(j["correlators"]["a0"], free_correlator(q, one, one), 1e-10, "a0");
      std::vector<double> rho(4, 0.0);
      for (int i = 0; i < 3; ++i) {
        const std::vector<double> c = free_correlator(q, SpinMatrix::gamma(i), SpinMatrix::gamma(i));
        for (std::size_t t = 0; t < c.size(); ++t) rho[t] += c[t] / 3;
      }
      expect_close(j["correlators"]["rho"], rho, 1e-10, "rho");
    }
  }
}

// Gaussian smearing of source and sink given as Chroma and MILC give it, width w = 2 and N = 5 steps,
// is lqcd's hopping form at kappa_G = -1 (refused before issue 26): both give the momentum-space
// correlators of the smeared free quark, and each other's to rounding.
TEST(SpectrumCommand, GaussianSmearingInWidthAndHoppingFormMatchesMomentumSpace) {
  test::TempDir dir;
  FreeQuark q{{4, 4, 4, 8}, 0.2, 0.0, {0, 0, 0, M_PI}};
  q.smear_alpha = 2.0 * 2.0 / (4 * 5);
  q.smear_steps = 5;
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const std::vector<double> want = free_correlator(q, g5, g5);
  const std::string smearing = "[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 5\n{}\n[sink]\nsmearing = \"gaussian\"\n";
  const auto w = spectrum_json(dir, free_input(q, "wilson", fmt::format(fmt::runtime(smearing), "smearing_width = 2.0")));
  const auto k = spectrum_json(dir, free_input(q, "wilson", fmt::format(fmt::runtime(smearing), "smearing_kappa = -1.0")));
  expect_close(w["correlators"]["pion"], want, 1e-10, "width form");
  expect_close(k["correlators"]["pion"], want, 1e-10, "hopping form");
  std::vector<double> from_width;
  for (const auto& v : w["correlators"]["pion"]) from_width.push_back(v.get<double>());
  expect_close(k["correlators"]["pion"], from_width, 1e-13, "the two forms");
  // The file says how source and sink were smeared (issue 49: a smeared point source is not "point" alone).
  const io::CorrelatorFile f = io::read_correlators_hdf5(dir / "out/free.h5");
  const std::string want_smearing = "gaussian (Wuppertal): N = 5 steps of (1 + alpha Laplacian), alpha = 0.2, width w = 2, kappa_G = -1";
  EXPECT_EQ(f.string_attributes.at("source_smearing"), want_smearing);
  EXPECT_EQ(f.string_attributes.at("sink_smearing"), want_smearing);
  EXPECT_EQ(f.string_attributes.at("link_smearing"), "none (the smearing uses the unsmeared links)");
  EXPECT_EQ(f.string_attributes.at("source_type"), "point");
  // The smearing changed the correlator (it is not the point-point one).
  FreeQuark point = q;
  point.smear_steps = 0;
  const std::vector<double> unsmeared = free_correlator(point, g5, g5);
  EXPECT_GT(std::abs(want[2] - unsmeared[2]), 1e-3 * std::abs(unsmeared[2]));
}

// solver.precision = "single" (double residuals, single-precision corrections) meets the same
// tolerance, so the correlators are the double-precision ones.
TEST(SpectrumCommand, SinglePrecisionSolvesGiveTheDoublePrecisionCorrelators) {
  test::TempDir dir;
  for (const char* action : {"wilson", "clover"}) {
    SCOPED_TRACE(action);
    FreeQuark q{{4, 4, 4, 8}, 0.2, 0.0, {0, 0, 0, M_PI}};
    if (std::string(action) == "clover") q.csw = 1.769;
    const auto d = spectrum_json(dir, free_input(q, action, ""));
    const auto s = spectrum_json(dir, free_input(q, action, "", "cg", "single"));
    for (const char* c : {"pion", "rho", "a0"}) {
      std::vector<double> want;
      for (const auto& v : d["correlators"][c]) want.push_back(v.get<double>());
      expect_close(s["correlators"][c], want, 1e-9, c);
    }
    std::istringstream lines(test::read_text(dir / "out/free.jsonl"));
    int solves = 0;
    for (std::string l; std::getline(lines, l);) {
      const auto r = nlohmann::json::parse(l);
      if (r["record"] != "solve") continue;
      ++solves;
      EXPECT_EQ(r["precision"], "single");
      EXPECT_LE(r["full_residual"].get<double>(), 1e-11);
    }
    EXPECT_EQ(solves, 12);
    EXPECT_NE(test::read_text(dir / "out/free.log").find("double/single"), std::string::npos);
  }
}

// The solve records of the last run's JSON-lines file.
std::vector<nlohmann::json> solve_records(const test::TempDir& dir, const std::string& prefix) {
  std::istringstream lines(test::read_text(dir / (prefix + ".jsonl")));
  std::vector<nlohmann::json> solves;
  for (std::string l; std::getline(lines, l);) {
    nlohmann::json r = nlohmann::json::parse(l);
    if (r["record"] == "solve") solves.push_back(std::move(r));
  }
  return solves;
}

// solver.multi_rhs = true solves the 12 systems of a source together (the multi-RHS CG on the normal
// equations, rechecked on the even-odd residual): the same tolerance on each system, so the
// correlators are those of the 12 solves one at a time; exactly the momentum-space ones for a free
// twisted-mass quark, and on the beta = 6.0 configuration in every precision.
TEST(SpectrumCommand, MultiRhsSolvesGiveTheOneAtATimeCorrelators) {
  test::TempDir dir;
  const FreeQuark q{{4, 4, 4, 8}, 0.15, 0.3, {0, 0, 0, M_PI}};
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const auto tm = spectrum_json(dir, free_input(q, "twisted_mass", "", "cg", "double", "multi_rhs = true\n"));
  expect_close(tm["correlators"]["pion"], free_correlator(q, g5, g5), 1e-9, "twisted-mass charged pion, multi-RHS");
  EXPECT_EQ(solve_records(dir, "out/free").size(), 24u);  // u and d quarks

  const std::string milc = test::testdata("milc_l8888_b6.0.milc").string();
  const auto input = [&](const char* precision, bool multi_rhs) {
    return fmt::format("[gauge]\nconfig = \"{}\"\n[fermion]\nkappa = 0.140\n[solver]\nprecision = \"{}\"\n"
                       "multi_rhs = {}\n[output]\nprefix = \"milc\"\n",
                       milc, precision, multi_rhs);
  };
  const auto one = spectrum_json(dir, input("double", false));
  for (const char* precision : {"double", "single", "half"}) {
    SCOPED_TRACE(precision);
    const auto block = spectrum_json(dir, input(precision, true));
    for (const char* c : {"pion", "rho", "a0"}) {
      std::vector<double> want;
      for (const auto& v : one["correlators"][c]) want.push_back(v.get<double>());
      expect_close(block["correlators"][c], want, 1e-8, c);
    }
    const std::vector<nlohmann::json> solves = solve_records(dir, "milc");
    ASSERT_EQ(solves.size(), 12u);
    for (const auto& r : solves) {
      EXPECT_EQ(r["multi_rhs"], true);
      EXPECT_EQ(r["precision"], precision);
      EXPECT_LE(r["true_residual"].get<double>(), 1e-10);  // the even-odd system's, as asked
      EXPECT_LE(r["full_residual"].get<double>(), 1e-9);
      EXPECT_GT(r["iterations"].get<int>(), 50);
      EXPECT_GE(r["block_rounds"].get<int>(), 1);
    }
    EXPECT_NE(test::read_text(dir / "milc.log").find("in a block of 12"), std::string::npos);
  }
}

// solver.type = "multigrid" (solvers/multigrid/multigrid.hpp): the full system to the same tolerance, so the
// correlators are those of the Krylov solvers: exactly the momentum-space ones for a free twisted-mass
// quark, and on the beta = 6.0 configuration those of BiCGStab, with the cycle in single precision,
// one at a time and with solver.multi_rhs (the 12 together, issue 46); one setup for the 12 solves,
// recorded in the log and the JSON lines.
TEST(SpectrumCommand, MultigridSolvesGiveTheKrylovCorrelators) {
  test::TempDir dir;
  const FreeQuark q{{4, 4, 4, 8}, 0.15, 0.3, {0, 0, 0, M_PI}};
  const SpinMatrix g5 = SpinMatrix::gamma(kGamma5);
  const auto tm = spectrum_json(
      dir, free_input(q, "twisted_mass", "[multigrid]\nblock = [2, 2, 2, 4]\ntest_vectors = 4\n", "multigrid", "single"));
  expect_close(tm["correlators"]["pion"], free_correlator(q, g5, g5), 1e-9, "twisted-mass charged pion, multigrid");

  const std::string milc = test::testdata("milc_l8888_b6.0.milc").string();
  const auto input = [&](const char* type, const char* precision, bool together) {
    return fmt::format("[gauge]\nconfig = \"{}\"\n[fermion]\naction = \"clover\"\nkappa = 0.1250\ncsw = 1.769\n"
                       "[solver]\ntype = \"{}\"\nprecision = \"{}\"\nmulti_rhs = {}\n[multigrid]\nblock = [4, 4, 4, 4]\n"
                       "test_vectors = 8\nsetup_iterations = 20\nadaptive_cycles = 0\n[output]\nprefix = \"milc\"\n",
                       milc, type, precision, together);
  };
  const auto krylov = spectrum_json(dir, input("bicgstab", "double", false));
  // The double-precision cycle: tests/solvers/multigrid_test.cpp. multi_rhs: the 12 solved together.
  for (const bool together : {false, true}) {
    const char* precision = "single";
    SCOPED_TRACE(together ? "multi_rhs" : "one at a time");
    const auto mg = spectrum_json(dir, input("multigrid", precision, together));
    for (const char* c : {"pion", "rho", "a0"}) {
      std::vector<double> want;
      for (const auto& v : krylov["correlators"][c]) want.push_back(v.get<double>());
      expect_close(mg["correlators"][c], want, 1e-8, c);
    }
    const std::vector<nlohmann::json> solves = solve_records(dir, "milc");
    ASSERT_EQ(solves.size(), 12u);
    for (const auto& r : solves) {
      EXPECT_EQ(r["solver"], "multigrid");
      EXPECT_EQ(r["even_odd"], false);
      EXPECT_EQ(r["multi_rhs"], together);
      EXPECT_LE(r["full_residual"].get<double>(), 1e-10);
    }
    EXPECT_EQ(test::read_text(dir / "milc.log").find("in a block of 12") != std::string::npos, together);
    int setups = 0;
    for (const auto& r : test::read_jsonl(dir / "milc.jsonl"))
      if (r["record"] == "multigrid_setup") {
        ++setups;
        EXPECT_EQ(r["coarse_components"], 16);
        EXPECT_EQ(r["coarse"], nlohmann::json::array({2, 2, 2, 2}));
      }
    EXPECT_EQ(setups, 1);
    EXPECT_NE(test::read_text(dir / "milc.log").find("multigrid (" + std::string(precision) + " cycle, 2 levels)"),
              std::string::npos);
  }
  // The sequential and the one-end solves reuse the propagator's setup: still one for 36 solves.
  (void)spectrum_json(dir, input("multigrid", "single", false) +
                               "[spectrum]\nthree_point_sink_times = [2]\none_end_vectors = 1\n");
  int setups = 0;
  for (const auto& r : test::read_jsonl(dir / "milc.jsonl")) setups += r["record"] == "multigrid_setup";
  EXPECT_EQ(setups, 1);
  EXPECT_EQ(solve_records(dir, "milc").size(), 12u);
}

// spectrum.strange_kappa adds Lambda, Sigma, Xi and Omega. With the strange quark's kappa the light one's,
// SU(3) flavour symmetry makes the octet's correlators the nucleon's and the Omega's the Delta's in the
// file (the contractions' own tests: tests/measure/baryon_symmetries_test.cpp); with a heavier strange
// quark every strange baryon's free effective mass lies above the nucleon's (Omega above Delta). The
// log's baryon table and the JSON name every channel.
TEST(SpectrumCommand, StrangeKappaAddsTheStrangeBaryons) {
  test::TempDir dir;
  const FreeQuark q{{4, 4, 4, 8}, 0.3, 0.0, {0, 0, 0, M_PI}};
  const double kappa = 1.0 / (2 * q.m0 + 8);
  const auto dataset = [](const io::CorrelatorFile& f, const std::string& name) {
    for (const auto& d : f.datasets)
      if (d.name == name) return d.values;
    ADD_FAILURE() << "no dataset " << name;
    return std::vector<Complex<double>>{};
  };
  spectrum_json(dir, free_input(q, "wilson", fmt::format("[spectrum]\nstrange_kappa = {:.17g}\n", kappa)));
  io::CorrelatorFile f = io::read_correlators_hdf5(dir / "out/free.h5");
  EXPECT_EQ(f.datasets.size(), 17u + 2u * 6u);
  EXPECT_NEAR(f.number_attributes.at("strange_kappa"), kappa, 1e-15);
  for (const char* parity : {"_Pplus", "_Pminus"})
    for (const auto& [name, same] : {std::pair<std::string, std::string>{"lambda", "nucleon"}, {"sigma", "nucleon"},
                                     {"xi", "nucleon"}, {"omega", "delta"}}) {
      const auto a = dataset(f, name + parity), b = dataset(f, same + parity);
      ASSERT_EQ(a.size(), b.size());
      for (std::size_t t = 0; t < a.size(); ++t) EXPECT_NEAR(a[t].re, b[t].re, 1e-12 * std::abs(b[0].re)) << name << parity << t;
    }
  // m0 = 0.545 against 0.3: a free strange quark at rest is heavier by log(1.545 / 1.3) = 0.17 (measured at
  // t = 2 of T = 8: Lambda 0.24 and Sigma 0.26 above the nucleon, Xi 0.23 above Sigma, Omega 0.73 above Delta).
  const auto j = spectrum_json(dir, free_input(q, "wilson", "[spectrum]\nstrange_kappa = 0.11\n"));
  for (const auto& [heavy, light, strange] : {std::tuple<std::string, std::string, int>{"lambda", "nucleon", 1},
                                              {"sigma", "nucleon", 1}, {"xi", "sigma", 1}, {"omega", "delta", 3}})
    EXPECT_GT(j["effective_masses"][heavy][2].get<double>(), j["effective_masses"][light][2].get<double>() + 0.1 * strange)
        << heavy << " against " << light;
  const std::string log = test::read_text(dir / "out/free.log");
  EXPECT_NE(log.find("nucleon      delta     lambda      sigma         xi      omega"), std::string::npos) << log;
}

TEST(SpectrumCommand, WritesEveryGammaAndMomentumToHdf5) {
  test::TempDir dir;
  const FreeQuark q{{4, 4, 4, 4}, 0.3, 0.0, {0, 0, 0, M_PI}};
  const auto j = spectrum_json(dir, free_input(q, "wilson", "[spectrum]\nmomenta = [[0, 0, 0], [0, 1, 0]]\n"));
  const io::CorrelatorFile f = io::read_correlators_hdf5(dir / "out/free.h5");
  EXPECT_EQ(f.datasets.size(), 2u * 21u);  // 16 Gamma-Gamma + A0-P + nucleon and Delta, two parities each; two momenta
  // The nucleon: the summary's correlator is the HDF5 file's positive-parity one at p = 0, and its effective
  // mass log C(t)/C(t+1) of it (the contraction itself: tests/measure/baryon_correlator_test.cpp).
  bool nucleon_found = false;
  for (const auto& d : f.datasets)
    if (d.name == "nucleon_Pplus" && d.momentum == std::array<int, 3>{0, 0, 0}) {
      nucleon_found = true;
      ASSERT_EQ(d.values.size(), 4u);
      for (std::size_t t = 0; t < 4; ++t)
        EXPECT_NEAR(j["correlators"]["nucleon"][t].get<double>(), d.values[t].re, 1e-12 * std::abs(d.values[0].re));
      EXPECT_GT(d.values[1].re, 0);
      EXPECT_NEAR(j["effective_masses"]["nucleon"][1].get<double>(), std::log(d.values[1].re / d.values[2].re), 1e-12);
    }
  EXPECT_TRUE(nucleon_found);
  EXPECT_NE(f.string_attributes.at("baryon_convention").find("nucleon = eps (u^T C g5 d) u"), std::string::npos);
  EXPECT_EQ(f.string_attributes.at("source_smearing"), "none");
  EXPECT_EQ(f.string_attributes.at("link_smearing"), "none");
  for (int n = 0; n < 16; ++n)
    for (const std::array<int, 3> p : {std::array<int, 3>{0, 0, 0}, std::array<int, 3>{0, 1, 0}}) {
      const std::string name = gamma_name(n) + "_" + gamma_name(n);
      bool found = false;
      for (const auto& d : f.datasets)
        if (d.name == name && d.momentum == p) {
          found = true;
          EXPECT_EQ(d.values.size(), 4u);
          const std::vector<double> want = free_correlator(q, SpinMatrix::basis(n), SpinMatrix::basis(n));
          if (p[1] == 0) {
            for (std::size_t t = 0; t < 4; ++t) EXPECT_NEAR(d.values[t].re, want[t], 1e-9 * std::abs(want[0])) << name;
          }
        }
      EXPECT_TRUE(found) << name;
    }
  EXPECT_NEAR(f.number_attributes.at("kappa"), 1.0 / (2 * 0.3 + 8), 1e-15);
  EXPECT_EQ(f.string_attributes.at("gauge_config"), "unit");
  // The JSON-lines file has 12 solve records and the summary.
  std::istringstream lines(test::read_text(dir / "out/free.jsonl"));
  int solves = 0, summaries = 0;
  for (std::string l; std::getline(lines, l);) {
    const auto r = nlohmann::json::parse(l);
    if (r["record"] == "solve") {
      ++solves;
      EXPECT_LE(r["full_residual"].get<double>(), 1e-11);
    }
    if (r["record"] == "spectrum") ++summaries;
  }
  EXPECT_EQ(solves, 12);
  EXPECT_EQ(summaries, 1);
}

TEST(SpectrumCommand, PionOnTheBeta6ConfigurationIsPositiveWithAnEffectiveMass) {
  test::TempDir dir;
  const std::string input = fmt::format(
      "[gauge]\nconfig = \"{}\"\n[fermion]\nkappa = 0.155\n[solver]\ntype = \"bicgstab\"\n[output]\nprefix = \"milc\"\n",
      test::testdata("milc_l8888_b6.0.milc").string());
  const auto j = spectrum_json(dir, input);
  const auto& pion = j["correlators"]["pion"];
  ASSERT_EQ(pion.size(), 8u);
  for (const auto& c : pion) EXPECT_GT(c.get<double>(), 0);
  // A pion mass is reported near the middle of the lattice, positive and of a plausible size for
  // a heavy quark on a coarse 8^4 lattice (a m_pi between 0.2 and 2).
  const auto& m = j["effective_masses"]["pion"];
  ASSERT_FALSE(m[2].is_null());
  EXPECT_GT(m[2].get<double>(), 0.2);
  EXPECT_LT(m[2].get<double>(), 2.0);
  const std::string log = test::read_text(dir / "milc.log");
  EXPECT_NE(log.find("m_pion"), std::string::npos);
}

TEST(PropagatorCommand, SavedColumnsSolveTheDiracEquation) {
  test::TempDir dir;
  const FreeQuark q{{4, 4, 4, 4}, 0.25, 0.0, {0, 0, 0, M_PI}};
  test::write_text(dir / "in.toml", free_input(q, "wilson", "[source]\nposition = [1, 0, 2, 3]\n"));
  const auto r = run_lqcd("propagator in.toml", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const io::PropagatorFile prop = io::read_propagator_lime(dir / "out/free.prop.lime");
  const Geometry geom = Geometry::single_process(q.dims);
  GaugeField<double> U(geom, Location::Host);
  set_unit_gauge(U);
  WilsonParams prm;
  prm.kappa = 1.0 / (2 * q.m0 + 8);
  const WilsonOperator<double> M(U, prm);
  for (int col = 0; col < 12; ++col) {
    const SpinorField<double> psi = to_spinor_field(prop.columns[std::size_t(col)], geom, Location::Host);
    SpinorField<double> eta = psi.like();
    M.apply(eta, psi);
    LexicographicSpinor e = to_lexicographic(eta);
    const std::size_t src = std::size_t(1 + 4 * (0 + 4 * (2 + 4 * 3)));
    e[src].s[col / 3].c[col % 3] -= Complex<double>(1.0);
    double r2 = 0;
    for (const auto& s : e) r2 += norm2(s);
    EXPECT_LT(std::sqrt(r2), 1e-11) << "column " << col;
  }
  // A second run does not overwrite the file without --force.
  const auto again = run_lqcd("propagator in.toml", dir.path());
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(again.err.find("--force"), std::string::npos);
}

// Unusual but valid inputs run (issue 26: refuse only what is wrong): clover with c_sw = 0 and twisted
// mass with mu = 0 are the Wilson quark, to the solver's tolerance; a negative c_sw is another operator
// (it changes the correlator) that is well defined.
TEST(SpectrumCommand, UnusualButValidQuarksRun) {
  test::TempDir dir;
  const std::string config = test::testdata("milc_l4444.ildg").string();
  const auto run = [&](const std::string& fermion) {
    return spectrum_json(dir, fmt::format("[gauge]\nconfig = \"{}\"\n[fermion]\nkappa = 0.12\n{}\n[solver]\ntolerance = "
                                          "1e-12\n[output]\nprefix = \"out/q\"\n",
                                          config, fermion));
  };
  const auto wilson = run("action = \"wilson\"");
  ASSERT_TRUE(wilson.contains("correlators"));
  std::vector<double> want;
  for (const auto& v : wilson["correlators"]["pion"]) want.push_back(v.get<double>());
  expect_close(run("action = \"clover\"\ncsw = 0.0")["correlators"]["pion"], want, 1e-10, "clover, csw = 0");
  expect_close(run("action = \"twisted_mass\"\nmu = 0.0")["correlators"]["pion"], want, 1e-10, "twisted mass, mu = 0");
  const auto negative = run("action = \"clover\"\ncsw = -1.0");
  ASSERT_TRUE(negative.contains("correlators"));
  EXPECT_GT(std::abs(negative["correlators"]["pion"][1].get<double>() - want[1]), 1e-4 * std::abs(want[1]));
}

TEST(SpectrumCommand, BadInputsGiveOneLineErrors) {
  test::TempDir dir;
  const std::string milc = test::testdata("milc_l8888_b6.0.milc").string();
  const std::pair<std::string, std::string> cases[] = {
      // A free-field zero mode: m0 = 0 with every direction periodic; m0 = -2 with p = (pi, 0, 0, 0).
      {"[fermion]\nkappa = 0.125\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"periodic\"]\n", "singular"},
      {"[fermion]\nkappa = 0.25\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"periodic\"]\n", "fermion.kappa"},
      {"[fermion]\nkappa = 0.1\n[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 2\nsmearing_kappa = -0.16666666666666666\n",
       "source.smearing_kappa"},  // 1 + 6 kappa_G = 0
      {"[fermion]\nkappa = 0.1\n[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 2\nsmearing_width = -1.0\n",
       "source.smearing_width"},
      {"[fermion]\nkappa = 0.1\n[source]\nsmearing = \"gaussian\"\nsmearing_iterations = 2\nsmearing_width = 1.0\n"
       "smearing_kappa = 0.3\n", "source.smearing_width"},  // both forms
      {"[fermion]\naction = \"overlap\"\n", "fermion.action"},
      {"[fermion]\nkappa = -0.1\n", "fermion.kappa"},
      {"[fermion]\nmu = 0.1\n", "fermion.mu"},                                             // mu without twisted_mass
      {"[fermion]\nboundary = [\"open\", \"periodic\", \"periodic\", \"periodic\"]\n", "fermion.boundary"},  // t only
      // open in time with the default source on x0 = 0, where the fields vanish
      {"[fermion]\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"open\"]\n", "source.position"},
      {"[fermion]\nc_F = 1.2\n", "fermion.c_F"},  // without open boundaries
      {"[fermion]\nboundary = [\"periodic\", \"periodic\", \"periodic\", \"open\"]\nc_F = 1.2\n[source]\n"
       "position = [0, 0, 0, 3]\n",
       "fermion.c_F"},  // the wilson action has no site term to carry it
      {"[source]\nposition = [0, 0, 0, 8]\n", "source.position"},                          // outside 8^4
      {"[solver]\ntype = \"gmres\"\n", "solver.type"},
      {"[solver]\nmax_iterations = 2\n", "solver"},                                        // does not converge
      {"[solver]\nprecision = \"quarter\"\n", "solver.precision"},
      {"[solver]\nmulti_rhs = true\ntype = \"bicgstab\"\n", "solver.multi_rhs"},
      {"[solver]\nmulti_rhs = true\nmax_iterations = 2\n", "solver.max_iterations"},  // does not converge
      {"[solver]\nmulti_rhs = true\neven_odd = false\n", "solver.multi_rhs"},
      {"[fermion]\naction = \"clover\"\ncsw = 1.0\n[solver]\nmulti_rhs = true\n", "solver.multi_rhs"},
      {fmt::format("[gauge]\nconfig = \"{}\"\n[lattice]\ndims = [8, 8, 8, 16]\n", milc), "dims"},  // mismatch
      {"[gauge]\nconfig = \"missing.ildg\"\n", "missing.ildg"},
      {"[solver]\ntype = \"multigrid\"\nprecision = \"half\"\n", "solver.precision"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nblock = [3, 4, 4, 4]\n", "multigrid.block"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nblock = [4, 4, 4]\n", "multigrid.block"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nsmoother = \"jacobi\"\n", "multigrid.smoother"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\ntest_vectors = 0\n", "multigrid.test_vectors"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nsmoother = \"mr\"\nsetup_sweeps = 4\n", "multigrid.setup_sweeps"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nsetup_sweeps = -1\n", "multigrid.setup_sweeps"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\ncoarse_tolerance = 1.0\n", "multigrid.coarse_tolerance"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\npost_smoothing = 0\n", "multigrid.post_smoothing"},
      // a lattice the blocks divide only once
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nblock = [8, 4, 4, 4]\n", "multigrid.block"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nlevels = 4\n", "multigrid.levels"},
      // 8^4 with 4^4 blocks: a 2^4 coarse lattice, which the default 2^4 coarse blocks tile only once
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nlevels = 3\n", "multigrid.coarse_block"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nlevels = 3\ncoarse_block = [2, 2, 2]\n", "multigrid.coarse_block"},
      {"[solver]\ntype = \"multigrid\"\n[multigrid]\nlevels = 3\ncoarsest_tolerance = 0\n", "multigrid.coarsest_tolerance"},
      {"[spectrum]\nstrange_kappa = -0.1\n", "spectrum.strange_kappa"},
      {"[spectrum]\nstrange_kappa = nan\n", "spectrum.strange_kappa"},
      {"[fermion]\naction = \"twisted_mass\"\nmu = 0.01\n[spectrum]\nstrange_kappa = 0.12\n", "spectrum.strange_kappa"},
  };
  for (const auto& [text, key] : cases) {
    test::write_text(dir / "bad.toml", text + "[output]\nprefix = \"bad/out\"\n");
    const auto r = run_lqcd("spectrum bad.toml", dir.path());
    SCOPED_TRACE(text);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(key), std::string::npos) << "expected \"" << key << "\" in: " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad/out.h5"));
  }
}

TEST(SpectrumCommand, PrintConfigRoundTrips) {
  test::TempDir dir;
  const auto r = run_lqcd("spectrum --print-config", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* key : {"config = ", "action = ", "kappa = ", "csw = ", "mu = ", "two_kappa_mu = ", "boundary = ",
                          "type = ", "tolerance = ", "max_iterations = ", "precision = ", "multi_rhs = ", "position = ",
                          "prefix = ", "momenta = "})
    EXPECT_NE(r.out.find(key), std::string::npos) << key;
  test::write_text(dir / "printed.toml", r.out);
  const auto again = run_lqcd("spectrum printed.toml --print-config", dir.path());
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(again.out, r.out);
}

}  // namespace
}  // namespace lqcd
