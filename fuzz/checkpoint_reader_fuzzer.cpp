// libFuzzer harness: the checkpoint of lqcd heatbath / hmc --resume (app/run_files.hpp): an ILDG file
// whose metadata carry the chain's state. read_checkpoint loads it onto the run's 2^4 lattice, checks
// the physics parameters the run would resume with, and the chain counters are read as the commands
// read them. The seeds (fuzz/make_seeds.cpp) are checkpoints of exactly this run, so that mutations
// get past the parameter checks.
#include "app/run_files.hpp"
#include "fuzz_support.hpp"
#include "fuzz_seed_run.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  static GaugeField<double> U(Geometry::single_process(fuzz::kSeedRunDims), Location::Host);
  const auto& path = fuzz::write_scratch("checkpoint", data, size);
  fuzz::expect_lqcd_error_at_most([&] {
    const auto meta = app::read_checkpoint(path, U, fuzz::seed_run_parameters(), "heatbath");
    (void)app::checkpoint_counter(meta, "lqcd.sweep", path);
  });
  return 0;
}
