if has htile; then
  # The one-RHS hopping term's t-tiled visiting order (dirac/visiting_order.hpp): tiles forced with
  # LQCD_HOPPING_T_TILE against the default choice, at 32^4 and 48^4.
  : >"$out/htile.jsonl"
  for d in 32 48; do
    env_sweep "$out/htile.jsonl" LQCD_HOPPING_T_TILE $d,$d,$d,$d "double:12 single:12" "1 2 4 8 default" --repetitions 100
  done
  note "one-RHS t-tile benchmarks: $(wc -l <"$out/htile.jsonl") results"
fi
