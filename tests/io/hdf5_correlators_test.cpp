// The HDF5 correlator file: what is written is read back exactly; a failed write leaves nothing.
#include <gtest/gtest.h>

#include "core/error_type.hpp"
#include "io/hdf5_correlators.hpp"
#include "test_support.hpp"

namespace lqcd::io {
namespace {

TEST(Hdf5Correlators, RoundTripIsExact) {
  test::TempDir dir;
  CorrelatorFile f;
  f.string_attributes["action"] = "wilson";
  f.number_attributes["kappa"] = 0.155;
  for (int p = 0; p < 2; ++p) {
    CorrelatorDataset d;
    d.name = "g5_g5";
    d.momentum = {p, 0, 0};
    for (int t = 0; t < 8; ++t) d.values.push_back(Complex<double>(1.0 / (t + 1 + p), 1e-3 * t));
    f.datasets.push_back(d);
  }
  write_correlators_hdf5(dir / "c.h5", f);
  const CorrelatorFile back = read_correlators_hdf5(dir / "c.h5");
  EXPECT_EQ(back.string_attributes, f.string_attributes);
  EXPECT_EQ(back.number_attributes, f.number_attributes);
  ASSERT_EQ(back.datasets.size(), 2u);
  for (const auto& d : back.datasets) {
    const auto& orig = f.datasets[std::size_t(d.momentum[0])];
    ASSERT_EQ(d.values.size(), orig.values.size());
    for (std::size_t t = 0; t < d.values.size(); ++t) {
      EXPECT_EQ(d.values[t].re, orig.values[t].re);
      EXPECT_EQ(d.values[t].im, orig.values[t].im);
    }
  }
}

TEST(Hdf5Correlators, UnwritableDirectoryIsAnErrorAndLeavesNoFile) {
  test::TempDir dir;
  CorrelatorFile f;
  EXPECT_THROW(write_correlators_hdf5(dir / "missing" / "c.h5", f), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "missing"));
  EXPECT_THROW(read_correlators_hdf5(dir / "none.h5"), Error);
}

}  // namespace
}  // namespace lqcd::io
