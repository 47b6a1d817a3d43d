// libFuzzer harness: ILDG and SciDAC configurations (io/ildg.hpp): read_ildg on the file's bytes, then detection,
// the serial and the part reader and the verification of lqcd measure.
#include "fuzz_support.hpp"
#include "io/file_bytes.hpp"
#include "io/ildg.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  const auto& path = fuzz::write_scratch("ildg", data, size);
  fuzz::expect_lqcd_error_at_most([&] {
    const io::Bytes bytes = io::read_file_bytes(path);
    (void)io::read_ildg(bytes, path);
  });
  fuzz::read_gauge_every_way(path);
  return 0;
}
