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
apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential gcc-multilib autoconf automake make pkg-config \
	qemu-system-x86 linux-source-6.1 \
	flex bison bc libelf-dev libssl-dev cpio xz-utils gzip \
	busybox-static file ca-certificates \
	clang libclang-rt-14-dev \
	liblz4-dev libzstd-dev liblz4-dev:i386 libzstd-dev:i386
