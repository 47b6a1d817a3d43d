#pragma once
#include <string>

namespace lqcd::app {
// "lqcd 0.1.0 (CUDA backend: yes|no)"
std::string version_string();
}  // namespace lqcd::app
