#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The closing lines of make check (check-local in Makefile.am):
#
#   summary.sh [--builds RECORD] [--log LOG] TRS...
#
# First it prints where the time went: the ten slowest tests (the
# ":test-seconds:" lines driver.sh adds to each .trs) and each kernel
# build of this run (RECORD, the "VERSION CONFIG built|cached|failed
# SECONDS" lines build-kernel.sh appends with KJUMP_BUILD_RECORD), and
# appends both tables to LOG (test-suite.log).  Then it counts the ":test-result:" lines of the .trs files that automake's
# harness left behind (one per result line of a test, see driver.sh),
# lists the failures and prints last
#
#   N passed, N failed[, N skipped][, N expected failures]
#
# "failed" counts FAIL, XPASS and ERROR results, and one for each TRS that
# does not exist: its test did not finish (interrupted, or something it
# needs failed to build).  Exits 1 if anything failed.
set -u
builds='' suite_log=''
while [ $# -gt 0 ]; do
	case $1 in
	--builds) builds=$2; shift 2 ;;
	--log) suite_log=$2; shift 2 ;;
	*) break ;;
	esac
done

# slowest TRS...: the slowest ten, "SECONDS  NAME", and the sum.
slowest() {
	for trs in "$@"; do
		[ -f "$trs" ] || continue
		s=$(sed -n 's/^:test-seconds: \([0-9]*\)$/\1/p' "$trs")
		[ -n "$s" ] && echo "$s ${trs%.trs}"
	done | sort -k1,1nr -k2 | awk '
		{ t += $1; if (NR <= 10) printf "  %6d  %s\n", $1, $2 }
		END { printf "  %6d  sum of all %d tests\n", t, NR }'
}

# kernels RECORD: one line per kernel, "SECONDS  VERSION CONFIG (how)",
# a build before a cache hit of the same kernel, and the sum of builds.
kernels() {
	awk '
		{ k = $1 " " $2
		  if (!(k in how)) order[n++] = k
		  if (!(k in how) || how[k] == "cached") { how[k] = $3; s[k] = $4 } }
		END { for (i = 0; i < n; i++) {
			k = order[i]; t += s[k]
			printf "  %6d  %s (%s)\n", s[k], k, how[k] }
		  printf "  %6d  all %d kernels\n", t, n }' "$1"
}

tables() {
	echo
	echo "Slowest tests (seconds):"
	slowest "$@"
	if [ -n "$builds" ] && [ -s "$builds" ]; then
		echo "Kernel builds (seconds; cached: built before this run):"
		kernels "$builds"
	fi
}
if [ -n "$suite_log" ]; then
	tables "$@" | tee -a "$suite_log"
else
	tables "$@"
fi

passed=0 failed=0 skipped=0 xfailed=0
bad=$(mktemp) || exit 1
trap 'rm -f "$bad"' EXIT
for trs in "$@"; do
	if [ ! -f "$trs" ]; then
		echo "FAIL: ${trs%.trs}: no result (the test did not finish)" >>"$bad"
		failed=$((failed + 1))
		continue
	fi
	while IFS= read -r line; do
		case $line in
		":test-result: PASS "*) passed=$((passed + 1)) ;;
		":test-result: SKIP "*) skipped=$((skipped + 1)) ;;
		":test-result: XFAIL "*) xfailed=$((xfailed + 1)) ;;
		":test-result: "*)
			failed=$((failed + 1))
			echo "${line#:test-result: }" | sed 's/ /: /' >>"$bad"
			;;
		esac
	done <"$trs"
done
echo
if [ "$failed" -ne 0 ]; then
	echo "Failed (each test's output is in its .log, all of them in test-suite.log):"
	sed 's/^/  /' "$bad"
fi
line="$passed passed, $failed failed"
[ "$skipped" -eq 0 ] || line="$line, $skipped skipped"
[ "$xfailed" -eq 0 ] || line="$line, $xfailed expected failures"
echo "$line"
[ "$failed" -eq 0 ]
