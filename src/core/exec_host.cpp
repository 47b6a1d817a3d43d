#include "core/exec_host.hpp"

#include <cstdlib>
#include <cstring>

namespace lqcd {

bool cores_are_shared() {
  static const bool dynamic = [] {
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    return policy != nullptr && (std::strcmp(policy, "passive") == 0 || std::strcmp(policy, "PASSIVE") == 0);
  }();
  return dynamic;
}

}  // namespace lqcd
