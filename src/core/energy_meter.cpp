#include "core/energy_meter.hpp"

#include <chrono>
#include <cstdlib>
#include <string_view>

#include <dlfcn.h>

#include <fmt/format.h>

#if LQCD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace lqcd {

// NVML's C interface, declared here so that neither its header nor its library is needed at build
// time: nvmlReturn_t is a C enum (int; NVML_SUCCESS = 0), nvmlDevice_t an opaque pointer.
struct EnergyMeter::Nvml {
  using Return = int;
  using Device = void*;
  void* library = nullptr;
  Return (*init)() = nullptr;                                          // nvmlInit_v2
  Return (*shutdown)() = nullptr;                                      // nvmlShutdown
  Return (*handle_by_bus_id)(const char*, Device*) = nullptr;          // nvmlDeviceGetHandleByPciBusId_v2
  Return (*total_energy)(Device, unsigned long long*) = nullptr;       // nvmlDeviceGetTotalEnergyConsumption
  const char* (*error_string)(Return) = nullptr;                       // nvmlErrorString
  Device device = nullptr;
  bool initialised = false;

  std::string error(Return r) const {
    const char* s = error_string ? error_string(r) : nullptr;
    return s ? std::string(s) : fmt::format("NVML error {}", r);
  }
  ~Nvml() {
    if (initialised) shutdown();
    if (library) dlclose(library);
  }
};

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The entry point `name` of `library` into `fn`; false when it is missing.
template <typename Fn>
bool symbol(void* library, const char* name, Fn& fn) {
  fn = reinterpret_cast<Fn>(dlsym(library, name));
  return fn != nullptr;
}

}  // namespace

std::string EnergyMeter::library_name() {
  const char* env = std::getenv("LQCD_NVML_LIBRARY");
  return env && *env ? std::string(env) : std::string("libnvidia-ml.so.1");
}

EnergyMeter::EnergyMeter(Location loc) : EnergyMeter(loc, library_name()) {}

EnergyMeter::EnergyMeter(Location loc, const std::string& library) {
  try {
    open(loc, library);
  } catch (const std::exception& e) {  // fmt or allocation: a meter never stops a benchmark
    reason_ = e.what();
  }
  if (!reason_.empty()) {
    delete nvml_;
    nvml_ = nullptr;
    bus_id_.clear();
  }
}

EnergyMeter::~EnergyMeter() { delete nvml_; }

void EnergyMeter::open(Location loc, const std::string& library) {
  if (loc == Location::Host) {
    reason_ = "the benchmark runs on the CPU; NVML measures GPUs only";
    return;
  }
  nvml_ = new Nvml;
  nvml_->library = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!nvml_->library) {
    const char* err = dlerror();
    const std::string_view detail = err ? err : "";
    // "No such file" is the common case (no driver, a CPU machine): the short form says all.
    reason_ = detail.empty() || detail.find("No such file") != std::string_view::npos
                  ? fmt::format("{} not found", library)
                  : fmt::format("{} could not be loaded: {}", library, detail);
    return;
  }
  Nvml& n = *nvml_;
  for (const auto& [ok, name] :
       {std::pair{symbol(n.library, "nvmlInit_v2", n.init), "nvmlInit_v2"},
        std::pair{symbol(n.library, "nvmlShutdown", n.shutdown), "nvmlShutdown"},
        std::pair{symbol(n.library, "nvmlDeviceGetHandleByPciBusId_v2", n.handle_by_bus_id),
                  "nvmlDeviceGetHandleByPciBusId_v2"},
        std::pair{symbol(n.library, "nvmlDeviceGetTotalEnergyConsumption", n.total_energy),
                  "nvmlDeviceGetTotalEnergyConsumption"},
        std::pair{symbol(n.library, "nvmlErrorString", n.error_string), "nvmlErrorString"}})
    if (!ok) {
      reason_ = fmt::format("{} has no {} (not NVML, or too old)", library, name);
      return;
    }
  if (const Nvml::Return r = n.init(); r != 0) {
    reason_ = fmt::format("NVML did not start: {}", n.error(r));
    return;
  }
  n.initialised = true;
#if LQCD_HAVE_CUDA
  int dev = 0;
  if (const cudaError_t e = cudaGetDevice(&dev); e != cudaSuccess) {
    reason_ = fmt::format("no CUDA device ({})", cudaGetErrorString(e));
    return;
  }
  char bus_id[32] = {};
  if (const cudaError_t e = cudaDeviceGetPCIBusId(bus_id, int(sizeof bus_id), dev); e != cudaSuccess) {
    reason_ = fmt::format("the PCI bus id of CUDA device {} is unknown ({})", dev, cudaGetErrorString(e));
    return;
  }
  bus_id_ = bus_id;
  if (const Nvml::Return r = n.handle_by_bus_id(bus_id_.c_str(), &n.device); r != 0) {
    reason_ = fmt::format("NVML does not know the GPU at PCI bus id {}: {}", bus_id_, n.error(r));
    return;
  }
  // One reading now, so that a GPU without the counter (before Volta, some virtual GPUs) is reported
  // before the benchmark rather than as a failure after it.
  unsigned long long mj = 0;
  std::string error;
  if (!read(mj, error)) reason_ = error;
#else
  reason_ = "this build has no CUDA backend";
#endif
}

bool EnergyMeter::read(unsigned long long& millijoules, std::string& error) const {
  if (!nvml_) {
    error = reason_.empty() ? "no energy meter" : reason_;
    return false;
  }
  if (const Nvml::Return r = nvml_->total_energy(nvml_->device, &millijoules); r != 0) {
    error = fmt::format("the energy counter of GPU {} is not readable: {}", bus_id_, nvml_->error(r));
    return false;
  }
  return true;
}

void EnergyMeter::start() {
  std::string error;
  started_ = available() && read(start_millijoules_, error);
  start_seconds_ = now_seconds();
}

EnergyReading EnergyMeter::stop() {
  EnergyReading reading;
  const double end_seconds = now_seconds();
  unsigned long long end_millijoules = 0;
  try {
    if (!available()) {
      reading.unavailable_reason = reason_;
    } else if (!started_) {
      reading.unavailable_reason = "the energy counter was not read at the start of the region";
    } else if (!read(end_millijoules, reading.unavailable_reason)) {
      // the reason is set
    } else if (end_millijoules < start_millijoules_) {
      reading.unavailable_reason = "the energy counter went backwards (driver reloaded?)";
    } else {
      reading.available = true;
      reading.joules = double(end_millijoules - start_millijoules_) * 1e-3;
      reading.seconds = end_seconds - start_seconds_;
    }
  } catch (const std::exception& e) {
    reading = EnergyReading{};
    reading.unavailable_reason = e.what();
  }
  started_ = false;
  return reading;
}

}  // namespace lqcd
