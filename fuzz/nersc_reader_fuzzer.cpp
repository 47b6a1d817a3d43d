// libFuzzer harness: NERSC archive configurations (io/nersc.hpp): read_nersc on the file's bytes, then detection,
// the serial and the part reader (its header is read in growing chunks) and the verification of lqcd measure.
#include "fuzz_support.hpp"
#include "io/file_bytes.hpp"
#include "io/nersc.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  const auto& path = fuzz::write_scratch("nersc", data, size);
  fuzz::expect_lqcd_error_at_most([&] {
    const io::Bytes bytes = io::read_file_bytes(path);
    (void)io::read_nersc(bytes, path);
  });
  fuzz::read_gauge_every_way(path);
  return 0;
}
