#pragma once
// Precision conversion of a field's component vectors. Every field of the layout (DESIGN.md) is a
// sequence of component vectors, component c of checkerboard site s at data + c * stride + s (or in
// pairs, math/precision.hpp), with a
// stride that depends on the precision (256-byte padding): gauge links 8 x 9 components (direction,
// parity, matrix entry), spinors 12 per parity block, the clover term 72 per parity. One kernel
// converts any of them. FLOPs: none; bytes per component: sizeof(From) + sizeof(To) complex numbers.

#include <cstdint>

#include "core/macros.hpp"
#include "fields/gauge_view.hpp"
#include "math/complex.hpp"

namespace lqcd {

// out_paired / in_paired: the field stores its components in pairs (math/precision.hpp,
// stored_in_pairs_v: single-precision spinors and compressed links).
template <typename To, typename From>
struct ConvertComponentsKernel {
  Complex<To>* out;
  std::int64_t out_stride;
  const Complex<From>* in;
  std::int64_t in_stride;
  std::int64_t sites;  // per component (sites of one parity)
  int out_paired = 0;
  int in_paired = 0;

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t s = i % sites;
    const int c = int(i / sites);
    out[component_offset(out_paired, c, out_stride, s)] = Complex<To>(in[component_offset(in_paired, c, in_stride, s)]);
  }
};

// Copies every link of a full (9-component) field of precision From into a field of precision To with
// 18, 12 (the first two rows) or 8 reals (GaugeView's 8-real form).
template <typename To, int Components, typename From>
struct ConvertLinksKernel {
  GaugeView<From, 9> in;
  GaugeView<To, Components> out;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    using T = compute_t<To>;
    const int p = int(i / in.idx.vh);
    const std::int64_t s = i % in.idx.vh;
    for (int mu = 0; mu < 4; ++mu) {
      const auto u = in.load(mu, p, s);
      SU3<T> v;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) v.m[r][c] = Complex<T>(u.m[r][c]);
      out.store(mu, p, s, v);
    }
  }
};

// Sum over the links of this process of |rebuilt link - original link|^2 (Frobenius): how well the
// converted field reproduces the full one (convert_links checks the 8-real form with it).
template <typename To, int Components, typename From>
struct LinkReconstructionErrorKernel {
  GaugeView<From, 9> full;
  GaugeView<To, Components> compressed;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const {
    const int p = int(i / full.idx.vh);
    const std::int64_t s = i % full.idx.vh;
    for (int mu = 0; mu < 4; ++mu) {
      const auto a = full.load(mu, p, s);
      const auto b = compressed.load(mu, p, s);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) acc += norm2(Complex<double>(a.m[r][c]) - Complex<double>(b.m[r][c]));
    }
  }
};

}  // namespace lqcd
