#include "io/ildg.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "comm/communicator.hpp"
#include "comm/parallel_file.hpp"
#include "io/atomic_file.hpp"
#include "io/gauge_part.hpp"
#include "io/parallel_atomic_file.hpp"
#include "io/byte_order.hpp"
#include "io/lime.hpp"
#include "io/link_codec.hpp"
#include "io/scidac_checksum.hpp"
#include "io/text_parsing.hpp"
#include "io/timestamp.hpp"

namespace lqcd::io {

namespace {

constexpr const char* kIldgFormat = "ildg-format";
constexpr const char* kIldgBinary = "ildg-binary-data";
constexpr const char* kIldgLfn = "ildg-data-lfn";
constexpr const char* kScidacBinary = "scidac-binary-data";
constexpr const char* kScidacPrivateFile = "scidac-private-file-xml";
constexpr const char* kScidacPrivateRecord = "scidac-private-record-xml";
constexpr const char* kScidacFile = "scidac-file-xml";
constexpr const char* kScidacRecord = "scidac-record-xml";
constexpr const char* kScidacChecksum = "scidac-checksum";
constexpr const char* kXlfInfo = "xlf-info";

struct Layout {
  Dims dims{};
  int precision_bits = 0;
};

std::string required_tag(const std::string& xml, const char* tag, const char* record,
                         const std::filesystem::path& path) {
  auto text = xml_tag_text(xml, tag);
  if (!text) fail("{}: record '{}' has no <{}> element", path.string(), record, tag);
  return *text;
}

int required_int_tag(const std::string& xml, const char* tag, const char* record,
                     const std::filesystem::path& path) {
  const std::string text = required_tag(xml, tag, record, path);
  const auto v = parse_integer(text);
  if (!v || *v < 1 || *v > (std::int64_t(1) << 30))
    fail("{}: record '{}' has <{}>{}</{}>, expected a positive integer", path.string(), record, tag, text, tag);
  return int(*v);
}

// ILDG: dims and precision from the ildg-format record.
Layout layout_from_ildg_format(const std::string& xml, const std::filesystem::path& path) {
  Layout l;
  // <field> is optional in practice (one MILC test file omits it); if present it must be a gauge field.
  if (auto field = xml_tag_text(xml, "field"); field && *field != "su3gauge")
    fail("{}: record '{}' has <field>{}</field>, expected su3gauge", path.string(), kIldgFormat, *field);
  const char* tags[4] = {"lx", "ly", "lz", "lt"};
  for (int mu = 0; mu < 4; ++mu) l.dims[mu] = required_int_tag(xml, tags[mu], kIldgFormat, path);
  l.precision_bits = required_int_tag(xml, "precision", kIldgFormat, path);
  if (l.precision_bits != 32 && l.precision_bits != 64)
    fail("{}: record '{}' has <precision>{}</precision>, expected 32 or 64", path.string(), kIldgFormat,
         l.precision_bits);
  return l;
}

// SciDAC/QIO without ILDG records: dims from the private file XML, precision (F|D) from the private
// record XML, which also says what the record holds (4 colour matrices per site).
Layout layout_from_scidac(const std::string& file_xml, const std::string& record_xml,
                          const std::filesystem::path& path) {
  Layout l;
  const std::string dims_text = required_tag(file_xml, "dims", kScidacPrivateFile, path);
  std::vector<std::int64_t> dims;
  std::size_t p = 0;
  while (p < dims_text.size()) {
    const auto b = dims_text.find_first_not_of(" \t\r\n", p);
    if (b == std::string::npos) break;
    auto e = dims_text.find_first_of(" \t\r\n", b);
    if (e == std::string::npos) e = dims_text.size();
    const auto v = parse_integer(std::string_view(dims_text).substr(b, e - b));
    if (!v || *v < 1 || *v > (std::int64_t(1) << 30))
      fail("{}: record '{}' has <dims>{}</dims>, expected 4 positive integers", path.string(),
           kScidacPrivateFile, dims_text);
    dims.push_back(*v);
    p = e;
  }
  if (dims.size() != 4)
    fail("{}: record '{}' has <dims>{}</dims>, expected 4 positive integers", path.string(),
         kScidacPrivateFile, dims_text);
  for (int mu = 0; mu < 4; ++mu) l.dims[mu] = int(dims[std::size_t(mu)]);

  const std::string precision = required_tag(record_xml, "precision", kScidacPrivateRecord, path);
  if (precision == "F")
    l.precision_bits = 32;
  else if (precision == "D")
    l.precision_bits = 64;
  else
    fail("{}: record '{}' has <precision>{}</precision>, expected F or D", path.string(),
         kScidacPrivateRecord, precision);
  // Optional consistency checks: a colour-matrix record of 4 matrices per site.
  const int real_bytes = l.precision_bits / 8;
  if (auto ts = xml_tag_text(record_xml, "typesize"); ts && parse_integer(*ts) != 18 * real_bytes)
    fail("{}: record '{}' has <typesize>{}</typesize>, expected {} (one 3x3 complex matrix)", path.string(),
         kScidacPrivateRecord, *ts, 18 * real_bytes);
  if (auto dc = xml_tag_text(record_xml, "datacount"); dc && parse_integer(*dc) != 4)
    fail("{}: record '{}' has <datacount>{}</datacount>, expected 4 (links per site)", path.string(),
         kScidacPrivateRecord, *dc);
  return l;
}

bool is_record_key(const std::string& key) {
  return key == kScidacFile || key == kScidacRecord || key == kIldgLfn;
}

// A value that can stand on one "key = value" line.
bool fits_on_a_line(const std::string& key, const std::string& value) {
  return !key.empty() && key.find_first_of("=\n\r") == std::string::npos &&
         value.find_first_of("\n\r") == std::string::npos;
}

// A record's text, however the caller has the file (in memory, or on disk for a parallel read).
using RecordText = std::function<std::string(const LimeRecord&)>;

// What the records say: the info (without the checksum result), the binary record and its format,
// the stored checksum.
struct FileLayout {
  GaugeFileInfo info;
  RealFormat real;
  std::size_t site_bytes = 0;
  LimeRecord binary;
  std::optional<ScidacChecksum> stored;
  std::string suma_text, sumb_text;
};

FileLayout layout_of(const std::vector<LimeRecord>& records, const RecordText& text_of,
                 const std::filesystem::path& path) {
  FileLayout l;
  GaugeFileInfo& info = l.info;
  Dims dims{};
  int precision_bits = 0;
  if (const LimeRecord* r = find_lime_record(records, kIldgFormat)) {
    info.format = "ildg";
    const auto f = layout_from_ildg_format(text_of(*r), path);
    dims = f.dims;
    precision_bits = f.precision_bits;
  } else {
    info.format = "scidac";
    const LimeRecord* pf = find_lime_record(records, kScidacPrivateFile);
    const LimeRecord* pr = find_lime_record(records, kScidacPrivateRecord);
    if (pf == nullptr || pr == nullptr)
      fail("{}: LIME file without an '{}' record or the SciDAC records '{}' and '{}' (cannot determine "
           "the lattice dimensions and precision)",
           path.string(), kIldgFormat, kScidacPrivateFile, kScidacPrivateRecord);
    const auto f = layout_from_scidac(text_of(*pf), text_of(*pr), path);
    dims = f.dims;
    precision_bits = f.precision_bits;
  }
  check_dims(dims, path, "the LIME format records");
  info.dims = dims;
  info.precision_bits = precision_bits;

  const LimeRecord* binary = find_lime_record(records, kIldgBinary);
  if (binary == nullptr) binary = find_lime_record(records, kScidacBinary);
  if (binary == nullptr)
    fail("{}: LIME file has no '{}' or '{}' record", path.string(), kIldgBinary, kScidacBinary);
  l.binary = *binary;

  l.real = RealFormat{precision_bits / 8, ByteOrder::big};
  l.site_bytes = site_bytes(l.real, 3);
  const std::uint64_t volume = std::uint64_t(dims[0]) * dims[1] * dims[2] * dims[3];
  const std::uint64_t expected = volume * l.site_bytes;
  if (binary->length != expected)
    fail("{}: record '{}' has {} bytes, expected {} for {}x{}x{}x{} at {}-bit precision", path.string(),
         binary->type, binary->length, expected, dims[0], dims[1], dims[2], dims[3], precision_bits);

  if (const LimeRecord* c = find_lime_record(records, kScidacChecksum)) {
    const std::string xml = text_of(*c);
    l.suma_text = required_tag(xml, "suma", kScidacChecksum, path);
    l.sumb_text = required_tag(xml, "sumb", kScidacChecksum, path);
    const auto suma = parse_hex32(l.suma_text);
    const auto sumb = parse_hex32(l.sumb_text);
    if (!suma || !sumb)
      fail("{}: record '{}' has <suma>{}</suma> <sumb>{}</sumb>, expected hexadecimal numbers", path.string(),
           kScidacChecksum, l.suma_text, l.sumb_text);
    l.stored = ScidacChecksum{*suma, *sumb};
  } else {
    info.checksum_detail = "no checksum record";
  }

  if (const LimeRecord* x = find_lime_record(records, kXlfInfo)) {
    for (auto& [key, value] : parse_xlf_info(text_of(*x))) {
      if (key == "plaquette") {
        const auto p = parse_real(value);
        if (!p) fail("{}: record '{}' has plaquette = '{}', expected a number", path.string(), kXlfInfo, value);
        info.header_plaquette = *p;  // tmLQCD normalises to 1 for the unit field, as we do
      }
      info.metadata[key] = value;  // repeated keys: the last one wins
    }
  }
  for (const char* type : {kIldgLfn, kScidacFile, kScidacRecord})
    if (const LimeRecord* r = find_lime_record(records, type)) info.metadata[type] = text_of(*r);
  return l;
}

void set_checksum_result(FileLayout& l, const ScidacChecksum& computed) {
  if (!l.stored) return;
  l.info.checksum_ok = computed == *l.stored;
  l.info.checksum_detail = fmt::format("scidac suma/sumb {}/{} (computed {:x}/{:x})", l.suma_text, l.sumb_text,
                                       computed.suma, computed.sumb);
}

void check_precision(const std::filesystem::path& path, const WriteOptions& options) {
  if (options.precision_bits != 32 && options.precision_bits != 64)
    fail("{}: ILDG precision must be 32 or 64 bits, got {}", path.string(), options.precision_bits);
}

// The file around its binary data: `head` ends with the binary record's header, `tail` starts with
// its padding. The binary data (data_bytes, with the given checksum) go in between.
struct Records {
  Bytes head, tail;
};

Records records_around_data(const std::filesystem::path& path, const Dims& d, const WriteOptions& options,
                            std::uint64_t data_bytes, const ScidacChecksum& checksum, const std::string& date) {
  const bool single = options.precision_bits == 32;
  const int real_bytes = options.precision_bits / 8;
  auto metadata_or = [&](const char* key, std::string fallback) {
    const auto it = options.metadata.find(key);
    return it != options.metadata.end() ? it->second : fallback;
  };

  const std::string private_file_xml = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacFile><version>1.1</version><spacetime>4</spacetime>"
      "<dims>{} {} {} {} </dims><volfmt>0</volfmt></scidacFile>",
      d[0], d[1], d[2], d[3]);
  const std::string file_xml = metadata_or(
      kScidacFile, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>lqcd gauge configuration</info>");
  // typesize = bytes of one colour matrix, datacount = matrices per site (QIO's QDP_D3_ColorMatrix).
  const std::string private_record_xml = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacRecord><version>1.1</version><date>{}</date>"
      "<recordtype>0</recordtype><datatype>QDP_{}3_ColorMatrix</datatype><precision>{}</precision>"
      "<colors>3</colors><spins>1</spins><typesize>{}</typesize><datacount>4</datacount></scidacRecord>",
      date, single ? 'F' : 'D', single ? 'F' : 'D', 18 * real_bytes);
  const std::string record_xml = metadata_or(
      kScidacRecord, "<?xml version=\"1.0\" encoding=\"UTF-8\"?><info>lqcd gauge field</info>");
  const std::string ildg_format = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ildgFormat xmlns=\"http://www.lqcd.org/ildg\" "
      "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
      "xsi:schemaLocation=\"http://www.lqcd.org/ildg http://www.lqcd.org/ildg/filefmt.xsd\">"
      "<version>1.0</version><field>su3gauge</field><precision>{}</precision>"
      "<lx>{}</lx><ly>{}</ly><lz>{}</lz><lt>{}</lt></ildgFormat>",
      options.precision_bits, d[0], d[1], d[2], d[3]);
  const std::string lfn = metadata_or(kIldgLfn, path.filename().string());

  // tmLQCD's xlf-info: "plaquette = ..." first, then the other key/value lines.
  std::string xlf;
  if (options.plaquette) xlf += fmt::format("plaquette = {}\n", *options.plaquette);
  for (const auto& [key, value] : options.metadata) {
    if (is_record_key(key) || !fits_on_a_line(key, value)) continue;
    if (key == "plaquette" && options.plaquette) continue;
    xlf += fmt::format("{} = {}\n", key, value);
  }

  Records r;
  append_lime_text_record(r.head, kScidacPrivateFile, private_file_xml, true, false);
  append_lime_text_record(r.head, kScidacFile, file_xml, false, true);
  append_lime_text_record(r.head, kScidacPrivateRecord, private_record_xml, true, false);
  append_lime_text_record(r.head, kScidacRecord, record_xml, false, false);
  append_lime_text_record(r.head, kIldgFormat, ildg_format, false, false);
  append_lime_text_record(r.head, kIldgLfn, lfn, false, false, /*nul_terminate=*/false);
  const auto binary_header = lime_record_header(kIldgBinary, data_bytes, false, false);
  r.head.insert(r.head.end(), binary_header.begin(), binary_header.end());
  r.tail.assign(lime_padding(data_bytes), 0);
  append_lime_text_record(r.tail, kScidacChecksum, scidac_checksum_xml(checksum), false, true);
  if (!xlf.empty()) append_lime_text_record(r.tail, kXlfInfo, xlf, true, true, /*nul_terminate=*/false);
  return r;
}

}  // namespace

GaugeFile read_ildg(std::span<const std::uint8_t> file, const std::filesystem::path& path) {
  const std::vector<LimeRecord> records = parse_lime_records(file, path);
  FileLayout l = layout_of(records, [&](const LimeRecord& r) { return lime_record_text(file, r); }, path);
  const auto data = lime_record_data(file, l.binary);
  if (l.stored) set_checksum_result(l, scidac_checksum(data, l.site_bytes));
  GaugeFile g;
  g.info = std::move(l.info);
  g.field = decode_site_major(data, g.info.dims, l.real, 3, path);
  return g;
}

GaugeFilePart read_ildg_part(const std::filesystem::path& path, const Decomposition& decompose) {
  // The records' headers and text (small) are read by every rank; the binary data each rank's part.
  const std::vector<LimeRecord> records = read_lime_records(path);
  const auto text_of = [&](const LimeRecord& r) {
    const Bytes b = read_file_range(path, r.data_offset, std::size_t(r.length));
    std::string text(b.begin(), b.end());
    while (!text.empty() && text.back() == '\0') text.pop_back();  // as lime_record_text
    return text;
  };
  FileLayout l = layout_of(records, text_of, path);
  const Geometry geom = decompose(l.info.dims);
  check_part_dims(l.info.dims, geom, path);
  Bytes local(std::size_t(geom.volume()) * l.site_bytes);
  comm::ParallelFile f(path, comm::ParallelFile::Access::read, geom.grid);
  f.read_sites(l.binary.data_offset, geom, l.site_bytes, local);
  f.close();
  // Collective whether or not there is a checksum record (every rank has the same records).
  if (l.stored) set_checksum_result(l, scidac_checksum_part(local, l.site_bytes, geom));
  GaugeFilePart part;
  part.info = std::move(l.info);
  part.box = decode_part(local, geom, l.real, 3, path);
  return part;
}

void write_ildg(const std::filesystem::path& path, const LexicographicGauge& field, const WriteOptions& options) {
  check_field(field, path);
  check_precision(path, options);
  const RealFormat real{options.precision_bits / 8, ByteOrder::big};
  const Bytes data = encode_site_major(field, real);
  const Records r = records_around_data(path, field.dims, options, data.size(),
                                        scidac_checksum(data, site_bytes(real, 3)),
                                        options.date.value_or(utc_timestamp()));
  AtomicFile out(path);
  out.write(r.head.data(), r.head.size());
  out.write(data.data(), data.size());
  out.write(r.tail.data(), r.tail.size());
  out.commit();
}

void write_ildg_part(const std::filesystem::path& path, const LexicographicGauge& box, const Geometry& geom,
                     const WriteOptions& options) {
  check_part(box, geom, path);
  check_precision(path, options);
  const RealFormat real{options.precision_bits / 8, ByteOrder::big};
  const std::size_t bytes = site_bytes(real, 3);
  const Bytes data = encode_site_major(box, real);
  const ScidacChecksum checksum = scidac_checksum_part(data, bytes, geom);
  std::string date = options.date.value_or(utc_timestamp());
  comm::broadcast(geom.grid, date);  // rank 0's: every rank must know where the data start
  const std::uint64_t data_bytes = std::uint64_t(geom.global_volume()) * bytes;
  const Records r = records_around_data(path, geom.global, options, data_bytes, checksum, date);
  ParallelAtomicFile out(path, geom.grid);
  if (out.is_root()) {
    out.file().write_at(0, r.head);
    out.file().write_at(r.head.size() + data_bytes, r.tail);
  }
  out.file().write_sites(r.head.size(), geom, bytes, data);
  out.commit();
}

}  // namespace lqcd::io
