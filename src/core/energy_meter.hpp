#pragma once
// The energy a GPU draws during a timed region, from NVML's total-energy counter
// (nvmlDeviceGetTotalEnergyConsumption: millijoules since the driver was loaded; Volta and newer).
//
// NVML is loaded at run time (dlopen of libnvidia-ml.so.1, or the file named by the environment
// variable LQCD_NVML_LIBRARY), so the program has no link-time dependency on the driver and the CPU
// build needs nothing: where NVML or the counter is missing the meter says why and measures nothing.
// Nothing here throws.
//
// The counter advances in steps of about 20-100 ms (the driver's sampling period), so a reading is only
// meaningful over a region of a second or so: the caller repeats short regions (see lqcd bench).
// The device work must be complete (synchronised) before start() and before stop().

#include <string>

#include "core/memory.hpp"

namespace lqcd {

// Energy over one region: joules and the seconds they were drawn in, or why there is no reading.
struct EnergyReading {
  bool available = false;
  std::string unavailable_reason;  // set when !available: "libnvidia-ml.so.1 not found", ...
  double joules = 0;
  double seconds = 0;

  // Average power (W = J/s); 0 without a reading.
  double watts() const { return available && seconds > 0 ? joules / seconds : 0; }
  // Efficiency of a rate of `gflops` sustained over the region: GFLOPS / W (= 1e9 FLOP per joule);
  // 0 without a reading or without power.
  double gflops_per_watt(double gflops) const {
    const double w = watts();
    return w > 0 ? gflops / w : 0;
  }
};

class EnergyMeter {
 public:
  // The NVML library that is loaded: LQCD_NVML_LIBRARY when set and not empty, else libnvidia-ml.so.1.
  static std::string library_name();

  // A meter of the CUDA device this process uses (the current device, found in NVML by its PCI bus id,
  // so the right GPU is read whatever CUDA_VISIBLE_DEVICES does to the ordinals). Location::Host (a
  // CPU run) measures nothing. `library` overrides library_name().
  explicit EnergyMeter(Location loc);
  EnergyMeter(Location loc, const std::string& library);
  ~EnergyMeter();
  EnergyMeter(const EnergyMeter&) = delete;
  EnergyMeter& operator=(const EnergyMeter&) = delete;

  bool available() const { return nvml_ != nullptr; }
  // Why there are no readings ("" when available()).
  const std::string& unavailable_reason() const { return reason_; }
  // The PCI bus id of the measured GPU ("0000:3B:00.0"; "" when unavailable).
  const std::string& pci_bus_id() const { return bus_id_; }

  // Reads the counter and the clock; stop() returns the energy and time since the last start().
  // A stop() without a start(), or a counter that fails in between, gives an unavailable reading.
  void start();
  EnergyReading stop();

 private:
  struct Nvml;  // the loaded library and its entry points
  Nvml* nvml_ = nullptr;
  std::string reason_;
  std::string bus_id_;
  bool started_ = false;
  unsigned long long start_millijoules_ = 0;
  double start_seconds_ = 0;

  void open(Location loc, const std::string& library);
  bool read(unsigned long long& millijoules, std::string& error) const;
};

}  // namespace lqcd
