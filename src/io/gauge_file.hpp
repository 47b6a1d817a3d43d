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
#include <functional>
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
  std::optional<std::string> date;              // creation date in headers (NERSC CREATION_DATE, SciDAC
                                                // <date>); absent: now, UTC
};

// All writers go through AtomicFile: an existing file of the same name is replaced only once the new
// one is complete on disk. Errors throw lqcd::Error naming the path.

// ILDG (LIME) with SciDAC records and checksum; see ildg.hpp for the record layout.
void write_ildg(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options);
// NERSC archive, DATATYPE 4D_SU3_GAUGE_3x3, IEEE64BIG or IEEE32BIG.
void write_nersc(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options);
// openQCD (always 64-bit; options.plaquette is required because the header must carry it).
void write_openqcd(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options);

// Parallel I/O of a decomposed configuration (issue 6; see docs/design.md "Domain decomposition"):
// each process reads and writes only the links of its box (geometry local at offset), with MPI-IO
// (comm/parallel_file.hpp); headers and small records are read by every process and written by rank 0;
// checksums and the link trace are computed per process and combined. Collective over the processes of
// geom.grid (all ranks of the run; a one-process geometry reads and writes the whole lattice with plain
// POSIX calls and gives what the serial functions give, bit for bit). Errors throw on every rank.

// This process's part of a configuration: the links of its box in local lexicographic order (dims =
// geom.local), and what the file says of itself (as read_gauge_file: a checksum mismatch is reported,
// the combined checksum of the whole file, identically on every rank).
struct GaugeFilePart {
  GaugeFileInfo info;
  LexicographicGauge box;
};

// Whether `format` (detect_gauge_format) is read and written in parts: ILDG, SciDAC and NERSC.
bool reads_in_parts(const std::string& format);

// Detects the format (every rank) and reads this process's part: ILDG, SciDAC and NERSC with MPI-IO;
// MILC and openQCD by reading the whole file on every rank and keeping the box (their checksums are
// not site-local in the same simple way; they keep the whole-lattice path). The file's dims must equal
// geom.global (lqcd::Error naming the file otherwise).
GaugeFilePart read_gauge_file_part(const std::filesystem::path& path, const Geometry& geom);
// The same where this process's part is chosen once the file's dims are known (from the header, before
// any link is read): `decompose` gets them and returns the geometry (it may throw, e.g. for dims that
// do not fit the process grid or the input).
using Decomposition = std::function<Geometry(const Dims& file_dims)>;
GaugeFilePart read_gauge_file_part(const std::filesystem::path& path, const Decomposition& decompose);

// write_ildg / write_nersc of the configuration whose box on this process is `box` (dims =
// geom.local), atomically (ParallelAtomicFile). The files are byte-identical to the serial writers'
// for the same field and options, whatever the process grid. The options must be the same on every
// rank; the date is rank 0's.
void write_ildg_part(const std::filesystem::path& path, const LexicographicGauge& box, const Geometry& geom,
                     const WriteOptions& options);
void write_nersc_part(const std::filesystem::path& path, const LexicographicGauge& box, const Geometry& geom,
                      const WriteOptions& options);

}  // namespace lqcd::io
