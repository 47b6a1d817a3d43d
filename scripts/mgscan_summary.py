#!/usr/bin/env python3
"""One line per multigrid benchmark of an mgscan.jsonl (scripts/multigrid-scan.sh): the settings, the
setup, one solve, the block solve of --rhs N with its time split (coarse solves, of which the
third-level corrections and the coarse MR steps; fine smoother; outer GCR; transfers), in seconds.
    python3 scripts/mgscan_summary.py OUT/mgscan.jsonl"""
import json
import sys

KEYS = ['settings', 'failed', 'seconds_setup', 'seconds_per_solve', 'iterations', 'seconds_block_solve',
        'block_iterations_min', 'block_iterations_max', 'block_true_residual_max',
        'block_coarse_iterations_per_cycle', 'seconds_per_block_solve_coarse_solves',
        'seconds_per_block_solve_coarsest', 'seconds_per_block_solve_coarse_smoothing',
        'seconds_per_block_solve_smoother', 'seconds_per_block_solve_outer_gcr',
        'seconds_per_block_solve_transfer', 'seconds_setup_plus_rhs_block', 'seconds_setup_test_vectors',
        'seconds_setup_coarse_operator', 'seconds_setup_cycles', 'seconds_setup_third_level']

for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get('solver') not in (None, 'multigrid') and 'multigrid' not in d:
        continue
    mg = d.get('multigrid') if isinstance(d.get('multigrid'), dict) else {}
    row = {k: (float('%.4g' % d[k]) if isinstance(d[k], float) else d[k]) for k in KEYS if k in d}
    row['levels'] = mg.get('levels')
    row['coarsest_direct'] = mg.get('coarsest_direct')
    print(row)
