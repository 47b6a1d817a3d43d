// toml++ (Debian's libtomlplusplus-dev headers) compiled into lqcd itself, in this one translation unit
// (toml++'s TOML_IMPLEMENTATION mode; every other file sees its declarations, TOML_HEADER_ONLY=0), instead
// of linking the system's libtomlplusplus.so: the parser is built by the same compiler and flags as the
// rest of lqcd, and neither lqcd nor liblqcd_capi.so (loaded into other programs, such as Python) needs
// the shared library at run time.
#define TOML_IMPLEMENTATION
#include <toml++/toml.h>
