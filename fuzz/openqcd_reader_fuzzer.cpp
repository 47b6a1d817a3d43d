// libFuzzer harness: openQCD configurations (io/openqcd.hpp), which have no magic number: read_openqcd on the
// file's bytes, then detection (by the size the header predicts), the serial and the part reader and the
// verification of lqcd measure.
#include "fuzz_support.hpp"
#include "io/file_bytes.hpp"
#include "io/openqcd.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  const auto& path = fuzz::write_scratch("openqcd", data, size);
  fuzz::expect_lqcd_error_at_most([&] {
    const io::Bytes bytes = io::read_file_bytes(path);
    (void)io::read_openqcd(bytes, path);
  });
  fuzz::read_gauge_every_way(path);
  return 0;
}
