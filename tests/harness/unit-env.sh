#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run one unit test of make check (LOG_COMPILER, SH_LOG_COMPILER in
# Makefile.am) with the real test kernel, when there is one:
#
#   unit-env.sh COMMAND [ARG...]
#
# KJUMP_KERNEL_DIR_FILE (set by make) names a file that holds the
# directory of the kernel build-kernel.sh made for the QEMU half, or
# nothing (see real-kernel.sh).  Its bzImage and vmlinux become
# KJUMP_BZIMAGE and KJUMP_VMLINUX, which the unit tests parse besides
# their synthetic images, unless the caller set them.  Only the unit tests
# run through here: in a QEMU scenario KJUMP_BZIMAGE would override the
# scenario's own kernel config (pae, nokjump).
set -u
f=${KJUMP_KERNEL_DIR_FILE:-}
if [ -z "${KJUMP_BZIMAGE:-}" ] && [ -n "$f" ] && [ -s "$f" ]; then
	dir=$(cat "$f")
	if [ -f "$dir/bzImage" ]; then
		KJUMP_BZIMAGE=$dir/bzImage
		export KJUMP_BZIMAGE
		if [ -z "${KJUMP_VMLINUX:-}" ] && [ -f "$dir/vmlinux" ]; then
			KJUMP_VMLINUX=$dir/vmlinux
			export KJUMP_VMLINUX
		fi
	fi
fi
exec "$@"
