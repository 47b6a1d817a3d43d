# Sourced by the *_on_ranks.sh tests: a command on N ranks, and JSON output of two runs compared number by
# number.

# Needs $lqcd and $mpiexec from the sourcing script.
on() {  # NP GRID COMMAND...: one process without mpiexec, else NP ranks with --grid GRID
  local np=$1 grid=$2
  shift 2
  if [ "$np" = 1 ]; then "$lqcd" "$@"
  else "$mpiexec" -np "$np" --oversubscribe "$lqcd" "$@" --grid "$grid"; fi
}

# Splits JSON into one token per line (keys, numbers, strings, null) for a numerical comparison.
tokens() { tr -s '{}[],:' '\n\n\n\n\n\n' <"$1" | sed '/^$/d'; }
# same A B TOL: every token equal, numbers to TOL relative to the larger of the two.
same() {
  paste -d' ' <(tokens "$1") <(tokens "$2") | awk -v tol="$3" '
    NF != 2 { bad = 1; print "token count differs"; exit }
    {
      num = "^-?[0-9.]+([eE][-+]?[0-9]+)?$"
      if ($1 ~ num && $2 ~ num) {
        d = $1 - $2; if (d < 0) d = -d
        s = $1 < 0 ? -$1 : $1; t = $2 < 0 ? -$2 : $2; if (t > s) s = t
        if (d > tol * s) { bad = 1; print "differs: " $1 " vs " $2 }
      } else if ($1 != $2) { bad = 1; print "differs: " $1 " vs " $2 }
    }
    END { exit bad }'
}
