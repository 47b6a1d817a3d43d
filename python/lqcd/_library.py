"""Where lqcd's C interface (liblqcd_capi.so, src/bindings/c_api.hpp) is, and loading it once: for lqcd.core
and for the analysis that lqcd.analysis takes from it (lqcd.analysis.native). Standard library only.

The library: $LQCD_LIBRARY, else liblqcd_capi.so next to this file (cmake --install), else build/ of the
source tree.
"""
import ctypes
import os
from pathlib import Path

_loaded = None


def find_library():
    candidates = [os.environ.get("LQCD_LIBRARY"), Path(__file__).with_name("liblqcd_capi.so"),
                  Path(__file__).resolve().parents[2] / "build" / "liblqcd_capi.so"]
    for c in candidates:
        if c and Path(c).is_file():
            return str(c)
    raise OSError("liblqcd_capi.so not found: build lqcd (bash scripts/build.sh), set LQCD_LIBRARY, or cmake --install")


def library():
    """The loaded library (the same object for every caller)."""
    global _loaded
    if _loaded is None:
        _loaded = ctypes.CDLL(find_library())
        _loaded.lqcd_last_error.restype = ctypes.c_char_p
    return _loaded
