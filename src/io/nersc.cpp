#include "io/nersc.hpp"

#include <cmath>
#include <set>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "comm/communicator.hpp"
#include "comm/parallel_file.hpp"
#include "io/atomic_file.hpp"
#include "io/gauge_part.hpp"
#include "io/parallel_atomic_file.hpp"
#include "io/text_parsing.hpp"
#include "io/timestamp.hpp"

namespace lqcd::io {

namespace {

constexpr std::string_view kBegin = "BEGIN_HEADER";
constexpr std::string_view kEnd = "END_HEADER";
constexpr const char* kDatatypeFull = "4D_SU3_GAUGE_3x3";
constexpr const char* kDatatypeTwoRows = "4D_SU3_GAUGE";

struct Header {
  std::map<std::string, std::string> values;
  std::size_t data_offset = 0;
};

// The header lines between BEGIN_HEADER and END_HEADER; the data start after END_HEADER's newline.
// `head` may be the first bytes of a longer file (complete = false): nullopt then means "read more".
std::optional<Header> parse_header(std::span<const std::uint8_t> head, bool complete,
                                   const std::filesystem::path& path) {
  const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos && !complete) return std::nullopt;
  if (begin == std::string_view::npos || text.substr(begin, kBegin.size()) != kBegin) {
    if (!complete && text.size() - begin < kBegin.size()) return std::nullopt;
    fail("{}: NERSC file does not start with {}", path.string(), kBegin);
  }
  Header h;
  std::size_t pos = text.find('\n', begin);
  while (true) {
    if (pos == std::string_view::npos) {
      if (!complete) return std::nullopt;
      fail("{}: NERSC header has no {} line (file truncated or not a NERSC file)", path.string(), kEnd);
    }
    const std::size_t start = pos + 1;
    const std::size_t end = text.find('\n', start);
    const std::string_view line = trim(text.substr(start, (end == std::string_view::npos ? text.size() : end) - start));
    if (line == kEnd) {
      if (end == std::string_view::npos) {
        if (!complete) return std::nullopt;
        fail("{}: NERSC header ends without a newline after {} (no data follow)", path.string(), kEnd);
      }
      h.data_offset = end + 1;
      return h;
    }
    if (end == std::string_view::npos && !complete) return std::nullopt;  // the line may go on
    if (auto kv = split_key_value(line)) h.values[kv->first] = kv->second;
    pos = end;
  }
}

// The header of a NERSC file read from its first bytes (every rank of a parallel read: it is small),
// growing the read until END_HEADER is found.
Header read_header(const std::filesystem::path& path, std::uint64_t& file_size) {
  for (std::size_t n = 65536;; n *= 4) {
    const Bytes head = read_file_head(path, n, file_size);
    const bool complete = head.size() == file_size;
    if (auto h = parse_header(head, complete, path)) return *h;
  }
}

const std::string& required(const Header& h, const std::string& key, const std::filesystem::path& path) {
  const auto it = h.values.find(key);
  if (it == h.values.end()) fail("{}: NERSC header has no {} key", path.string(), key);
  return it->second;
}

std::optional<double> optional_real(const Header& h, const std::string& key, const std::filesystem::path& path) {
  const auto it = h.values.find(key);
  if (it == h.values.end()) return std::nullopt;
  const auto v = parse_real(it->second);
  if (!v || !std::isfinite(*v))
    fail("{}: NERSC header key {} = '{}', expected a finite number", path.string(), key, it->second);
  return v;
}

RealFormat floating_point_format(const std::string& value, const std::filesystem::path& path) {
  if (value == "IEEE32BIG" || value == "IEEE32") return {4, ByteOrder::big};
  if (value == "IEEE32LITTLE") return {4, ByteOrder::little};
  if (value == "IEEE64BIG" || value == "IEEE64") return {8, ByteOrder::big};
  if (value == "IEEE64LITTLE") return {8, ByteOrder::little};
  fail("{}: NERSC header key FLOATING_POINT = '{}', expected IEEE32BIG, IEEE32LITTLE, IEEE64BIG or "
       "IEEE64LITTLE",
       path.string(), value);
}

// What the header says: the info (without the checksum result), the data layout, the checksum text.
struct Layout {
  GaugeFileInfo info;
  RealFormat real;
  int rows = 3;
  std::uint64_t data_offset = 0;
  std::optional<std::uint32_t> stored_checksum;
};

Layout layout_of(const Header& h, std::uint64_t file_size, const std::filesystem::path& path) {
  Layout l;
  GaugeFileInfo& info = l.info;
  info.format = "nersc";
  info.metadata = h.values;

  const std::string datatype = required(h, "DATATYPE", path);
  if (datatype == kDatatypeFull)
    l.rows = 3;
  else if (datatype == kDatatypeTwoRows)
    l.rows = 2;
  else
    fail("{}: NERSC header key DATATYPE = '{}', expected {} or {}", path.string(), datatype, kDatatypeFull,
         kDatatypeTwoRows);

  for (int mu = 0; mu < 4; ++mu) {
    const std::string key = fmt::format("DIMENSION_{}", mu + 1);
    const std::string text = required(h, key, path);
    const auto v = parse_integer(text);
    if (!v || *v < 1 || *v > (std::int64_t(1) << 30))
      fail("{}: NERSC header key {} = '{}', expected a positive integer", path.string(), key, text);
    info.dims[mu] = int(*v);
  }
  check_dims(info.dims, path, "DIMENSION_1..4");

  l.real = floating_point_format(required(h, "FLOATING_POINT", path), path);
  info.precision_bits = l.real.bytes * 8;

  const std::uint64_t volume = std::uint64_t(info.dims[0]) * info.dims[1] * info.dims[2] * info.dims[3];
  const std::uint64_t expected = volume * 4 * std::uint64_t(reals_per_link(l.rows)) * l.real.bytes;
  const std::uint64_t found = file_size - h.data_offset;
  if (found != expected)
    fail("{}: NERSC data are {} bytes, but DIMENSION_1..4 = {}x{}x{}x{} with DATATYPE {} and FLOATING_POINT {} "
         "need {}",
         path.string(), found, info.dims[0], info.dims[1], info.dims[2], info.dims[3], datatype,
         h.values.at("FLOATING_POINT"), expected);
  l.data_offset = h.data_offset;

  if (const auto it = h.values.find("CHECKSUM"); it != h.values.end()) {
    l.stored_checksum = parse_hex32(it->second);
    if (!l.stored_checksum)
      fail("{}: NERSC header key CHECKSUM = '{}', expected a 32-bit hexadecimal number", path.string(),
           it->second);
  } else {
    info.checksum_detail = "no CHECKSUM key";
  }
  info.header_plaquette = optional_real(h, "PLAQUETTE", path);
  info.header_link_trace = optional_real(h, "LINK_TRACE", path);
  return l;
}

void set_checksum_result(Layout& l, std::uint32_t computed) {
  if (!l.stored_checksum) return;
  l.info.checksum_ok = computed == *l.stored_checksum;
  l.info.checksum_detail = fmt::format("nersc CHECKSUM {} (computed {:x})", l.info.metadata.at("CHECKSUM"), computed);
}

void check_precision(const std::filesystem::path& path, const WriteOptions& options) {
  if (options.precision_bits != 32 && options.precision_bits != 64)
    fail("{}: NERSC precision must be 32 or 64 bits, got {}", path.string(), options.precision_bits);
}

// The header of a file of `dims` in `real` whose data have the given checksum and mean link trace.
std::string header_text(const Dims& d, RealFormat real, double link_trace, std::uint32_t checksum,
                        const WriteOptions& options, const std::string& date) {
  // Keys that describe the data are always ours; the metadata may override the descriptive ones.
  const std::set<std::string> structural = {"HDR_VERSION", "DATATYPE",    "STORAGE_FORMAT", "DIMENSION_1",
                                            "DIMENSION_2", "DIMENSION_3", "DIMENSION_4",    "LINK_TRACE",
                                            "PLAQUETTE",   "CHECKSUM",    "FLOATING_POINT", "BEGIN_HEADER",
                                            "END_HEADER"};
  std::map<std::string, std::string> descriptive = {
      {"BOUNDARY_1", "PERIODIC"}, {"BOUNDARY_2", "PERIODIC"}, {"BOUNDARY_3", "PERIODIC"},
      {"BOUNDARY_4", "PERIODIC"}, {"ENSEMBLE_ID", "lqcd"},    {"ENSEMBLE_LABEL", "lqcd"},
      {"SEQUENCE_NUMBER", "0"},   {"CREATOR", "lqcd"},        {"CREATION_DATE", date}};
  for (const auto& [key, value] : options.metadata) {
    // A NERSC header line holds one "KEY = VALUE"; entries that cannot be written that way (multi-line
    // XML carried over from a LIME file, say) are left out.
    if (structural.count(key) || key.empty() || key.find_first_of("=\n\r") != std::string::npos ||
        value.find_first_of("\n\r") != std::string::npos)
      continue;
    descriptive[key] = value;
  }

  std::string header = "BEGIN_HEADER\n";
  header += "HDR_VERSION = 1.0\n";
  header += fmt::format("DATATYPE = {}\n", kDatatypeFull);
  header += "STORAGE_FORMAT = 1.0\n";
  for (int mu = 0; mu < 4; ++mu) header += fmt::format("DIMENSION_{} = {}\n", mu + 1, d[mu]);
  header += fmt::format("LINK_TRACE = {}\n", options.link_trace ? *options.link_trace : link_trace);
  if (options.plaquette) header += fmt::format("PLAQUETTE = {}\n", *options.plaquette);
  header += fmt::format("CHECKSUM = {:x}\n", checksum);
  header += fmt::format("FLOATING_POINT = {}\n", real.bytes == 4 ? "IEEE32BIG" : "IEEE64BIG");
  for (const auto& [key, value] : descriptive) header += fmt::format("{} = {}\n", key, value);
  header += "END_HEADER\n";
  return header;
}

}  // namespace

std::uint32_t nersc_checksum(std::span<const std::uint8_t> data, RealFormat f) {
  std::uint32_t sum = 0;  // unsigned arithmetic wraps mod 2^32, as the format wants
  if (f.bytes == 4) {
    for (std::size_t i = 0; i + 4 <= data.size(); i += 4) sum += load_u32(data.data() + i, f.order);
  } else {
    for (std::size_t i = 0; i + 8 <= data.size(); i += 8) {
      const std::uint64_t w = load_u64(data.data() + i, f.order);
      sum += std::uint32_t(w) + std::uint32_t(w >> 32);
    }
  }
  return sum;
}

GaugeFile read_nersc(std::span<const std::uint8_t> file, const std::filesystem::path& path) {
  const Header h = *parse_header(file, true, path);
  Layout l = layout_of(h, file.size(), path);
  const auto data = file.subspan(l.data_offset);
  set_checksum_result(l, nersc_checksum(data, l.real));
  GaugeFile g;
  g.info = std::move(l.info);
  g.field = decode_site_major(data, g.info.dims, l.real, l.rows, path);
  return g;
}

GaugeFilePart read_nersc_part(const std::filesystem::path& path, const Decomposition& decompose) {
  std::uint64_t file_size = 0;
  const Header h = read_header(path, file_size);  // sets file_size: a separate statement
  Layout l = layout_of(h, file_size, path);
  const Geometry geom = decompose(l.info.dims);
  check_part_dims(l.info.dims, geom, path);
  const std::size_t bytes = site_bytes(l.real, l.rows);
  Bytes local(std::size_t(geom.volume()) * bytes);
  comm::ParallelFile f(path, comm::ParallelFile::Access::read, geom.grid);
  f.read_sites(l.data_offset, geom, bytes, local);
  f.close();
  set_checksum_result(l, nersc_checksum_part(local, l.real, geom));
  GaugeFilePart part;
  part.info = std::move(l.info);
  part.box = decode_part(local, geom, l.real, l.rows, path);
  return part;
}

void write_nersc(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options) {
  check_field(field, path);
  check_precision(path, options);
  const RealFormat real{options.precision_bits / 8, ByteOrder::big};
  const Bytes data = encode_site_major(field, real);
  const Geometry whole{field.dims, field.dims, {}};
  const std::string header = header_text(field.dims, real, mean_link_trace(field, whole), nersc_checksum(data, real),
                                         options, options.date.value_or(utc_timestamp()));
  AtomicFile out(path);
  out.write(header);
  out.write(data.data(), data.size());
  out.commit();
}

void write_nersc_part(const std::filesystem::path& path, const LexicographicGauge& box, const Geometry& geom,
                      const WriteOptions& options) {
  check_part(box, geom, path);
  check_precision(path, options);
  const RealFormat real{options.precision_bits / 8, ByteOrder::big};
  const Bytes data = encode_site_major(box, real);
  const std::uint32_t checksum = nersc_checksum_part(data, real, geom);
  const double trace = mean_link_trace(box, geom);
  std::string date = options.date.value_or(utc_timestamp());
  comm::broadcast(geom.grid, date);  // rank 0's: every rank must know the header's length
  const std::string header = header_text(geom.global, real, trace, checksum, options, date);
  ParallelAtomicFile out(path, geom.grid);
  if (out.is_root())
    out.file().write_at(0, std::span(reinterpret_cast<const std::uint8_t*>(header.data()), header.size()));
  out.file().write_sites(header.size(), geom, site_bytes(real, 3), data);
  out.commit();
}

}  // namespace lqcd::io
