#include "io/gauge_file.hpp"

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "io/byte_order.hpp"
#include "io/file_bytes.hpp"
#include "fields/global_order.hpp"
#include "io/gauge_part.hpp"
#include "io/ildg.hpp"
#include "io/lime.hpp"
#include "io/milc.hpp"
#include "io/nersc.hpp"
#include "io/openqcd.hpp"

namespace lqcd::io {

namespace {

// The container, from the first bytes and the size. LIME files are told apart (ILDG or SciDAC) by
// their records, which the callers look at.
enum class Container { lime, nersc, milc, openqcd };

constexpr std::size_t kHeadBytes = 64;

Container classify(std::span<const std::uint8_t> head, std::uint64_t size, const std::filesystem::path& path) {
  if (size == 0) fail("{}: empty file (not a gauge configuration)", path.string());
  if (head.size() >= 4 && load_u32(head.data(), ByteOrder::big) == kLimeMagic) return Container::lime;

  // NERSC: an ASCII header whose first line is BEGIN_HEADER (leading blank lines tolerated).
  std::size_t i = 0;
  while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) ++i;
  constexpr char kBegin[] = "BEGIN_HEADER";
  if (head.size() - i >= sizeof kBegin - 1 && std::memcmp(head.data() + i, kBegin, sizeof kBegin - 1) == 0)
    return Container::nersc;

  // MILC: the magic number in either byte order.
  if (head.size() >= 4 && (load_i32(head.data(), ByteOrder::little) == kMilcMagic ||
                           load_i32(head.data(), ByteOrder::big) == kMilcMagic))
    return Container::milc;

  // openQCD has no magic number: four positive even sizes whose volume predicts the file size.
  if (head.size() >= 16) {
    const Dims dims = {load_i32(head.data() + 4, ByteOrder::little), load_i32(head.data() + 8, ByteOrder::little),
                       load_i32(head.data() + 12, ByteOrder::little), load_i32(head.data(), ByteOrder::little)};
    const std::uint64_t expected = openqcd_file_size(dims);
    if (expected != 0 && expected == size) return Container::openqcd;
    // A plausible openQCD header with the wrong size is most likely a truncated openQCD file: say so
    // rather than "not recognised".
    bool small = true;
    for (int mu = 0; mu < 4; ++mu) small = small && dims[mu] <= 1024;
    if (expected != 0 && small && size >= kOpenqcdHeaderBytes)
      fail("{}: looks like an openQCD configuration of {}x{}x{}x{} (x,y,z,t) but has {} bytes, expected {}",
           path.string(), dims[0], dims[1], dims[2], dims[3], size, expected);
  }
  fail("{}: not a recognised gauge configuration (expected LIME/ILDG, NERSC, MILC or openQCD)", path.string());
}

std::string lime_format(const std::vector<LimeRecord>& records) {
  return find_lime_record(records, "ildg-format") ? "ildg" : "scidac";
}

}  // namespace

std::string detect_gauge_format(const std::filesystem::path& path) {
  std::uint64_t size = 0;
  const Bytes head = read_file_head(path, kHeadBytes, size);
  switch (classify(head, size, path)) {
    case Container::lime: return lime_format(read_lime_records(path));
    case Container::nersc: return "nersc";
    case Container::milc: return "milc";
    case Container::openqcd: return "openqcd";
  }
  return {};  // unreachable
}

GaugeFile read_gauge_file(const std::filesystem::path& path) {
  const Bytes bytes = read_file_bytes(path);
  const std::span<const std::uint8_t> head(bytes.data(), std::min<std::size_t>(bytes.size(), kHeadBytes));
  switch (classify(head, bytes.size(), path)) {
    case Container::lime: return read_ildg(bytes, path);
    case Container::nersc: return read_nersc(bytes, path);
    case Container::milc: return read_milc(bytes, path);
    case Container::openqcd: return read_openqcd(bytes, path);
  }
  return {};  // unreachable
}

bool reads_in_parts(const std::string& format) {
  return format == "ildg" || format == "scidac" || format == "nersc";
}

GaugeFilePart read_gauge_file_part(const std::filesystem::path& path, const Decomposition& decompose) {
  const std::string format = detect_gauge_format(path);
  if (format == "nersc") return read_nersc_part(path, decompose);
  if (reads_in_parts(format)) return read_ildg_part(path, decompose);
  // MILC and openQCD: the whole file on every rank, this rank's box kept (the gather path).
  GaugeFile whole = read_gauge_file(path);
  const Geometry geom = decompose(whole.info.dims);
  check_part_dims(whole.info.dims, geom, path);
  GaugeFilePart part;
  part.info = std::move(whole.info);
  part.box.dims = geom.local;
  part.box.links = geom.distributed() ? local_part(whole.field.links, geom, 4) : std::move(whole.field.links);
  return part;
}

GaugeFilePart read_gauge_file_part(const std::filesystem::path& path, const Geometry& geom) {
  return read_gauge_file_part(path, [&](const Dims&) { return geom; });  // the dims are checked against it
}

}  // namespace lqcd::io
