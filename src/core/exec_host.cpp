#include "core/exec_host.hpp"

#include <cstdlib>
#include <strings.h>

namespace lqcd {

bool cores_are_shared() {
  static const bool dynamic = [] {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    return policy != nullptr && ::strcasecmp(policy, "passive") == 0;  // as libgomp reads it
  }();
  return dynamic;
}

}  // namespace lqcd
