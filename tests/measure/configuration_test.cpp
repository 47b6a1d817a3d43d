// Loading with verification: what every command relies on to refuse bad configurations.
#include <gtest/gtest.h>

#include <cmath>

#include "core/error.hpp"
#include "gauge/updates.hpp"
#include "measure/configuration.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

LexicographicGauge thermalized_field() {
  GaugeField<double> U(Geometry::single_process({4, 4, 4, 4}), Location::Host);
  set_hot_gauge(U, 3);
  for (std::uint32_t s = 0; s < 3; ++s) heatbath_sweep(U, GaugeAction::from_name("wilson", 6.0), 3, s);
  return to_lexicographic(U);
}

std::string error_of(const std::filesystem::path& file, const LoadPolicy& policy = {}) {
  try {
    load_configuration(file, policy);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(LoadConfiguration, AcceptsAGoodFileAndReportsItsObservables) {
  test::TempDir dir;
  const LexicographicGauge lex = thermalized_field();
  io::WriteOptions w;
  w.plaquette = plaquette(to_gauge_field(lex, Geometry::single_process(lex.dims), Location::Host));
  io::write_nersc(dir / "good.nersc", lex, w);
  const LoadedConfiguration c = load_configuration(dir / "good.nersc");
  EXPECT_EQ(c.info.format, "nersc");
  EXPECT_EQ(c.observables.plaquette, *w.plaquette);
  EXPECT_LT(c.max_su3_deviation, 1e-12);
}

TEST(LoadConfiguration, HeaderPlaquetteMismatchIsAnError) {
  test::TempDir dir;
  const LexicographicGauge lex = thermalized_field();
  io::WriteOptions w;
  w.plaquette = 0.55;  // not this field's
  io::write_nersc(dir / "lying.nersc", lex, w);
  const std::string e = error_of(dir / "lying.nersc");
  EXPECT_NE(e.find("lying.nersc"), std::string::npos) << e;
  EXPECT_NE(e.find("header plaquette"), std::string::npos) << e;
  LoadPolicy lenient;
  lenient.verify = false;
  EXPECT_EQ(error_of(dir / "lying.nersc", lenient), "");
}

TEST(LoadConfiguration, NonSU3LinksAreAnError) {
  test::TempDir dir;
  LexicographicGauge lex = thermalized_field();
  lex(17, 2).m[0][1] += Complex<double>(0.01, 0.0);  // no longer unitary
  io::write_ildg(dir / "broken.ildg", lex, io::WriteOptions{});
  const std::string e = error_of(dir / "broken.ildg");
  EXPECT_NE(e.find("broken.ildg"), std::string::npos) << e;
  EXPECT_NE(e.find("not SU(3)"), std::string::npos) << e;
}

TEST(LoadConfiguration, DimensionsOtherThanExpectedAreAnError) {
  test::TempDir dir;
  io::write_ildg(dir / "four.ildg", thermalized_field(), io::WriteOptions{});
  LoadPolicy policy;
  policy.expected_dims = Dims{4, 4, 4, 8};
  const std::string e = error_of(dir / "four.ildg", policy);
  EXPECT_NE(e.find("4x4x4x4"), std::string::npos) << e;
  EXPECT_NE(e.find("4x4x4x8"), std::string::npos) << e;
}

}  // namespace
}  // namespace lqcd
