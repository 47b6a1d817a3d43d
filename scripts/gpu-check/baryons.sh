if has baryons; then
  # Issue 49 on the GPU: the baryons of lqcd spectrum (with a strange quark) and lqcd loops on the MILC 8^4
  # beta = 6.0 configuration, clover kappa = 0.1330 (strange 0.1320), c_sw = 1.769, solved on the GPU in
  # double, in mixed single precision and by the multigrid (12 sources in one block), against the CPU in
  # double: the largest relative difference of every baryon correlator and every loop (OUT/baryons.txt).
  mkdir -p runs/gpu-check/baryons
  base=runs/gpu-check/baryons/in
  sed -e "s|\.\./shared/testdata|.gpu-testdata|" -e "s|^prefix = .*|prefix = \"runs/gpu-check/baryons/RUN\"|" \
    examples/spectrum_clover_k0.1330_milc8888.toml >"$base.toml"
  printf '[spectrum]\nstrange_kappa = 0.1320\n' >>"$base.toml"
  for run in "cpu double bicgstab" "gpu double bicgstab" "gpu single bicgstab" "gpu single multigrid"; do
    set -- $run
    name=$1.$2.$3
    extra=""
    [ "$3" = multigrid ] && extra="multi_rhs = true"
    sed -e "s|RUN|$name|" -e "s|^type = \"bicgstab\"|type = \"$3\"\nprecision = \"$2\"\n$extra|" "$base.toml" >"$base.$name.toml"
    start=$(date +%s%N)
    "$bin" spectrum "$base.$name.toml" --device "$1" --json >"runs/gpu-check/baryons/$name.json" 2>>"$summary"
    note "baryons spectrum $name: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
    # The loops: 2 Z4 vectors, spin-colour diluted, at rest and moving, with the hopping-parameter expansion
    # to order 4 (its probing on the GPU's operator).
    sed -e "s|^\[spectrum\]|[loops]\nvectors = 2\nhopping_expansion = 4\nmomenta = [[0, 0, 0], [1, 0, 0]]|" -e "/^strange_kappa/d" \
      -e "s|baryons/$name\"|baryons/loops.$name\"|" "$base.$name.toml" | grep -v multi_rhs >"$base.loops.$name.toml"
    start=$(date +%s%N)
    "$bin" loops "$base.loops.$name.toml" --device "$1" --json >"runs/gpu-check/baryons/loops.$name.json" 2>>"$summary"
    note "baryons loops $name: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
  done
  python3 - runs/gpu-check/baryons >"$out/baryons.txt" 2>&1 <<'PY'
import json, sys, os
d = sys.argv[1]
def load(n):
    with open(os.path.join(d, n)) as f:
        return json.loads(f.read())
ref, lref = load("cpu.double.bicgstab.json"), load("loops.cpu.double.bicgstab.json")
for name in ["gpu.double.bicgstab", "gpu.single.bicgstab", "gpu.single.multigrid"]:
    got, lgot = load(name + ".json"), load("loops." + name + ".json")
    for b in ["nucleon", "delta", "lambda", "sigma", "xi", "omega", "pion"]:
        for key in [b, b + "_negative_parity"]:
            if key not in ref["correlators"]:
                continue
            r, g = ref["correlators"][key], got["correlators"][key]
            scale = max(abs(x) for x in r)
            print(f"{name} {key}: max |gpu - cpu| / max |cpu| = {max(abs(a - c) for a, c in zip(g, r)) / scale:.2e}")
    for gam, v in lref["loops"].items():
        r, g = v["re"], lgot["loops"][gam]["re"]
        scale = max(abs(x) for x in r)
        print(f"{name} loop {gam} (re, p = 0): max |gpu - cpu| / max |cpu| = {max(abs(a - c) for a, c in zip(g, r)) / scale:.2e}")
    print(f"{name}: m_eff nucleon t=2..4 {got['effective_masses']['nucleon'][2:5]}, omega {got['effective_masses']['omega'][2:5]}")
PY
  note "baryons: comparison in baryons.txt ($(wc -l <"$out/baryons.txt") lines)"
fi
