#!/usr/bin/env python3
"""python/lqcd/analysis/static_potential.py (standard library only), loaded as a top-level module so that python3 needs no NumPy."""
import pathlib, sys  # noqa: E401
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python" / "lqcd" / "analysis"))
sys.exit(__import__("static_potential").main())
