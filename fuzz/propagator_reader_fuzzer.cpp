// libFuzzer harness: SciDAC/QIO LIME propagator files (io/propagator_lime.hpp), read as a later
// contraction would read the file lqcd propagator wrote.
#include "fuzz_support.hpp"
#include "io/propagator_lime.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  const auto& path = fuzz::write_scratch("propagator", data, size);
  fuzz::expect_lqcd_error_at_most([&] { (void)io::read_propagator_lime(path); });
  return 0;
}
