#pragma once
// Precision conversion of a field's component vectors. Every field of the layout (DESIGN.md) is a
// sequence of component vectors, component c of checkerboard site s at data + c * stride + s, with a
// stride that depends on the precision (256-byte padding): gauge links 8 x 9 components (direction,
// parity, matrix entry), spinors 12 per parity block, the clover term 72 per parity. One kernel
// converts any of them. FLOPs: none; bytes per component: sizeof(From) + sizeof(To) complex numbers.

#include <cstdint>

#include "core/macros.hpp"
#include "fields/gauge_view.hpp"
#include "math/complex.hpp"

namespace lqcd {

template <typename To, typename From>
struct ConvertComponentsKernel {
  Complex<To>* out;
  std::int64_t out_stride;
  const Complex<From>* in;
  std::int64_t in_stride;
  std::int64_t sites;  // per component (sites of one parity)

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const std::int64_t c = i / sites, s = i % sites;
    out[c * out_stride + s] = Complex<To>(in[c * in_stride + s]);
  }
};

// Copies every link of a full (9-component) field into a compressed one (6: its first two rows; 4: the
// 8-real parametrisation of GaugeView).
template <typename Real, int Components>
struct CompressLinksKernel {
  GaugeView<Real, 9> in;
  GaugeView<Real, Components> out;
  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = int(i / in.idx.vh);
    const std::int64_t s = i % in.idx.vh;
    for (int mu = 0; mu < 4; ++mu) out.store(mu, p, s, in.load(mu, p, s));
  }
};

// Sum over the links of this process of |rebuilt link - original link|^2 (Frobenius): how well the
// compressed field reproduces the full one (compress_links checks the 8-real form with it).
template <typename Real, int Components>
struct LinkReconstructionErrorKernel {
  GaugeView<Real, 9> full;
  GaugeView<Real, Components> compressed;
  LQCD_HOST_DEVICE void operator()(std::int64_t i, double& acc) const {
    const int p = int(i / full.idx.vh);
    const std::int64_t s = i % full.idx.vh;
    for (int mu = 0; mu < 4; ++mu) {
      const SU3<Real> a = full.load(mu, p, s), b = compressed.load(mu, p, s);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) acc += double(norm2(a.m[r][c] - b.m[r][c]));
    }
  }
};

}  // namespace lqcd
