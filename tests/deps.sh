#!/usr/bin/env bash
# deps.sh PKG... - install the Debian packages that are missing, when this
# is root with apt-get; otherwise print the exact command and fail.
set -euo pipefail

missing=()
for p in "$@"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: missing Debian packages: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null; then
	echo "deps: run: sudo apt-get install -y ${missing[*]}" >&2
	exit 3
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: installed ${missing[*]}" >&2
