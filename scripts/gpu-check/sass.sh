if has sass; then
  # Registers, stack and the SASS opcode histogram of every Wilson hopping kernel (issue 4's notes: no
  # spills, the width of the global loads, the conversion instructions).
  obj=build-gpu/CMakeFiles/lqcd_lib.dir/src/dirac/dirac_kernels.cu.o
  export PATH=/usr/local/cuda/bin:$PATH
  if command -v cuobjdump >/dev/null; then
    cuobjdump -res-usage "$obj" 2>&1 | grep -A1 WilsonHopping >"$out/sass.txt"
    for k in $(cuobjdump -sass "$obj" | grep -oE "Function : \S*WilsonHoppingKernel\S*" | awk '{print $3}'); do
      echo "== $k" >>"$out/sass.txt"
      cuobjdump -sass -fun "$k" "$obj" | grep -oE "^\s+/\*[0-9a-f]+\*/\s+(@!?P[0-9T] )?[A-Z0-9._]+" |
        awk '{print $NF}' | sort | uniq -c | sort -rn | head -40 >>"$out/sass.txt"
    done
    note "sass: $(grep -c '^==' "$out/sass.txt") kernels in sass.txt"
  else
    note "sass: no cuobjdump on this machine"
  fi
fi
