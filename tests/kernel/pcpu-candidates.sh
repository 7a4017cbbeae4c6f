#!/usr/bin/env bash
# pcpu-candidates.sh TREE | IMAGE KALLSYMS - the kernel functions that
# loop over possible CPUs, one name a line, sorted: the candidates that
# may carry an audit entry's growth (bench scale's attribution). How they
# are found, from the source by name or from the image's code, is
# pcpu-graph.sh's; its count goes to stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/pcpu-graph.sh" "$@" | awk -F'\t' '$1 == "L" { print $2 }'
