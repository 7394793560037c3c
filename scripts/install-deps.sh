#!/bin/sh
# Install the Debian 12 packages that building and testing kexec-tools-kjump needs.
# Run as root (or with sudo). Safe to run again: apt-get skips what is present.
set -eu

if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		exec sudo "$0" "$@"
	fi
	echo "install-deps: must run as root" >&2
	exit 1
fi

export DEBIAN_FRONTEND=noninteractive
dpkg --add-architecture i386
# A mirror in mid-sync can fail one index (seen: bookworm-security i386,
# "File has unexpected size").  The packages below come from the main
# archive, so go on with the indexes that did arrive; apt-get install
# fails clearly if something is really missing.
if ! apt-get update -q; then
	echo "install-deps: apt-get update reported errors; trying with the indexes it has" >&2
fi
# Multi-arch pairs must have one version on both architectures.  When one
# architecture's index is stale (the mirror case above), ask for the
# version both can get: the i386 candidate, if amd64 has it too.
pairs="liblz4-1 liblz4-dev libzstd1 libzstd-dev"
pinned=
for p in $pairs; do
	v32=$(apt-cache policy "$p:i386" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	v64=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	[ -n "$v32" ] && [ "$v32" != "(none)" ] && [ "$v32" != "$v64" ] || continue
	apt-cache madison "$p" | grep -q "| $v32 |" || continue
	echo "install-deps: $p: using $v32 on both architectures ($v64 is not on i386)" >&2
	pinned="$pinned $p=$v32 $p:i386=$v32"
done

apt-get install -y -q --no-install-recommends --allow-downgrades \
	build-essential gcc-multilib autoconf automake make pkg-config \
	qemu-system-x86 linux-source-6.1 linux-source-6.12 \
	flex bison bc libelf-dev libssl-dev cpio xz-utils gzip ccache \
	busybox-static file ca-certificates xfsprogs dosfstools \
	clang libclang-rt-14-dev \
	liblz4-dev libzstd-dev liblz4-dev:i386 libzstd-dev:i386 $pinned
