if has build; then
  for f in .deps/*.deb; do [ -e "$f" ] && dpkg -x "$f" /opt/deps; done
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,power.limit --format=csv >"$out/nvidia-smi.csv" 2>&1
  export PATH=/usr/local/cuda/bin:$PATH
  start=$(date +%s)
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DLQCD_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DCMAKE_PREFIX_PATH=/opt/deps/usr -DCMAKE_CXX_FLAGS=-I/opt/deps/usr/include \
    -DLQCD_TESTDATA_DIR="$PWD/.gpu-testdata" >"$out/build.log" 2>&1 &&
    cmake --build build-gpu -j 16 >>"$out/build.log" 2>&1
  note "build: exit $? in $(( $(date +%s) - start )) s"
fi
bin=build-gpu/lqcd
