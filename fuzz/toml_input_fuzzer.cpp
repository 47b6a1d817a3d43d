// libFuzzer harness: the TOML front end (app/config.hpp) with the real schemas of the commands that
// take an input file. Each input is read as lqcd heatbath, hmc, propagator, spectrum, distill and loops read theirs:
// Config::merge_file (toml++ parse, unknown keys, type checks), then the command's own validation of
// every value (check_heatbath_input, check_hmc_input with its [[monomial]] entries, read_quark_input,
// read_spectrum_input), and --print-config's to_toml.
#include "app/config.hpp"
#include "app/heatbath_command.hpp"
#include "app/hmc_command.hpp"
#include "app/propagator_command.hpp"
#include "app/quark_input.hpp"
#include "app/distill_input.hpp"
#include "app/loops_input.hpp"
#include "app/spectrum_input.hpp"
#include "fuzz_support.hpp"

namespace {

template <typename Check>
void read_as(const std::filesystem::path& path, lqcd::app::Config config, Check&& check) {
  lqcd::fuzz::expect_lqcd_error_at_most([&] {
    config.merge_file(path);
    (void)config.to_toml();
    check(config);
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace lqcd;
  using app::Config;
  // The commands' defaults, built once (each key's default is parsed as TOML) and copied per input.
  static const Config heatbath(app::heatbath_schema(), "heatbath");
  static const Config hmc(app::hmc_schema(), "hmc", app::hmc_repeated_sections());
  static const Config propagator(app::propagator_schema(), "propagator");
  static const Config spectrum(app::spectrum_schema(), "spectrum");
  static const Config distill(app::distill_schema(), "distill");
  static const Config loops(app::loops_schema(), "loops");
  const auto& path = fuzz::write_scratch("toml", data, size);
  read_as(path, heatbath, app::check_heatbath_input);
  read_as(path, hmc, app::check_hmc_input);
  read_as(path, propagator, [](const Config& c) { (void)app::read_quark_input(c); });
  read_as(path, spectrum, [](const Config& c) { (void)app::read_spectrum_input(c); });
  read_as(path, distill, [](const Config& c) { (void)app::read_distill_input(c); });
  read_as(path, loops, [](const Config& c) { (void)app::read_loops_input(c); });
  return 0;
}
