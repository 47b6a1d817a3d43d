#pragma once
// Input values several commands read the same way, checked once: the lattice extents and the format
// of saved configurations.

#include <string>

#include "app/config.hpp"
#include "core/geometry.hpp"

namespace lqcd::app {

// An integer in [lo, hi] / a finite positive number (errors name the key and the range).
std::int64_t read_integer(const Config& c, const std::string& key, std::int64_t lo, std::int64_t hi);
double read_positive(const Config& c, const std::string& key);

// lattice.dims: four even extents in [2, 4096] (errors name the key).
Dims read_lattice_dims(const Config& c);

// output.format (ildg | nersc | openqcd) and output.precision (32 | 64; openqcd 64 only).
struct SavedFormat {
  std::string format;
  int precision = 64;
};
SavedFormat read_saved_format(const Config& c);

}  // namespace lqcd::app
