#pragma once
// Copies between an ordinary spinor field and one right-hand side of a SpinorBlockField
// (spinor_block_field.hpp): the stored numbers and Half norms as they are, no decode / encode.
// FLOPs: none; bytes per site: 2 x a spinor of precision Real.

#include <cstdint>

#include "fields/spinor_block_field.hpp"

namespace lqcd {

template <typename Real>
struct RhsCopyKernel {
  SpinorView<Real> field;
  SpinorBlockView<Real> block;
  int j;
  int to_block;  // 1: field -> rhs j of block (pack); 0: rhs j of block -> field (unpack)

  LQCD_HOST_DEVICE void operator()(std::int64_t i) const {
    const int p = field.parity_of(i);
    const std::int64_t s = field.cb_of(i), b = s * block.n + j;
    Complex<stored_t<Real>> raw[12];
    if (to_block) {
      load_components<Real>(field.block(p), field.stride, s, raw);
      store_components<Real>(block.flat.block(p), block.flat.stride, b, raw);
      if constexpr (is_fixed_point_v<Real>) block.flat.norm_block(p)[b] = field.norm_block(p)[s];
    } else {
      load_components<Real>(block.flat.block(p), block.flat.stride, b, raw);
      store_components<Real>(field.block(p), field.stride, s, raw);
      if constexpr (is_fixed_point_v<Real>) field.norm_block(p)[s] = block.flat.norm_block(p)[b];
    }
  }
};

}  // namespace lqcd
