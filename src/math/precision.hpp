#pragma once
// Storage precisions of fields and the arithmetic that goes with them. A field's precision P names how
// its numbers are stored; kernels compute in compute_t<P>:
//   double, float   IEEE numbers, computed in the same precision;
//   Half            16-bit fixed point ("half precision" as in QUDA: M. A. Clark et al., Comput. Phys.
//                   Commun. 181 (2010) 1517, Sec. 6), computed in float. An integer q in
//                   [-32767, 32767] (stored offset-binary, below) means q / 32767 times a scale:
//                   1 for gauge links (every entry of
//                   an SU(3) matrix has modulus <= 1), pi for the phases of 8-real links, and for a
//                   spinor a per-site float norm (the largest modulus of its 24 reals), so every site
//                   keeps ~4.5 significant digits whatever its magnitude.
// A half-precision spinor takes 24 x 2 + 4 = 52 bytes per site (double: 192, single: 96).

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "math/complex.hpp"

namespace lqcd {

struct Half {};

template <typename P>
struct PrecisionTraits {
  static_assert(std::is_same_v<P, double> || std::is_same_v<P, float>, "precisions: double, float or Half");
  using compute = P;
  using stored = P;
  static constexpr bool fixed_point = false;
};
template <>
struct PrecisionTraits<Half> {
  using compute = float;
  using stored = std::int16_t;
  static constexpr bool fixed_point = true;
};

template <typename P>
using compute_t = typename PrecisionTraits<P>::compute;
template <typename P>
using stored_t = typename PrecisionTraits<P>::stored;
template <typename P>
inline constexpr bool is_fixed_point_v = PrecisionTraits<P>::fixed_point;

inline constexpr float kFixedPointMax = 32767.0f;

// A fixed-point number q in [-32767, 32767] is stored as the offset-binary code q + 32768 (the 16 bits
// of q with the top bit flipped), so that conversions between codes and float need neither the
// integer<->float conversion instructions (I2F/F2I run at 16 per clock per SM on sm_90, an eighth of
// the FP32 rate) nor a sign extension: the float with the bits 0x4B000000 | code is exactly
// 2^23 + code, i.e. kCodeBias + q, one byte permutation (PRMT) away from the loaded 32-bit word of two
// codes (fixed_detail::biased_value); one float subtraction then gives q. Going back, adding kCodeBias
// to q' = x * 32767 rounds q' to the nearest integer (ties to even, as rintf) and leaves q + 32768 in
// the low 16 bits. Host and device give identical results.
namespace fixed_detail {
inline constexpr float kCodeBias = 8421376.0f;  // 2^23 + 2^15
inline constexpr std::uint32_t kFloatExponentBits = 0x4B000000u;  // the bits of 2^23
LQCD_HOST_DEVICE inline float float_from_bits(std::uint32_t b) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(b);
#else
  return std::bit_cast<float>(b);
#endif
}
LQCD_HOST_DEVICE inline std::uint32_t bits_from_float(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  return std::bit_cast<std::uint32_t>(f);
#endif
}
// kCodeBias + q for the stored code of q (exact).
LQCD_HOST_DEVICE inline float biased_value(std::int16_t code) {
  return float_from_bits(kFloatExponentBits | std::uint16_t(code));
}
}  // namespace fixed_detail

// kCodeBias + q of both parts of a stored complex number: on the device one PRMT each, which places
// the code's two bytes under the exponent byte 0x4B of 2^23 straight from the 32-bit word.
LQCD_HOST_DEVICE inline Complex<float> biased_values(const Complex<std::int16_t>& z) {
#ifdef __CUDA_ARCH__
  unsigned word;
  memcpy(&word, &z, sizeof word);
  return {__uint_as_float(__byte_perm(word, fixed_detail::kFloatExponentBits, 0x7610)),
          __uint_as_float(__byte_perm(word, fixed_detail::kFloatExponentBits, 0x7632))};
#else
  return {fixed_detail::biased_value(z.re), fixed_detail::biased_value(z.im)};
#endif
}

// The fixed-point integer q of a stored code, as a float (exact), and of both parts of a complex one.
LQCD_HOST_DEVICE inline float fixed_value(std::int16_t code) {
  return fixed_detail::biased_value(code) - fixed_detail::kCodeBias;
}
LQCD_HOST_DEVICE inline Complex<float> fixed_values(const Complex<std::int16_t>& z) {
  const Complex<float> b = biased_values(z);
  return {b.re - fixed_detail::kCodeBias, b.im - fixed_detail::kCodeBias};
}
// x in [-1, 1] (clamped) to the code of the nearest fixed-point integer q = rint(32767 x), and back.
LQCD_HOST_DEVICE inline std::int16_t to_fixed(float x) {
  const float q = fmaxf(-kFixedPointMax, fminf(kFixedPointMax, x * kFixedPointMax));
  return std::int16_t(std::uint16_t(fixed_detail::bits_from_float(q + fixed_detail::kCodeBias)));
}
LQCD_HOST_DEVICE inline float from_fixed(std::int16_t code) { return fixed_value(code) * (1.0f / kFixedPointMax); }

// A stored complex number of precision P as a number of compute_t<P>, given the scale of fixed point
// (ignored by floating point), and the reverse (inverse_scale = 1 / scale).
template <typename P>
LQCD_HOST_DEVICE inline Complex<compute_t<P>> decode(const Complex<stored_t<P>>& z, compute_t<P> scale) {
  (void)scale;
  if constexpr (is_fixed_point_v<P>) {
    const float unit = scale * (1.0f / kFixedPointMax);  // one multiplication per real
    const Complex<float> q = fixed_values(z);
    return {q.re * unit, q.im * unit};
  }
  else return z;
}
template <typename P>
LQCD_HOST_DEVICE inline Complex<stored_t<P>> encode(const Complex<compute_t<P>>& z, compute_t<P> inverse_scale) {
  (void)inverse_scale;
  if constexpr (is_fixed_point_v<P>) return {to_fixed(z.re * inverse_scale), to_fixed(z.im * inverse_scale)};
  else return z;
}

// How the N stored components of one site lie in a component-major block (component c of site s at
// c * stride + s). Fixed point always, and single precision where N is even, store them in pairs: pair
// g of site s is one word at g * stride + s (the same bytes per block), so that a thread moves its
// site with N / 2 wide accesses instead of N narrow ones, coalesced across a warp (QUDA's short4 and
// float4): 8-byte words of two 16-bit complex numbers, 16-byte words of two complex floats (one
// LDG.E.128 per pair instead of two LDG.E.64). Double precision never pairs: a complex double is a
// 16-byte word already. Single precision with N odd (18-real links) stays unpaired.
struct alignas(8) FixedPair {
  Complex<std::int16_t> z[2];
};
struct alignas(16) FloatPair {
  Complex<float> z[2];
};
template <typename P, int N>
inline constexpr bool stored_in_pairs_v = is_fixed_point_v<P> || (std::is_same_v<P, float> && N % 2 == 0);
template <typename P>
using component_pair_t = std::conditional_t<is_fixed_point_v<P>, FixedPair, FloatPair>;

// The position of component c of site s, in stored complex numbers from the start of the block.
LQCD_HOST_DEVICE inline std::int64_t component_offset(bool paired, int c, std::int64_t stride, std::int64_t s) {
  return paired ? 2 * ((c / 2) * stride + s) + c % 2 : c * stride + s;
}

template <typename P, int N>
LQCD_HOST_DEVICE inline void load_components(const Complex<stored_t<P>>* block, std::int64_t stride, std::int64_t s,
                                             Complex<stored_t<P>> (&raw)[N]) {
  if constexpr (stored_in_pairs_v<P, N>) {
    static_assert(N % 2 == 0, "components are paired only where N is even");
    using Pair = component_pair_t<P>;
    const Pair* q = reinterpret_cast<const Pair*>(block) + s;
    LQCD_UNROLL
    for (int g = 0; g < N / 2; ++g) {
      const Pair v = q[g * stride];
      raw[2 * g] = v.z[0];
      raw[2 * g + 1] = v.z[1];
    }
  } else {
    LQCD_UNROLL
    for (int c = 0; c < N; ++c) raw[c] = block[c * stride + s];
  }
}
template <typename P, int N>
LQCD_HOST_DEVICE inline void store_components(Complex<stored_t<P>>* block, std::int64_t stride, std::int64_t s,
                                              const Complex<stored_t<P>> (&raw)[N]) {
  if constexpr (stored_in_pairs_v<P, N>) {
    static_assert(N % 2 == 0, "components are paired only where N is even");
    using Pair = component_pair_t<P>;
    Pair* q = reinterpret_cast<Pair*>(block) + s;
    LQCD_UNROLL
    for (int g = 0; g < N / 2; ++g) q[g * stride] = Pair{{raw[2 * g], raw[2 * g + 1]}};
  } else {
    LQCD_UNROLL
    for (int c = 0; c < N; ++c) block[c * stride + s] = raw[c];
  }
}

// The names the command line and the outputs use.
template <typename P>
constexpr const char* precision_name() {
  if constexpr (std::is_same_v<P, double>) return "double";
  else if constexpr (std::is_same_v<P, float>) return "single";
  else return "half";
}

}  // namespace lqcd
