#pragma once
// Gauge configuration files: the public entry points of the I/O layer.
//
// Reading detects the format from the content (never the extension), converts the links to the
// program's lexicographic double-precision order (fields/lexicographic_gauge.hpp) and verifies what
// the file itself can vouch for: record and data sizes against the dimensions, finite values, and the
// format's checksum. A checksum MISMATCH is reported in GaugeFileInfo (checksum_ok = false), not
// thrown: whether to accept such a file is the caller's decision (`lqcd convert --verify`, the
// measurement drivers). Structural problems throw lqcd::Error with one line naming the file.
//
// Plaquette and link-trace values are always normalised to 1 for the unit field (DESIGN.md), whatever
// normalisation the file's header uses.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "core/geometry.hpp"
#include "fields/lexicographic_gauge.hpp"

namespace lqcd::io {

struct GaugeFileInfo {
  std::string format;               // "ildg", "scidac", "nersc", "milc", "openqcd" (as detected)
  Dims dims{};                      // (x, y, z, t)
  int precision_bits = 64;          // 32 or 64, as stored
  std::optional<bool> checksum_ok;  // nullopt: the file carries no checksum
  std::string checksum_detail;      // e.g. "scidac suma/sumb a3b09c8/d7a6d9a1 (computed a3b09c8/d7a6d9a1)"
  std::optional<double> header_plaquette;   // <Re tr U_p>/3 from the header, 1 for the unit field
  std::optional<double> header_link_trace;  // <Re tr U>/3 from the header
  std::map<std::string, std::string> metadata;  // header key/values, info records
};

struct GaugeFile {
  GaugeFileInfo info;
  LexicographicGauge field;
};

// "ildg", "scidac", "nersc", "milc" or "openqcd", from the file's first bytes and size. Throws
// lqcd::Error ("FILE: not a recognised gauge configuration (expected LIME/ILDG, NERSC, MILC or
// openQCD)") otherwise, and for missing or empty files.
std::string detect_gauge_format(const std::filesystem::path& path);

// Detects the format and reads the file (see the top of this header for what is verified).
GaugeFile read_gauge_file(const std::filesystem::path& path);

struct WriteOptions {
  int precision_bits = 64;                      // 32 or 64
  std::optional<double> plaquette;              // normalised to 1; NERSC PLAQUETTE, ILDG xlf-info, openQCD header
  std::optional<double> link_trace;             // NERSC LINK_TRACE (computed from the field if absent)
  std::map<std::string, std::string> metadata;  // extra key/values for the header or an info record
};

// All writers go through AtomicFile: an existing file of the same name is replaced only once the new
// one is complete on disk. Errors throw lqcd::Error naming the path.

// ILDG (LIME) with SciDAC records and checksum; see ildg.hpp for the record layout.
void write_ildg(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options);
// NERSC archive, DATATYPE 4D_SU3_GAUGE_3x3, IEEE64BIG or IEEE32BIG.
void write_nersc(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options);
// openQCD (always 64-bit; options.plaquette is required because the header must carry it).
void write_openqcd(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options);

}  // namespace lqcd::io
