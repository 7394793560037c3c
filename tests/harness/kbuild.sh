#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# One test of make check-extended (KBUILD_LOG_COMPILER in
# tests/harness/Makefile.inc): the series' build matrix on one kernel
# version, as kernel-companion/check-builds.sh -p runs it (every variant
# with and without the series, then every patch alone on the i386 and
# x86_64 test configs, W=1):
#
#   kbuild.sh [DIR/]VERSION.kbuild
#
# Prints "PASS: kbuild/VERSION" when every build succeeds with no new
# warning, else "FAIL: kbuild/VERSION: ..." (the table and the warnings
# are in the test's log).  With QEMU_TESTS=no it prints one SKIP line, as
# the kernel half of the tests is off then.
set -u
[ $# -eq 1 ] || { echo "usage: $0 VERSION.kbuild" >&2; exit 2; }
version=${1##*/}
version=${version%.kbuild}
src=${srcdir:-.}

if [ "${QEMU_TESTS:-yes}" != yes ]; then
	echo "SKIP: kbuild/$version: configured with --disable-qemu-tests"
	exit 77
fi
sh -c 'command -v bash' >/dev/null || { echo "FAIL: kbuild/$version: no bash"; exit 1; }
bash "$src/kernel-companion/check-builds.sh" -k "$version" -p
rc=$?
case $rc in
0) echo "PASS: kbuild/$version" ;;
1) echo "FAIL: kbuild/$version: a variant or a patch does not build or has new warnings (table above)" ;;
*) echo "FAIL: kbuild/$version: check-builds.sh could not run (exit status $rc)" ;;
esac
exit $rc
