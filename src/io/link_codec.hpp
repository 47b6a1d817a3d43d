#pragma once
// Conversion between links as stored in files and SU3<double>. All formats store a link as a
// row-major 3x3 complex matrix (re, im interleaved), in single or double precision and either byte
// order; NERSC's 4D_SU3_GAUGE (and other "12-real" compressions) store only the first two rows.
// ILDG/SciDAC, NERSC and MILC additionally share the site-major order: sites lexicographic (x
// fastest, t slowest), then mu = 0..3 (x, y, z, t), which the whole-field helpers implement.

#include <cstdint>
#include <filesystem>
#include <span>

#include "core/geometry.hpp"
#include "fields/lexicographic_gauge.hpp"
#include "io/byte_order.hpp"
#include "io/file_bytes.hpp"
#include "math/su3.hpp"

namespace lqcd::io {

struct RealFormat {
  int bytes = 8;  // 4 (IEEE single) or 8 (IEEE double)
  ByteOrder order = ByteOrder::big;
};

double load_real(const std::uint8_t* p, RealFormat f);
void store_real(std::uint8_t* p, double v, RealFormat f);

// Reads `rows` (3, or 2 for the compressed form) rows of 3 complex numbers into u. With 2 rows the
// third is rebuilt as the complex conjugate of the cross product of the first two, which is the
// unique completion to a special unitary matrix. Returns false if a stored value is NaN or Inf.
bool decode_link(const std::uint8_t* p, RealFormat f, int rows, SU3<double>& u);
void encode_link(std::uint8_t* p, const SU3<double>& u, RealFormat f, int rows = 3);

// Stored reals per link.
constexpr int reals_per_link(int rows) { return rows * 3 * 2; }

// Throws lqcd::Error naming the file, the site (index and coordinates) and direction of a NaN/Inf.
[[noreturn]] void fail_non_finite(const std::filesystem::path& path, const Dims& dims, std::int64_t site,
                                  int mu);

// Throws lqcd::Error unless every extent is >= 1 and the volume stays addressable. `source` names
// where the dimensions came from (e.g. "DIMENSION_1..4", "record 'ildg-format'").
void check_dims(const Dims& dims, const std::filesystem::path& path, const char* source);

// Checks that a field has the shape its dims promise (writers call it before writing).
void check_field(const LexicographicGauge& field, const std::filesystem::path& path);

// Whole fields in site-major order (ILDG, SciDAC, NERSC, MILC).
LexicographicGauge decode_site_major(std::span<const std::uint8_t> data, const Dims& dims, RealFormat f,
                                     int rows, const std::filesystem::path& path);
Bytes encode_site_major(const LexicographicGauge& field, RealFormat f, int rows = 3);

}  // namespace lqcd::io
