#pragma once
#include <string>

#include "core/memory.hpp"

namespace lqcd::app {
// --device auto|cpu|gpu: auto takes the GPU when this build has CUDA and a device is present.
// Throws lqcd::Error for gpu without one, or for an unknown value.
Location choose_location(const std::string& device);
}  // namespace lqcd::app
