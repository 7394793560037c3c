#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Write to OUT the directory of the test kernel for the unit tests
# (unit-env.sh), or nothing:
#
#   real-kernel.sh SRCDIR OUT
#
# With the QEMU half enabled the test kernel gets built anyway, so the
# unit tests may as well parse that real bzImage and its vmlinux:
# build-kernel.sh -q builds it the first time and then finds it in its
# cache.  OUT stays empty when QEMU_TESTS is not yes (configure
# --disable-qemu-tests), when KJUMP_REAL_KERNEL=no (make check-unit), when
# the caller set KJUMP_BZIMAGE itself, or when the build fails (the QEMU
# tests then report that).
set -u
[ $# -eq 2 ] || { echo "usage: $0 SRCDIR OUT" >&2; exit 2; }
src=$1
out=$2
: >"$out" || exit 1
[ "${QEMU_TESTS:-yes}" = yes ] && [ "${KJUMP_REAL_KERNEL:-yes}" != no ] &&
	[ -z "${KJUMP_BZIMAGE:-}" ] || exit 0
echo "(building or fetching the cached test kernel)"
dir=$(sh "$src/kernel-companion/build-kernel.sh" -q | tail -n 1) &&
	[ -f "$dir/bzImage" ] || exit 0
echo "$dir" >"$out"
