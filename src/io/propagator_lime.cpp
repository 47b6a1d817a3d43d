#include "io/propagator_lime.hpp"

#include <cmath>
#include <optional>
#include <sstream>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "io/byte_order.hpp"
#include "io/file_bytes.hpp"
#include "io/lime.hpp"
#include "io/link_codec.hpp"
#include "io/scidac_checksum.hpp"
#include "io/text_parsing.hpp"
#include "io/timestamp.hpp"

namespace lqcd::io {

namespace {
constexpr std::size_t kSiteBytes = 4 * 3 * 2 * 8;

// The lattice extents of <dims>: four integers, each at least 1, and a volume io::check_dims accepts
// (so that the record sizes computed from them cannot overflow).
Dims propagator_dims(const std::optional<std::string>& text, const std::filesystem::path& path) {
  Dims dims{};
  std::size_t found = 0;
  if (text) {
    std::istringstream words(*text);
    for (std::string w; words >> w;) {
      const auto v = parse_integer(w);
      if (!v || *v < 1 || *v > (std::int64_t(1) << 30) || found == 4) {
        found = 5;  // not four positive integers
        break;
      }
      dims[found++] = int(*v);
    }
  }
  if (found != 4)
    fail("{}: scidac-private-file-xml has no valid <dims> (expected 4 positive integers, got \"{}\")", path.string(),
         text.value_or(""));
  check_dims(dims, path, "<dims> of scidac-private-file-xml");
  return dims;
}

std::vector<std::uint8_t> encode(const LexicographicSpinor& v) {
  std::vector<std::uint8_t> out(v.size() * kSiteBytes);
  std::uint8_t* p = out.data();
  for (const ColorSpinor<double>& site : v)
    for (const auto& spin : site.s)
      for (const auto& z : spin.c) {
        store_f64(p, z.re, ByteOrder::big);
        store_f64(p + 8, z.im, ByteOrder::big);
        p += 16;
      }
  return out;
}
}  // namespace

void write_propagator_lime(const std::filesystem::path& path, const PropagatorFile& prop) {
  const std::int64_t volume = std::int64_t(prop.dims[0]) * prop.dims[1] * prop.dims[2] * prop.dims[3];
  for (const auto& c : prop.columns)
    if (std::int64_t(c.size()) != volume) fail("{}: internal: propagator column of the wrong size", path.string());
  AtomicFile file(path);
  LimeWriter lime(file);
  lime.write_text_record("scidac-private-file-xml",
                         fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacFile><version>1.1</version>"
                                     "<spacetime>4</spacetime><dims>{} {} {} {} </dims><volfmt>0</volfmt></scidacFile>",
                                     prop.dims[0], prop.dims[1], prop.dims[2], prop.dims[3]),
                         true, false);
  lime.write_text_record("scidac-file-xml", prop.file_xml.empty() ? "<propagator/>" : prop.file_xml, false, true);
  for (int k = 0; k < 12; ++k) {
    const std::vector<std::uint8_t> data = encode(prop.columns[std::size_t(k)]);
    lime.write_text_record(
        "scidac-private-record-xml",
        fmt::format("<?xml version=\"1.0\" encoding=\"UTF-8\"?><scidacRecord><version>1.1</version><date>{}</date>"
                    "<recordtype>0</recordtype><datatype>USQCD_D3_DiracFermion</datatype><precision>D</precision>"
                    "<colors>3</colors><spins>4</spins><typesize>{}</typesize><datacount>1</datacount></scidacRecord>",
                    utc_timestamp(), kSiteBytes),
        true, false);
    lime.write_text_record("scidac-record-xml",
                           fmt::format("<solution><source_spin>{}</source_spin><source_colour>{}</source_colour></solution>",
                                       k / 3, k % 3),
                           false, false);
    lime.write_record("scidac-binary-data", data, false, false);
    lime.write_text_record("scidac-checksum", scidac_checksum_xml(scidac_checksum(data, kSiteBytes)), false, true);
  }
  file.commit();
}

PropagatorFile read_propagator_lime(const std::filesystem::path& path) {
  const Bytes bytes = read_file_bytes(path);
  const std::vector<LimeRecord> records = parse_lime_records(bytes, path);
  const LimeRecord* file_xml = find_lime_record(records, "scidac-private-file-xml");
  if (!file_xml) fail("{}: no scidac-private-file-xml record (not a SciDAC propagator file)", path.string());
  PropagatorFile prop;
  const std::string text = lime_record_text(bytes, *file_xml);
  prop.dims = propagator_dims(xml_tag_text(text, "dims"), path);
  if (const LimeRecord* u = find_lime_record(records, "scidac-file-xml")) prop.file_xml = lime_record_text(bytes, *u);
  const std::size_t volume = std::size_t(prop.dims[0]) * prop.dims[1] * prop.dims[2] * prop.dims[3];
  int k = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].type != "scidac-binary-data") continue;
    if (k >= 12) fail("{}: more than 12 binary records (not a point-source propagator)", path.string());
    const auto data = lime_record_data(bytes, records[i]);
    if (data.size() != volume * kSiteBytes)
      fail("{}: component {}: binary record has {} bytes, expected {} for {}x{}x{}x{} double-precision spinors",
           path.string(), k, data.size(), volume * kSiteBytes, prop.dims[0], prop.dims[1], prop.dims[2], prop.dims[3]);
    if (i + 1 >= records.size() || records[i + 1].type != "scidac-checksum")
      fail("{}: component {}: no scidac-checksum record after the data", path.string(), k);
    const std::string sum = lime_record_text(bytes, records[i + 1]);
    const auto suma_text = xml_tag_text(sum, "suma"), sumb_text = xml_tag_text(sum, "sumb");
    const auto suma = suma_text ? parse_hex32(*suma_text) : std::nullopt;
    const auto sumb = sumb_text ? parse_hex32(*sumb_text) : std::nullopt;
    if (!suma || !sumb)
      fail("{}: component {}: malformed scidac-checksum record (expected <suma> and <sumb> as 32-bit hexadecimal "
           "numbers)",
           path.string(), k);
    const ScidacChecksum computed = scidac_checksum(data, kSiteBytes);
    if (*suma != computed.suma || *sumb != computed.sumb)
      fail("{}: component {}: SciDAC checksum mismatch (the file is corrupted)", path.string(), k);
    LexicographicSpinor& col = prop.columns[std::size_t(k)];
    col.resize(volume);
    const std::uint8_t* p = data.data();
    for (auto& site : col)
      for (auto& spin : site.s)
        for (auto& z : spin.c) {
          z.re = load_f64(p, ByteOrder::big);
          z.im = load_f64(p + 8, ByteOrder::big);
          if (!std::isfinite(z.re) || !std::isfinite(z.im))
            fail("{}: component {}: NaN or Inf in the data", path.string(), k);
          p += 16;
        }
    ++k;
  }
  if (k != 12) fail("{}: {} binary records, expected 12 (one per source spin and colour)", path.string(), k);
  return prop;
}

}  // namespace lqcd::io
