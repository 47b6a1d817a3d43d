if has propagators; then
  # lqcd spectrum on the 32^4 beta = 6.0 configuration (the quenched stage's; made here if missing) at
  # kappa = 0.155, point source, tolerance 1e-10: the 12 solves one at a time against solver.multi_rhs,
  # in each precision (PROPAGATOR_PRECISIONS: a subset). Per run: the wall time and the 12 solve lines
  # of its log.
  conf=runs/b6.0_32x32x32x32/wilson.000600.ildg
  [ -e $conf ] || "$bin" heatbath examples/quenched_wilson_b6.0_32x32x32x32.toml --device gpu >"$out/quenched.log" 2>&1
  mkdir -p runs/gpu-check
  : >"$out/propagators.txt"
  for p in ${PROPAGATOR_PRECISIONS:-double single half}; do
    for mr in false true; do
      in=runs/gpu-check/prop.$p.$mr.toml
      rm -f runs/gpu-check/prop.$p.$mr.*
      printf '[gauge]\nconfig = "%s"\n[fermion]\nkappa = 0.155\n[solver]\nprecision = "%s"\nmulti_rhs = %s\n[output]\nprefix = "%s"\n' \
        $conf $p $mr runs/gpu-check/prop.$p.$mr >"$in"
      start=$(date +%s%N)
      "$bin" spectrum "$in" --device gpu --json >>"$out/propagators.jsonl" 2>>"$summary"
      note "spectrum 32^4 kappa 0.155 $p multi_rhs=$mr: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
      { echo "== $p multi_rhs=$mr"; grep "spin .* colour" runs/gpu-check/prop.$p.$mr.log; } >>"$out/propagators.txt"
    done
  done
fi
