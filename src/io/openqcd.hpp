#pragma once
// openQCD gauge configurations (openQCD-1.x/2.x, modules/archive/archive.c: export_cnfg/import_cnfg).
// Little-endian throughout:
//   int32 N0, N1, N2, N3   — lattice sizes; openQCD direction 0 is TIME, 1..3 are x, y, z;
//   double plaq            — <Re tr U_p> averaged over all plaquettes, WITHOUT the 1/3 (3 for the
//                            unit field);
// then, for every ODD site x in openQCD's lexicographic order (x3 fastest, x0 slowest:
// ix = x3 + N3 (x2 + N2 (x1 + N1 x0))), the 8 links
//   U(x,0), U(x-0^,0), U(x,1), U(x-1^,1), U(x,2), U(x-2^,2), U(x,3), U(x-3^,3),
// each a double row-major 3x3 complex matrix. Every link has exactly one odd end point, so these
// V/2 * 8 links are the whole field. openQCD direction 0 maps to our mu = 3 (t), direction k = 1..3 to
// mu = k - 1. There is no checksum. All extents must be even (openQCD's even-odd layout).

#include <cstdint>
#include <filesystem>
#include <span>

#include "io/gauge_file.hpp"

namespace lqcd::io {

constexpr std::size_t kOpenqcdHeaderBytes = 16 + 8;

// The file size an openQCD configuration of these (x, y, z, t) dims has, or 0 if the dims are not
// valid for openQCD (non-positive, odd, or absurdly large).
std::uint64_t openqcd_file_size(const Dims& dims);

GaugeFile read_openqcd(std::span<const std::uint8_t> file, const std::filesystem::path& path);

}  // namespace lqcd::io
