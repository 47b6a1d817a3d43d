#pragma once
// Byte-order helpers for the configuration formats. Every format fixes the byte order of its data
// on disk (LIME/ILDG/SciDAC: big-endian; openQCD: little-endian; NERSC: as its FLOATING_POINT key
// says; MILC: as the byte order of its magic number says), so values are loaded and stored through
// these helpers rather than by casting buffers: memcpy keeps the accesses free of alignment and
// aliasing problems, and the swap happens only where the host order differs from the file order.

#include <bit>
#include <cstdint>
#include <cstring>

namespace lqcd::io {

enum class ByteOrder { big, little };

constexpr ByteOrder native_byte_order() {
  static_assert(std::endian::native == std::endian::big || std::endian::native == std::endian::little,
                "mixed-endian hosts are not supported");
  return std::endian::native == std::endian::big ? ByteOrder::big : ByteOrder::little;
}

// std::byteswap is C++23; these are the C++20 equivalents.
constexpr std::uint16_t byte_swap(std::uint16_t v) { return std::uint16_t((v >> 8) | (v << 8)); }
constexpr std::uint32_t byte_swap(std::uint32_t v) {
  return ((v & 0x000000ffu) << 24) | ((v & 0x0000ff00u) << 8) | ((v & 0x00ff0000u) >> 8) |
         ((v & 0xff000000u) >> 24);
}
constexpr std::uint64_t byte_swap(std::uint64_t v) {
  return (std::uint64_t(byte_swap(std::uint32_t(v))) << 32) | byte_swap(std::uint32_t(v >> 32));
}

// An unsigned integer of type U stored at p in the given byte order.
template <typename U>
U load_uint(const void* p, ByteOrder order) {
  U v;
  std::memcpy(&v, p, sizeof v);
  return order == native_byte_order() ? v : byte_swap(v);
}
template <typename U>
void store_uint(void* p, U v, ByteOrder order) {
  if (order != native_byte_order()) v = byte_swap(v);
  std::memcpy(p, &v, sizeof v);
}

inline std::uint32_t load_u32(const void* p, ByteOrder o) { return load_uint<std::uint32_t>(p, o); }
inline std::uint64_t load_u64(const void* p, ByteOrder o) { return load_uint<std::uint64_t>(p, o); }
inline std::int32_t load_i32(const void* p, ByteOrder o) { return std::int32_t(load_u32(p, o)); }

// IEEE-754 reals: the bit pattern is swapped as an integer of the same width.
inline float load_f32(const void* p, ByteOrder o) { return std::bit_cast<float>(load_u32(p, o)); }
inline double load_f64(const void* p, ByteOrder o) { return std::bit_cast<double>(load_u64(p, o)); }
inline void store_f32(void* p, float v, ByteOrder o) { store_uint(p, std::bit_cast<std::uint32_t>(v), o); }
inline void store_f64(void* p, double v, ByteOrder o) { store_uint(p, std::bit_cast<std::uint64_t>(v), o); }

}  // namespace lqcd::io
