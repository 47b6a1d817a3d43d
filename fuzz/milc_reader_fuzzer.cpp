// libFuzzer harness: MILC v5 binary configurations (io/milc.hpp): read_milc on the file's bytes, then detection,
// the serial and the part reader and the verification of lqcd measure.
#include "fuzz_support.hpp"
#include "io/file_bytes.hpp"
#include "io/milc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  const auto& path = fuzz::write_scratch("milc", data, size);
  fuzz::expect_lqcd_error_at_most([&] {
    const io::Bytes bytes = io::read_file_bytes(path);
    (void)io::read_milc(bytes, path);
  });
  fuzz::read_gauge_every_way(path);
  return 0;
}
