#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/harness/summary.sh, make check's closing lines, on made-up .trs
# files and a kernel build record:
#   slowest     the ten slowest tests, slowest first, and their sum
#   kernels     one line per kernel: a build beats a cache hit of the same
#               kernel, the order of first use is kept, and the sum
#   counts      "N passed, N failed[, N skipped]" last, a missing .trs
#               counted as failed, exit status 1
#   suite-log   the tables also appended to the log named with --log
# Prints "PASS: unit/summary/CASE" or "FAIL: unit/summary/CASE: WHY".
set -u
here=$(cd "$(dirname "$0")" && pwd)
summary=$here/../harness/summary.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/summary-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "PASS: unit/summary/$1"; }
fail() { echo "FAIL: unit/summary/$1: $2"; failed=1; }

i=0
for s in 5 300 12 7 45 9 1 2 3 4 100 6; do
	i=$((i + 1))
	printf ':test-result: PASS t%s\n:global-test-result: PASS\n:test-seconds: %s\n' \
		"$i" "$s" >"$tmp/t$i.trs"
done
printf ':test-result: SKIP s\n:test-seconds: 0\n' >"$tmp/skip.trs"
printf ':test-result: FAIL f: broke\n:test-seconds: 8\n' >"$tmp/fail.trs"
cat >"$tmp/builds" <<'REC'
6.1 base cached 0
6.1 base built 153
6.1 pae built 303
6.1 base cached 0
6.12 base failed 40
6.1 pae cached 0
REC
echo "(the harness's own lines)" >"$tmp/suite.log"
sh "$summary" --builds "$tmp/builds" --log "$tmp/suite.log" \
	"$tmp"/t*.trs "$tmp/skip.trs" "$tmp/fail.trs" "$tmp/gone.trs" \
	>"$tmp/out" 2>&1
rc=$?

slowest=$(sed -n '/^Slowest tests/,/sum of all/p' "$tmp/out" |
	awk 'NR > 1 { print $1 }' | tr '\n' ' ')
want="300 100 45 12 9 8 7 6 5 4 502 "
# 10 slowest of 14 timed (12 + skip + fail), then the sum of all 14
if [ "$slowest" = "$want" ]; then
	pass slowest
else
	fail slowest "got '$slowest', want '$want'"
fi

kernels=$(sed -n '/^Kernel builds/,/all [0-9]* kernels/p' "$tmp/out" |
	sed 1d | tr -s ' ' | tr '\n' '|')
want=" 153 6.1 base (built)| 303 6.1 pae (built)| 40 6.12 base (failed)| 496 all 3 kernels|"
if [ "$kernels" = "$want" ]; then
	pass kernels
else
	fail kernels "got '$kernels', want '$want'"
fi

last=$(tail -n 1 "$tmp/out")
if [ "$last" = "12 passed, 2 failed, 1 skipped" ] && [ $rc = 1 ] &&
	grep -q "gone: no result" "$tmp/out"; then
	pass counts
else
	fail counts "last line '$last', exit status $rc"
fi

if [ "$(head -n 1 "$tmp/suite.log")" = "(the harness's own lines)" ] &&
	grep -q "^Slowest tests" "$tmp/suite.log" &&
	grep -q "153  6.1 base (built)" "$tmp/suite.log" &&
	! grep -q "passed," "$tmp/suite.log"; then
	pass suite-log
else
	fail suite-log "$(tr '\n' '|' <"$tmp/suite.log")"
fi
exit $failed
