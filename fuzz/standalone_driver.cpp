// A main() for the libFuzzer harnesses without libFuzzer (issue 47): CI builds every harness with the
// project's own compiler against the normal library and runs it on its seed corpus, so that a harness
// that no longer compiles, or a seed that a reader no longer accepts without crashing, fails the test
// suite instead of rotting unseen. The fuzzing itself (coverage-guided, with the sanitizers) is
// scripts/fuzz.sh with clang.
//
//   HARNESS SECONDS SEED_DIR...
// runs LLVMFuzzerTestOneInput on every file in the SEED_DIRs, then, until SECONDS have passed, on
// random mutations of them (bytes flipped, overwritten, inserted, removed, blocks duplicated; a fixed
// seed, so a failure repeats). Prints the counts; exits 0 unless a harness call crashed the process
// (the harnesses abort on anything but an lqcd::Error).
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A few random edits of the kinds libFuzzer makes; sizes stay within 2x the input plus 64 bytes.
Bytes mutate(Bytes b, std::mt19937_64& rng) {
  const int edits = 1 + int(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const std::size_t n = b.size();
    const std::size_t at = n ? rng() % n : 0;
    switch (rng() % 6) {
      case 0:  // flip a bit
        if (n) b[at] ^= std::uint8_t(1u << (rng() % 8));
        break;
      case 1:  // an interesting byte value
        if (n) b[at] = std::uint8_t(std::array<int, 8>{0, 1, 0x7f, 0x80, 0xff, '0', '9', '\n'}[rng() % 8]);
        break;
      case 2:  // insert a byte
        b.insert(b.begin() + std::ptrdiff_t(at), std::uint8_t(rng()));
        break;
      case 3:  // remove a stretch
        if (n) b.erase(b.begin() + std::ptrdiff_t(at), b.begin() + std::ptrdiff_t(std::min(n, at + 1 + rng() % 16)));
        break;
      case 4: {  // duplicate a block
        if (!n || n > 1 << 20) break;
        const std::size_t len = std::min<std::size_t>(n - at, 1 + rng() % 64);
        const Bytes block(b.begin() + std::ptrdiff_t(at), b.begin() + std::ptrdiff_t(at + len));
        b.insert(b.begin() + std::ptrdiff_t(rng() % (n + 1)), block.begin(), block.end());
        break;
      }
      default:  // cut the end off
        if (n) b.resize(at);
    }
  }
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SECONDS SEED_DIR...\n", argv[0]);
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  std::vector<Bytes> seeds;
  for (int i = 2; i < argc; ++i)
    for (const auto& e : std::filesystem::directory_iterator(argv[i]))
      if (e.is_regular_file()) seeds.push_back(read_all(e.path()));
  if (seeds.empty()) {
    std::fprintf(stderr, "%s: no seed files in the given folders\n", argv[0]);
    return 2;
  }
  for (const Bytes& s : seeds) LLVMFuzzerTestOneInput(s.data(), s.size());
  std::mt19937_64 rng(47);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  long mutations = 0;
  while (std::chrono::steady_clock::now() < end) {
    const Bytes m = mutate(seeds[rng() % seeds.size()], rng);
    LLVMFuzzerTestOneInput(m.data(), m.size());
    ++mutations;
  }
  std::printf("%s: %zu seeds and %ld mutations, no crash\n", argv[0], seeds.size(), mutations);
  return 0;
}
