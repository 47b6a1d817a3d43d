// lqcd distill (issue 30) on the MILC beta = 6.0 8^4 configuration: the files and their shapes, the
// pion's positivity, lqcd gevp on the file, the eigenvectors written and read back (the same correlators, CRC32 checked; a
// damaged file is refused), and bad [distillation] keys refused with one line naming the key.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli_support.hpp"
#include "io/hdf5_datasets.hpp"

namespace lqcd {
namespace {

using test::run_lqcd;

std::string input(const std::string& extra) {
  return "[gauge]\nconfig = '" + test::testdata("milc_l8888_b6.0.milc").string() +
         "'\n[fermion]\nkappa = 0.12\n[solver]\ntolerance = 1e-11\n[distillation]\nnv = 6\nstout_steps = 2\n"
         "source_times = [0]\ngammas = [\"g5\", \"gxgygz\", \"gx\"]\nmomenta = [[0, 0, 0], [0, 0, 1]]\n"
         "gevp = [[\"g5\", \"gxgygz\"]]\n" + extra;
}

TEST(DistillCommand, WritesCorrelatorsAndReusesItsEigenvectors) {
  test::TempDir dir;
  test::write_text(dir.path() / "a.toml", input("save_eigenvectors = true\n[output]\nprefix = 'a'\n"));
  const auto r = run_lqcd("distill --json --device cpu a.toml", dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["nv"].get<int>(), 6);
  ASSERT_EQ(j["gevp"].size(), 2u);  // the channel at both momenta
  EXPECT_EQ(j["gevp"][0]["channel"].get<std::string>(), "g5+gxgygz_p0,0,0");
  const io::Hdf5Dataset c = io::read_dataset_hdf5(dir.path() / "a.h5", "distillation/C");
  const std::vector<std::uint64_t> shape{8, 6, 6, 2};  // 3 gammas x 2 momenta
  ASSERT_EQ(c.shape, shape);
  EXPECT_EQ(c.string_attributes.at("operators"), "g5_p0,0,0,gxgygz_p0,0,0,gx_p0,0,0,g5_p0,0,1,gxgygz_p0,0,1,gx_p0,0,1");
  const io::Hdf5Dataset c0 = io::read_dataset_hdf5(dir.path() / "a.h5", "distillation/t0_0000/C");
  EXPECT_EQ(c0.values, c.values) << "one source time: the average is that source time's matrix";
  for (int t = 0; t < 8; ++t) {  // the pion: C = Tr[tau tau^dag] > 0, real
    EXPECT_GT(c.values[std::size_t(t) * 72], 0.0) << t;
    EXPECT_NEAR(c.values[std::size_t(t) * 72 + 1], 0.0, 1e-10 * c.values[std::size_t(t) * 72]) << t;
  }
  const io::Hdf5Dataset lambda = io::read_dataset_hdf5(dir.path() / "a.h5", "distillation/eigenvalues");
  ASSERT_EQ(lambda.shape, (std::vector<std::uint64_t>{8, 6}));
  for (int t = 0; t < 8; ++t)
    for (int v = 0; v + 1 < 6; ++v) {
      EXPECT_GT(lambda.values[std::size_t(t * 6 + v)], 0.0);
      EXPECT_LE(lambda.values[std::size_t(t * 6 + v)], lambda.values[std::size_t(t * 6 + v + 1)]);
    }
  // lqcd gevp on the file reproduces the run's GEVP (same t0 and operators), and names a missing operator.
  const auto g = run_lqcd("gevp --json --t0 1 --operators g5_p0,0,0,gxgygz_p0,0,0 a.h5", dir.path());
  ASSERT_EQ(g.exit_code, 0) << g.err;
  const nlohmann::json gj = nlohmann::json::parse(g.out);
  const nlohmann::json& want = j["gevp"][0]["effective_energies"];
  ASSERT_EQ(gj["effective_energies"].size(), want.size());
  for (std::size_t k = 0; k < want.size(); ++k)
    for (std::size_t t = 0; t < want[k].size(); ++t) {
      if (want[k][t].is_null()) {
        EXPECT_TRUE(gj["effective_energies"][k][t].is_null());
        continue;
      }
      EXPECT_NEAR(gj["effective_energies"][k][t].get<double>(), want[k][t].get<double>(), 1e-12) << k << " " << t;
    }
  const auto bad = run_lqcd("gevp --operators g5_p9,9,9 a.h5", dir.path());
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(test::error_line(bad.err).find("--operators"), std::string::npos) << bad.err;
  ASSERT_TRUE(std::filesystem::exists(dir.path() / "a.eigvecs.h5"));
  // The same run from the saved eigenvectors: the same correlators.
  test::write_text(dir.path() / "b.toml", input("eigenvectors_in = 'a.eigvecs.h5'\n[output]\nprefix = 'b'\n"));
  const auto rb = run_lqcd("distill --quiet --device cpu b.toml", dir.path());
  ASSERT_EQ(rb.exit_code, 0) << rb.err;
  const io::Hdf5Dataset cb = io::read_dataset_hdf5(dir.path() / "b.h5", "distillation/C");
  ASSERT_EQ(cb.values.size(), c.values.size());
  for (std::size_t k = 0; k < c.values.size(); ++k) EXPECT_NEAR(cb.values[k], c.values[k], 1e-12 * std::abs(c.values[0]));
  // Eigenvectors of other links are refused (the file records the smearing and the plaquette).
  std::string other = input("eigenvectors_in = 'a.eigvecs.h5'\n[output]\nprefix = 'd'\n");
  other.replace(other.find("stout_steps = 2"), 15, "stout_steps = 3");
  test::write_text(dir.path() / "d.toml", other);
  const auto rd = run_lqcd("distill --quiet --device cpu d.toml", dir.path());
  EXPECT_EQ(rd.exit_code, 1);
  EXPECT_NE(test::error_line(rd.err).find("distillation.eigenvectors_in"), std::string::npos) << rd.err;
  EXPECT_NE(test::error_line(rd.err).find("stout"), std::string::npos) << rd.err;
  // A damaged eigenvector file is refused (a byte in the middle of the last slice's data).
  const auto size = std::filesystem::file_size(dir.path() / "a.eigvecs.h5");
  {
    std::fstream f(dir.path() / "a.eigvecs.h5", std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(size - 2000));
    char byte = 0;
    f.read(&byte, 1);
    byte = char(byte ^ 0x5a);
    f.seekp(std::streamoff(size - 2000));
    f.write(&byte, 1);
  }
  test::write_text(dir.path() / "c.toml", input("eigenvectors_in = 'a.eigvecs.h5'\n[output]\nprefix = 'c'\n"));
  const auto rc = run_lqcd("distill --quiet --device cpu c.toml", dir.path());
  EXPECT_NE(rc.exit_code, 0);
  EXPECT_NE(test::error_line(rc.err).find("a.eigvecs.h5"), std::string::npos) << rc.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "c.h5"));
}

// Progress (issue 31): with LQCD_PROGRESS=1 (stderr not a terminal) the eigenvector slices, the source
// times and the solves are counted on stderr; --json keeps stderr free of them.
TEST(DistillCommand, ReportsProgressUnlessJson) {
  test::TempDir dir;
  test::write_text(dir.path() / "p.toml", input("[output]\nprefix = 'p'\n"));
  const auto r = run_lqcd("distill --device cpu p.toml", dir.path(), "LQCD_PROGRESS=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("[eigenvectors: time slices] 8/8"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[perambulators and contractions: source times] 1/1"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("[eigenvectors: time slices] 1/8"), std::string::npos) << "counted as they finish";
  const auto j = run_lqcd("distill --json --device cpu p.toml", dir.path(), "LQCD_PROGRESS=1");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  EXPECT_EQ(j.err.find("[eigenvectors"), std::string::npos) << j.err;
}

TEST(DistillCommand, BadKeysAreOneLineErrors) {
  test::TempDir dir;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nv = 100000\n", "distillation.nv"},
      {"gevp = [[\"gy\"]]\n", "distillation.gevp"},
      {"displacements = [\"w\"]\n", "distillation.displacements"},
      {"source_times = [8]\n", "distillation.source_times"},
      {"gammas = [\"g7\"]\n", "distillation.gammas"},
  };
  for (const auto& [extra, key] : cases) {
    std::string text = input("");
    // the case's key replaces the base input's
    const std::string name = extra.substr(0, extra.find(' '));
    const auto at = text.find("\n" + name + " = ");
    if (at != std::string::npos) text.erase(at + 1, text.find('\n', at + 1) - at);
    test::write_text(dir.path() / "x.toml", text + extra);
    const auto r = run_lqcd("distill --device cpu x.toml", dir.path());
    EXPECT_EQ(r.exit_code, 1) << extra;
    EXPECT_NE(test::error_line(r.err).find(key), std::string::npos) << extra << r.err;
    EXPECT_EQ(test::program_lines(r.err).size(), 1u) << r.err;
  }
}

}  // namespace
}  // namespace lqcd
