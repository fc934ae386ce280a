#!/usr/bin/env bash
# One-command GPU comparison, for a machine with an NVIDIA GPU, nvcc and gcc but no Rust
# toolchain. Takes the prebuilt bundle of bench/gpu-bundle.sh (default gpu-bundle/) and, run
# from anywhere in a checkout:
#   1. times every bench kernel (-DLARGE) built by ompcc beside its CUDA reference (nvcc -O3)
#      and runs the BabelStream-style copy/mul/add/triad/dot at 2^25 doubles for both:
#      bench/results/gpu-<gpu name>.md;
#   2. runs the run tests (the whole log in bench/results/tmp/, which git ignores) with their per-level builds on the GPU (OMPCC_RUN_DEVICE=cuda):
#      bench/results/run-tests-<gpu name>.md.
# Exit status: non-zero when a kernel, the stream program or a run test failed.
set -uo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-gpu-bundle}
results=${2:-bench/results}
for f in ompcc libompcc_rt.a gpu-compare deps/run COMMIT; do
    [ -e "$bundle/$f" ] || { echo "gpu-compare.sh: $bundle/$f is missing (run bench/gpu-bundle.sh)" >&2; exit 2; }
done
command -v nvcc >/dev/null || { echo "gpu-compare.sh: nvcc is not on PATH" >&2; exit 2; }
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
[ -n "$gpu" ] || { echo "gpu-compare.sh: nvidia-smi names no GPU" >&2; exit 2; }
slug=$(echo "$gpu" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9]+/-/g; s/^-+//; s/-+$//')
commit=$(cat "$bundle/COMMIT")
mkdir -p "$results"
status=0

start=$(date +%s)
"$bundle/gpu-compare" --ompcc "$bundle/ompcc" --kernels bench/kernels --stream bench/stream \
    --cc gcc --commit "$commit" --out "$results/gpu-$slug.md" || status=1
echo "gpu-compare.sh: kernels and stream in $(($(date +%s) - start)) s"

start=$(date +%s)
mkdir -p bench/results/tmp
log=bench/results/tmp/run-tests-$slug.log
# CUDA 13's ptxas has no sm_70; CI assembles for sm_70 with the PyPI ptxas.
OMPCC_RUN_DEVICE=cuda OMPCC_RUN_DIR="$PWD/testsuite/run" OMPCC_RUN_JOBS=${OMPCC_RUN_JOBS:-8} \
    OMPCC_RUN_PTX_ARCHS=sm_80,sm_90 timeout "${RUN_TESTS_LIMIT:-420}" "$bundle/deps/run" >"$log" 2>&1
run_status=$?
[ $run_status -eq 0 ] || status=1
secs=$(($(date +%s) - start))
{
    echo "# Run tests on the GPU: $gpu"
    echo
    echo "ompcc \`$commit\`; \`bench/gpu-compare.sh\` ran the run-test binary with"
    echo "\`OMPCC_RUN_DEVICE=cuda\`: every program of \`testsuite/run\` built by gcc (the reference,"
    echo "at 1 and 3 threads) and by ompcc at -O0..-O3, the ompcc builds run on the GPU with a"
    echo "launch on the CUDA device required, the -O2 build also on the host fallback, its PTX"
    echo "assembled by the machine's ptxas for sm_80 and sm_90. Exit status $run_status, $secs s."
    echo
    echo '```'
    grep -E '^(run tests:|test result:|test [a-z_]+ \.\.\.)' "$log"
    echo '```'
    if [ $run_status -ne 0 ]; then
        echo
        echo "## Failures"
        echo
        echo '```'
        sed -n '/^---- /,$p' "$log" | head -n 300
        echo '```'
    fi
} >"$results/run-tests-$slug.md"
echo "gpu-compare.sh: run tests exit $run_status in $secs s"
exit $status
