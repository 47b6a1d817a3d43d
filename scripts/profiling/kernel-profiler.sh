# Sourced by the GPU scripts: the CUPTI kernel profiler (scripts/profiling/cupti_kernel_profile.cpp) built once
# into build-gpu/, and a command run under it.
#   kernel_profiler_build LOG          # builds build-gpu/libkernel_profile.so (its output appended to LOG)
#   kernel_profiler_run FILE CMD...    # CMD with the profiler injected; the kernel table written to FILE
kernel_profiler_cuda() { dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")"; }
kernel_profiler_build() {
  local cuda
  cuda=$(kernel_profiler_cuda)
  [ -e build-gpu/libkernel_profile.so ] && return 0
  g++ -std=c++17 -shared -fPIC -O2 -I"$cuda/include" -I"$cuda/extras/CUPTI/include" scripts/profiling/cupti_kernel_profile.cpp \
    -L"$cuda/lib64" -L"$cuda/extras/CUPTI/lib64" -lcupti -o build-gpu/libkernel_profile.so >>"${1:-/dev/null}" 2>&1
}
kernel_profiler_run() {
  local file=$1 cuda
  shift
  cuda=$(kernel_profiler_cuda)
  LD_LIBRARY_PATH="$cuda/extras/CUPTI/lib64:$cuda/lib64:${LD_LIBRARY_PATH:-}" CUDA_INJECTION64_PATH="$PWD/build-gpu/libkernel_profile.so" \
    LQCD_KERNEL_PROFILE="$file" "$@"
}
