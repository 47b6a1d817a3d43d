#include "measure/spin_matrix.hpp"

#include "core/error.hpp"

namespace lqcd {

SpinMatrix SpinMatrix::identity() {
  SpinMatrix s{};
  for (int i = 0; i < 4; ++i) s.m[i][i] = Complex<double>(1);
  return s;
}

SpinMatrix SpinMatrix::gamma(int mu) {
  const SparseGamma g = gamma_matrix(mu);
  SpinMatrix s{};
  for (int r = 0; r < 4; ++r) s.m[r][g.col[r]] = i_power(g.phase[r], Complex<double>(1));
  return s;
}

SpinMatrix SpinMatrix::basis(int n) {
  SpinMatrix s = identity();
  for (int k = 0; k < 4; ++k)
    if (n & (1 << k)) s = s * gamma(k);
  return s;
}

SpinMatrix SpinMatrix::dagger() const {
  SpinMatrix s;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s.m[i][j] = conj(m[j][i]);
  return s;
}

SpinMatrix SpinMatrix::transpose() const {
  SpinMatrix s;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s.m[i][j] = m[j][i];
  return s;
}

SpinMatrix operator*(const SpinMatrix& a, const SpinMatrix& b) {
  SpinMatrix c{};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) c.m[i][j] += a.m[i][k] * b.m[k][j];
  return c;
}

ColorSpinor<double> spin_times(const SpinMatrix& G, const ColorSpinor<double>& psi) {
  ColorSpinor<double> r{};
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const Complex<double> g = G.m[a][b];
      if (g.re == 0 && g.im == 0) continue;
      for (int c = 0; c < 3; ++c) r.s[a].c[c] += g * psi.s[b].c[c];
    }
  return r;
}

namespace {
// Literal products, so that no sign convention hides in a name (e.g. gygzgt = gamma_x gamma_5).
const std::array<const char*, 16> kNames = {"1",  "gx",   "gy",   "gxgy",   "gz",   "gxgz",   "gygz",   "gxgygz",
                                            "gt", "gxgt", "gygt", "gxgygt", "gzgt", "gxgzgt", "gygzgt", "g5"};
}  // namespace

std::string gamma_name(int n) { return kNames.at(std::size_t(n)); }

int gamma_index(const std::string& name, const std::string& key) {
  for (int n = 0; n < 16; ++n)
    if (name == kNames[std::size_t(n)]) return n;
  fail("{}: unknown gamma structure \"{}\" (expected one of 1, gx, gy, gxgy, gz, ..., gygzgt, g5: products in x, y, z, t order)", key, name);
}

}  // namespace lqcd
