#pragma once
// One process's part of a site-major configuration file (ILDG/SciDAC, NERSC) in a decomposed run:
// the links of its box (Geometry local at offset) in local lexicographic order, and what the formats
// compute over the whole lattice, each process computing over its sites and the results combined:
//   - the NERSC checksum: a sum of 32-bit words mod 2^32, so the per-process sums add (mod 2^32);
//   - the SciDAC checksum: per site rotl(crc32, global rank mod 29 | 31), XORed, so the per-process
//     XORs combine by XOR when each site uses its *global* lexicographic rank;
//   - the mean link trace, summed exactly (fixed point) so that it is the same for every process grid;
//   - non-finite values: every rank fails, naming the first bad (global) site.
// With a one-process geometry these are the whole-lattice values of the serial readers and writers.

#include <cstdint>
#include <filesystem>
#include <span>

#include "core/geometry.hpp"
#include "fields/lexicographic_gauge.hpp"
#include "io/file_bytes.hpp"
#include "io/link_codec.hpp"
#include "io/scidac_checksum.hpp"

namespace lqcd::io {

// Bytes per site in the site-major formats: 4 links of `rows` rows.
constexpr std::size_t site_bytes(RealFormat f, int rows) { return std::size_t(4 * reals_per_link(rows) * f.bytes); }

// Fails (naming the file) unless a file of `dims` fits the geometry's global lattice.
void check_part_dims(const Dims& dims, const Geometry& g, const std::filesystem::path& path);

// The box's links from its file bytes; a NaN or Inf fails on every rank with the global site.
LexicographicGauge decode_part(std::span<const std::uint8_t> data, const Geometry& g, RealFormat f, int rows,
                               const std::filesystem::path& path);
// Fails on every rank (naming the first global site) unless every link of every box is finite.
void check_part(const LexicographicGauge& box, const Geometry& g, const std::filesystem::path& path);

// Combined over the processes of g.grid (identity for one process); data hold the box's sites.
std::uint32_t nersc_checksum_part(std::span<const std::uint8_t> data, RealFormat f, const Geometry& g);
ScidacChecksum scidac_checksum_part(std::span<const std::uint8_t> data, std::size_t site_bytes, const Geometry& g);

// <Re tr U>/3 over every link of the global lattice (the NERSC LINK_TRACE), from the boxes. Each
// term is rounded to a multiple of 2^-64 and the terms are added as 128-bit integers, which is exact
// and thus independent of the order and of the process grid; the serial writer uses the same sum, so
// a NERSC header is the same byte for byte however the lattice is split.
double mean_link_trace(const LexicographicGauge& box, const Geometry& g);

}  // namespace lqcd::io
