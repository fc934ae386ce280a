#!/usr/bin/env bash
# Installs ompcc under a prefix: <prefix>/bin/ompcc, <prefix>/lib/libompcc_rt.a and
# <prefix>/include/ompcc_rt.h. The installed ompcc finds its runtime in <prefix>/lib by
# itself (next to its binary first, then ../lib), so nothing needs to be set afterwards.
#
#   ./install.sh [--prefix DIR] [--from DIR]
#
#   --prefix DIR  where to install (default: $PREFIX, else /usr/local)
#   --from DIR    install the ompcc and libompcc_rt.a already built in DIR (e.g.
#                 target/debug) instead of building them with `cargo build --release`
set -euo pipefail
cd "$(dirname "$0")"

prefix="${PREFIX:-/usr/local}"
from=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --from) from="${2:?--from needs a directory}"; shift 2 ;;
        --from=*) from="${1#--from=}"; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

if [ -z "$from" ]; then
    cargo build --release -p ompcc-driver -p ompcc-rt
    from="target/release"
fi
for f in "$from/ompcc" "$from/libompcc_rt.a"; do
    if [ ! -f "$f" ]; then
        echo "install.sh: '$f' does not exist (build it first, or leave out --from)" >&2
        exit 1
    fi
done

mkdir -p "$prefix/bin" "$prefix/lib" "$prefix/include"
install -m 755 "$from/ompcc" "$prefix/bin/ompcc"
install -m 644 "$from/libompcc_rt.a" "$prefix/lib/libompcc_rt.a"
install -m 644 runtime/include/ompcc_rt.h "$prefix/include/ompcc_rt.h"
echo "installed ompcc in $prefix/bin, libompcc_rt.a in $prefix/lib, ompcc_rt.h in $prefix/include"
