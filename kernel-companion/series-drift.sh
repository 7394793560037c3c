#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The drift between the two versions of the series (6.1 and 6.12): for
# every patch both have (paired by subject), how many lines differ, in
# its message and in its changes (the +/- lines of the diff, so that
# offsets, index lines and context do not count), compared with the
# figures recorded in series-drift.expected.  A fix made to one version
# only, or a twin change that came out different, changes a figure.
#
#   series-drift.sh            print the table; exit 1 on an unexpected
#                              figure or pairing (each named)
#   series-drift.sh --update   record the figures as expected
#
# KJUMP_COMPANION_DIR: where 6.1/, 6.12/ and the expected file are
# (default: this script's directory).
set -u
here=${KJUMP_COMPANION_DIR:-$(cd "$(dirname "$0")" && pwd)}
expected=$here/series-drift.expected
a=6.1 b=6.12

tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-drift.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$here/$1/series" |
		grep -v '^$'
}

# subject PATCH: its name without the number, the key of a pair
subject() {
	echo "$1" | sed 's/^[0-9]*-//'
}

# message PATCH: the subject and body, without the numbering ("[PATCH
# 07/33]") and the headers that carry dates
message() {
	awk '/^Subject: / { on = 1; sub(/\[PATCH[^]]*\] /, "") }
		/^---$/ { exit }
		on' "$1"
}

# changes PATCH: the diff's added and removed lines, with their file
changes() {
	awk '/^diff --git / { file = $3 }
		/^(\+\+\+|---) / { next }
		/^[-+]/ { print file " " $0 }' "$1"
}

# delta A B: the lines of A not in B plus those of B not in A (multisets)
delta() {
	sort "$1" >"$tmp/da"
	sort "$2" >"$tmp/db"
	comm -3 "$tmp/da" "$tmp/db" | wc -l | tr -d ' '
}

table() {
	for pa in $(patches $a); do
		s=$(subject "$pa")
		pb=$(patches $b | grep -x "[0-9]*-$s" | head -n 1)
		if [ -z "$pb" ]; then
			echo "$s ${pa%%-*} - only-$a"
			continue
		fi
		message "$here/$a/patches/$pa" >"$tmp/ma"
		message "$here/$b/patches/$pb" >"$tmp/mb"
		changes "$here/$a/patches/$pa" >"$tmp/ca"
		changes "$here/$b/patches/$pb" >"$tmp/cb"
		echo "$s ${pa%%-*} ${pb%%-*} message=$(delta "$tmp/ma" "$tmp/mb") changes=$(delta "$tmp/ca" "$tmp/cb")"
	done
	for pb in $(patches $b); do
		s=$(subject "$pb")
		patches $a | grep -qx "[0-9]*-$s" || echo "$s - ${pb%%-*} only-$b"
	done
}

table >"$tmp/now"
if [ "${1:-}" = --update ]; then
	{
		echo "# series-drift.sh --update: subject, 6.1 and 6.12 numbers, lines that differ"
		cat "$tmp/now"
	} >"$expected"
	echo "series-drift: recorded $(wc -l <"$tmp/now") pairs in $expected"
	exit 0
fi
[ -r "$expected" ] || { echo "series-drift: $expected: missing (run with --update)"; exit 2; }
awk '{ printf "%-4s %-4s %-9s %s %s\n", $2, $3, $4, $5, $1 }' "$tmp/now"
grep -v '^#' "$expected" >"$tmp/want"
if cmp -s "$tmp/want" "$tmp/now"; then
	echo "series-drift: $(wc -l <"$tmp/now") pairs as expected"
	exit 0
fi
diff "$tmp/want" "$tmp/now" | sed -n 's/^> /series-drift: unexpected: /p; s/^< /series-drift: expected, gone: /p'
exit 1
