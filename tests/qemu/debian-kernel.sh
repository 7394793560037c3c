#!/bin/sh
# Debian's packaged kernel for the x86_64 scenarios: the kernel the
# linux-image-amd64 metapackage names today, fetched once with
# `apt-get download` into $KJUMP_CACHE_DIR/debs-amd64 and unpacked there
# with `dpkg-deb -x`; nothing is installed.
#
#   debian-kernel.sh [-q]
#
# The last line of stdout is the path of its vmlinuz (a signed bzImage
# with the 64-bit entry).  Without network or mirror, the newest kernel
# already in the cache is used.
set -eu

cache=${KJUMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kexec-tools-kjump}
debdir=$cache/debs-amd64
quiet=0
[ "${1:-}" = -q ] && quiet=1

die() { echo "debian-kernel: $*" >&2; exit 1; }
say() { [ "$quiet" = 1 ] || echo "debian-kernel: $*" >&2; }

mkdir -p "$debdir"
exec 9>"$debdir/.lock"
flock 9

# linux-image-amd64 depends on exactly one linux-image-VERSION-amd64.
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
if [ -n "$pkg" ] && ! ls "$debdir/${pkg}"_*_amd64.deb >/dev/null 2>&1; then
	say "downloading $pkg"
	(cd "$debdir" && apt-get download -q "$pkg") >"$debdir/download.log" 2>&1 ||
		say "apt-get download $pkg failed (see $debdir/download.log)"
fi
deb=$(ls "$debdir"/linux-image-[0-9]*-amd64_*_amd64.deb 2>/dev/null |
	sort -V | tail -n 1)
[ -n "$deb" ] ||
	die "no Debian amd64 kernel: apt-get download ${pkg:-linux-image-amd64's kernel} failed, and none is cached in $debdir"
ver=$(basename "$deb" | sed 's/^linux-image-\(.*-amd64\)_.*/\1/')
dir=$debdir/$ver
if [ ! -f "$dir/boot/vmlinuz-$ver" ]; then
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -x -C "$dir.tmp" "./boot/vmlinuz-$ver" "./boot/config-$ver" ||
		die "cannot unpack $deb"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
fi
echo "$dir/boot/vmlinuz-$ver"
