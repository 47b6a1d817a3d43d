#pragma once
// What every libFuzzer harness of lqcd shares (see fuzz/README.md).
//
// The readers take paths, as the commands give them, so each input is written to a scratch file
// first: that exercises the real open/size/read path (read_file_bytes, read_file_head) as well as the
// parsers. One scratch file per process (libFuzzer's -jobs and -fork run several), on /dev/shm when
// there is one, so the file system is not the bottleneck.
//
// The contract under test: a reader either returns or throws lqcd::Error (one line naming the file).
// An lqcd::Error is therefore caught and ignored; everything else is a bug that libFuzzer reports:
// another exception escapes and aborts the process, AddressSanitizer and UBSan report memory and
// arithmetic errors, -malloc_limit_mb catches a header-claimed size that is allocated before it is
// checked against the file, and -timeout a hang.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "core/error.hpp"
#include "core/geometry.hpp"
#include "io/gauge_file.hpp"
#include "measure/configuration.hpp"

namespace lqcd::fuzz {

// This process's scratch file for `target` (created on first use, removed at exit).
inline const std::filesystem::path& scratch_path(const char* target) {
  static const std::filesystem::path path = [target] {
    std::error_code ec;
    std::filesystem::path dir = "/dev/shm";
    if (!std::filesystem::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0)
      dir = std::filesystem::temp_directory_path();
    return dir / ("lqcd-fuzz-" + std::string(target) + "-" + std::to_string(::getpid()));
  }();
  static const bool removed_at_exit = [] {
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove(path, ec);
    });
    return true;
  }();
  (void)removed_at_exit;
  return path;
}

// Writes the fuzzer's input to the scratch file and returns its path.
inline const std::filesystem::path& write_scratch(const char* target, const std::uint8_t* data, std::size_t size) {
  const std::filesystem::path& path = scratch_path(target);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();  // the harness itself cannot work: stop loudly, not silently
  if (size != 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  if (std::fclose(f) != 0) std::abort();
  return path;
}

// Runs one reader; lqcd::Error is the correct outcome for a malformed input.
template <typename Reader>
void expect_lqcd_error_at_most(Reader&& read) {
  try {
    read();
  } catch (const lqcd::Error&) {
  }
}

// Lattices up to this volume are also verified as lqcd measure verifies them. The gauge observables
// of larger ones (the 4^4 and 8^4 reference files) take a good part of a second in this unoptimised,
// instrumented build, which would bring the harness down to a few executions per second; the
// verification's branches do not depend on the volume, and the generated 2^4 seeds reach them.
inline constexpr std::int64_t kVerifiedVolume = 16;

// What a command does with a configuration file after its format's own parser has had it: detect the
// format (lqcd measure, convert), read it whole (serial path), read it in parts with a one-process
// decomposition (the path of every command that takes --grid), and, for a small file that reads,
// verify it as lqcd measure does (checksum, SU(3), header plaquette and link trace).
inline void read_gauge_every_way(const std::filesystem::path& path) {
  expect_lqcd_error_at_most([&] { (void)io::detect_gauge_format(path); });
  bool readable = false;
  expect_lqcd_error_at_most([&] { readable = io::read_gauge_file(path).field.volume() <= kVerifiedVolume; });
  expect_lqcd_error_at_most([&] {
    (void)io::read_gauge_file_part(path, [](const Dims& dims) { return Geometry::single_process(dims); });
  });
  if (readable) expect_lqcd_error_at_most([&] { (void)load_configuration(path); });
}

}  // namespace lqcd::fuzz
