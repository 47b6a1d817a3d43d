#pragma once
// Shared helpers of the I/O tests: the reference-file folder, a per-test temporary directory, byte
// level file access (to build damaged copies), random SU(3) fields, and an assertion that an
// lqcd::Error names the file at fault.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "fields/lexicographic_gauge.hpp"
#include "math/su3.hpp"

namespace lqcd::test {

namespace fs = std::filesystem;

inline fs::path testdata(const std::string& name) { return fs::path(LQCD_TESTDATA_DIR) / name; }

inline std::vector<std::uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << p;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << p;
}

inline void append_text(std::vector<std::uint8_t>& bytes, const std::string& text) {
  bytes.insert(bytes.end(), text.begin(), text.end());
}

// A fresh directory per test under the system temporary directory, removed afterwards.
class IoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           (std::string("lqcd_io_") + info->test_suite_name() + "_" + info->name() + "_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path tmp(const std::string& name) const { return dir_ / name; }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

// A random SU(3) field: Gaussian complex matrices projected onto SU(3).
inline LexicographicGauge random_gauge(const Dims& dims, std::uint64_t seed) {
  LexicographicGauge g(dims);
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  for (auto& u : g.links) {
    SU3<double> a;
    for (auto& row : a.m)
      for (auto& z : row) z = Complex<double>(normal(rng), normal(rng));
    u = reunitarize(a);
  }
  return g;
}

// Every real of every link identical, bit for bit.
inline bool bit_identical(const LexicographicGauge& a, const LexicographicGauge& b) {
  return a.dims == b.dims && a.links.size() == b.links.size() &&
         std::memcmp(a.links.data(), b.links.data(), a.links.size() * sizeof(SU3<double>)) == 0;
}

inline double max_abs_difference(const LexicographicGauge& a, const LexicographicGauge& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.links.size(); ++i)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        d = std::max(d, std::abs(a.links[i].m[r][c].re - b.links[i].m[r][c].re));
        d = std::max(d, std::abs(a.links[i].m[r][c].im - b.links[i].m[r][c].im));
      }
  return d;
}

// The field rounded to single precision, as a 32-bit file stores it.
inline LexicographicGauge rounded_to_float(LexicographicGauge g) {
  for (auto& u : g.links)
    for (auto& row : u.m)
      for (auto& z : row) z = Complex<double>(double(float(z.re)), double(float(z.im)));
  return g;
}

// Runs fn, expects lqcd::Error, and checks that its one-line message names `file` and contains every
// string of `also`.
inline void expect_error_naming(const std::function<void()>& fn, const fs::path& file,
                                const std::vector<std::string>& also = {}) {
  try {
    fn();
    ADD_FAILURE() << "expected lqcd::Error naming " << file;
  } catch (const lqcd::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file.string()), std::string::npos) << "message does not name the file: " << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << "message is not one line: " << what;
    for (const auto& s : also) EXPECT_NE(what.find(s), std::string::npos) << "message lacks '" << s << "': " << what;
  }
}

}  // namespace lqcd::test
