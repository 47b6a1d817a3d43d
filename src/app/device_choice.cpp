#include "app/device_choice.hpp"

#include "core/error.hpp"

namespace lqcd::app {

Location choose_location(const std::string& device) {
  if (device == "cpu") return Location::Host;
  if (device == "gpu") {
    if (!device_available()) fail("--device gpu: no GPU can be used ({})", device_description());
    return Location::Device;
  }
  if (device == "auto") return device_available() ? Location::Device : Location::Host;
  fail("--device: expected auto, cpu or gpu (got \"{}\")", device);
}

}  // namespace lqcd::app
