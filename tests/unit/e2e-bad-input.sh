#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad input, end to end: the real kexec binary under tests/unit/fake-kexec.so
# (see e2e-load.sh for the set-up), fed one bad thing at a time while good
# images sit in the kernel's slots.  The cases are the rows of
# tests/unit/bad-input.table (its header says what a row checks); this
# script makes the inputs and runs the rows.  Every refused command must
# exit 1 with nothing on stdout and exactly one line on stderr, matching
# the expected "kexec: WHAT: WHY" (a shell pattern: only pids and sizes
# are left open), and leave what was loaded before loaded.
# doc/bad-input.md lists the cases with their exact lines.
#
# Environment: as e2e-load.sh (KJUMP_BUILDDIR, KJUMP_FIXTURES, TMPDIR);
# KJUMP_BAD_INPUT_TABLE another table instead.
# Prints "PASS: unit/e2e-bad/NAME", "FAIL: ...: WHY" or "SKIP: ...: WHY"
# per case; exits 1 if any case failed.
#
# shellcheck disable=SC2015
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${KJUMP_BUILDDIR:-.}" && pwd)
fixtures=${KJUMP_FIXTURES:-$here/fixtures}
table=${KJUMP_BAD_INPUT_TABLE:-$here/bad-input.table}
kexec=$build/tests/unit/kexec-i386
shim=$build/tests/unit/fake-kexec.so
mkimage=$build/tests/unit/make-fake-bzimage

[ -r "$table" ] || { echo "FAIL: unit/e2e-bad: no table $table"; exit 1; }
# The cases, in the table's order.
CASES=$(sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' -e 's/[[:space:]]*|.*//' \
	"$table" | uniq)

failed=0

say() {
	echo "$1: unit/e2e-bad/$2${3:+: $3}"
}

skip_all() {
	for c in $CASES; do
		say SKIP "$c" "$1"
	done
	exit 0
}

for f in "$kexec" "$mkimage"; do
	[ -x "$f" ] || skip_all "$f not built"
done
[ -f "$shim" ] || skip_all "$shim not built"
[ -d "$fixtures/qemu-i386-512m" ] || skip_all "no fixtures in $fixtures (set KJUMP_FIXTURES)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjump-e2e-bad.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# ------------------------------------------------------------- helpers

# fresh: a new fake root ($root, with run/ for the lock file) and record
# directory ($out), nothing loaded
n=0
fresh() {
	n=$((n + 1))
	w=$tmp/case$n
	root=$w/root
	out=$w/out
	mkdir -p "$w" "$out"
	cp -R "$fixtures/qemu-i386-512m" "$root"
	chmod -R u+w "$root"
	mkdir -p "$root/sys/kernel" "$root/run"
	echo 0 > "$root/sys/kernel/kexec_loaded"
	echo 0 > "$root/sys/kernel/kexec_crash_loaded"
	# a kernel with the kexec jump companion
	echo 0x1f00 > "$root/sys/kernel/kexec_jump_buf_pfn"
	lock=$root/run/kexec-tools-kjump.lock
	prefix=
}

# kx [VAR=VALUE...] -- ARGS...: kexec under the shim (after $prefix, a
# command such as setpriv); sets $rc, leaves $w/stdout and $w/stderr
kx() {
	envs=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	# shellcheck disable=SC2086 # prefix and envs are word lists
	$prefix env LD_PRELOAD="$shim" KJUMP_FAKE_ROOT="$root" \
		KJUMP_FAKE_OUT="$out" $envs "$kexec" "$@" \
		>"$w/stdout" 2>"$w/stderr" </dev/null
	rc=$?
}

why=

fail() {
	[ -n "$why" ] || why=$*
	return 1
}

calls() {
	cat "$out/calls" 2>/dev/null
}

slot() {
	cat "$out/slot-$1" 2>/dev/null || echo untouched
}

sys_loaded() {
	echo "$(cat "$root/sys/kernel/kexec_loaded")/$(cat "$root/sys/kernel/kexec_crash_loaded")"
}

# good ARGS...: a load that must work (set-up)
good() {
	kx -- "$@"
	[ "$rc" -eq 0 ] && [ ! -s "$w/stderr" ] ||
		fail "set-up kexec $* failed: rc=$rc $(head -c 300 "$w/stderr" | tr '\n' '|')"
}

# both_loaded: a good image in each slot (load-1 normal, load-2 crash)
both_loaded() {
	good -l "$kernel" --append=first &&
	good -p "$kernel" --append=crash &&
	[ "$(slot normal)/$(slot crash)" = load-1/load-2 ] ||
		fail "set-up slots: $(slot normal)/$(slot crash)"
}

snapshot() {
	snap_slots="$(slot normal)/$(slot crash)"
	snap_sys=$(sys_loaded)
	snap_calls=$(calls | wc -l)
}

# unchanged: the slots hold what they held at the snapshot, and nothing
# since then succeeded in the kernel
unchanged() {
	[ "$(slot normal)/$(slot crash)" = "$snap_slots" ] ||
		fail "slots were $snap_slots, now $(slot normal)/$(slot crash)" &&
	[ "$(sys_loaded)" = "$snap_sys" ] ||
		fail "kexec_loaded/kexec_crash_loaded were $snap_sys, now $(sys_loaded)" &&
	! calls | tail -n "+$((snap_calls + 1))" | grep -q 'result=OK' ||
		fail "a call succeeded: $(calls | tail -n "+$((snap_calls + 1))" | grep 'result=OK' | head -n 1)"
}

# one_line PATTERN: stderr is exactly one line matching the shell PATTERN
one_line() {
	lines=$(wc -l < "$w/stderr")
	first=$(head -n 1 "$w/stderr")
	[ "$lines" -eq 1 ] ||
		fail "$lines stderr lines, want 1: $(head -c 300 "$w/stderr" | tr '\n' '|')" ||
		return 1
	# shellcheck disable=SC2254 # the pattern is meant to match
	case $first in
	$1) ;;
	*) fail "stderr: '$first', want '$1'" ;;
	esac
}

# ------------------------------------------------------------- inputs

kernel=$tmp/bzImage
"$mkimage" "$kernel" --payload 200000 --init-size 0x100000 || exit 1
"$mkimage" "$tmp/truncated" --payload 200000 --truncate 4096 || exit 1
"$mkimage" "$tmp/cmdline64" --cmdline-size 64 || exit 1
"$mkimage" "$tmp/fixed" --fixed || exit 1
cp "$kernel" "$tmp/corrupt"
# the boot flag at 0x1fe: 0xaa55 -> 0
printf '\000\000' | dd of="$tmp/corrupt" bs=1 seek=510 conv=notrunc 2>/dev/null
head -c 16384 "$kexec" > "$tmp/elf"
: > "$tmp/empty"
mkdir "$tmp/dir"
# exactly 64 and 65 bytes (for the table: see expand)
# shellcheck disable=SC2034
at64=$(printf 'k%063d' 0)
# shellcheck disable=SC2034
over65=$(printf 'k%064d' 0)

# ------------------------------------------------------------- the shim

fresh
kx -- -v
[ -s "$out/preload" ] || skip_all "the LD_PRELOAD shim is not active (static kexec?)"


# ------------------------------------------------------------- the table

# expand TEXT: set $expanded to TEXT with $tmp, $kernel, $at64, $over65
# and $holder replaced by their values
expand() {
	in=$1
	expanded=
	while :; do
		case $in in
		*'$'*) ;;
		*) break ;;
		esac
		expanded=$expanded${in%%'$'*}
		in=${in#*'$'}
		var=${in%%[!a-z0-9]*}
		in=${in#"$var"}
		case $var in
		tmp | kernel | at64 | over65 | holder) eval "expanded=\$expanded\$$var" ;;
		*) fail "unknown \$$var in the table"; return 1 ;;
		esac
	done
	expanded=$expanded$in
}

trim() {
	t=${1#"${1%%[![:space:]]*}"}
	printf '%s\n' "${t%"${t##*[![:space:]]}"}"
}

# step WORD: one BEFORE or AFTER step (see the table's header)
step() {
	case $1 in
	loaded) both_loaded ;;
	loaded-normal) good -l "$kernel" ;;
	loaded-crash) good -p "$kernel" ;;
	no-crash-region)
		grep -v 'Crash kernel' "$root/proc/iomem" > "$w/iomem" &&
		cp "$w/iomem" "$root/proc/iomem"
		;;
	small-crash-region)
		sed 's/1a000000-1dffffff : Crash kernel/1a000000-1a0fffff : Crash kernel/' \
			"$root/proc/iomem" > "$w/iomem" &&
		cp "$w/iomem" "$root/proc/iomem" &&
		grep -q '1a0fffff : Crash kernel' "$root/proc/iomem" ||
			fail "fixture: no crash region to shrink"
		;;
	load-disabled)
		mkdir -p "$root/proc/sys/kernel" &&
		echo 1 > "$root/proc/sys/kernel/kexec_load_disabled"
		;;
	pfn=*) printf '%s\n' "${1#pfn=}" > "$root/sys/kernel/kexec_jump_buf_pfn" ;;
	needs=*)
		command -v "${1#needs=}" >/dev/null ||
			{ why="SKIP: no ${1#needs=}(1)"; return 1; }
		;;
	lock-held=*)
		exec 9>"$lock"
		flock -n 9 || { exec 9>&-; fail "cannot take $lock"; return 1; }
		echo "${1#lock-held=}" >&9
		;;
	lock-released) exec 9>&- ;;
	holder)
		mkfifo "$w/fifo" || { fail "mkfifo"; return 1; }
		env LD_PRELOAD="$shim" KJUMP_FAKE_ROOT="$root" KJUMP_FAKE_OUT="$out" \
			"$kexec" -l "$w/fifo" --append=third \
			>"$w/first.out" 2>"$w/first.err" </dev/null &
		holder=$!
		# it writes its pid once it holds the lock, then opens the FIFO
		i=0
		while [ "$(cat "$lock" 2>/dev/null)" != "$holder" ] && [ "$i" -lt 400 ]; do
			i=$((i + 1))
			sleep 0.05
		done
		[ "$(cat "$lock" 2>/dev/null)" = "$holder" ] ||
			fail "the first kexec (pid $holder) did not take the lock"
		;;
	holder-done)
		# shellcheck disable=SC2016 # expanded by the inner sh
		timeout 20 sh -c 'cat "$1" > "$2"' sh "$kernel" "$w/fifo" ||
			fail "could not feed the first kexec"
		wait "$holder"
		frc=$?
		holder=
		[ "$frc" -eq 0 ] ||
			fail "the first kexec: rc=$frc $(head -c 200 "$w/first.err")"
		;;
	no-cap-sys-boot)
		caps=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
		if [ -n "$caps" ] && [ $(((0x$caps >> 22) & 1)) -eq 1 ]; then
			[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null ||
				{ why="SKIP: CAP_SYS_BOOT held and no setpriv to drop it"; return 1; }
			prefix="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --"
			chmod 755 "$tmp" "$w"
			chmod 777 "$out"
			chmod 666 "$out"/*
		fi
		;;
	slot-normal=*)
		[ "$(slot normal)" = "${1#slot-normal=}" ] ||
			fail "slot-normal is $(slot normal), want ${1#slot-normal=}"
		;;
	cmdline=*)
		v=${1#cmdline=}
		cat "$out/${v%%:*}"/segment-*.bin 2>/dev/null | tr '\0' '\n' |
			grep -aqxF -e "${v#*:}" ||
			fail "no segment of ${v%%:*} holds the string '${v#*:}'"
		;;
	no-reboot) ! calls | grep -q '^reboot' || fail "reboot was called" ;;
	*) fail "unknown step '$1' in the table" ;;
	esac
}

# steps WORDS: each step in turn, up to the first that fails
# shellcheck disable=SC2086 # the steps are split at blanks
steps() {
	set -f
	set -- $1
	set +f
	for s in "$@"; do
		expand "$s" && step "$expanded" || return 1
	done
}

# row BEFORE COMMAND EXIT STDERR AFTER: run one row of the table
row() {
	steps "$1" || return 1
	want_rc=$3 after=$5
	expand "$4" || return 1
	pattern=$expanded
	expand "$2" || return 1
	set -f
	# shellcheck disable=SC2086 # the command is split at blanks
	set -- $expanded
	set +f
	envs=
	while [ $# -gt 0 ]; do
		case $1 in
		[A-Z]*=*) envs="$envs $1"; shift ;;
		*) break ;;
		esac
	done
	snapshot
	# shellcheck disable=SC2086 # envs is a word list
	kx $envs -- "$@"
	[ "$rc" -eq "$want_rc" ] ||
		fail "exit status $rc, want $want_rc: $(head -c 300 "$w/stderr" | tr '\n' '|')" ||
		return 1
	case $pattern in
	-) ;;
	"") [ ! -s "$w/stderr" ] ||
		fail "stderr: $(head -c 300 "$w/stderr" | tr '\n' '|')" ;;
	*)
		[ ! -s "$w/stdout" ] || fail "stdout: $(head -c 200 "$w/stdout")" &&
		one_line "$pattern" &&
		unchanged
		;;
	esac || return 1
	steps "$after"
}

# run_case CASE: its rows, in one fresh fake root, up to the first failure
run_case() {
	fresh
	why=
	holder=
	ok=0
	lineno=0
	while IFS= read -r line <&4; do
		lineno=$((lineno + 1))
		case $(trim "$line") in
		"" | "#"*) continue ;;
		esac
		IFS='|' read -r name before cmd want_rc pattern after <<-EOF
			$line
		EOF
		[ "$(trim "$name")" = "$1" ] || continue
		case $after in
		*'|'*) fail "table line $lineno: more than 6 fields"; ok=1; break ;;
		esac
		if ! row "$(trim "$before")" "$(trim "$cmd")" "$(trim "$want_rc")" \
			"$(trim "$pattern")" "$(trim "$after")"; then
			case $why in
			"SKIP: "*) ;;
			*) why="table line $lineno: ${why:-failed}" ;;
			esac
			ok=1
			break
		fi
	done 4<"$table"
	exec 9>&-
	if [ -n "$holder" ]; then
		kill "$holder" 2>/dev/null
		wait "$holder" 2>/dev/null
	fi
	return $ok
}

for c in $CASES; do
	if run_case "$c"; then
		say PASS "$c"
	else
		case $why in
		"SKIP: "*) say SKIP "$c" "${why#SKIP: }" ;;
		*) say FAIL "$c" "${why:-failed}"; failed=1 ;;
		esac
	fi
done
exit $failed
