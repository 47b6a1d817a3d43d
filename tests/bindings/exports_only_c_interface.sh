#!/usr/bin/env bash
# liblqcd_capi.so exports the C interface of src/bindings/c_api.hpp and nothing else (issue 47): every
# defined dynamic symbol is an lqcd_* function, every function the header declares is among them, and
# the library itself does not need the process's libstdc++ (its own is linked in).
#   exports_only_c_interface.sh LIBRARY HEADER
set -euo pipefail
lib=$1 header=$2
defined=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u)
others=$(grep -v '^lqcd_' <<<"$defined" || true)
if [ -n "$others" ]; then
  echo "FAIL: $lib exports $(wc -l <<<"$others") symbols besides the C interface, e.g.:" >&2
  head -5 <<<"$others" >&2
  exit 1
fi
declared=$(grep -oE '^[a-z_ *]+[ *](lqcd_[a-z0-9_]+)\(' "$header" | grep -oE 'lqcd_[a-z0-9_]+' | sort -u)
[ -n "$declared" ] || { echo "FAIL: no functions found in $header" >&2; exit 1; }
missing=$(comm -23 <(echo "$declared") <(echo "$defined"))
if [ -n "$missing" ]; then
  echo "FAIL: declared in $header but not exported: $missing" >&2
  exit 1
fi
if readelf -d "$lib" | grep NEEDED | grep -q 'libstdc++'; then
  echo "FAIL: $lib needs the process's libstdc++ (it should carry its own, statically linked)" >&2
  exit 1
fi
echo "ok: $(wc -l <<<"$defined") symbols exported, all lqcd_*; the $(wc -l <<<"$declared") functions of $(basename "$header") among them"
