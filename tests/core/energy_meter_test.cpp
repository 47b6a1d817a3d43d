// The GPU energy meter (NVML loaded at run time) where no GPU is needed: without NVML, or without
// the entry points it needs, or on the CPU, it reports why and never throws; and the arithmetic of
// its readings (watts, GFLOPS per watt).
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "core/energy_meter.hpp"
#include "test_support.hpp"

namespace lqcd {
namespace {

using test::ScopedEnv;

void expect_unavailable(EnergyMeter& meter, const std::string& reason_part) {
  EXPECT_FALSE(meter.available());
  EXPECT_NE(meter.unavailable_reason().find(reason_part), std::string::npos) << meter.unavailable_reason();
  EXPECT_TRUE(meter.pci_bus_id().empty());
  // start() and stop() are harmless and give an unavailable reading with the same reason.
  meter.start();
  const EnergyReading r = meter.stop();
  EXPECT_FALSE(r.available);
  EXPECT_EQ(r.unavailable_reason, meter.unavailable_reason());
  EXPECT_EQ(r.joules, 0);
  EXPECT_EQ(r.watts(), 0);
  EXPECT_EQ(r.gflops_per_watt(100.0), 0);
}

TEST(EnergyMeter, TheLibraryNameComesFromTheEnvironment) {
  {
    const ScopedEnv env("LQCD_NVML_LIBRARY", "/opt/nvml/libnvidia-ml.so.1");
    EXPECT_EQ(EnergyMeter::library_name(), "/opt/nvml/libnvidia-ml.so.1");
  }
  const ScopedEnv env("LQCD_NVML_LIBRARY", "");  // empty: the default
  EXPECT_EQ(EnergyMeter::library_name(), "libnvidia-ml.so.1");
}

TEST(EnergyMeter, AMissingLibraryIsReportedByName) {
  const ScopedEnv env("LQCD_NVML_LIBRARY", "/nonexistent/libnvidia-ml.so.1");
  EXPECT_NO_THROW({
    EnergyMeter meter(Location::Device);
    expect_unavailable(meter, "/nonexistent/libnvidia-ml.so.1 not found");
  });
  EXPECT_NO_THROW({
    EnergyMeter meter(Location::Device, "libnvidia-ml-missing.so.0");
    expect_unavailable(meter, "libnvidia-ml-missing.so.0 not found");
  });
}

TEST(EnergyMeter, ALibraryWithoutTheNvmlEntryPointsIsRefused) {
  // The C math library loads but is not NVML.
  EXPECT_NO_THROW({
    EnergyMeter meter(Location::Device, "libm.so.6");
    expect_unavailable(meter, "libm.so.6 has no nvmlInit_v2");
  });
}

TEST(EnergyMeter, ACpuRunMeasuresNothing) {
  EXPECT_NO_THROW({
    EnergyMeter meter(Location::Host);
    expect_unavailable(meter, "CPU");
  });
}

TEST(EnergyMeter, TheDefaultLibraryNeverThrows) {
  // Whatever this machine has (no driver, a driver without a GPU, a GPU): no exception, and a reason
  // whenever there is no reading.
  EXPECT_NO_THROW({
    EnergyMeter meter(Location::Device);
    if (!meter.available()) {
      EXPECT_FALSE(meter.unavailable_reason().empty());
    }
    meter.start();
    const EnergyReading r = meter.stop();
    if (r.available) {
      EXPECT_GE(r.joules, 0);
    } else {
      EXPECT_FALSE(r.unavailable_reason.empty());
    }
  });
}

TEST(EnergyMeter, WattsAndGflopsPerWatt) {
  EnergyReading r;
  r.available = true;
  r.joules = 250.0;
  r.seconds = 2.5;
  EXPECT_DOUBLE_EQ(r.watts(), 100.0);
  // 1500 GFLOPS at 100 W: 15 GFLOPS/W, i.e. 15e9 FLOP per joule.
  EXPECT_DOUBLE_EQ(r.gflops_per_watt(1500.0), 15.0);
  // No time or no power: no figure rather than infinity.
  r.seconds = 0;
  EXPECT_EQ(r.watts(), 0);
  EXPECT_EQ(r.gflops_per_watt(1500.0), 0);
  r.seconds = 1;
  r.joules = 0;
  EXPECT_EQ(r.gflops_per_watt(1500.0), 0);
  // An unavailable reading has no figures whatever its numbers.
  r.joules = 10;
  r.available = false;
  EXPECT_EQ(r.watts(), 0);
  EXPECT_EQ(r.gflops_per_watt(1500.0), 0);
}

}  // namespace
}  // namespace lqcd
