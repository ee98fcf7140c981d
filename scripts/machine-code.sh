#!/usr/bin/env bash
# The machine code of a chapter's kernels, no GPU needed (chapter 03).
#
#   scripts/machine-code.sh ptx  CH [BUILD]   nvcc -ptx of kernels/CH_*.cu
#   scripts/machine-code.sh sass CH [BUILD]   their SASS (cuobjdump -sass, or
#                                             nvdisasm), then per kernel the
#                                             branch structure in numbers
#   scripts/machine-code.sh --find-tool       the SASS tool it would use
#
# make ptx CH=03 and make sass CH=03 call it. Both compile the chapter's
# sources for one architecture: ARCH=90 picks it, otherwise the first of the
# build's CMAKE_CUDA_ARCHITECTURES (BUILD, default build/), otherwise 80.
# The files stay in BUILD/machine-code/. nvcc comes from the build's cache,
# else PATH, else /usr/local/cuda/bin.
#
# SASS needs cuobjdump or nvdisasm: a full CUDA toolkit has both; a
# compiler-only one (nvcc without them) does not. Then
#   SIMTLAB_WITH_CUOBJDUMP=1 bash scripts/deps.sh
# installs NVIDIA's nvidia-cuda-cuobjdump wheel from PyPI, which this script
# also looks for.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)

find_bin() { # find_bin NAME: next to nvcc, the toolkit, PATH, then NVIDIA's PyPI wheels
  local dir
  for dir in "$(dirname "${nvcc:-/nonexistent/x}")" "${CUDA_HOME:-/usr/local/cuda}/bin" /usr/local/cuda/bin; do
    if [ -x "$dir/$1" ]; then echo "$dir/$1"; return 0; fi
  done
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return 0; fi
  # The wheels put it under site-packages/nvidia/<cu13 or cuda_*>/bin.
  command -v python3 >/dev/null 2>&1 || return 1
  python3 - "$1" <<'EOF2'
import glob, site, sys
dirs = list(site.getsitepackages()) + [site.getusersitepackages()]
for d in dirs:
    for p in sorted(glob.glob(d + "/nvidia/*/bin/" + sys.argv[1])):
        print(p)
        sys.exit(0)
sys.exit(1)
EOF2
}

# cuobjdump -sass hands the work to nvdisasm, so nvdisasm is what must exist;
# cuobjdump is used where it is there too (its listing names each kernel).
find_sass_tool() {
  local dis obj
  dis=$(find_bin nvdisasm) || return 1
  if obj=$(find_bin cuobjdump); then
    echo "$obj $dis"
  else
    echo "$dis"
  fi
}

cache_value() { # cache_value NAME: the value of NAME in the build's CMakeCache.txt, or nothing
  [ -f "$build/CMakeCache.txt" ] || return 0
  sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt" | head -n1
}

mode=${1:-}
ch=${2:-}
build=${3:-$root/build}
case "$build" in /*) ;; *) build=$root/$build ;; esac

nvcc=$(cache_value CMAKE_CUDA_COMPILER)
if [ -z "$nvcc" ] || [ ! -x "$nvcc" ]; then
  nvcc=$(command -v nvcc 2>/dev/null || true)
fi
if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc=/usr/local/cuda/bin/nvcc
fi

if [ "$mode" = --find-tool ]; then
  find_sass_tool
  exit $?
fi

if [ "$mode" != sass ] && [ "$mode" != ptx ]; then
  echo "usage: scripts/machine-code.sh sass|ptx CH [BUILD]   (make sass CH=03, make ptx CH=03)" >&2
  exit 2
fi
if ! [[ "$ch" =~ ^[0-9][0-9]$ ]]; then
  echo "simtlab: make $mode needs a chapter, two digits: make $mode CH=03" >&2
  exit 2
fi
shopt -s nullglob
sources=("$root"/kernels/"$ch"_*.cu)
if [ ${#sources[@]} -eq 0 ]; then
  echo "simtlab: chapter $ch has no kernels/${ch}_*.cu" >&2
  exit 2
fi

if [ "$(cache_value SIMTLAB_ENABLE_CUDA)" = OFF ]; then
  echo "simtlab: the CUDA backend is off in $build (SIMTLAB_ENABLE_CUDA=OFF), so there is no machine code to show." >&2
  echo "simtlab: configure a build with it on (the default where nvcc exists): cmake -S . -B build" >&2
  exit 1
fi
if [ -z "$nvcc" ]; then
  echo "simtlab: no nvcc found (not in the build's cache, PATH or /usr/local/cuda/bin)." >&2
  echo "simtlab: PTX and SASS come from nvcc; install the CUDA toolkit, or read the chapter on the emulator." >&2
  exit 1
fi

arch=${ARCH:-}
if [ -z "$arch" ]; then
  arch=$(cache_value CMAKE_CUDA_ARCHITECTURES | cut -d';' -f1 | sed 's/-.*//')
fi
case "$arch" in native | all | all-major | "") arch=80 ;; esac
arch=${arch#sm_}

# kernels/*_wgmma.cu (chapter 06's v6) exist only for sm_90a, whatever ARCH says.
arch_of() { case "$1" in *_wgmma.cu) echo 90a ;; *) echo "$arch" ;; esac; }

out=$build/machine-code
mkdir -p "$out"
# The include folders libsimtlab_cuda compiles its kernels with.
flags=(-std=c++17 -lineinfo -I"$root/kernels" -I"$root/host/include" -I"$root/host")

if [ "$mode" = ptx ]; then
  for src in "${sources[@]}"; do
    name=$(basename "$src" .cu)
    a=$(arch_of "$src")
    file=$out/$name.sm_$a.ptx
    "$nvcc" "${flags[@]}" -ptx -arch=sm_"$a" "$src" -o "$file"
    echo "// ==== $(basename "$src"): PTX for sm_$a ($file) ===="
    cat "$file"
    echo
  done
  exit 0
fi

# ---- SASS ---------------------------------------------------------------------
tools=$(find_sass_tool || true)
if [ -z "$tools" ]; then
  echo "simtlab: no nvdisasm found (next to $nvcc, in PATH or in Python's site-packages); cuobjdump -sass needs it too." >&2
  echo "simtlab: this CUDA install has the compiler but not its binary tools. To get them:" >&2
  echo "simtlab:   SIMTLAB_WITH_CUOBJDUMP=1 bash scripts/deps.sh   (NVIDIA's nvidia-cuda-cuobjdump and" >&2
  echo "simtlab:   nvidia-cuda-nvdisasm wheels from PyPI, pip --user), or the toolkit's cuda-cuobjdump and" >&2
  echo "simtlab:   cuda-nvdisasm packages. make ptx CH=$ch works without them." >&2
  exit 1
fi
read -r tool dis <<<"$tools"
if [ -n "${dis:-}" ]; then
  export NVDISASM_PATH=$(dirname "$dis") # where cuobjdump looks for nvdisasm
  export PATH=$NVDISASM_PATH:$PATH
fi
for src in "${sources[@]}"; do
  name=$(basename "$src" .cu)
  a=$(arch_of "$src")
  cubin=$out/$name.sm_$a.cubin
  sass=$out/$name.sm_$a.sass
  "$nvcc" "${flags[@]}" -cubin -arch=sm_"$a" "$src" -o "$cubin"
  case "$(basename "$tool")" in
    cuobjdump) "$tool" -sass "$cubin" >"$sass" ;;
    *) "$tool" -c "$cubin" >"$sass" ;;
  esac
  echo "// ==== $(basename "$src"): SASS for sm_$a ($(basename "$tool"); $sass) ===="
  cat "$sass"
  echo
done
# Per kernel (cuobjdump's "Function :" or nvdisasm's ".section .text.NAME"): the instructions, the branches (BRA), the divergence
# bookkeeping (BSSY opens a region where the warp may split, BSYNC waits
# for its threads to meet again), the predicated instructions (@P0 ... run
# only in the lanes whose predicate is true: a short branch without a jump)
# and the exits.
echo "==== branch structure, sm_$arch (from the SASS above) ===="
python3 - "$out" "$arch" "${sources[@]}" <<'EOF'
import os, re, shutil, subprocess, sys
out, arch, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = []
for src in sources:
    name = os.path.basename(src)[:-3]
    kernel, counts = None, None
    with open(os.path.join(out, "%s.sm_%s.sass" % (name, arch))) as f:
        for line in f:
            m = re.search(r"Function : (\S+)", line) or re.search(r"\.section\s+\.text\.([^,\s]+)", line)
            if m:
                kernel = m.group(1)
                counts = {"instr": 0, "BRA": 0, "BSSY": 0, "BSYNC": 0, "pred": 0, "EXIT": 0}
                rows.append((os.path.basename(src), kernel, counts))
                continue
            if counts is None:
                continue
            m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?);", line)
            if not m:
                continue
            ins = m.group(1).strip()
            counts["instr"] += 1
            guarded = re.match(r"@!?U?P[0-6]\s+(.*)", ins)
            if guarded:
                counts["pred"] += 1
                ins = guarded.group(1)
            op = ins.split()[0] if ins.split() else ""
            base = op.split(".")[0]
            if base in ("BRA", "BSSY", "BSYNC", "EXIT"):
                counts[base] += 1
names = [r[1] for r in rows]
readable = names
tool = shutil.which("c++filt")
if tool and names:
    res = subprocess.run([tool], input="\n".join(names) + "\n", capture_output=True, text=True).stdout.splitlines()
    if len(res) == len(names):
        readable = [re.sub(r"^void ", "", r) for r in res]
print("%-22s %6s %5s %5s %6s %10s %5s  %s" % ("file", "instr", "BRA", "BSSY", "BSYNC", "predicated", "EXIT", "kernel"))
for (src, _, c), name in zip(rows, readable):
    print("%-22s %6d %5d %5d %6d %10d %5d  %s" % (src, c["instr"], c["BRA"], c["BSSY"], c["BSYNC"], c["pred"],
                                                c["EXIT"], name))
print("instr counts every instruction slot (NOPs of the padding too); predicated: '@P0 ...' and the like,")
print("executed only by the lanes whose predicate is true; a BSSY/BSYNC pair brackets code where the warp may diverge.")
EOF
