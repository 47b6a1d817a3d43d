#pragma once
// On/off and integer settings from environment variables (LQCD_TUNE, LQCD_PROGRAMMATIC_LAUNCH,
// LQCD_STREAM_RESIDENT): one parser, so that every such variable takes the same values and says
// the same thing when it is wrong.

#include <optional>

namespace lqcd {

// The variable `name` as a switch: unset or empty gives nullopt, "0" false, "1" true; anything else
// is an Error naming the variable and the values it takes.
std::optional<bool> switch_setting(const char* name);

// switch_setting(name), or `otherwise` where the variable is unset or empty.
inline bool switch_from_environment(const char* name, bool otherwise) {
  return switch_setting(name).value_or(otherwise);
}

// The variable `name` as an integer in [lo, hi], or `otherwise` where it is unset or empty; anything
// else is an Error naming the variable and the range.
int integer_from_environment(const char* name, int lo, int hi, int otherwise);

}  // namespace lqcd
