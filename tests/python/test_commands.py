"""lqcd analyse and lqcd plot (issue 31): the lqcd program's way to the Python analysis of a run. The report
equals lqcd.analysis's own numbers for the same history; the plots are written next to the run; a missing
run, a bad option or a missing interpreter is one error line and exit status 1."""
import os
import re
import subprocess
import sys

import pytest

from lqcd.analysis import analyse_run, read_jsonl

pytestmark = pytest.mark.skipif("LQCD" not in os.environ, reason="needs LQCD=path/to/lqcd (set by ctest)")


def lqcd(args, cwd, **env):
    e = dict(os.environ, LQCD_PYTHON=os.environ.get("LQCD_PYTHON") or sys.executable, OMP_NUM_THREADS="1")
    e.update(env)
    return subprocess.run([os.environ["LQCD"], *args], cwd=cwd, env=e, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("run")
    (d / "hb.toml").write_text('[lattice]\ndims = [4, 4, 4, 4]\n[heatbath]\nthermalization = 5\nsweeps = 60\n'
                               'overrelaxation = 1\n[output]\nprefix = "hb"\n')
    r = lqcd(["heatbath", "hb.toml", "--quiet", "--device", "cpu"], d)
    assert r.returncode == 0, r.stderr
    return d


def test_analyse_reports_the_analysis_numbers(run):
    r = lqcd(["analyse", "hb"], run)
    assert r.returncode == 0, r.stderr
    want = analyse_run(read_jsonl(str(run / "hb.jsonl")), None)["plaquette"]
    m = re.search(r"^\s*plaquette\s+([0-9.]+) \+- ([0-9.e-]+)\s+tau_int = ([0-9.]+)", r.stdout, flags=re.M)
    assert m, r.stdout
    assert float(m.group(1)) == pytest.approx(want.value, rel=1e-9)
    assert float(m.group(2)) == pytest.approx(want.error, rel=1e-2)
    assert float(m.group(3)) == pytest.approx(want.tau_int, rel=1e-2)
    assert lqcd(["analyse", "hb.jsonl", "--therm", "10"], run).returncode == 0


def test_plot_writes_the_plots_next_to_the_run(run):
    r = lqcd(["plot", "hb", "--format", "pdf"], run)
    assert r.returncode == 0, r.stderr
    for kind in ("history", "autocorrelation"):
        data = (run / f"hb.plaquette.{kind}.pdf").read_bytes()
        assert data.startswith(b"%PDF") and len(data) > 1000


@pytest.mark.parametrize("args,env,names", [
    (["analyse", "nothing"], {}, "nothing"),
    (["plot", "hb", "--format", "gif"], {}, "--format"),
    (["analyse", "hb"], {"LQCD_PYTHON": "/no/such/python3"}, "LQCD_PYTHON"),
])
def test_bad_input_is_one_error_line(run, args, env, names):
    r = lqcd(args, run, **env)
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("lqcd: error:") and names in lines[0], r.stderr
