#!/usr/bin/env bash
# Builds and runs a corpus of real CUDA programs, unmodified, with slcc (the
# emulator's compiler wrapper), and prints one line per program:
#   PASS | CHECKED <why> | FAIL <why> | EXCLUDED <why>
# and a summary. A developer tool run by hand (the corpus is not in this
# repository): see emu/docs/compatibility.md, "Programs tried".
#
#   run_corpus.sh CORPUS_ROOT [--slcc PATH] [--work DIR] [--time-limit S]
#                 [--only REGEX] [--checked] [--results FILE] [--list]
#
# Each run writes a results file (markdown): the run's date, the command,
# one row per program (PASS, CHECKED, FAIL or EXCLUDED, with the reason) and
# the totals. A run of the whole corpus overwrites emu/tests/corpus/results.md,
# the figures the documentation cites; a run with --only writes
# WORK/results.md instead, so that a partial run never replaces them
# (--results FILE names another file). The file is written when the run
# ends; an interrupted run leaves the old one.
#
# --list prints every program with the build and run it would get, builds
# and runs nothing and writes no results (no slcc needed).
#
# Programs are built with `slcc --fast` (no memcheck or racecheck): what is
# measured here is whether they build and run, and how long the emulator
# takes, within limits chosen for that build. --checked builds them as a
# student's plain `slcc` does, with the checks (emu/docs/checks.md), to see
# what they find in real programs.
#
# CORPUS_ROOT holds checkouts of cuda-samples, llm.c and SGEMM_CUDA.
# A program passes when it builds, exits 0 within the time limit and prints
# none of its own failure words. Sizes are reduced only through a program's
# own command-line flags; programs with sizes fixed in main run at their own
# size and a timeout is a failure, except CHECKED: the program printed that
# its own verification of every configuration passed (llm.c: "All results
# match") and the limit cut only the benchmark loop after it; such programs
# are counted apart from the passes, and the summary gives both figures.
set -u
usage='usage: run_corpus.sh CORPUS_ROOT [--slcc PATH] [--work DIR] [--time-limit S] [--only REGEX] [--checked] [--results FILE] [--list]'
root=${1:?$usage}
case $root in
  -h | --help) echo "$usage"; exit 0 ;;
  -*) echo "run_corpus.sh: CORPUS_ROOT comes first, before the options (got $root)"$'\n'"$usage" >&2; exit 2 ;;
esac
[ -d "$root" ] || { echo "run_corpus.sh: CORPUS_ROOT $root is not a directory"$'\n'"$usage" >&2; exit 2; }
shift
command_line="run_corpus.sh $root $*"

here=$(cd "$(dirname "$0")" && pwd)
slcc=$here/../../../build/bin/slcc
work=${TMPDIR:-/tmp}/simtlab-corpus
limit=300
only=.
mode=--fast
results=
list=0
while [ $# -gt 0 ]; do
  case $1 in
    --slcc) slcc=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --time-limit) limit=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --checked) mode=; shift ;;
    --results) results=$2; shift 2 ;;
    --list) list=1; shift ;;
    *) echo "run_corpus.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [ $list = 0 ]; then
  [ -x "$slcc" ] || { echo "run_corpus.sh: no slcc at $slcc (build target slcc, or pass --slcc)" >&2; exit 2; }
  slcc=$(realpath "$slcc") # each program builds in its own directory: a relative path would not be found there
fi
mkdir -p "$work"
if [ -z "$results" ]; then
  if [ "$only" = . ]; then results=$here/results.md; else results=$work/results.md; fi
fi
rows=$(mktemp "$work/rows.XXXXXX")
trap 'rm -f "$rows"' EXIT
started=$(date -u '+%Y-%m-%d %H:%M UTC')
samples=$root/cuda-samples/Samples
npass=0 nfail=0 nexcl=0 nchecked=0 nlisted=0
# What a program prints once its own check of every configuration has
# passed and only its timing loop is left (llm.c's dev/cuda programs check
# every block size before they benchmark any).
checked_words='All results match'
# What a program prints when its own check fails.
fail_words='Result = FAIL|Test failed|FAILED|[Mm]ismatch|Test FAIL'

# One result: printed, and kept as a row of the results file.
line() {
  printf '%-8s %-40s %s\n' "$1" "$2" "$3"
  local why=${3//|/\\|}
  printf '| %s | %s | %s |\n' "${2//|/\\|}" "${1# }" "${why//$'\n'/ }" >>"$rows"
}

# The first error line of a build log, else its first line.
first_error() {
  { grep -m1 -E 'error|Error' "$1" || head -n1 "$1"; } | cut -c1-160
}

excluded() { # name reason
  [[ $1 =~ $only ]] || return 0
  nexcl=$((nexcl + 1))
  if [ $list = 1 ]; then printf '%-8s %-40s %s\n' EXCLUDED "$1" "$2"; else line EXCLUDED "$1" "$2"; fi
}

# try NAME DIR "SOURCES" "SLCC FLAGS" "RUN ARGS"
try() {
  local name=$1 dir=$2 srcs=$3 flags=$4 args=$5
  [[ $name =~ $only ]] || return 0
  local bin=$work/$name log=$work/$name.log
  local files=() s
  if [ -f "$dir/$srcs" ]; then files=("$dir/$srcs") # one file, whose name may have spaces
  else for s in $srcs; do files+=("$dir/$s"); done; fi
  if [ $list = 1 ]; then
    nlisted=$((nlisted + 1))
    printf '%-8s %-40s %s\n' TRY "$name" "in $dir: slcc $mode -O2 $flags $srcs; run: ./$(basename "$name") $args${expect_error:+ (expects: $expect_error)}"
    return
  fi
  mkdir -p "$(dirname "$bin")"
  # shellcheck disable=SC2086
  if ! (cd "$dir" && timeout "$limit" "$slcc" $mode -O2 $flags "${files[@]}" -o "$bin") >"$log.build" 2>&1; then
    nfail=$((nfail + 1))
    line FAIL "$name" "build: $(first_error "$log.build")"
    return
  fi
  local t0=$SECONDS rc
  # shellcheck disable=SC2086
  # line-buffered, so that what a program printed before the limit is kept
  (cd "$dir" && timeout "$limit" stdbuf -oL -eL "$bin" $args) >"$log" 2>&1 </dev/null
  rc=$?
  local secs=$((SECONDS - t0))
  if [ -n "${expect_error:-}" ]; then
    # A program written to show an error (a tutorial's error-checking
    # lesson): it passes when it fails as it would on a GPU, saying so.
    if [ $rc -ne 124 ] && grep -q -E "$expect_error" "$log"; then
      npass=$((npass + 1)); line PASS "$name" "${secs} s, the error it demonstrates: $(grep -m1 -o -E "$expect_error" "$log")"
    else
      nfail=$((nfail + 1)); line FAIL "$name" "exit $rc without the error it demonstrates ($expect_error)"
    fi
    return
  fi
  if [ $rc -eq 124 ] && grep -q -E "$checked_words" "$log" &&
     ! grep -q -E "$fail_words" "$log"; then
    # The program's own check of every kernel configuration passed and
    # printed so; the limit cut the timing loop that follows it. Counted on
    # its own, never as a pass.
    nchecked=$((nchecked + 1)); line CHECKED "$name" "its own check passed ($(grep -m1 -o -E "$checked_words" "$log")); timing loop cut at ${limit} s"
  elif [ $rc -eq 124 ]; then
    nfail=$((nfail + 1)); line FAIL "$name" "timeout: not done after ${limit} s"
  elif [ $rc -ne 0 ] || grep -q -E "$fail_words" "$log"; then
    nfail=$((nfail + 1))
    line FAIL "$name" "exit $rc: $(grep -m1 -i -E 'error|fail|mismatch|waiv|not supported' "$log" | cut -c1-160)"
  else
    npass=$((npass + 1)); line PASS "$name" "${secs} s"
  fi
}

S0=$samples/0_Introduction S2=$samples/2_Concepts_and_Techniques
S3=$samples/3_CUDA_Features S6=$samples/6_Performance
C="-I $samples/../Common"

# --- cuda-samples, 0_Introduction
try UnifiedMemoryStreams   $S0/UnifiedMemoryStreams "UnifiedMemoryStreams.cu" "$C -fopenmp -lcublas" ""
try asyncAPI               $S0/asyncAPI "asyncAPI.cu" "$C" ""
try clock                  $S0/clock "clock.cu" "$C" ""
excluded clock_nvrtc              "NVRTC (runtime compilation of CUDA source)"
try cudaOpenMP             $S0/cudaOpenMP "cudaOpenMP.cu" "$C -fopenmp" ""
try fp16ScalarProduct      $S0/fp16ScalarProduct "fp16ScalarProduct.cu" "$C" ""
try matrixMul              $S0/matrixMul "matrixMul.cu" "$C" "-wA=128 -hA=128 -wB=128 -hB=128"
excluded matrixMulDrv             "driver API (cuda.h, cuModuleLoad)"
excluded matrixMulDynlinkJIT      "driver API loaded at run time, PTX JIT"
excluded matrixMul_nvrtc          "NVRTC"
try mergeSort              $S0/mergeSort "bitonic.cu main.cpp mergeSort.cu mergeSort_host.cpp mergeSort_validate.cpp" "$C" ""
try simpleAWBarrier        $S0/simpleAWBarrier "simpleAWBarrier.cu" "$C" ""
try simpleAssert           $S0/simpleAssert "simpleAssert.cu" "$C" ""
excluded simpleAssert_nvrtc       "NVRTC"
try simpleAtomicIntrinsics $S0/simpleAtomicIntrinsics "simpleAtomicIntrinsics.cu simpleAtomicIntrinsics_cpu.cpp" "$C" ""
excluded simpleAtomicIntrinsics_nvrtc "NVRTC"
try simpleAttributes       $S0/simpleAttributes "simpleAttributes.cu" "$C" ""
excluded simpleCUDA2GL            "OpenGL interop"
try simpleCallback         $S0/simpleCallback "simpleCallback.cu multithreading.cpp" "$C -lpthread" ""
try simpleCooperativeGroups $S0/simpleCooperativeGroups "simpleCooperativeGroups.cu" "$C" ""
excluded simpleCubemapTexture     "textures"
excluded simpleDrvRuntime         "driver API (cuModuleLoad of a fatbin)"
try simpleHyperQ           $S0/simpleHyperQ "simpleHyperQ.cu" "$C" ""
excluded simpleIPC                "inter-process memory handles (cudaIpc*)"
excluded simpleLayeredTexture     "textures"
excluded simpleMPI                "MPI"
try simpleMultiCopy        $S0/simpleMultiCopy "simpleMultiCopy.cu" "$C" ""
try simpleMultiGPU         $S0/simpleMultiGPU "simpleMultiGPU.cu" "$C" ""
try simpleOccupancy        $S0/simpleOccupancy "simpleOccupancy.cu" "$C" ""
excluded simpleP2P                "peer-to-peer between two GPUs"
excluded simplePitchLinearTexture "textures"
try simplePrintf           $S0/simplePrintf "simplePrintf.cu" "$C" ""
try simpleStreams          $S0/simpleStreams "simpleStreams.cu" "$C" ""
excluded simpleSurfaceWrite       "surfaces"
try simpleTemplates        $S0/simpleTemplates "simpleTemplates.cu" "$C" ""
excluded simpleTexture            "textures"
excluded simpleTexture3D          "textures"
excluded simpleTextureDrv         "driver API modules (cuModuleLoad, cuLaunchKernel: no PTX JIT), textures"
try simpleVoteIntrinsics   $S0/simpleVoteIntrinsics "simpleVoteIntrinsics.cu" "$C" ""
try simpleZeroCopy         $S0/simpleZeroCopy "simpleZeroCopy.cu" "$C" ""
try systemWideAtomics      $S0/systemWideAtomics "systemWideAtomics.cu" "$C" ""
try template               $S0/template "template.cu template_cpu.cpp" "$C" ""
try vectorAdd              $S0/vectorAdd "vectorAdd.cu" "$C" ""
excluded vectorAddDrv             "driver API modules (cuModuleLoad of a fatbin, cuLaunchKernel: no PTX JIT)"
excluded vectorAddMMAP            "driver API virtual memory (cuMemCreate/cuMemMap)"
excluded vectorAdd_nvrtc          "NVRTC"

# --- cuda-samples, 2_Concepts_and_Techniques
excluded EGLStream_CUDA_CrossGPU  "EGL interop"
excluded EGLStream_CUDA_Interop   "EGL interop"
excluded FunctionPointers         "textures (and image files)"
for mc in MC_EstimatePiInlineP MC_EstimatePiInlineQ MC_EstimatePiP MC_EstimatePiQ MC_SingleAsianOptionP; do
  try $mc $S2/$mc "$(cd $S2/$mc 2>/dev/null && ls src/*.cu src/*.cpp | tr '\n' ' ')" "$C -I $S2/$mc/inc" ""
done
excluded boxFilter                "textures, OpenGL"
try convolutionSeparable   $S2/convolutionSeparable "convolutionSeparable.cu convolutionSeparable_gold.cpp main.cpp" "$C" ""
excluded convolutionTexture       "textures"
excluded dct8x8                   "textures"
try eigenvalues            $S2/eigenvalues "bisect_large.cu bisect_small.cu bisect_util.cu gerschgorin.cpp main.cu matlab.cpp" "$C" ""
try histogram              $S2/histogram "histogram256.cu histogram64.cu histogram_gold.cpp main.cpp" "$C" ""
excluded imageDenoising           "textures, OpenGL"
try inlinePTX              $S2/inlinePTX "inlinePTX.cu" "$C" ""
excluded inlinePTX_nvrtc          "NVRTC"
try interval               $S2/interval "interval.cu" "$C" ""
excluded particles                "OpenGL"
try radixSortThrust        $S2/radixSortThrust "radixSortThrust.cu" "$C" ""
try reduction              $S2/reduction "reduction.cpp reduction_kernel.cu" "$C" ""
try reductionMultiBlockCG  $S2/reductionMultiBlockCG "reductionMultiBlockCG.cu" "$C" ""
try scalarProd             $S2/scalarProd "scalarProd.cu scalarProd_cpu.cpp" "$C" ""
try scan                   $S2/scan "main.cpp scan.cu scan_gold.cpp" "$C" ""
try segmentationTreeThrust $S2/segmentationTreeThrust "segmentationTree.cu" "$C" ""
try shfl_scan              $S2/shfl_scan "shfl_scan.cu" "$C" ""
try sortingNetworks        $S2/sortingNetworks "bitonicSort.cu main.cpp oddEvenMergeSort.cu sortingNetworks_validate.cpp" "$C" ""
try streamOrderedAllocation $S2/streamOrderedAllocation "streamOrderedAllocation.cu" "$C" ""
excluded streamOrderedAllocationIPC "inter-process memory pools"
excluded streamOrderedAllocationP2P "peer access between two GPUs"
try threadFenceReduction   $S2/threadFenceReduction "threadFenceReduction.cu" "$C" ""
excluded threadMigration          "driver API modules (cuModuleLoad of a fatbin, cuLaunchKernel: no PTX JIT)"

# --- cuda-samples, 3_CUDA_Features
try StreamPriorities       $S3/StreamPriorities "StreamPriorities.cu" "$C" ""
try bf16TensorCoreGemm     $S3/bf16TensorCoreGemm "bf16TensorCoreGemm.cu" "$C" ""
try binaryPartitionCG      $S3/binaryPartitionCG "binaryPartitionCG.cu" "$C" ""
excluded bindlessTexture          "textures"
try cdpAdvancedQuicksort   $S3/cdpAdvancedQuicksort "cdpAdvancedQuicksort.cu cdpBitonicSort.cu" "$C" ""
try cdpBezierTessellation  $S3/cdpBezierTessellation "BezierLineCDP.cu" "$C" ""
try cdpQuadtree            $S3/cdpQuadtree "cdpQuadtree.cu" "$C" ""
try cdpSimplePrint         $S3/cdpSimplePrint "cdpSimplePrint.cu" "$C" ""
try cdpSimpleQuicksort     $S3/cdpSimpleQuicksort "cdpSimpleQuicksort.cu" "$C" ""
excluded cudaCompressibleMemory   "driver API (cuMemCreate with compression)"
try cudaTensorCoreGemm     $S3/cudaTensorCoreGemm "cudaTensorCoreGemm.cu" "$C" ""
try dmmaTensorCoreGemm     $S3/dmmaTensorCoreGemm "dmmaTensorCoreGemm.cu" "$C" ""
try globalToShmemAsyncCopy $S3/globalToShmemAsyncCopy "globalToShmemAsyncCopy.cu" "$C" "-wA=128 -hA=128 -wB=128 -hB=128"
try graphConditionalNodes  $S3/graphConditionalNodes "graphConditionalNodes.cu" "$C" ""
try graphMemoryFootprint   $S3/graphMemoryFootprint "graphMemoryFootprint.cu" "$C" ""
try graphMemoryNodes       $S3/graphMemoryNodes "graphMemoryNodes.cu" "$C" ""
try immaTensorCoreGemm     $S3/immaTensorCoreGemm "immaTensorCoreGemm.cu" "$C" ""
try jacobiCudaGraphs       $S3/jacobiCudaGraphs "jacobi.cu main.cpp" "$C" ""
excluded memMapIPCDrv             "driver API, inter-process memory"
try newdelete              $S3/newdelete "newdelete.cu" "$C" ""
excluded ptxjit                   "driver API, PTX JIT"
try simpleCudaGraphs       $S3/simpleCudaGraphs "simpleCudaGraphs.cu" "$C" ""
try tf32TensorCoreGemm     $S3/tf32TensorCoreGemm "tf32TensorCoreGemm.cu" "$C" ""
try warpAggregatedAtomicsCG $S3/warpAggregatedAtomicsCG "warpAggregatedAtomicsCG.cu" "$C" ""

# --- cuda-samples, 6_Performance
try LargeKernelParameter   $S6/LargeKernelParameter "LargeKernelParameter.cu" "$C" ""
try UnifiedMemoryPerf      $S6/UnifiedMemoryPerf "commonKernels.cu helperFunctions.cpp matrixMultiplyPerf.cu" "$C" ""
try alignedTypes           $S6/alignedTypes "alignedTypes.cu" "$C" ""
try cudaGraphsPerfScaling  $S6/cudaGraphsPerfScaling "cudaGraphPerfScaling.cu" "$C" ""
try transpose              $S6/transpose "transpose.cu" "$C" "-dimX=256 -dimY=256"

# --- llm.c dev/cuda (sizes fixed in main; default kernel)
L=$root/llm.c/dev/cuda
for f in adamw attention_backward attention_forward classifier_fused crossentropy_forward \
         crossentropy_softmax_backward encoder_backward encoder_forward fused_residual_forward \
         gelu_backward gelu_forward global_norm layernorm_backward layernorm_forward \
         matmul_backward matmul_backward_bias matmul_forward permute residual_forward \
         softmax_forward trimat_forward; do
  try llm.c/$f $L "$f.cu" "-fopenmp -lcublas -lcublasLt" ""
done
excluded llm.c/nccl_all_reduce    "NCCL and MPI across GPUs"

# --- SGEMM_CUDA (sizes 128..4096 fixed in main, 50 repeats each)
G=$root/SGEMM_CUDA
try SGEMM_CUDA/simplest_kernel $G "simplest_kernel.cu" "" ""
try SGEMM_CUDA/cuBLAS_sgemm    $G "cuBLAS_sgemm.cu" "-lcublas" ""
# The runner is one program: it counts once, as a pass only if every kernel
# finishes all its sizes. Each kernel gets a line saying up to which size its
# own check (against cuBLAS) passed within SGEMM_LIMIT seconds.
sgemm() {
  [[ SGEMM_CUDA/sgemm =~ $only ]] || return 0
  if [ $list = 1 ]; then
    nlisted=$((nlisted + 1))
    printf '%-8s %-40s %s\n' TRY SGEMM_CUDA/sgemm "in $G: slcc $mode -O2 -I src -std=c++20 sgemm.cu src/runner.cu -lcublas; run: ./sgemm K for K in 1..12, ${SGEMM_LIMIT:-60} s each"
    return
  fi
  local bin=$work/SGEMM_CUDA/sgemm k ok=1 rc sizes
  mkdir -p "$work/SGEMM_CUDA"
  # shellcheck disable=SC2086
  if ! (cd "$G" && timeout "$limit" "$slcc" $mode -O2 -I "$G/src" -std=c++20 sgemm.cu src/runner.cu -lcublas -o "$bin") >"$bin.build.log" 2>&1; then
    nfail=$((nfail + 1))
    line FAIL SGEMM_CUDA/sgemm "build: $(first_error "$bin.build.log")"
    return
  fi
  for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
    (cd "$G" && timeout "${SGEMM_LIMIT:-60}" "$bin" $k) >"$bin.$k.log" 2>&1 </dev/null
    rc=$?
    sizes=$(grep -o 'size: ([0-9]*)' "$bin.$k.log" | grep -o '[0-9]*' | tr '\n' ' ')
    if [ $rc -eq 0 ]; then
      line "  info" "SGEMM_CUDA/sgemm $k" "all sizes verified"
    else
      ok=0
      if grep -q 'Failed to pass' "$bin.$k.log"; then
        line "  info" "SGEMM_CUDA/sgemm $k" "WRONG result after sizes [${sizes}]"
      elif [ $rc -eq 124 ]; then
        line "  info" "SGEMM_CUDA/sgemm $k" "verified and timed at sizes [${sizes}], then the ${SGEMM_LIMIT:-60} s limit"
      else
        line "  info" "SGEMM_CUDA/sgemm $k" "exit $rc after sizes [${sizes}]: $(grep -m1 -i -E 'error|fail' "$bin.$k.log" | cut -c1-120)"
      fi
    fi
  done
  if [ $ok = 1 ]; then npass=$((npass + 1)); line PASS SGEMM_CUDA/sgemm "every kernel, every size"
  else nfail=$((nfail + 1)); line FAIL SGEMM_CUDA/sgemm "not every kernel finished its own sizes (128..4096, 50 repeats each) in time: see the lines above"; fi
}
sgemm

# --- tutorial repositories: CORPUS_ROOT/tut/<repository>, each .cu file a
# program of its own, built alone with -I of its folder and run without
# arguments unless said (checkouts of NVIDIA-developer-blog/code-samples,
# Infatoshi/cuda-course, CoffeeBeforeArch/cuda_programming,
# olcf/cuda-training-series, Tony-Tan/CUDA_Freshman,
# brucefan1983/CUDA-Programming, Liu-xiandong/How_to_optimize_in_GPU,
# harrism/mini-nbody). Their own failure messages are added to the words.
T=$root/tut
if [ -d "$T" ]; then
  fail_words="$fail_words"'|the ans is wrong|Has errors|incorrect|Verification Failed|does not agree|Error in element|Error!|Error: d|check fail|don.t match|CUDA Error|cuda error|CUDA error|Assertion .* failed'
  while IFS= read -r f; do
    n=tut/$f d=$T/$(dirname "$f") b=$(basename "$f")
    case $f in
      *CUDNN*|*cudnn*)               excluded "$n" "cuDNN" ;;
      *CUTLASS*)                     excluded "$n" "CUTLASS (a template library of its own)" ;;
      *PyTorch*|*Triton*)            excluded "$n" "a PyTorch extension / Triton" ;;
      *cuBLASXt*)                    excluded "$n" "cuBLASXt (multi-GPU cuBLAS)" ;;
      *cuda-aware-mpi*|*/mpi/*)      excluded "$n" "MPI" ;;
      *nvml*)                        excluded "$n" "NVML (the driver's management library)" ;;
      *cufft*)                       excluded "$n" "cuFFT" ;;
      # Liu-xiandong's sparse chapters: nvcc 13 refuses both (the emulator's cuSPARSE runs
      # spmv once CUDA 12's name is put in: emu/docs/libraries.md, "cuSPARSE")
      */spmv/spmv.cu)                excluded "$n" "CUSPARSE_MV_ALG_DEFAULT, which CUDA 12 removed: nvcc 13 refuses it too" ;;
      */spmm/spmm.cu)                excluded "$n" "does not compile anywhere: calls My_spmm_csr_vector_kernel, which it never defines; needs Google's sputnik library" ;;
      *cuda-vmm*)                    excluded "$n" "driver API virtual memory (cuMemCreate/cuMemMap)" ;;
      *grcuda*)                      excluded "$n" "a kernel for GrCUDA (no main)" ;;
      *LICENSE*)                     excluded "$n" "not a program (a licence text)" ;;
      *parallel_reduction_with_shfl*) excluded "$n" "needs a CUB checkout at cub/cub (not the toolkit's layout)" ;;
      *c++11_cuda*)
        if [ -f "$d/cpp11-range/range.hpp" ]; then try "$n" "$d" "$b" "-I. -I cpp11-range" ""
        else excluded "$n" "needs its git submodule cpp11-range, empty in this checkout"; fi ;;
      *american-options/longstaff_schwartz_svd_2.cu)
        excluded "$n" "__any without _sync: not declared for sm_70 and later, so nvcc 13 (default sm_75) refuses it too" ;;
      # its own build script: -I.. (timer.h) and -DSHMOO (without it the source does not
      # compile: `rate` is undeclared); its size argument, 4096 bodies
      mini-nbody/cuda/*)             try "$n" "$d" "$b" "-I. -I $T/mini-nbody -DSHMOO" "4096" ;;
      */posts/gups/gups.cu)          try "$n" "$d" "$b" "-I." "-n 20" ;; # its own size flag: 2^20 elements, not 2^29
      */posts/rnn/LSTM.cu)
        excluded "$n" "main ends with \`return time < 0;\` (the function time compared with 0): nvcc 13 refuses it too" ;;
      *cuda-training-series/exercises/*)
        if grep -q -w 'FIXME' "$T/$f"; then excluded "$n" "an exercise's template with FIXME left for the student (its solution is tried)"
        elif [[ $f == */hw11/* ]]; then excluded "$n" "MPI"
        elif [[ $f == */hw7/multi*.cu ]]; then excluded "$n" "four GPUs (num_gpus = 4 fixed in its source; cudaSetDevice(1) fails on one GPU too)"
        elif [[ $f == */axpy_cublas_from_scratch.cu ]]; then excluded "$n" "a sketch for the student that no compiler accepts (statements without ';'; its solution is tried)"
        else try "$n" "$d" "$b" "-I." ""; fi ;;
      CUDA_Freshman/7_device_information/*)
        excluded "$n" "reads cudaDeviceProp::clockRate, which CUDA 13 removed (nvcc 13 refuses it too)" ;;
      CUDA_Freshman/28_shfl_test/*|CUDA_Freshman/29_reduce_shfl/*)
        excluded "$n" "__shfl/__shfl_down without _sync: not declared for sm_70 and later, so nvcc 13 (default sm_75) refuses it too" ;;
      CUDA_Freshman/23_sum_array_uniform_memory/*)
        excluded "$n" "fails its own check on a GPU too: its CPU reference adds b to b (sumArrays(b_d, b_d, ...))" ;;
      # its default kernel (0) is a plain copy, timed as a baseline, which its
      # transpose check then rejects on any GPU: run a transpose (2, shared memory)
      CUDA_Freshman/26_transform_shared_memory/*)
        try "$n" "$d" "$b" "-I. -I $T/CUDA_Freshman/include" "2" ;;
      CUDA_Freshman/31_stream_omp/*) try "$n" "$d" "$b" "-I. -I $T/CUDA_Freshman/include -fopenmp" "" ;;
      CUDA_Freshman/*)               try "$n" "$d" "$b" "-I. -I $T/CUDA_Freshman/include" "" ;;
      # a program of several .cu files, built together (its makefile's files)
      */13-md/*/main.cu)             try "$n" "$d" "$(cd "$d" && ls ./*.cu | sed 's#^\./##' | tr '\n' ' ')" "-I." "4 100" ;;
      */13-md/*)                     ;;
      */03-basic-framework/add2wrong.cu) # copies back with the wrong direction flag, on purpose
        expect_error='Has errors' try "$n" "$d" "$b" "-I." "" ;;
      */12-unified-memory/oversubscription1.cu)
        expect_error='Error text: out of memory' try "$n" "$d" "$b" "-I." "" ;;
      # the book's error-checking chapter: a wrong copy direction, a block
      # of 1280 threads (CUDA 13 answers cudaErrorInvalidValue, "invalid
      # argument"), a kernel without its bounds check (memcheck's lesson)
      */04-error-check/check1api.cu|*/04-error-check/check2kernel.cu)
        expect_error='Error text: invalid argument' try "$n" "$d" "$b" "-I." "" ;;
      */04-error-check/memcheck.cu)
        expect_error='out of bounds|past the end|outside' try "$n" "$d" "$b" "-I." "" ;;
      # the book's programs that take their size N as an argument
      */arithmetic2gpu.cu)           try "$n" "$d" "$b" "-I." "10000" ;;
      */07-global-memory/matrix.cu|*/08-shared-memory/bank.cu) try "$n" "$d" "$b" "-I." "1000" ;;
      *)                             try "$n" "$d" "$b" "-I." "" ;;
    esac
  done < <(cd "$T" && find . -name '*.cu' -not -path '*/.git/*' | sed 's#^\./##' | LC_ALL=C sort)
fi

total=$((npass + nchecked + nfail))
if [ $list = 1 ]; then
  echo "list: $nlisted programs to try, $nexcl excluded"
  exit 0
fi
pct=0 pct2=0
[ $total -gt 0 ] && pct=$((100 * npass / total)) && pct2=$((100 * (npass + nchecked) / total))
summary="$npass of $total pass ($pct%), $nchecked checked before the limit cut their timing loop ($((npass + nchecked)) of $total, $pct2%, verified), $nfail fail, $nexcl excluded"
echo "summary: $summary"

# The results file, replaced whole at the end of the run.
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
tmp=$(mktemp "$work/results.XXXXXX")
{
  echo "# Corpus results"
  echo
  echo "Written by \`emu/tests/corpus/run_corpus.sh\` (see emu/docs/compatibility.md,"
  echo "\"Programs tried\"); each run replaces this file."
  echo
  echo "- Run: $started to $(date -u '+%H:%M UTC')"
  echo "- Command: \`$command_line\`"
  echo "- slcc: \`$slcc\` (build mode: ${mode:-checked}), simtlab commit $commit"
  echo "- Machine: $(uname -m), $(nproc) cores; time limit ${limit} s per program (SGEMM_CUDA runner: ${SGEMM_LIMIT:-60} s per kernel)"
  if [ "$only" = . ]; then echo "- Programs: all"; else echo "- Programs: those matching --only '$only'"; fi
  echo
  echo "**Totals: $summary.**"
  echo
  echo "Times are emulator wall times on that machine, not GPU times."
  echo
  echo "| program | result | reason or time |"
  echo "|---|---|---|"
  cat "$rows"
} >"$tmp"
mv "$tmp" "$results"
echo "results: $results"
