#pragma once
// Creation dates written into headers (SciDAC <date>, NERSC CREATION_DATE), in QIO's form
// "Thu Apr 14 17:20:32 2022 UTC".

#include <string>

namespace lqcd::io {

std::string utc_timestamp();

}  // namespace lqcd::io
