if has python; then  # issues 31 and 47: lqcd.core in the machine's own Python (a venv with NumPy 2.5, SciPy, CuPy,
  # torch wheels) with no LD_PRELOAD: the whole of tests/python, the CuPy view of a device field included, and
  # lqcd.core loaded after every wheel library the venv has (the order that crashed before issue 47).
  start=$(date +%s)
  # pytest travels as Debian's pure-Python packages in .deps (bash ../shared/gpu/fetch-debs.sh python3-pytest
  # python3-pluggy python3-iniconfig python3-packaging python3-attr python3-py python3-exceptiongroup
  # python3-tomli python3-more-itertools), unpacked to /opt/deps by the build stage.
  export LQCD=$PWD/build-gpu/lqcd LQCD_LIBRARY=$PWD/build-gpu/liblqcd_capi.so LQCD_TESTDATA=$PWD/.gpu-testdata \
    PYTHONPATH=$PWD/python:/opt/deps/usr/lib/python3/dist-packages PYTEST_DISABLE_PLUGIN_AUTOLOAD=1  # the venv's own pytest plugins need a newer pytest
  {
    echo "== python: $(command -v python3) $(python3 -V 2>&1)"
    python3 - <<'PY'
import importlib
for m in ("numpy", "scipy", "h5py", "matplotlib", "cupy", "torch", "pytest"):
    try:
        mod = importlib.import_module(m)
        print(f"   {m} {getattr(mod, '__version__', '?')} {getattr(mod, '__file__', '')}")
    except Exception as e:
        print(f"   {m}: not importable ({type(e).__name__}: {e})")
PY
    echo "== exported symbols: $(nm -D --defined-only "$LQCD_LIBRARY" | wc -l), not lqcd_*: $(nm -D --defined-only "$LQCD_LIBRARY" | awk '{print $NF}' | grep -vc '^lqcd_')"
    echo "== ldd:"; ldd "$LQCD_LIBRARY" | sed 's/^/   /'
    echo "== every wheel first, then lqcd.core: an HMC trajectory and a clover solve"
    python3 - <<'PY'
import importlib, os, sys
loaded = []
for m in ("numpy", "scipy", "scipy.linalg", "h5py", "matplotlib.pyplot", "cupy", "torch"):
    try:
        importlib.import_module(m); loaded.append(m)
    except Exception:
        pass
print("   imported first:", " ".join(loaded))
sys.path.insert(0, "tests/python")
import numpy as np
import lqcd.core as lq
u = lq.load(os.path.join(os.environ["LQCD_TESTDATA"], "milc_l8888_b6.0.milc"))
print("   plaquette", u.plaquette())
import test_core_gauge as t
x, its, res = lq.dirac_solve(u, t.random_spinor(u.dims, 3), {"action": "clover", "kappa": 0.12, "csw": 1.0})
print("   clover solve:", its, "iterations, residual", res)
hmc = lq.Hmc(t.HMC_TOML)
v = lq.unit((4, 4, 4, 4))
print("   HMC trajectory:", hmc.trajectory(v, 0, metropolis=False))
PY
    echo "   exit $?"
  } >"$out/python-env.log" 2>&1
  if python3 -c "import pytest" 2>/dev/null; then
    python3 -m pytest -q -p no:cacheprovider -rs tests/python >"$out/python.log" 2>&1
  else
    echo "no pytest in this Python (carry the .deps of the comment above)" >"$out/python.log"; false
  fi
  note "python (tests/python, no LD_PRELOAD): exit $?: $(tail -1 "$out/python.log")"
  note "python: $(( $(date +%s) - start )) s"
fi
