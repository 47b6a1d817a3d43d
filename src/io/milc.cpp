#include "io/milc.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/link_codec.hpp"

namespace lqcd::io {

namespace {

constexpr std::size_t kWordsPerSite = 4 * 18;  // 4 links x 18 float32 words

}  // namespace

MilcChecksum milc_checksum(std::span<const std::uint8_t> data, ByteOrder order) {
  MilcChecksum sum;
  const std::size_t sites = data.size() / (kWordsPerSite * 4);
  for (std::size_t r = 0; r < sites; ++r) {
    // The rotation continues across sites as if the words of all sites formed one sequence.
    int rank29 = int((kWordsPerSite * r) % 29);
    int rank31 = int((kWordsPerSite * r) % 31);
    const std::uint8_t* p = data.data() + r * kWordsPerSite * 4;
    for (std::size_t k = 0; k < kWordsPerSite; ++k) {
      const std::uint32_t w = load_u32(p + 4 * k, order);
      sum.sum29 ^= std::rotl(w, rank29);
      sum.sum31 ^= std::rotl(w, rank31);
      if (++rank29 >= 29) rank29 = 0;
      if (++rank31 >= 31) rank31 = 0;
    }
  }
  return sum;
}

GaugeFile read_milc(std::span<const std::uint8_t> file, const std::filesystem::path& path) {
  if (file.size() < kMilcHeaderBytes)
    fail("{}: truncated MILC header: {} bytes, expected at least {}", path.string(), file.size(),
         kMilcHeaderBytes);
  ByteOrder order;
  if (load_i32(file.data(), ByteOrder::little) == kMilcMagic)
    order = ByteOrder::little;
  else if (load_i32(file.data(), ByteOrder::big) == kMilcMagic)
    order = ByteOrder::big;
  else
    fail("{}: MILC magic number {} not found at offset 0", path.string(), kMilcMagic);

  GaugeFile g;
  GaugeFileInfo& info = g.info;
  info.format = "milc";
  info.precision_bits = 32;
  for (int mu = 0; mu < 4; ++mu) info.dims[mu] = load_i32(file.data() + 4 + 4 * mu, order);
  check_dims(info.dims, path, "the MILC header");

  const char* stamp = reinterpret_cast<const char*>(file.data() + 20);
  info.metadata["time_stamp"] = std::string(stamp, std::find(stamp, stamp + 64, '\0'));
  info.metadata["byte_order"] = order == ByteOrder::little ? "little-endian" : "big-endian";

  const std::int32_t site_order = load_i32(file.data() + 84, order);
  if (site_order != 0)
    fail("{}: site-ordered MILC files are not supported (header order = {}, expected 0 for natural order)",
         path.string(), site_order);
  const MilcChecksum stored{load_u32(file.data() + 88, order), load_u32(file.data() + 92, order)};

  const std::uint64_t volume = std::uint64_t(info.dims[0]) * info.dims[1] * info.dims[2] * info.dims[3];
  const std::uint64_t expected = volume * kWordsPerSite * 4;
  const std::uint64_t found = file.size() - kMilcHeaderBytes;
  if (found != expected)
    fail("{}: MILC data are {} bytes, but dims {}x{}x{}x{} need {} (file truncated or wrong header)",
         path.string(), found, info.dims[0], info.dims[1], info.dims[2], info.dims[3], expected);
  const auto data = file.subspan(kMilcHeaderBytes);

  const MilcChecksum computed = milc_checksum(data, order);
  info.checksum_ok = computed == stored;
  info.checksum_detail = fmt::format("milc sum29/sum31 {:08x}/{:08x} (computed {:08x}/{:08x})", stored.sum29,
                                     stored.sum31, computed.sum29, computed.sum31);

  g.field = decode_site_major(data, info.dims, RealFormat{4, order}, 3, path);
  return g;
}

}  // namespace lqcd::io
