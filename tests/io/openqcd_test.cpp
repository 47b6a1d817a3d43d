// openQCD files: round trips, the header, the odd-site link order checked against hand-computed
// positions, and rejected writes and files.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "io/byte_order.hpp"
#include "io/gauge_file.hpp"
#include "io_test_support.hpp"
#include "reference_observables.hpp"

namespace lqcd::test {
namespace {

using io::read_gauge_file;
using io::WriteOptions;

class OpenqcdTest : public IoTest {};

std::int64_t lex(const Dims& d, int x, int y, int z, int t) { return x + d[0] * (y + d[1] * (z + std::int64_t(d[2]) * t)); }

SU3<double> link_at(const std::vector<std::uint8_t>& bytes, std::size_t index) {
  SU3<double> u;
  const std::uint8_t* p = bytes.data() + 24 + index * 144;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      u.m[i][j].re = io::load_f64(p + (i * 3 + j) * 16, io::ByteOrder::little);
      u.m[i][j].im = io::load_f64(p + (i * 3 + j) * 16 + 8, io::ByteOrder::little);
    }
  return u;
}

bool same(const SU3<double>& a, const SU3<double>& b) { return std::memcmp(&a, &b, sizeof a) == 0; }

TEST_F(OpenqcdTest, RoundTripIsBitExact) {
  const Dims dims{4, 2, 6, 8};
  const auto field = random_gauge(dims, 21);
  WriteOptions opt;
  opt.plaquette = reference_plaquette(field);
  const auto path = tmp("conf.openqcd");
  io::write_openqcd(path, field, opt);
  EXPECT_EQ(fs::file_size(path), 24u + 4 * 2 * 6 * 8 / 2 * 8 * 144);
  EXPECT_EQ(io::detect_gauge_format(path), "openqcd");
  const auto g = read_gauge_file(path);
  EXPECT_EQ(g.info.format, "openqcd");
  EXPECT_EQ(g.info.dims, dims);
  EXPECT_EQ(g.info.precision_bits, 64);
  EXPECT_FALSE(g.info.checksum_ok.has_value());
  EXPECT_TRUE(bit_identical(g.field, field));
  ASSERT_TRUE(g.info.header_plaquette.has_value());
  EXPECT_NEAR(*g.info.header_plaquette, *opt.plaquette, 1e-15);
}

TEST_F(OpenqcdTest, HeaderAndLinkOrderFollowOpenqcd) {
  const Dims dims{4, 6, 2, 8};  // (x, y, z, t), all different to catch a permutation
  const auto field = random_gauge(dims, 22);
  WriteOptions opt;
  opt.plaquette = 0.6;
  const auto path = tmp("order.openqcd");
  io::write_openqcd(path, field, opt);
  const auto bytes = read_bytes(path);
  // N0 = Lt, N1 = Lx, N2 = Ly, N3 = Lz; plaq without the 1/3.
  EXPECT_EQ(io::load_i32(bytes.data(), io::ByteOrder::little), 8);
  EXPECT_EQ(io::load_i32(bytes.data() + 4, io::ByteOrder::little), 4);
  EXPECT_EQ(io::load_i32(bytes.data() + 8, io::ByteOrder::little), 6);
  EXPECT_EQ(io::load_i32(bytes.data() + 12, io::ByteOrder::little), 2);
  EXPECT_NEAR(io::load_f64(bytes.data() + 16, io::ByteOrder::little), 1.8, 1e-15);
  // The first odd site in openQCD order (x3 = z fastest) is (x0,x1,x2,x3) = (0,0,0,1): our
  // (x,y,z,t) = (0,0,1,0). Its 8 links: U(x,0) = our t-link, U(x-0^,0) = t-link at t = Lt-1, then x,
  // y, z links forward and backward.
  EXPECT_TRUE(same(link_at(bytes, 0), field(lex(dims, 0, 0, 1, 0), 3)));
  EXPECT_TRUE(same(link_at(bytes, 1), field(lex(dims, 0, 0, 1, 7), 3)));
  EXPECT_TRUE(same(link_at(bytes, 2), field(lex(dims, 0, 0, 1, 0), 0)));
  EXPECT_TRUE(same(link_at(bytes, 3), field(lex(dims, 3, 0, 1, 0), 0)));
  EXPECT_TRUE(same(link_at(bytes, 4), field(lex(dims, 0, 0, 1, 0), 1)));
  EXPECT_TRUE(same(link_at(bytes, 5), field(lex(dims, 0, 5, 1, 0), 1)));
  EXPECT_TRUE(same(link_at(bytes, 6), field(lex(dims, 0, 0, 1, 0), 2)));
  EXPECT_TRUE(same(link_at(bytes, 7), field(lex(dims, 0, 0, 0, 0), 2)));
  // The second odd site: (x0,x1,x2,x3) = (0,0,1,0), our (0,1,0,0); its backward z link is at z = Lz-1 = 1.
  EXPECT_TRUE(same(link_at(bytes, 8), field(lex(dims, 0, 1, 0, 0), 3)));
  EXPECT_TRUE(same(link_at(bytes, 15), field(lex(dims, 0, 1, 1, 0), 2)));
}

TEST_F(OpenqcdTest, WriterRequiresPlaquetteAndDoublePrecision) {
  const auto field = random_gauge({2, 2, 2, 2}, 23);
  const auto path = tmp("refused.openqcd");
  expect_error_naming([&] { io::write_openqcd(path, field, WriteOptions{}); }, path, {"plaquette"});
  WriteOptions opt;
  opt.plaquette = 0.5;
  opt.precision_bits = 32;
  expect_error_naming([&] { io::write_openqcd(path, field, opt); }, path, {"precision"});
  opt.precision_bits = 64;
  expect_error_naming([&] { io::write_openqcd(path, random_gauge({2, 3, 2, 2}, 1), opt); }, path, {"even"});
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(OpenqcdTest, TruncatedFileIsAnError) {
  WriteOptions opt;
  opt.plaquette = 0.5;
  const auto path = tmp("truncated.openqcd");
  io::write_openqcd(path, random_gauge({4, 4, 4, 4}, 24), opt);
  auto bytes = read_bytes(path);
  bytes.erase(bytes.end() - 144, bytes.end());
  write_bytes(path, bytes);
  expect_error_naming([&] { read_gauge_file(path); }, path, {"openQCD"});
}

TEST_F(OpenqcdTest, NanInTheDataIsAnError) {
  WriteOptions opt;
  opt.plaquette = 0.5;
  const Dims dims{2, 2, 2, 2};
  const auto path = tmp("nan.openqcd");
  io::write_openqcd(path, random_gauge(dims, 25), opt);
  auto bytes = read_bytes(path);
  // Link 2 of the file: U(x,1) at the first odd site = our x-link (mu = 0) at (0,0,1,0), site 4.
  io::store_f64(bytes.data() + 24 + 2 * 144 + 40, std::numeric_limits<double>::infinity(), io::ByteOrder::little);
  write_bytes(path, bytes);
  expect_error_naming([&] { read_gauge_file(path); }, path, {"site 4", "mu = 0"});
}

}  // namespace
}  // namespace lqcd::test
