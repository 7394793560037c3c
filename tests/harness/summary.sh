#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The closing lines of make check (check-local in Makefile.am):
#
#   summary.sh TRS...
#
# Counts the ":test-result:" lines of the .trs files that automake's
# harness left behind (one per result line of a test, see driver.sh),
# lists the failures and prints last
#
#   N passed, N failed[, N skipped][, N expected failures]
#
# "failed" counts FAIL, XPASS and ERROR results, and one for each TRS that
# does not exist: its test did not finish (interrupted, or something it
# needs failed to build).  Exits 1 if anything failed.
set -u
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
