// Where a program's GPU time goes, without Nsight Systems (the GPU machine has none): a library the CUDA
// driver loads (CUDA_INJECTION64_PATH) that records every kernel, copy and memset through CUPTI's activity
// API and writes a table to $LQCD_KERNEL_PROFILE (default: stderr) at each cudaProfilerStop and again at exit:
//   - per kernel name: launches, own GPU time (after the activity before it ended: programmatic launches
//     start early and wait), start-to-end time, own time per launch, share of all kernels' own time;
//   - copies and memsets: count, bytes, time;
//   - runtime calls that wait (synchronisations, blocking copies): count and host time;
//   - the span from the first to the last GPU activity, the time the GPU was busy within it (the union of
//     the activities' intervals), and so the idle fraction: what launch latency and host round trips cost.
// Where the program marks stretches with cudaProfilerStart/Stop (lqcd: device_profiler_range, e.g. around
// `lqcd bench solver --rhs N`'s block solves), only the activities that start inside them are counted;
// otherwise the whole run.
//
//   g++ -shared -fPIC -O2 -I$CUDA/include scripts/profiling/cupti_kernel_profile.cpp -L$CUDA/lib64 -lcupti
//       -o build-gpu/libkernel_profile.so
//   CUDA_INJECTION64_PATH=$PWD/build-gpu/libkernel_profile.so LQCD_KERNEL_PROFILE=out.txt build-gpu/lqcd bench ...
//
// Each record costs CUPTI a few hundred nanoseconds; the kernel durations are the GPU's own timestamps.
#include <cupti.h>

#include <cxxabi.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace {

// ns: the activities' own start-to-end times. own: the part of each after the previous activity had ended.
// lqcd launches its kernels as programmatic dependent launches (core/exec_cuda.cuh): a kernel starts
// while the one before it still runs and waits for it, so that its start-to-end time includes that wait;
// own time is what the GPU spent on it alone (the own times add up to the busy time).
struct Totals {
  std::uint64_t count = 0, ns = 0, bytes = 0, own = 0;
};

// One GPU activity: what (an index into Profile::names), when, how many bytes.
struct Record {
  int name;
  bool kernel;
  std::uint64_t start, end, bytes;
};

struct Profile {
  std::mutex lock;
  std::map<std::string, int> ids;
  std::vector<std::string> names;
  std::vector<Record> records;
  std::map<std::string, Totals> waits;  // host time of the runtime calls that may wait
  std::vector<std::pair<std::uint64_t, std::uint64_t>> windows;  // cudaProfilerStart .. Stop (CUPTI clock)
};

Profile& profile() {
  static Profile* p = new Profile;  // never destroyed: CUPTI may deliver buffers during exit
  return *p;
}

constexpr std::size_t kBufferBytes = 16u << 20;

// CUPTI's failures on stderr: a profile that records nothing must say why.
void check(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "cupti_kernel_profile: %s: %s\n", what, text ? text : "?");
}

std::uint64_t buffers_completed = 0;  // under Profile::lock

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

const char* copy_kind(std::uint8_t kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "copy host->device";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "copy device->host";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "copy device->device";
    default: return "copy other";
  }
}

// Kernel names arrive mangled; templates make them long, so the table shows the first 220 characters.
std::string readable(const char* mangled) {
  if (!mangled) return "?";
  int status = 0;
  char* plain = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && plain ? plain : mangled;
  std::free(plain);
  return name.size() > 220 ? name.substr(0, 220) + "..." : name;
}

void add_gpu(Profile& p, bool kernel, const std::string& name, std::uint64_t start, std::uint64_t end,
             std::uint64_t bytes) {
  const auto [it, added] = p.ids.emplace(name, int(p.names.size()));
  if (added) p.names.push_back(name);
  p.records.push_back(Record{it->second, kernel, start, end, bytes});
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  Profile& p = profile();
  std::lock_guard<std::mutex> guard(p.lock);
  ++buffers_completed;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      case CUPTI_ACTIVITY_KIND_KERNEL: {
        const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
        add_gpu(p, true, readable(k->name), k->start, k->end, 0);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const auto* c = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
        add_gpu(p, false, copy_kind(c->copyKind), c->start, c->end, c->bytes);
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        const auto* m = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
        add_gpu(p, false, "memset", m->start, m->end, m->bytes);
        break;
      }
      case CUPTI_ACTIVITY_KIND_RUNTIME:
      case CUPTI_ACTIVITY_KIND_DRIVER: {
        // lqcd links the CUDA runtime statically, whose calls CUPTI may not see: the driver calls under
        // them are recorded too
        const auto* a = reinterpret_cast<const CUpti_ActivityAPI*>(record);
        const char* name = nullptr;
        cuptiGetCallbackName(record->kind == CUPTI_ACTIVITY_KIND_RUNTIME ? CUPTI_CB_DOMAIN_RUNTIME_API
                                                                         : CUPTI_CB_DOMAIN_DRIVER_API,
                             a->cbid, &name);
        const std::string n = name ? name : "?";
        // Only the calls that can wait for the GPU: their host time is what the GPU's idle gaps cost.
        if (n.find("Synchronize") != std::string::npos || n.find("Memcpy") != std::string::npos ||
            n.find("Query") != std::string::npos || n.find("Free") != std::string::npos ||
            n.find("Malloc") != std::string::npos) {
          Totals& t = p.waits[n];
          ++t.count;
          t.ns += a->end - a->start;
          t.own += a->end - a->start;  // host time: no overlap to take out
        }
        break;
      }
      default:
        break;
    }
  }
  std::free(buffer);
}

// The GPU's busy time (the union of the activities' intervals) and the span from the first start to the
// last end.
// The idle gaps between busy stretches by length: many gaps of a few microseconds are launch latency
// (kernels queued one after another too short to hide it), long ones are the host waiting on the GPU.
constexpr std::uint64_t kGapEdgesNs[] = {2000, 5000, 20000, 100000, 1000000};
constexpr int kGapBuckets = 6;
struct Gaps {
  std::uint64_t count[kGapBuckets] = {}, ns[kGapBuckets] = {};
};

void record_gap(Gaps& gaps, std::uint64_t ns) {
  int b = 0;
  while (b < kGapBuckets - 1 && ns >= kGapEdgesNs[b]) ++b;
  ++gaps.count[b];
  gaps.ns[b] += ns;
}

std::pair<std::uint64_t, std::uint64_t> busy_and_span(const std::vector<Record>& records, Gaps& gaps) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> v;
  for (const Record& r : records) v.emplace_back(r.start, r.end);
  if (v.empty()) return {0, 0};
  std::sort(v.begin(), v.end());
  std::uint64_t busy = 0, cur_start = v[0].first, cur_end = v[0].second, last = v[0].second;
  for (const auto& [s, e] : v) {
    last = std::max(last, e);
    if (s > cur_end) {
      record_gap(gaps, s - cur_end);
      busy += cur_end - cur_start;
      cur_start = s;
      cur_end = e;
    } else {
      cur_end = std::max(cur_end, e);
    }
  }
  busy += cur_end - cur_start;
  return {busy, last - v[0].first};
}

void write_table(std::FILE* f, const char* title, const std::map<std::string, Totals>& m, std::uint64_t all_ns) {
  std::vector<std::pair<std::string, Totals>> rows(m.begin(), m.end());
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.own != b.second.own ? a.second.own > b.second.own : a.second.ns > b.second.ns;
  });
  std::fprintf(f, "\n%s\n%12s %12s %12s %10s %7s %14s  %s\n", title, "count", "own ms", "total ms", "own us",
               "share", "bytes", "name");
  for (const auto& [name, t] : rows)
    std::fprintf(f, "%12llu %12.3f %12.3f %10.2f %6.1f%% %14llu  %s\n", static_cast<unsigned long long>(t.count),
                 double(t.own) * 1e-6, double(t.ns) * 1e-6, t.count ? double(t.own) * 1e-3 / double(t.count) : 0.0,
                 all_ns ? 100.0 * double(t.own) / double(all_ns) : 0.0, static_cast<unsigned long long>(t.bytes),
                 name.c_str());
}

void write_profile_file();

// cudaProfilerStart opens a window, cudaProfilerStop closes it (timestamps on CUPTI's clock, as the records'),
// seen as runtime calls or, where the runtime is linked statically, as the driver's cuProfilerStart/Stop
// under them (whichever comes first opens or closes; the other finds it done). At each stop the records
// so far are flushed and the table written, so that a run whose exit tears CUDA down before this
// library's destructor still leaves one.
void CUPTIAPI on_api_call(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  const auto* info = static_cast<const CUpti_CallbackData*>(data);
  if (info->callbackSite != CUPTI_API_EXIT) return;
  const bool start = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000
                                                           : cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart;
  std::uint64_t now = 0;
  cuptiGetTimestamp(&now);
  bool closed = false;
  {
    Profile& p = profile();
    std::lock_guard<std::mutex> guard(p.lock);
    const bool open = !p.windows.empty() && p.windows.back().second == UINT64_MAX;
    if (start && !open) p.windows.emplace_back(now, UINT64_MAX);
    if (!start && open) {
      p.windows.back().second = now;
      closed = true;
    }
  }
  if (closed) {
    check(cuptiActivityFlushAll(0), "cuptiActivityFlushAll at cudaProfilerStop");
    write_profile_file();
  }
}

void start_profile() {
  CUpti_SubscriberHandle subscriber;
  const CUptiResult subscribed = cuptiSubscribe(&subscriber, reinterpret_cast<CUpti_CallbackFunc>(on_api_call), nullptr);
  check(subscribed, "cuptiSubscribe");
  if (subscribed == CUPTI_SUCCESS) {
    check(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000),
          "callback cudaProfilerStart");
    check(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000),
          "callback cudaProfilerStop");
    check(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart),
          "callback cuProfilerStart");
    check(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop),
          "callback cuProfilerStop");
  }
  check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "enable CONCURRENT_KERNEL");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "enable MEMCPY");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "enable MEMSET");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), "enable RUNTIME");
  check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DRIVER), "enable DRIVER");
}

// The table of the records so far, into $LQCD_KERNEL_PROFILE (rewritten each time) or stderr; where the
// program marked windows, also the whole run's table, windows included, into $LQCD_KERNEL_PROFILE.whole
// (the setup and the rest are the whole less the windows).
void write_profile_table(std::FILE* f, const Profile& p, bool whole) {
  const auto inside = [&](std::uint64_t t) {
    if (whole || p.windows.empty()) return true;
    for (const auto& [b, e] : p.windows)
      if (t >= b && t < e) return true;
    return false;
  };
  std::vector<Record> window;
  for (const Record& r : p.records)
    if (inside(r.start)) window.push_back(r);
  std::sort(window.begin(), window.end(), [](const Record& a, const Record& b) { return a.start < b.start; });
  std::map<std::string, Totals> kernels, copies;
  std::uint64_t kernel_ns = 0, last_end = 0;
  for (const Record& r : window) {
    Totals& t = (r.kernel ? kernels : copies)[p.names[std::size_t(r.name)]];
    ++t.count;
    t.ns += r.end - r.start;
    t.bytes += r.bytes;
    const std::uint64_t own = r.end > std::max(r.start, last_end) ? r.end - std::max(r.start, last_end) : 0;
    t.own += own;
    last_end = std::max(last_end, r.end);
    if (r.kernel) kernel_ns += own;
  }
  Gaps gaps;
  const auto [busy, span] = busy_and_span(window, gaps);
  std::fprintf(f, "GPU activities in %zu marked windows (0: the whole run): span %.3f ms, busy %.3f ms (%.1f%%), "
               "idle %.1f%%; kernels' own time %.3f ms in %zu activities\n",
               whole ? std::size_t(0) : p.windows.size(), double(span) * 1e-6, double(busy) * 1e-6,
               span ? 100.0 * double(busy) / double(span) : 0.0,
               span ? 100.0 - 100.0 * double(busy) / double(span) : 0.0, double(kernel_ns) * 1e-6, window.size());
  std::fprintf(f, "\nidle gaps between busy stretches\n%12s %12s %12s\n", "length", "count", "total ms");
  const char* labels[kGapBuckets] = {"< 2 us", "2-5 us", "5-20 us", "20-100 us", "0.1-1 ms", ">= 1 ms"};
  for (int b = 0; b < kGapBuckets; ++b)
    std::fprintf(f, "%12s %12llu %12.3f\n", labels[b], static_cast<unsigned long long>(gaps.count[b]),
                 double(gaps.ns[b]) * 1e-6);
  write_table(f, "kernels", kernels, kernel_ns);
  write_table(f, "copies and memsets", copies, kernel_ns);
  write_table(f, "runtime calls that may wait (host time, whole run)", p.waits, kernel_ns);
  std::size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped);
  std::fprintf(f, "\n%llu CUPTI buffers, %zu records in all, %zu dropped\n",
               static_cast<unsigned long long>(buffers_completed), p.records.size(), dropped);
}

void write_profile_file() {
  Profile& p = profile();
  std::lock_guard<std::mutex> guard(p.lock);
  const char* path = std::getenv("LQCD_KERNEL_PROFILE");
  std::FILE* f = path ? std::fopen(path, "w") : stderr;
  if (!f) f = stderr;
  write_profile_table(f, p, false);
  if (f != stderr) std::fclose(f);
  if (!path || p.windows.empty()) return;
  const std::string whole_path = std::string(path) + ".whole";
  if (std::FILE* w = std::fopen(whole_path.c_str(), "w")) {
    write_profile_table(w, p, true);
    std::fclose(w);
  }
}

__attribute__((destructor)) void write_profile() {
  check(cuptiActivityFlushAll(1), "cuptiActivityFlushAll at exit");
  write_profile_file();
}

}  // namespace

// The CUDA driver loads the library named by CUDA_INJECTION64_PATH when it initialises and calls this:
// CUPTI is then set up by the driver itself, whatever runtime the program links (lqcd links it
// statically; loaded with LD_PRELOAD instead, the library recorded nothing on the H100, 2026-12-05/06).
extern "C" int InitializeInjection(void) {
  start_profile();
  return 1;
}
