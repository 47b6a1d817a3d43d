// libFuzzer harness: the LIME container (io/lime.hpp), both ways it is read: from memory
// (parse_lime_records, used by the ILDG and propagator readers) and header by header from disk
// (read_lime_records, used by detection and the parallel readers); then every record's text.
#include "fuzz_support.hpp"
#include "io/file_bytes.hpp"
#include "io/lime.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  const auto& path = fuzz::write_scratch("lime", data, size);
  fuzz::expect_lqcd_error_at_most([&] { (void)io::read_lime_records(path); });
  fuzz::expect_lqcd_error_at_most([&] {
    const io::Bytes bytes = io::read_file_bytes(path);
    for (const io::LimeRecord& r : io::parse_lime_records(bytes, path)) (void)io::lime_record_text(bytes, r);
  });
  return 0;
}
