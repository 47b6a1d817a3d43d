#pragma once
// Dense 4x4 spin matrices for contractions: the 16 gamma structures Gamma(n) =
// gamma_x^{n_0} gamma_y^{n_1} gamma_z^{n_2} gamma_t^{n_3} (n = sum n_k 2^k, QDP++/Chroma's
// numbering), in the DeGrand-Rossi basis of math/gamma.hpp. Gamma(15) = gamma_5.

#include <array>
#include <string>

#include "math/gamma.hpp"

namespace lqcd {

struct SpinMatrix {
  Complex<double> m[4][4];

  static SpinMatrix identity();
  static SpinMatrix gamma(int mu);    // mu = 0..3, or kGamma5
  static SpinMatrix basis(int n);     // Gamma(n), n = 0..15
  SpinMatrix dagger() const;
  SpinMatrix transpose() const;
};
SpinMatrix operator*(const SpinMatrix& a, const SpinMatrix& b);
// G psi on the spin index (colour untouched).
ColorSpinor<double> spin_times(const SpinMatrix& G, const ColorSpinor<double>& psi);

// Names of Gamma(n) for output: the literal product, "1", "gx", "gxgy", ..., "gygzgt", "g5".
std::string gamma_name(int n);
// Gamma(n) for a name of gamma_name (throws lqcd::Error naming `key` otherwise).
int gamma_index(const std::string& name, const std::string& key);

}  // namespace lqcd
