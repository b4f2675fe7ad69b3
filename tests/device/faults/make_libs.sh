#!/usr/bin/env bash
# Builds the broken libraries of the loader faults into DIR (needs a C compiler, cc):
#   DIR/empty/<cudart soname>   an empty file named like the CUDA runtime (a failed copy, a truncated download)
#   DIR/garbage/libnccl.so.2    a text file named like NCCL (a README saved over it, an HTML error page from wget)
#   DIR/oldnccl/libnccl.so.2    a real ELF library of that name that has none of NCCL's functions (an old NCCL)
#   DIR/ext_dep/myops_ext.so    an extension whose companion libmyops_cuda.so.1 is not on the search path
#   DIR/ext_glibcxx/fused_ops.so  an extension built against a newer libstdc++ (needs GLIBCXX_3.4.99)
#   DIR/ext_abi/flash_ops.so    an extension built against another torch (the pre-C++11-ABI torchCheckFail)
#   DIR/oldstdcxx/libstdc++.so.6  an old libstdc++ (GLIBCXX_3.4 ... 3.4.19 only), as an old conda env's lib/ holds
#   DIR/nodriver/libcuda.so.1   an empty file named like the driver library (a broken copy in a folder on the path)
# Usage: make_libs.sh DIR CUDART_SONAME      Prints one line per library: made / not made (why).
set -u
dir=$1 cudart=${2:-libcudart.so.13}
cc=${CC:-cc}
mkdir -p "$dir"/{empty,garbage,oldnccl,ext_dep,ext_glibcxx,ext_abi,oldstdcxx,nodriver,src}
: >"$dir/empty/$cudart" && echo "made: empty/$cudart"
: >"$dir/nodriver/libcuda.so.1" && echo "made: nodriver/libcuda.so.1"
printf '<html><body>404 Not Found</body></html>\n' >"$dir/garbage/libnccl.so.2" && echo "made: garbage/libnccl.so.2"
if ! command -v "$cc" >/dev/null; then
    echo "not made: oldnccl, ext_dep, ext_glibcxx (no C compiler: $cc)"
    exit 0
fi
s=$dir/src
cat >"$s/oldnccl.c" <<'C'
int ncclGetVersion(int* version) { *version = 2403; return 0; }
C
"$cc" -shared -fPIC -Wl,-soname,libnccl.so.2 -o "$dir/oldnccl/libnccl.so.2" "$s/oldnccl.c" \
    && echo "made: oldnccl/libnccl.so.2" || echo "not made: oldnccl/libnccl.so.2 (cc failed)"
cat >"$s/myops.c" <<'C'
int myops_launch(int n) { return n + 1; }
C
cat >"$s/myops_ext.c" <<'C'
extern int myops_launch(int n);
void* PyInit_myops_ext(void) { return (void*)(long)myops_launch(0); }
C
mkdir -p "$s/deplib"
"$cc" -shared -fPIC -Wl,-soname,libmyops_cuda.so.1 -o "$s/deplib/libmyops_cuda.so.1" "$s/myops.c" \
    && "$cc" -shared -fPIC -o "$dir/ext_dep/myops_ext.so" "$s/myops_ext.c" "$s/deplib/libmyops_cuda.so.1" \
    && echo "made: ext_dep/myops_ext.so (needs libmyops_cuda.so.1, left out)" || echo "not made: ext_dep (cc failed)"
# A stand-in libstdc++.so.6 that defines a symbol in version node GLIBCXX_3.4.99, used only at link time: the
# extension then records that it needs GLIBCXX_3.4.99 from libstdc++.so.6, which the real one lacks.
cat >"$s/stdcxx.map" <<'M'
GLIBCXX_3.4.99 { global: _ZSt28__stackscope_newer_runtime_fnv; };
M
cat >"$s/stdcxx.c" <<'C'
void _ZSt28__stackscope_newer_runtime_fnv(void) {}
C
cat >"$s/fused_ops.c" <<'C'
extern void _ZSt28__stackscope_newer_runtime_fnv(void);
void* PyInit_fused_ops(void) { _ZSt28__stackscope_newer_runtime_fnv(); return 0; }
C
mkdir -p "$s/newstdcxx"
"$cc" -shared -fPIC -Wl,-soname,libstdc++.so.6 -Wl,--version-script="$s/stdcxx.map" -o "$s/newstdcxx/libstdc++.so.6" "$s/stdcxx.c" \
    && "$cc" -shared -fPIC -o "$dir/ext_glibcxx/fused_ops.so" "$s/fused_ops.c" "$s/newstdcxx/libstdc++.so.6" \
    && echo "made: ext_glibcxx/fused_ops.so (needs GLIBCXX_3.4.99)" || echo "not made: ext_glibcxx (cc failed)"
# An extension compiled against another torch: it calls a c10 function (mangled C++ name) that this torch does not
# export; Python opens extensions with RTLD_NOW, so the import fails with "undefined symbol".
cat >"$s/flash_ops.c" <<'C'
extern void _ZN3c106detail14torchCheckFailEPKcS2_jRKSs(void);
void* PyInit_flash_ops(void) { _ZN3c106detail14torchCheckFailEPKcS2_jRKSs(); return 0; }
C
"$cc" -shared -fPIC -o "$dir/ext_abi/flash_ops.so" "$s/flash_ops.c" \
    && echo "made: ext_abi/flash_ops.so (undefined c10 symbol)" || echo "not made: ext_abi (cc failed)"
# An old libstdc++.so.6: the version nodes of GCC 4.8's (GLIBCXX_3.4 ... 3.4.19, CXXABI_1.3 ... 1.3.7), one dummy
# symbol each; whatever needs a newer GLIBCXX fails to load when it is found first.
{
    echo "GLIBCXX_3.4 { global: _ZN10stackscope4old0Ev; local: *; };"
    prev=GLIBCXX_3.4
    for i in $(seq 1 19); do echo "GLIBCXX_3.4.$i { global: _ZN10stackscope4old${i}Ev; } $prev;"; prev=GLIBCXX_3.4.$i; done
    echo "CXXABI_1.3 { global: _ZN10stackscope4abi0Ev; };"
    prev=CXXABI_1.3
    for i in $(seq 1 7); do echo "CXXABI_1.3.$i { global: _ZN10stackscope4abi${i}Ev; } $prev;"; prev=CXXABI_1.3.$i; done
} >"$s/oldstdcxx.map"
{
    for i in $(seq 0 19); do echo "void _ZN10stackscope4old${i}Ev(void) {}"; done
    for i in $(seq 0 7); do echo "void _ZN10stackscope4abi${i}Ev(void) {}"; done
} >"$s/oldstdcxx.c"
"$cc" -shared -fPIC -Wl,-soname,libstdc++.so.6 -Wl,--version-script="$s/oldstdcxx.map" -o "$dir/oldstdcxx/libstdc++.so.6" \
    "$s/oldstdcxx.c" && echo "made: oldstdcxx/libstdc++.so.6 (GLIBCXX up to 3.4.19)" || echo "not made: oldstdcxx (cc failed)"
exit 0
