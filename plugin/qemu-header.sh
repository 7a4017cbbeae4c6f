#!/usr/bin/env bash
# qemu-header.sh [-n] DIR - the qemu-plugin.h of the installed qemu, as a
# Debian user gets it: Debian's qemu ships the plugin API in its binary
# (-plugin) but no header; the header is in the source package of the
# same version. `apt-get source --download-only qemu=VERSION` fetches it
# (a deb-src entry for Debian's archive is needed: added when root, the
# line to add named otherwise), and only include/qemu/qemu-plugin.h is
# taken out of the tarball, with Debian's patches to it applied. DIR
# (make plugin: build/plugin) keeps the download and, as DIR/include/
# qemu-plugin.h, the header, with DIR/include/VERSION naming the source
# version it came from; a second run with the same qemu does nothing.
#
# Refused (exit 3, the fix named): no qemu-system-x86_64, a qemu built
# without plugins (no -plugin option), a qemu that is not Debian's
# package (QEMU_PLUGIN_H=FILE then names the header of its source), a
# source package whose version is not the installed qemu's.
# -n: only check (no download; exit 3 unless the header is here).
# Exit 0 the header is there, 1 a download or extraction failed, 2 bad
# usage, 3 refused.
set -euo pipefail
prog="qemu-header.sh"
qemu=${QEMU:-qemu-system-x86_64}
hdr=include/qemu/qemu-plugin.h
srcfile=/etc/apt/sources.list.d/kstats-bench-qemu-src.sources

die() {
	echo "$prog: $1" >&2
	exit "${2:-3}"
}

dry=0
if [ "${1:-}" = -n ]; then
	dry=1
	shift
fi
[ $# -eq 1 ] || die "usage: $prog [-n] DIR" 2
dir=$1

command -v "$qemu" >/dev/null || die "no $qemu: apt-get install qemu-system-x86"
# a qemu configured without --enable-plugins has no -plugin option
"$qemu" -help 2>/dev/null | grep '^-plugin' >/dev/null ||
	die "$qemu takes no -plugin: it was built without plugin support (Debian's qemu-system-x86 has it; a qemu of your own needs ./configure --enable-plugins)"

# a header named by hand: a qemu not from Debian's package
if [ -n "${QEMU_PLUGIN_H:-}" ]; then
	[ -f "$QEMU_PLUGIN_H" ] || die "QEMU_PLUGIN_H=$QEMU_PLUGIN_H: no such file"
	mkdir -p "$dir/include"
	cmp -s "$QEMU_PLUGIN_H" "$dir/include/qemu-plugin.h" ||
		cp "$QEMU_PLUGIN_H" "$dir/include/qemu-plugin.h"
	echo "by-hand $QEMU_PLUGIN_H" >"$dir/include/VERSION.tmp"
	cmp -s "$dir/include/VERSION.tmp" "$dir/include/VERSION" ||
		mv "$dir/include/VERSION.tmp" "$dir/include/VERSION"
	rm -f "$dir/include/VERSION.tmp"
	exit 0
fi

# the source version of the package that holds the binary (a binNMU's
# +bN is the binary's alone: the source is the version before it)
path=$(command -v "$qemu")
pkg=$(dpkg-query -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/:.*//p') || pkg=
[ -n "$pkg" ] ||
	die "$path is not from a Debian package: set QEMU_PLUGIN_H to include/qemu/qemu-plugin.h of its source"
ver=$(dpkg-query -W -f '${source:Version}' "$pkg")
src=$(dpkg-query -W -f '${source:Package}' "$pkg")

# done already for this version?
if [ -f "$dir/include/qemu-plugin.h" ] && [ "$(cat "$dir/include/VERSION" 2>/dev/null)" = "$src $ver" ]; then
	exit 0
fi
[ "$dry" = 0 ] || die "no qemu-plugin.h of $src $ver in $dir/include: make plugin-deps"

# has apt a source index for Debian's archive? (apt-get source says
# "You must put some 'deb-src' URIs" when not)
have_src() {
	apt-cache showsrc "$src" 2>/dev/null | grep -x "Version: $ver" >/dev/null
}

# a deb-src stanza for every deb stanza of the deb822 files (Debian
# 12's layout), the same URIs, suites, components and keys, and a
# deb-src line for every deb line of a one-line sources.list
deb822_src() {
	awk 'function flush() { if (deb && !src) printf "%s\n", s; s = ""; deb = src = 0 }
		/^[ \t]*$/ { flush(); next }
		/^Types:/ { deb = $0 ~ /[: ]deb( |$)/; src = $0 ~ /deb-src/
			s = s "Types: deb-src\n"; next }
		{ s = s $0 "\n" }
		END { flush() }' "$@"
}

add_src() {
	local f list=${srcfile%.sources}.list
	for f in /etc/apt/sources.list.d/*.sources; do
		[ "$f" = "$srcfile" ] || deb822_src "$f"
	done >"$srcfile.tmp"
	if [ -f /etc/apt/sources.list ]; then
		sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list
	fi >"$list.tmp"
	[ -s "$srcfile.tmp" ] && mv "$srcfile.tmp" "$srcfile"
	[ -s "$list.tmp" ] && mv "$list.tmp" "$list"
	rm -f "$srcfile.tmp" "$list.tmp"
	[ -f "$srcfile" ] || [ -f "$list" ] ||
		die "no deb entry to make a deb-src entry from: add one for Debian's archive by hand, run apt-get update, then make plugin-deps again"
	echo "$prog: added deb-src entries for Debian's archive: $srcfile" >&2
	apt-get update -qq || die "apt-get update failed" 1
}

# the hunks of patch FILE that change $hdr, their ---/+++ lines with
# them (patch -p1 then applies them to the one file extracted); a hunk's
# line counts say where it ends, so a removed line "-- ..." stays in it
hunks() {
	awk -v hdr="$hdr" '
		function counts(s,   a) { split(s, a, /[ ,]/); return a[1] }
		/^--- / && !left { old = $0; next }
		/^\+\+\+ / && !left { on = index($2, "/" hdr) && substr($2, length($2) - length(hdr)) == "/" hdr
			if (on) print old "\n" $0; next }
		/^@@ / && !left { split($0, f, " "); o = f[2]; n = f[3]; sub(/^-/, "", o); sub(/^\+/, "", n)
			lo = index(o, ",") ? substr(o, index(o, ",") + 1) : 1
			ln = index(n, ",") ? substr(n, index(n, ",") + 1) : 1
			left = lo + ln; if (on) print; next }
		left { c = substr($0, 1, 1); left -= c == " " ? 2 : c == "\\" ? 0 : 1
			if (left < 0) left = 0; if (on) print }' "$1"
}

if ! have_src; then
	if [ "$(id -u)" -ne 0 ]; then
		die "apt knows no source of $src $ver: add a deb-src entry for Debian's archive (in /etc/apt/sources.list.d/debian.sources, 'Types: deb deb-src'), run apt-get update, then make plugin-deps again"
	fi
	add_src
	have_src ||
		die "no source package $src $ver in the archives apt knows: the installed qemu-system-x86 is not the archive's version (apt-get install --only-upgrade qemu-system-x86 to the archive's, then make plugin-deps)"
fi

# the download, checked by apt against the archive's signed index
mkdir -p "$dir/src"
(cd "$dir/src" && apt-get source -qq --download-only "$src=$ver" >/dev/null) ||
	die "apt-get source --download-only $src=$ver failed" 1
uver=${ver#*:}
dsc=$dir/src/${src}_${uver}.dsc
[ -f "$dsc" ] || die "no $dsc after apt-get source" 1
# the tarball and patches the .dsc names: orig (the upstream tree) and
# debian (Debian's patches)
orig=$(awk '/^Files:/ { f = 1; next } /^[^ ]/ { f = 0 } f && $3 ~ /orig\.tar/ { print $3 }' "$dsc")
deb=$(awk '/^Files:/ { f = 1; next } /^[^ ]/ { f = 0 } f && $3 ~ /debian\.tar/ { print $3 }' "$dsc")
if [ -z "$orig" ] || [ -z "$deb" ]; then
	die "$dsc names no orig and debian tarballs" 1
fi

rm -rf "$dir/x"
mkdir -p "$dir/x/debian"
tar -C "$dir/x" -xf "$dir/src/$orig" --wildcards --no-anchored "$hdr" ||
	die "$orig has no $hdr" 1
top=$(cd "$dir/x" && find . -path "*/$hdr" | head -1)
[ -n "$top" ] || die "$orig has no $hdr" 1
tar -C "$dir/x" -xf "$dir/src/$deb" debian/patches
# Debian's patches that touch the header, in the series' order
if [ -f "$dir/x/debian/patches/series" ]; then
	while read -r p _; do
		case $p in '' | '#'*) continue ;; esac
		grep -q "^+++ [^/]*/$hdr" "$dir/x/debian/patches/$p" 2>/dev/null || continue
		hunks "$dir/x/debian/patches/$p" | patch -s -p1 -d "$dir/x/${top%/"$hdr"}" ||
			die "Debian's $p does not apply to $hdr" 1
	done <"$dir/x/debian/patches/series"
fi
mkdir -p "$dir/include"
cp "$dir/x/$top" "$dir/include/qemu-plugin.h"
echo "$src $ver" >"$dir/include/VERSION"
rm -rf "$dir/x"
echo "$prog: $hdr of $src $ver into $dir/include" >&2
