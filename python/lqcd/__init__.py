"""lqcd from Python: analysis of lqcd's outputs (lqcd.analysis).

Pure Python with NumPy and SciPy from Debian (python3-numpy, python3-scipy); h5py (python3-h5py) for
HDF5 files. Importable from the source tree (PYTHONPATH=python) or from an installed lqcd.
"""
