#!/usr/bin/env bash
# Writes the stackscope-cli(1) man page from the program's own --help (help2man), with one section
# per command, so the page never drifts from the program. Run by the build (packaging/CMakeLists.txt).
# Usage: man-page.sh STACKSCOPE_CLI OUT.1 [MODULE_DIR]   (MODULE_DIR relative to the prefix, e.g. lib/stackscope)
set -euo pipefail
cli=${1:?usage: man-page.sh STACKSCOPE_CLI OUT.1 [MODULE_DIR]}
out=${2:?usage: man-page.sh STACKSCOPE_CLI OUT.1 [MODULE_DIR]}
module_dir=${3:-lib/stackscope}
command -v help2man >/dev/null || { echo "man-page.sh: help2man is missing; install it (apt-get install help2man) and build again" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Text from --help is preformatted: escape what roff would read as requests or escapes.
roff_escape() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }

# Commands as CLI11 lists them ("Subcommands:", or "SUBCOMMANDS:" in CLI11 2.x); internal ones (the probe child) are left out.
"$cli" --help > "$work/help.txt"
mapfile -t commands < <(awk 'toupper($0) ~ /^SUBCOMMANDS:/{on=1; next} on && /^[^ ]/{on=0} on && /^  [a-z]/{ if ($2 != "Internal:") print $1 }' "$work/help.txt")
if [ "${#commands[@]}" -eq 0 ]; then
  echo "man-page.sh: found no commands under SUBCOMMANDS in '$cli --help'; has the help format changed? Fix the awk pattern in packaging/man-page.sh" >&2
  exit 1
fi

{
  echo "[COMMANDS]"
  for c in "${commands[@]}"; do
    echo ".SS $c"
    echo ".nf"
    "$cli" "$c" --help | roff_escape
    echo ".fi"
  done
  cat <<SECTIONS
[EXIT STATUS]
0 success, 1 a failed check (a probe that is not ok, a device an architecture scan does not cover),
2 bad usage or input (the message on standard error says what to give instead).
[ENVIRONMENT]
.TP
.B STACKSCOPE_TORCH_MODULE
The libtorch module to load instead of the installed one, for example one built against the
PyTorch wheel you train with.
.TP
.B STACKSCOPE_MODULE_DIR
A folder searched first for StackScope's run-time modules.
.TP
.BR STACKSCOPE_HIP_LIBRARY ", " STACKSCOPE_ROCM_SMI_LIBRARY ", " STACKSCOPE_NVML_LIBRARY ", " STACKSCOPE_CUDART_LIBRARY
Vendor libraries to load instead of searching
.IR \$ROCM_PATH/lib ,
.I /opt/rocm/lib
and the system loader's path.
[FILES]
.TP
.I <prefix>/$module_dir/
the run-time modules (libtorch, HIP and CUDA kernels), found relative to the program's own folder.
SECTIONS
} > "$work/include.h2m"

# The page footer holds the bare version; the build options (`--version`'s parenthesis) would not fit.
version=$("$cli" --version | awk 'NR == 1 {print $2}')
help2man --no-info --no-discard-stderr --section=1 --version-string="$version" \
  --name="inspect, probe and use a PyTorch GPU stack (ROCm or CUDA) from the command line" \
  --include="$work/include.h2m" --output="$work/page.1" "$cli"
mv "$work/page.1" "$out"
