#!/usr/bin/env bash
# A CUDA 12.4 nvcc for compile-only checks (scripts/arch-check.sh --cuda12,
# CTest nvcc12.arch_check): nvcc -c works, nothing links or runs. Installed,
# never system-wide, into a cache folder outside the source tree:
#   - nvcc, cudafe++, cicc, ptxas, fatbinary: Debian 13's non-free
#     nvidia-cuda-toolkit 12.4.1 (one .deb, about 87 MB), fetched by apt-get
#     with an apt folder of its own and unpacked with dpkg-deb -x;
#   - the headers (cuda_runtime.h, crt/, CUB, libcu++): NVIDIA's PyPI wheels
#     nvidia-cuda-runtime-cu12, nvidia-cuda-nvcc-cu12 and nvidia-cuda-cccl-cu12
#     12.4 (about 26 MB), fetched by pip download.
# NVIDIA's cu12 nvcc wheels alone are not enough: they hold ptxas and libnvvm,
# not nvcc, cudafe++ or cicc. CUDA 12.4 knows sm_50 to sm_90a, not sm_120.
#
#   scripts/cuda12.sh            install if missing (idempotent); prints the nvcc
#   scripts/cuda12.sh --print    prints the installed nvcc's path, or exits 1
#
# SIMTLAB_CUDA12_DIR: where (default ${XDG_CACHE_HOME:-~/.cache}/simtlab/cuda-12.4).
# SIMTLAB_DEBIAN_MIRROR: the Debian mirror (default http://deb.debian.org/debian).
set -euo pipefail

dir=${SIMTLAB_CUDA12_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/simtlab/cuda-12.4}
nvcc=$dir/bin/nvcc
stamp=$dir/.simtlab-cuda12

installed() { [ -f "$stamp" ] && [ -x "$nvcc" ] && "$nvcc" --version >/dev/null 2>&1; }

if [ "${1:-}" = --print ]; then
  installed && { echo "$nvcc"; exit 0; }
  exit 1
fi

fail() {
  echo "simtlab: cuda12: $*" >&2
  exit 1
}

if installed; then
  echo "simtlab: cuda12: already installed: $nvcc ($(cat "$stamp"))"
  exit 0
fi

[ "$(uname -m)" = x86_64 ] || fail "the CUDA 12 nvcc is installed for x86_64 only, not $(uname -m)"
for tool in apt-get dpkg-deb python3 timeout; do
  command -v "$tool" >/dev/null 2>&1 || fail "needs $tool (a Debian or Ubuntu machine with python3)"
done
python3 -m pip --version >/dev/null 2>&1 || fail "needs pip: apt-get install python3-pip"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -r "$keyring" ] || fail "needs Debian's archive keys to check the .deb: apt-get install debian-archive-keyring"
mirror=${SIMTLAB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ -e "$dir" ] && [ ! -e "$dir/bin/nvcc.profile" ] && [ -n "$(ls -A "$dir")" ]; then
  fail "$dir exists and is not a CUDA 12 nvcc this script installed; move it away or set SIMTLAB_CUDA12_DIR"
fi

start=$SECONDS
mkdir -p "$(dirname "$dir")"
work=$(mktemp -d "$(dirname "$dir")/.cuda12-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
echo "simtlab: cuda12: installing CUDA 12.4 nvcc (compile only) into $dir"

# 1. The toolkit .deb from Debian 13 (trixie) non-free, with an apt folder of
# its own: the machine's sources, lists and dpkg state are not touched.
mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/debs"
echo "deb [signed-by=$keyring] $mirror trixie non-free" >"$work/apt/sources.list"
: >"$work/apt/status"
apt_opts=(-q -o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/nonexistent
          -o Dir::Etc::Preferences=/dev/null -o Dir::Etc::PreferencesParts=/nonexistent
          -o "Dir::State::Lists=$work/apt/lists" -o "Dir::State::status=$work/apt/status"
          -o "Dir::Cache=$work/apt/cache" -o APT::Architecture=amd64 -o APT::Architectures=amd64
          -o Acquire::Languages=none -o Acquire::http::Timeout=30 -o Acquire::Retries=2
          -o "APT::Sandbox::User=$(id -un)")
echo "simtlab: cuda12: apt-get update (Debian trixie non-free, private lists)"
timeout 300 apt-get "${apt_opts[@]}" update >"$work/apt.log" 2>&1 ||
  { tail -n 5 "$work/apt.log" >&2; fail "apt-get update of $mirror trixie non-free failed or timed out"; }
ls "$work/apt/lists"/*_Packages* >/dev/null 2>&1 ||
  { grep -E '^(W|E):' "$work/apt.log" | head -n 5 >&2; fail "apt-get update could not fetch $mirror trixie non-free"; }
version=$( (apt-cache "${apt_opts[@]}" show nvidia-cuda-toolkit 2>/dev/null || true) | sed -n 's/^Version: //p' | head -n 1)
case "$version" in
  12.4.*) ;;
  "") fail "Debian trixie non-free ($mirror) has no nvidia-cuda-toolkit" ;;
  *) fail "Debian trixie's nvidia-cuda-toolkit is $version, not the 12.4 this script unpacks" ;;
esac
echo "simtlab: cuda12: apt-get download nvidia-cuda-toolkit $version (about 87 MB)"
(cd "$work/debs" && timeout 600 apt-get "${apt_opts[@]}" download "nvidia-cuda-toolkit=$version") \
  >>"$work/apt.log" 2>&1 || { tail -n 5 "$work/apt.log" >&2; fail "apt-get download nvidia-cuda-toolkit failed or timed out"; }
dpkg-deb -x "$work"/debs/nvidia-cuda-toolkit_*.deb "$work/deb" || fail "dpkg-deb -x failed"

# 2. The headers, from NVIDIA's wheels of the same release.
echo "simtlab: cuda12: pip download nvidia-cuda-runtime-cu12, nvidia-cuda-nvcc-cu12, nvidia-cuda-cccl-cu12 12.4.* (about 26 MB)"
timeout 600 python3 -m pip download -q --no-deps --only-binary=:all: --timeout 30 --retries 2 -d "$work/wheels" \
  "nvidia-cuda-runtime-cu12==12.4.*" "nvidia-cuda-nvcc-cu12==12.4.*" "nvidia-cuda-cccl-cu12==12.4.*" \
  >"$work/pip.log" 2>&1 || { tail -n 5 "$work/pip.log" >&2; fail "pip download of the CUDA 12.4 header wheels failed or timed out"; }
python3 - "$work/wheels" "$work/whl" <<'EOF' || fail "could not unpack the wheels"
import pathlib, sys, zipfile
for w in sorted(pathlib.Path(sys.argv[1]).glob("*.whl")):
    zipfile.ZipFile(w).extractall(sys.argv[2])
EOF

# 3. A CUDA-like tree: bin/ (nvcc finds its tools and nvcc.profile beside
# itself), nvvm/libdevice, include/.
new=$work/cuda
tk=$work/deb/usr/lib/nvidia-cuda-toolkit
mkdir -p "$new/bin/crt" "$new/nvvm/libdevice" "$new/include"
cp "$tk/bin/nvcc" "$tk/bin/cicc" "$new/bin/"
cp "$tk"/bin/crt/*.stub "$new/bin/crt/"
cp "$work/deb/usr/bin/cudafe++" "$work/deb/usr/bin/ptxas" "$work/deb/usr/bin/fatbinary" \
   "$work/deb/usr/bin/bin2c" "$new/bin/"
cp "$tk/libdevice/libdevice.10.bc" "$new/nvvm/libdevice/"
# Debian's gcc/g++ wrappers: the newest g++ that CUDA 12.4 supports (13 down
# to 6), so that a machine whose default g++ is 14 still works with g++-13.
cp "$tk/bin/gcc" "$tk/bin/g++" "$new/bin/"
for part in cuda_runtime cuda_nvcc cuda_cccl; do
  [ -d "$work/whl/nvidia/$part/include" ] || fail "the $part wheel has no include/"
  cp -R "$work/whl/nvidia/$part/include/." "$new/include/"
done
find "$new/include" -name __init__.py -delete
cat >"$new/bin/nvcc.profile" <<'EOF'
TOP                = $(_HERE_)/..
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice
PATH              += $(_HERE_):
INCLUDES          += "-I$(TOP)/include" $(_SPACE_)
EOF

# 4. It compiles a kernel (for sm_75), or nothing is installed; where there is
# no host compiler yet (deps.sh installs g++ after this), it is only run.
if "$new/bin/g++" --version >/dev/null 2>&1; then
  cat >"$work/smoke.cu" <<'EOF'
#include <cuda_runtime.h>
#include <cub/device/device_reduce.cuh>
__global__ void smoke(float *x) { x[threadIdx.x] += 1.0f; }
EOF
  "$new/bin/nvcc" -c -arch=sm_75 "$work/smoke.cu" -o "$work/smoke.o" >"$work/smoke.log" 2>&1 ||
    { sed -n 1,10p "$work/smoke.log" >&2; fail "the unpacked nvcc 12.4 could not compile a test kernel"; }
else
  "$new/bin/nvcc" --version >/dev/null 2>&1 || fail "the unpacked nvcc 12.4 does not run"
  echo "simtlab: cuda12: no g++ that CUDA 12.4 supports (13 down to 6) yet: not test-compiled"
fi
release=$("$new/bin/nvcc" --version | sed -n 's/.*release \([0-9.]*\), V\([0-9.]*\).*/\2/p')
echo "nvcc $release (Debian nvidia-cuda-toolkit $version; headers from the 12.4 wheels)" >"$new/.simtlab-cuda12"

rm -rf "$dir" # nothing, or a broken or partial install of ours (checked above)
mv "$new" "$dir"
echo "simtlab: cuda12: installed nvcc $release in $((SECONDS - start)) s ($(du -sm "$dir" | cut -f1) MB): $nvcc"
