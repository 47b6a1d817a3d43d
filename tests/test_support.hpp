#pragma once
// Shared helpers of the test suite.

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/error_type.hpp"
#include "core/memory.hpp"
#include "core/site_random.hpp"
#include "math/su3.hpp"

namespace lqcd::test {

// The message of the lqcd::Error that f() throws, or "" when it throws none.
inline std::string error_of(auto&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline std::filesystem::path testdata(const std::string& name) {
  return std::filesystem::path(LQCD_TESTDATA_DIR) / name;
}

// Host always; the device too when this build has CUDA and a GPU is present (the GPU machine).
inline std::vector<Location> locations() {
  std::vector<Location> l{Location::Host};
  if (device_available()) l.push_back(Location::Device);
  return l;
}

inline SU3<double> random_matrix(SiteRandom& rng) {
  SU3<double> m;
  for (auto& row : m.m)
    for (auto& z : row) {
      z.re = rng.gaussian();  // sequenced: argument evaluation order is unspecified
      z.im = rng.gaussian();
    }
  return m;
}

inline double max_abs_diff(const SU3<double>& a, const SU3<double>& b) {
  double d = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double x = abs(a.m[i][j] - b.m[i][j]);
      d = x > d ? x : d;
    }
  return d;
}

// A fresh, empty temporary directory per test, removed at the end of the test.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  std::filesystem::path path_;
};

// Sets an environment variable for the scope of the object and restores the previous value.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_) setenv(name_, old_->c_str(), 1);
    else unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace lqcd::test
