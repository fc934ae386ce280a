#!/usr/bin/env bash
# The csmith differential test (testsuite/tests/csmith.rs) with many programs:
#   testsuite/csmith.sh [COUNT [FIRST_SEED]]    (default 1000 programs from a fresh seed)
# Needs csmith and its headers: apt-get install csmith libcsmith-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPCC_CSMITH_COUNT="${1:-1000}"
if [ -n "${2:-}" ]; then
    export OMPCC_CSMITH_SEED="$2"
fi
cargo build -p ompcc-driver -p ompcc-rt
exec cargo test -p ompcc-testsuite --test csmith -- --nocapture
