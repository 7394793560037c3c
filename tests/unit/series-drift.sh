#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# kernel-companion/series-drift.sh: the two versions of the series drift
# from each other only as recorded (series-drift.expected), and the check
# can fail: a copy of the series with a changed line in one 6.1 patch, a
# 6.12 patch that lost its twin, must each be reported.
#   as-recorded  the tree's series: as expected
#   one-sided    a "+" line changed in 6.1's 0023 only: unexpected,
#                its figure going from 44 to 46
#   unpaired     6.12's 0022 renamed: its pair gone, named
# Prints "PASS: unit/series-drift/CASE" or "FAIL: ...: WHY" per case.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
script=$top/kernel-companion/series-drift.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/series-drift-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0
pass() { echo "PASS: unit/series-drift/$1"; }
fail() { echo "FAIL: unit/series-drift/$1: $2"; failed=1; }

if out=$(sh "$script" 2>&1); then
	pass as-recorded
else
	fail as-recorded "$(echo "$out" | grep '^series-drift:' | head -n 3 | tr '\n' ';')"
fi

copy() {
	rm -rf "$tmp/c"
	mkdir -p "$tmp/c"
	cp -R "$top/kernel-companion/6.1" "$top/kernel-companion/6.12" \
		"$top/kernel-companion/series-drift.expected" "$tmp/c/"
}

copy
p=$(ls "$tmp/c/6.1/patches"/0023-*.patch)
# the first added line of the diff, changed
awk 'done || !/^\+[^+]/ { print; next } { print $0 " /* drift */"; done = 1 }' \
	"$p" >"$tmp/p" && mv "$tmp/p" "$p"
if out=$(KJUMP_COMPANION_DIR=$tmp/c sh "$script" 2>&1); then
	fail one-sided "a change to 6.1's 0023 alone was not noticed"
elif echo "$out" | grep -q "^series-drift: unexpected: kexec-Enter-a-parked-crash.*changes=46"; then
	pass one-sided
else
	fail one-sided "not named: $(echo "$out" | tail -n 2 | tr '\n' ';')"
fi

copy
p=$(ls "$tmp/c/6.12/patches"/0022-*.patch)
mv "$p" "$tmp/c/6.12/patches/0022-kexec-Something-else.patch"
sed -i "s|^${p##*/}\$|0022-kexec-Something-else.patch|" "$tmp/c/6.12/series"
if out=$(KJUMP_COMPANION_DIR=$tmp/c sh "$script" 2>&1); then
	fail unpaired "a patch without its twin was not noticed"
elif echo "$out" | grep -q "only-6.12.*Something-else\|Something-else.*only-6.12"; then
	pass unpaired
else
	fail unpaired "not named: $(echo "$out" | tail -n 3 | tr '\n' ';')"
fi
exit $failed
