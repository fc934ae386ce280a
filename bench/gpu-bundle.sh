#!/usr/bin/env bash
# Builds what bench/gpu-compare.sh needs on a GPU machine that has no Rust toolchain, into
# gpu-bundle/ at the repository root: ompcc and libompcc_rt.a (release), the gpu-compare
# runner, the run-test binary (deps/run, beside ompcc as the test harness expects) and COMMIT.
# Debug info is stripped to keep the bundle small enough to copy (about 40 MiB).
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-gpu-bundle}
cargo build --release -p ompcc-driver -p ompcc-rt -p ompcc-bench
run_test=$(cargo test --release -p ompcc-testsuite --test run --no-run --message-format=json |
    python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "run" and m.get("executable"):
        print(m["executable"])')
[ -n "$run_test" ] || { echo "gpu-bundle: no run-test executable" >&2; exit 1; }
rm -rf "$bundle"
mkdir -p "$bundle/deps"
cp target/release/ompcc target/release/libompcc_rt.a target/release/gpu-compare "$bundle/"
cp "$run_test" "$bundle/deps/run"
strip --strip-debug "$bundle/ompcc" "$bundle/libompcc_rt.a" "$bundle/gpu-compare" "$bundle/deps/run"
commit=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- . ':!gpu-bundle' || commit="$commit+dirty"
echo "$commit" >"$bundle/COMMIT"
du -sh "$bundle"
