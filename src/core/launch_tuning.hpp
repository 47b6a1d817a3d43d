#pragma once
// The launch autotuner's memory (issue 4): for each device kernel that may be run several times over
// the same data without changing its result (a "tunable" site kernel, exec_cuda.cuh), the number of
// threads per block that ran it fastest, keyed by device, kernel, registers per thread and number of
// sites, and kept in a file so that a later run starts with the choice (QUDA's tunecache, in spirit).
//
// The file is plain text, one choice per line, tab-separated:
//   device  kernel  registers  sites  block  microseconds
// e.g. "NVIDIA H100 80GB HBM3<TAB>lqcd::WilsonHoppingKernel<double, 6><TAB>148<TAB>524288<TAB>128<TAB>231.5".
// The registers are part of the key so that a rebuilt kernel with another register count (which sets
// how many blocks fit on an SM, the main reason one block size beats another) is tuned again. Not in
// the key: a kernel's run-time parameters, such as a forced visiting order (LQCD_HOPPING_T_TILE): a
// measurement that forces one should use a cache file of its own.
//
// Where: LQCD_TUNE_CACHE=FILE, else $XDG_CACHE_HOME/lqcd/launch_tuning.tsv, else
// $HOME/.cache/lqcd/launch_tuning.tsv; with none of these the choices are kept in memory only.
// LQCD_TUNE=0 turns tuning off (every kernel runs in blocks of 256 threads). A choice changes only the
// speed, never a result: a tunable kernel writes each site from its inputs alone, and reductions are
// never tuned (their summation order, and so their rounding, follows the block size).

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace lqcd {

struct LaunchKey {
  std::string device;  // cudaDeviceProp::name
  std::string kernel;  // the site kernel's type, demangled ("lqcd::WilsonHoppingKernel<float, 6>")
  int registers = 0;   // per thread, of the compiled kernel (cudaFuncAttributes::numRegs)
  std::int64_t sites = 0;
  auto operator<=>(const LaunchKey&) const = default;
};

struct LaunchChoice {
  int block = 0;              // threads per block
  double microseconds = 0;    // per launch, as measured when tuned
};

// One choice as a run used it: where it came from ("file": read from the cache file, "tuned": measured
// in this process).
struct LaunchRecord {
  LaunchKey key;
  LaunchChoice choice;
  std::string source;
};

class LaunchTuningCache {
 public:
  // The choices in `path` (none when the file does not exist; "" keeps them in memory only). A line
  // that is not six tab-separated fields of the right kinds is an Error naming the file and line.
  explicit LaunchTuningCache(std::string path = "");

  const std::string& path() const { return path_; }
  // The stored choice for `key`, if any; noted as used by this run (used()).
  std::optional<LaunchChoice> find(const LaunchKey& key);
  // Keeps a new choice and rewrites the file (merged with what other processes wrote meanwhile,
  // through a temporary file and a rename, so a reader never sees half a file). A file that cannot be
  // written costs a one-line warning on stderr, once; the choice is still kept for this run.
  void record(const LaunchKey& key, const LaunchChoice& choice);
  // The choices this run looked up or tuned, in the order of first use.
  std::vector<LaunchRecord> used() const;
  std::size_t size() const;

 private:
  void write_file();
  std::string path_;
  mutable std::mutex mutex_;
  std::map<LaunchKey, LaunchChoice> choices_;
  std::vector<LaunchRecord> used_;
  bool warned_ = false;
};

// Reads a cache file's choices (an empty map when it does not exist); Error on a malformed line.
std::map<LaunchKey, LaunchChoice> read_launch_tuning_file(const std::string& path);

// The cache file the environment names (see above), or "".
std::string launch_tuning_path_from_environment();

// The process's tuning: on unless LQCD_TUNE=0, with the cache at launch_tuning_path_from_environment(),
// both read on first use. configure_launch_tuning replaces them (tests, and programs that want another
// file); it forgets the choices of the previous cache (a holder of the old one keeps it alive).
bool launch_tuning_enabled();
std::shared_ptr<LaunchTuningCache> launch_tuning();
void configure_launch_tuning(bool enabled, const std::string& path);
// Counts configure_launch_tuning calls: the launch code keeps each kernel's choices in memory for the
// current generation, so that a launch costs no lookup in the cache after the first.
std::uint64_t launch_tuning_generation();

// Whether device site kernels are launched as programmatic dependent launches (exec_cuda.cuh): on a
// GPU of compute capability 9.0 or later unless LQCD_PROGRAMMATIC_LAUNCH=0 (read once, on the first
// launch); a value other than 0 or 1 is an Error.
bool programmatic_launch_enabled();

// The readable name of a type from its typeid name (the demangled C++ name where the ABI allows).
std::string readable_type_name(const char* mangled);

}  // namespace lqcd
