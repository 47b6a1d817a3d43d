#!/usr/bin/env python3
"""Fails when a file under src/ includes a layer above its own (docs/design.md, "Layers"), or a kernel
header that its layer must reach through an interface (FORBIDDEN below).

Each layer may include the layers listed for it and itself; anything else is an include pointing up the
map (or sideways between siblings such as io and gauge) and is printed as FILE:LINE with the rule it
breaks. math and core are one level: math's headers take core/macros.hpp (host/device markers), core
takes math's types. Run by ctest (test `layer_map`) and so by CI.

  python3 scripts/check_layers.py [SRC_DIR]
"""
import pathlib
import re
import sys

# What each layer may include besides itself, lowest first. Keep this table and docs/design.md's map as one.
ALLOWED = {
    "math": {"core"},
    "core": {"math"},
    "comm": {"core", "math"},
    "fields": {"comm", "core", "math"},
    "io": {"fields", "comm", "core", "math"},
    "gauge": {"fields", "comm", "core", "math"},
    "dirac": {"gauge", "fields", "comm", "core", "math"},
    "solvers": {"dirac", "gauge", "fields", "comm", "core", "math"},
    "measure": {"solvers", "dirac", "gauge", "io", "fields", "comm", "core", "math"},
    "hmc": {"solvers", "dirac", "gauge", "io", "fields", "comm", "core", "math"},
    "app": {"hmc", "measure", "solvers", "dirac", "gauge", "io", "fields", "comm", "core", "math"},
    "bindings": {"app", "hmc", "measure", "solvers", "dirac", "gauge", "io", "fields", "comm", "core", "math"},
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/([^"]*)"')
# Headers a layer may not include although their layer is below it: kernel internals, so that the layer
# goes through the public operators and interfaces (issue 48). (layer, pattern on "layer/path", why)
FORBIDDEN = [
    ("app", re.compile(r".*_kernels\.hpp$|dirac/face_exchange\.hpp$"),
     "app/ drives the public operators and solvers, not kernel headers or the face exchange"),
    ("bindings", re.compile(r".*_kernels\.hpp$|dirac/face_exchange\.hpp$"),
     "the bindings drive the public operators and solvers, not kernel headers or the face exchange"),
    ("solvers", re.compile(r"dirac/.*_kernels\.hpp$"),
     "solvers/ reaches the Dirac operators through their interfaces (dirac/linear_operator.hpp, "
     "dirac/block_operator.hpp, dirac/hopping_part.hpp), not their kernels"),
]


def violations(src: pathlib.Path):
    for path in sorted(src.rglob("*")):
        if path.suffix not in {".hpp", ".cpp", ".cu", ".cuh", ".h"}:
            continue
        layer = path.relative_to(src).parts[0]
        if layer not in ALLOWED:
            yield f"{path}: the folder src/{layer} is not in the layer map (scripts/check_layers.py, docs/design.md)"
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            m = INCLUDE.match(line)
            if not m:
                continue
            if m.group(1) != layer and m.group(1) not in ALLOWED[layer]:
                yield (f"{path}:{number}: {layer}/ includes {m.group(1)}/, which it may not "
                       f"(it may include: {', '.join(sorted(ALLOWED[layer]))})")
            for rule_layer, pattern, why in FORBIDDEN:
                header = f"{m.group(1)}/{m.group(2)}"
                if rule_layer == layer and pattern.match(header):
                    yield f"{path}:{number}: includes {header}: {why}"


def main() -> int:
    src = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parents[1] / "src")
    if not src.is_dir():
        print(f"check_layers: {src} is not a directory (expected the source tree's src/)", file=sys.stderr)
        return 2
    found = list(violations(src))
    for v in found:
        print(v, file=sys.stderr)
    if found:
        print(f"check_layers: {len(found)} include(s) point up the layer map", file=sys.stderr)
        return 1
    print(f"check_layers: every include under {src} follows the layer map")
    return 0


if __name__ == "__main__":
    sys.exit(main())
