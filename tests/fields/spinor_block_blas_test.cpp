// The block BLAS-1 (fields/spinor_block_blas.hpp): on every right-hand side each operation does what
// its one-field counterpart (spinor_blas.hpp) does on that rhs with that rhs's coefficient (the same
// site code: identical fields on the host), and the per-rhs sums equal the one-field sums up to the
// summation order; conversions between precisions are the one-field conversions rhs by rhs. Host and
// device.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/error_type.hpp"
#include "field_test_support.hpp"
#include "fields/spinor_blas.hpp"
#include "fields/spinor_block_blas.hpp"
#include "fields/spinor_block_field.hpp"

namespace lqcd {
namespace {

class SpinorBlockBlasTest : public ::testing::TestWithParam<Location> {};

template <typename Real>
SpinorBlockField<Real> packed(const std::vector<SpinorField<Real>>& fields) {
  SpinorBlockField<Real> b(fields[0].geometry(), fields[0].location(), int(fields.size()), fields[0].subset());
  pack_rhs<Real>(b, fields);
  return b;
}

// ||rhs j of block - field|| / ||field||, in double.
template <typename Real>
double rhs_difference(const SpinorBlockField<Real>& block, int j, const SpinorField<Real>& field) {
  SpinorField<Real> got = field.like();
  unpack_rhs(got, block, j);
  return test::relative_difference(test::converted<double>(got), test::converted<double>(field));
}

template <typename Real>
void expect_each_rhs_as_one_field(const Geometry& g, Location loc, double field_tolerance) {
  const int n = 5;
  std::vector<SpinorField<Real>> x = test::random_fields<Real>(g, loc, Subset::Even, n, 10);
  std::vector<SpinorField<Real>> y = test::random_fields<Real>(g, loc, Subset::Even, n, 20);
  std::vector<SpinorField<Real>> z = test::random_fields<Real>(g, loc, Subset::Even, n, 30);
  SpinorBlockField<Real> xb = packed(x), yb = packed(y), zb = packed(z);
  const std::vector<double> a = {0.5, -1.25, 3.0, 0.0, -0.001}, b = {2.0, 0.0, -0.75, 1.5, 0.3};
  auto check_fields = [&](const SpinorBlockField<Real>& block, const std::vector<SpinorField<Real>>& f,
                          const std::string& what) {
    for (int j = 0; j < n; ++j)
      EXPECT_LE(rhs_difference(block, j, f[std::size_t(j)]), field_tolerance)
          << what << ", " << precision_name<Real>() << ", rhs " << j;
  };
  auto check_sums = [&](const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t j = 0; j < got.size(); ++j)
      EXPECT_NEAR(got[j], want[j], 1e-12 * std::abs(want[j])) << what << ", " << precision_name<Real>() << ", rhs " << j;
  };

  std::vector<double> want(n);
  for (int j = 0; j < n; ++j) want[std::size_t(j)] = norm2(x[std::size_t(j)]);
  check_sums(norm2_each(xb), want, "norm2_each");

  const std::vector<double> got = axpy_norm2_each<Real>(a, xb, yb);
  for (int j = 0; j < n; ++j) want[std::size_t(j)] = axpy_norm2(Complex<double>(a[std::size_t(j)]), x[std::size_t(j)], y[std::size_t(j)]);
  check_sums(got, want, "axpy_norm2_each");
  check_fields(yb, y, "axpy_norm2_each");

  axpy_xpay_each<Real>(a, xb, yb, zb, b);
  for (int j = 0; j < n; ++j)
    axpy_xpay(Complex<double>(a[std::size_t(j)]), x[std::size_t(j)], y[std::size_t(j)], z[std::size_t(j)],
              Complex<double>(b[std::size_t(j)]));
  check_fields(xb, x, "axpy_xpay_each (p)");
  check_fields(yb, y, "axpy_xpay_each (x)");

  axpy_each<Real>(b, zb, xb);
  for (int j = 0; j < n; ++j) axpy(Complex<double>(b[std::size_t(j)]), z[std::size_t(j)], x[std::size_t(j)]);
  check_fields(xb, x, "axpy_each");

  subtract_from(zb, yb);
  for (int j = 0; j < n; ++j) xpay(z[std::size_t(j)], Complex<double>(-1.0), y[std::size_t(j)]);
  check_fields(yb, y, "subtract_from");

  set_zero(yb);
  for (double v : norm2_each(yb)) EXPECT_EQ(v, 0.0);
}

TEST_P(SpinorBlockBlasTest, EachRhsGetsTheOneFieldOperation) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  // Host: the same site code on the same numbers. Device: the two kernels may contract multiply-adds
  // differently.
  const bool host = GetParam() == Location::Host;
  expect_each_rhs_as_one_field<double>(g, GetParam(), host ? 0.0 : 1e-15);
  expect_each_rhs_as_one_field<float>(g, GetParam(), host ? 0.0 : 1e-7);
  expect_each_rhs_as_one_field<Half>(g, GetParam(), host ? 0.0 : 1e-4);
}

TEST_P(SpinorBlockBlasTest, ConversionsAreTheOneFieldConversions) {
  const Geometry g = Geometry::single_process({4, 4, 4, 6});
  const Location loc = GetParam();
  const int n = 3;
  const std::vector<SpinorField<double>> d = test::random_fields<double>(g, loc, Subset::Odd, n, 40);
  const SpinorBlockField<double> db = packed(d);
  SpinorBlockField<float> fb(g, loc, n, Subset::Odd);
  SpinorBlockField<Half> hb(g, loc, n, Subset::Odd);
  SpinorBlockField<double> back_f(g, loc, n, Subset::Odd), back_h(g, loc, n, Subset::Odd);
  convert_precision(fb, db);
  convert_precision(hb, db);
  convert_precision(back_f, fb);
  convert_precision(back_h, hb);
  for (int j = 0; j < n; ++j) {
    const SpinorField<float> f = test::converted<float>(d[std::size_t(j)]);
    const SpinorField<Half> h = test::converted<Half>(d[std::size_t(j)]);
    EXPECT_EQ(rhs_difference(fb, j, f), 0.0) << "rhs " << j;
    EXPECT_EQ(rhs_difference(hb, j, h), 0.0) << "rhs " << j;
    EXPECT_EQ(rhs_difference(back_f, j, test::converted<double>(f)), 0.0) << "rhs " << j;
    EXPECT_EQ(rhs_difference(back_h, j, test::converted<double>(h)), 0.0) << "rhs " << j;
    EXPECT_LE(rhs_difference(back_f, j, d[std::size_t(j)]), 1e-7);
    EXPECT_LE(rhs_difference(back_h, j, d[std::size_t(j)]), 1e-3);
  }
}

TEST_P(SpinorBlockBlasTest, RefusesFullBlocksAndTooManyRhs) {
  const Geometry g = Geometry::single_process({4, 4, 4, 4});
  const SpinorBlockField<double> full(g, GetParam(), 2, Subset::Full);
  std::string e = test::error_of([&] { (void)norm2_each(full); });
  EXPECT_NE(e.find("one parity"), std::string::npos) << e;
  const SpinorBlockField<double> many(g, GetParam(), kMaxBlockRhs + 1, Subset::Even);
  e = test::error_of([&] { (void)norm2_each(many); });
  EXPECT_NE(e.find("at most 32"), std::string::npos) << e;
}

INSTANTIATE_TEST_SUITE_P(Locations, SpinorBlockBlasTest, ::testing::ValuesIn(test::locations()),
                         [](const auto& info) { return info.param == Location::Host ? "Host" : "Device"; });

}  // namespace
}  // namespace lqcd
