#pragma once
// Precision conversion of a field's component vectors. Every field of the layout (DESIGN.md) is a
// sequence of component vectors, component c of checkerboard site s at data + c * stride + s, with a
// stride that depends on the precision (256-byte padding): gauge links 8 x 9 components (direction,
// parity, matrix entry), spinors 12 per parity block, the clover term 72 per parity. One kernel
// converts any of them. FLOPs: none; bytes per component: sizeof(From) + sizeof(To) complex numbers.

#include <cstdint>

#include "core/macros.hpp"
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

}  // namespace lqcd
