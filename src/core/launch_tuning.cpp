#include "core/launch_tuning.hpp"

#include <unistd.h>

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cxxabi.h>
#include <filesystem>
#include <fstream>
#include <memory>

#include "core/environment_switch.hpp"
#include "core/error.hpp"

namespace lqcd {

namespace {

constexpr const char* kHeader = "# lqcd launch tuning: device\tkernel\tregisters\tsites\tblock\tmicroseconds";

template <typename N>
bool parse_number(const std::string& text, N& value) {
  const char* end = text.data() + text.size();
  const auto r = std::from_chars(text.data(), end, value);
  return r.ec == std::errc() && r.ptr == end;
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return fields;
    start = tab + 1;
  }
}

}  // namespace

std::map<LaunchKey, LaunchChoice> read_launch_tuning_file(const std::string& path) {
  std::map<LaunchKey, LaunchChoice> choices;
  std::ifstream in(path);
  if (!in) {
    if (std::filesystem::exists(path)) fail("{}: cannot read the launch-tuning cache", path);
    return choices;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> f = split_tabs(line);
    LaunchKey key;
    LaunchChoice choice;
    const bool ok = f.size() == 6 && !f[0].empty() && !f[1].empty() && parse_number(f[2], key.registers) &&
                    key.registers > 0 && parse_number(f[3], key.sites) && key.sites > 0 &&
                    parse_number(f[4], choice.block) && choice.block > 0 && choice.block <= 1024 &&
                    parse_number(f[5], choice.microseconds) && std::isfinite(choice.microseconds) &&
                    choice.microseconds >= 0;
    if (!ok)
      fail("{}:{}: expected six tab-separated fields (device, kernel, registers > 0, sites > 0, block 1-1024, "
           "microseconds >= 0); delete the file to tune again",
           path, number);
    key.device = f[0];
    key.kernel = f[1];
    choices[key] = choice;
  }
  return choices;
}

LaunchTuningCache::LaunchTuningCache(std::string path) : path_(std::move(path)) {
  if (!path_.empty()) choices_ = read_launch_tuning_file(path_);
}

std::optional<LaunchChoice> LaunchTuningCache::find(const LaunchKey& key) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = choices_.find(key);
  if (it == choices_.end()) return std::nullopt;
  bool noted = false;
  for (const LaunchRecord& r : used_) noted = noted || r.key == key;
  if (!noted) used_.push_back({key, it->second, "file"});
  return it->second;
}

void LaunchTuningCache::record(const LaunchKey& key, const LaunchChoice& choice) {
  const std::lock_guard<std::mutex> lock(mutex_);
  choices_[key] = choice;
  bool replaced = false;
  for (LaunchRecord& r : used_)
    if (r.key == key) {
      r = {key, choice, "tuned"};
      replaced = true;
    }
  if (!replaced) used_.push_back({key, choice, "tuned"});
  if (!path_.empty()) write_file();
}

void LaunchTuningCache::write_file() {
  namespace fs = std::filesystem;
  try {
    // What other processes (other ranks, other runs) stored since this one read the file: kept, with
    // this process's choices winning where both tuned the same key.
    std::map<LaunchKey, LaunchChoice> merged = read_launch_tuning_file(path_);
    for (const auto& [k, c] : choices_) merged[k] = c;
    const fs::path target(path_);
    if (target.has_parent_path()) fs::create_directories(target.parent_path());
    // Host and process in the name: ranks on several nodes may share one home directory.
    char host[256] = "host";
    ::gethostname(host, sizeof(host) - 1);
    const std::string temporary = path_ + ".tmp." + host + "." + std::to_string(::getpid());
    {
      std::ofstream out(temporary, std::ios::trunc);
      out << kHeader << '\n';
      for (const auto& [k, c] : merged)
        out << k.device << '\t' << k.kernel << '\t' << k.registers << '\t' << k.sites << '\t' << c.block << '\t'
            << c.microseconds << '\n';
      out.close();
      if (!out) throw Error(temporary + ": cannot write");
    }
    fs::rename(temporary, target);
  } catch (const std::exception& e) {
    if (!warned_)
      std::fprintf(stderr, "lqcd: warning: the launch-tuning cache %s was not written (%s); set LQCD_TUNE_CACHE to a "
                   "writable file\n", path_.c_str(), e.what());
    warned_ = true;
  }
}

std::vector<LaunchRecord> LaunchTuningCache::used() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return used_;
}

std::size_t LaunchTuningCache::size() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return choices_.size();
}

std::string launch_tuning_path_from_environment() {
  const auto set = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  if (const char* p = set("LQCD_TUNE_CACHE")) return p;
  if (const char* x = set("XDG_CACHE_HOME")) return std::string(x) + "/lqcd/launch_tuning.tsv";
  if (const char* h = set("HOME")) return std::string(h) + "/.cache/lqcd/launch_tuning.tsv";
  return "";
}

namespace {

struct ProcessTuning {
  std::mutex mutex;  // guards cache, and the first configuration
  std::shared_ptr<LaunchTuningCache> cache;
  // Read on every tunable launch without the mutex: -1 not yet configured, 0 off, 1 on.
  std::atomic<int> state{-1};
  std::atomic<std::uint64_t> generation{0};
};

ProcessTuning& process_tuning() {
  static ProcessTuning t;
  return t;
}

// Reads LQCD_TUNE and the cache on first use (under t.mutex).
void configure_from_environment(ProcessTuning& t) {
  if (t.state >= 0) return;
  const bool enabled = switch_from_environment("LQCD_TUNE", true);
  t.cache = std::make_shared<LaunchTuningCache>(enabled ? launch_tuning_path_from_environment() : "");
  t.state = enabled ? 1 : 0;
}

}  // namespace

bool launch_tuning_enabled() {
  ProcessTuning& t = process_tuning();
  if (const int state = t.state.load(); state >= 0) return state == 1;
  const std::lock_guard<std::mutex> lock(t.mutex);
  configure_from_environment(t);
  return t.state == 1;
}

std::shared_ptr<LaunchTuningCache> launch_tuning() {
  ProcessTuning& t = process_tuning();
  const std::lock_guard<std::mutex> lock(t.mutex);
  configure_from_environment(t);
  return t.cache;
}

bool programmatic_launch_enabled() {
  static const bool enabled = [] {
    if (!switch_from_environment("LQCD_PROGRAMMATIC_LAUNCH", true)) return false;
#if LQCD_HAVE_CUDA
    // The launch attribute needs compute capability 9.0 (Hopper) or later.
    int device = 0, major = 0;
    return cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9;
#else
    return false;
#endif
  }();
  return enabled;
}

void configure_launch_tuning(bool enabled, const std::string& path) {
  ProcessTuning& t = process_tuning();
  const std::lock_guard<std::mutex> lock(t.mutex);
  t.cache = std::make_shared<LaunchTuningCache>(path);
  t.state = enabled ? 1 : 0;
  ++t.generation;
}

std::uint64_t launch_tuning_generation() { return process_tuning().generation.load(); }

std::string readable_type_name(const char* mangled) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> name(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                                    std::free);
  return status == 0 && name ? std::string(name.get()) : std::string(mangled);
}

}  // namespace lqcd
