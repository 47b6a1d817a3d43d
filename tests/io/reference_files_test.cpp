// Every configuration of ../shared/testdata (written by other codes) reads to the values listed in
// its README: format, dims, precision, checksum (exactly), and the plaquette recomputed from the
// field by the independent reference loops.

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>

#include "io/gauge_file.hpp"
#include "io_test_support.hpp"
#include "reference_observables.hpp"

namespace lqcd::test {
namespace {

using io::GaugeFile;
using io::read_gauge_file;

struct ReferenceFile {
  std::string name;
  std::string format;
  Dims dims;
  int precision_bits;
  std::optional<bool> checksum_ok;
  std::string checksum_detail;
  double plaquette;  // README value
  std::optional<double> header_plaquette;
};

std::vector<ReferenceFile> reference_files() {
  return {
      {"cl2qcd_conf.00200.ildg", "ildg", {4, 4, 4, 4}, 64, true,
       "scidac suma/sumb a3b09c8/d7a6d9a1 (computed a3b09c8/d7a6d9a1)", 0.57107711169452713, 0.571077},
      {"tmlqcd_4x4x4x4.ildg", "ildg", {4, 4, 4, 4}, 64, true,
       "scidac suma/sumb 17b93081/600235aa (computed 17b93081/600235aa)", 0.628065051764, 0.628065051764},
      {"milc_l4444.ildg", "ildg", {4, 4, 4, 4}, 32, true,
       "scidac suma/sumb 37affb9c/2fc07bbf (computed 37affb9c/2fc07bbf)", 0.594850158947, std::nullopt},
      {"milc_l4444.scidac", "scidac", {4, 4, 4, 4}, 32, true,
       "scidac suma/sumb 37affb9c/2fc07bbf (computed 37affb9c/2fc07bbf)", 0.594850158947, std::nullopt},
      {"milc_l4448.scidac", "scidac", {4, 4, 4, 8}, 32, true,
       "scidac suma/sumb 1c5a6cb5/5dea327a (computed 1c5a6cb5/5dea327a)", 0.56905572, std::nullopt},
      {"milc_l4448_foreign_records.lime", "ildg", {4, 4, 4, 8}, 32, std::nullopt, "no checksum record",
       0.56905572, std::nullopt},
      {"chroma_weak_field_4x4x4x8.lime", "ildg", {4, 4, 4, 8}, 64, true,
       "scidac suma/sumb a2c41090/11193c39 (computed a2c41090/11193c39)", 0.994804132267, std::nullopt},
      {"milc_l8888_b6.0.milc", "milc", {8, 8, 8, 8}, 32, true,
       "milc sum29/sum31 4f9d000e/8d72f72e (computed 4f9d000e/8d72f72e)", 0.593560240433, std::nullopt},
  };
}

class ReferenceFileTest : public ::testing::TestWithParam<ReferenceFile> {};

TEST_P(ReferenceFileTest, ReadsToTheKnownValues) {
  const ReferenceFile& ref = GetParam();
  const auto path = testdata(ref.name);
  EXPECT_EQ(io::detect_gauge_format(path), ref.format);
  const GaugeFile g = read_gauge_file(path);
  EXPECT_EQ(g.info.format, ref.format);
  EXPECT_EQ(g.info.dims, ref.dims);
  EXPECT_EQ(g.field.dims, ref.dims);
  EXPECT_EQ(g.info.precision_bits, ref.precision_bits);
  EXPECT_EQ(g.info.checksum_ok, ref.checksum_ok);
  EXPECT_EQ(g.info.checksum_detail, ref.checksum_detail);
  EXPECT_EQ(g.info.header_plaquette.has_value(), ref.header_plaquette.has_value());
  if (ref.header_plaquette && g.info.header_plaquette) {
    EXPECT_DOUBLE_EQ(*g.info.header_plaquette, *ref.header_plaquette);
  }

  const double p = reference_plaquette(g.field);
  // The README values are given to 12 digits (8 for milc_l4448), which bounds the 64-bit check.
  const double tolerance = ref.precision_bits == 64 ? 1e-9 : 1e-6;
  EXPECT_NEAR(p, ref.plaquette, tolerance * ref.plaquette) << ref.name << ": computed plaquette " << p;
  std::printf("  %-34s %-7s %s  P = %.15f  L = %.9f\n", ref.name.c_str(), g.info.format.c_str(),
              g.info.checksum_detail.c_str(), p, reference_link_trace(g.field));
}

INSTANTIATE_TEST_SUITE_P(Testdata, ReferenceFileTest, ::testing::ValuesIn(reference_files()),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

TEST(ReferenceFiles, MilcIldgAndScidacCopiesHoldTheSameField) {
  const GaugeFile ildg = read_gauge_file(testdata("milc_l4444.ildg"));
  const GaugeFile scidac = read_gauge_file(testdata("milc_l4444.scidac"));
  EXPECT_TRUE(bit_identical(ildg.field, scidac.field));
}

TEST(ReferenceFiles, ForeignRecordsAreSkippedAndTheFieldFound) {
  const GaugeFile foreign = read_gauge_file(testdata("milc_l4448_foreign_records.lime"));
  EXPECT_FALSE(foreign.info.checksum_ok.has_value());
  EXPECT_EQ(foreign.info.metadata.at("ildg-data-lfn"), "TestLFN");
  // The binary record is MILC's 4^3x8 sample, the same field as milc_l4448.scidac.
  const GaugeFile scidac = read_gauge_file(testdata("milc_l4448.scidac"));
  EXPECT_TRUE(bit_identical(foreign.field, scidac.field));
}

TEST(ReferenceFiles, XlfInfoBecomesMetadata) {
  const GaugeFile g = read_gauge_file(testdata("cl2qcd_conf.00200.ildg"));
  EXPECT_EQ(g.info.metadata.at("plaquette"), "0.571077");
  EXPECT_EQ(g.info.metadata.at("beta"), "5.690000");
  EXPECT_EQ(g.info.metadata.at("kappa"), "0.125000");
  EXPECT_EQ(g.info.metadata.at("mu"), "0.006000");
  EXPECT_EQ(g.info.metadata.at("trajectory nr"), "200");
  EXPECT_EQ(g.info.metadata.at("date"), "Sun Jan 20 12:15:17 2013");
  const GaugeFile tm = read_gauge_file(testdata("tmlqcd_4x4x4x4.ildg"));
  EXPECT_EQ(tm.info.metadata.at("hmcversion"), "5.2.0");
}

TEST(ReferenceFiles, MilcBinaryHeaderFreeValues) {
  const GaugeFile g = read_gauge_file(testdata("milc_l8888_b6.0.milc"));
  EXPECT_FALSE(g.info.header_plaquette.has_value());
  EXPECT_NEAR(reference_plaquette(g.field), 0.593560240433, 1e-6 * 0.593560240433);
  // .info: gauge.nersc_linktr = -0.000646 (6 decimals).
  EXPECT_NEAR(reference_link_trace(g.field), -0.000646, 5e-7);
  EXPECT_EQ(g.info.metadata.at("time_stamp"), "Tue Mar 13 15:47:22 2012");
}

TEST(ReferenceFiles, LinksAreSpecialUnitary) {
  // A wrong element order or byte order would not give SU(3) matrices.
  for (const auto& ref : reference_files()) {
    const GaugeFile g = read_gauge_file(testdata(ref.name));
    double worst = 0;
    for (const auto& u : g.field.links) worst = std::max(worst, su3_deviation(u));
    EXPECT_LT(worst, ref.precision_bits == 64 ? 1e-10 : 1e-5) << ref.name;
  }
}

}  // namespace
}  // namespace lqcd::test
