#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run one QEMU test of make check (QEMU_LOG_COMPILER in Makefile.am):
#
#   qemu.sh [DIR/]NAME.qemu
#
# The .qemu test is no file, only a name (one per scenario, so that each
# gets its own .log and make recheck reruns it alone):
#   purgatory        tests/qemu/purgatory/run.sh: the purgatory blob in a
#                    multiboot harness, no kernel involved
#   SCENARIO         tests/qemu/run-scenario.sh SCENARIO, our kexec
#   SCENARIO@debian  the same with KEXEC_IMPL=debian (Debian's kexec-tools)
#   SCENARIO@6.12    the same on the companion kernel for linux 6.12
#                    (KJUMP_LINUX=6.12); @6.12@debian combines both
# and it prints their result lines and exits with their status.  With
# QEMU_TESTS=no (configure --disable-qemu-tests) it prints one SKIP line.
#
# Environment (set by make): srcdir, KJUMP_BUILDDIR, QEMU_TESTS, and
# what run-scenario.sh reads (KEXEC, KEXEC_TEST, KJUMP_QEMU_LOGDIR, ...).
set -u
[ $# -eq 1 ] || { echo "usage: $0 NAME.qemu" >&2; exit 2; }
name=${1##*/}
name=${name%.qemu}
src=${srcdir:-.}

case $name in
purgatory) result=purgatory-qemu ;;
*) result=qemu/$name ;;
esac
# KJUMP_LIST_KERNELS=1: only the kernels run-scenario.sh would build
# (tests/harness/prebuild-kernels.sh); the purgatory harness builds none.
if [ "${KJUMP_LIST_KERNELS:-0}" = 1 ] && [ "$name" = purgatory ]; then
	exit 0
fi
if [ "${QEMU_TESTS:-yes}" != yes ]; then
	echo "SKIP: $result: configured with --disable-qemu-tests"
	exit 77
fi

case $name in
purgatory)
	exec sh "$src/tests/qemu/purgatory/run.sh" "$src" \
		"${KJUMP_BUILDDIR:-.}/tests/qemu"
	;;
*)
	impl=ours
	case $name in
	*@debian) impl=debian; name=${name%@debian} ;;
	esac
	case $name in
	*@[0-9]*) KJUMP_LINUX=${name##*@}; name=${name%@*}
		export KJUMP_LINUX ;;
	esac
	KEXEC_IMPL=$impl exec "$src/tests/qemu/run-scenario.sh" "$name"
	;;
esac
