#!/usr/bin/env bash
# Installs the Debian packages lqcd builds with, if any is missing (Debian 12 or newer; Ubuntu 22.04+).
# Uses sudo when not run as root. The CUDA backend additionally needs the CUDA toolkit (nvcc), which
# is not a Debian-main package: install it from NVIDIA if you want GPU support; without it the CPU
# backend is built.
set -euo pipefail
packages=(g++ cmake ninja-build libtomlplusplus-dev libcli11-dev libfmt-dev nlohmann-json3-dev libgtest-dev libhdf5-dev libfftw3-dev python3
          libopenmpi-dev openmpi-bin
          python3-numpy python3-scipy python3-h5py python3-matplotlib python3-pytest)  # lqcd.analysis (python/)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
