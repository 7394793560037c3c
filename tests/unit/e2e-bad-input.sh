#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Bad input, end to end: the real kexec binary under tests/unit/fake-kexec.so
# (see e2e-load.sh for the set-up), fed one bad thing at a time while good
# images sit in the kernel's slots.  Every case asserts
#   - a non-zero exit and nothing on stdout;
#   - exactly one line on stderr, equal to the expected "kexec: WHAT: WHY"
#     (a shell pattern: only pids and sizes are left open);
#   - what was loaded before is still loaded: the fake's slot-normal and
#     slot-crash records name the same loads, sys/kernel/kexec_*loaded
#     are unchanged, and no kexec_load or reboot after the set-up succeeded.
# doc/bad-input.md lists the cases with their exact lines.
#
# Environment: as e2e-load.sh (KJUMP_BUILDDIR, KJUMP_FIXTURES, TMPDIR).
# Prints "PASS: unit/e2e-bad/NAME", "FAIL: ...: WHY" or "SKIP: ...: WHY"
# per case; exits 1 if any case failed.
#
# shellcheck disable=SC2015,SC2317
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${KJUMP_BUILDDIR:-.}" && pwd)
fixtures=${KJUMP_FIXTURES:-$here/fixtures}
kexec=$build/kexec/kexec
shim=$build/tests/unit/fake-kexec.so
mkimage=$build/tests/unit/make-fake-bzimage

CASES="corrupt-image truncated-image empty-image not-a-kernel missing-kernel
	kernel-is-directory missing-initrd empty-initrd cmdline-over-limit
	unknown-type mem-min-above-max mem-max-too-low mem-min-beyond-ram
	window-too-small fixed-kernel-outside-window panic-no-crash-region
	panic-region-too-small panic-not-relocatable exec-nothing-loaded
	jump-nothing-loaded second-kexec-flock second-kexec-running
	kernel-busy non-root load-disabled jump-buf-pfn-garbage
	unknown-short-option unknown-long-option long-option-missing-argument
	long-option-unwanted-argument"

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

# refused PATTERN [VAR=VALUE...] -- ARGS...: kexec ARGS fails with the one
# line PATTERN and changes nothing
refused() {
	pattern=$1
	shift
	snapshot
	kx "$@"
	[ "$rc" -ne 0 ] || fail "exit 0 for kexec $*" &&
	[ ! -s "$w/stdout" ] || fail "stdout: $(head -c 200 "$w/stdout")" &&
	one_line "$pattern" &&
	unchanged
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
initrd=$tmp/initrd
echo "an initrd" > "$initrd"
# exactly 64 and 65 bytes
at64=$(printf 'k%063d' 0)
over65=$(printf 'k%064d' 0)

# ------------------------------------------------------------- the shim

fresh
kx -- -v
[ -s "$out/preload" ] || skip_all "the LD_PRELOAD shim is not active (static kexec?)"

# ------------------------------------------------------------- cases

t_corrupt_image() {
	both_loaded &&
	refused "kexec: $tmp/corrupt: not a kernel image this kexec can load: not bzImage (boot flag is 0x0, not 0xaa55), not elf-x86 (no ELF magic)" \
		-- -l "$tmp/corrupt"
}

t_truncated_image() {
	both_loaded &&
	refused "kexec: $tmp/truncated: not a kernel image this kexec can load: not bzImage (truncated (* bytes, the header says *)), not elf-x86 (no ELF magic)" \
		-- -l "$tmp/truncated" &&
	refused "kexec: $tmp/truncated: not a kernel image this kexec can load: not bzImage (truncated (* bytes, the header says *)), not elf-x86 (no ELF magic)" \
		-- -p "$tmp/truncated"
}

t_empty_image() {
	both_loaded &&
	refused "kexec: $tmp/empty: kernel image is empty" -- -l "$tmp/empty"
}

# An ELF executable (kexec itself) is no bzImage.
t_not_a_kernel() {
	both_loaded &&
	refused "kexec: $tmp/elf: not a kernel image this kexec can load: not bzImage (no \"HdrS\" boot header), not elf-x86 (*)" \
		-- -l "$tmp/elf" &&
	refused "kexec: $tmp/elf: not a kernel image this kexec can load: not bzImage (no \"HdrS\" boot header), not elf-x86 (*)" \
		-- -p "$tmp/elf"
}

t_missing_kernel() {
	both_loaded &&
	refused "kexec: kernel $tmp/nothing: No such file or directory" \
		-- -l "$tmp/nothing"
}

t_kernel_is_directory() {
	both_loaded &&
	refused "kexec: kernel $tmp/dir: Is a directory" -- -l "$tmp/dir"
}

t_missing_initrd() {
	both_loaded &&
	refused "kexec: initrd $tmp/no-initrd: No such file or directory" \
		-- -l "$kernel" --initrd="$tmp/no-initrd" &&
	refused "kexec: initrd $tmp/no-initrd: No such file or directory" \
		-- -p "$kernel" --initrd="$tmp/no-initrd"
}

t_empty_initrd() {
	both_loaded &&
	refused "kexec: $tmp/empty: initrd is empty" \
		-- -l "$kernel" --initrd="$tmp/empty"
}

# cmdline_size 64: 65 bytes are refused, exactly 64 load.
t_cmdline_over_limit() {
	both_loaded &&
	refused "kexec: command line: 65 bytes, this kernel takes at most 64" \
		-- -l "$tmp/cmdline64" --append="$over65" &&
	good -l "$tmp/cmdline64" --append="$at64" &&
	[ "$(slot normal)" = load-3 ] || fail "the 64-byte load is not in the slot" &&
	cat "$out"/load-3/segment-*.bin | tr '\0' '\n' | grep -aqx "$at64" ||
		fail "the 64-byte command line is not in the image"
}

t_unknown_type() {
	both_loaded &&
	refused "kexec: -t elf: unknown image type (known: bzImage, elf-x86)" \
		-- -l -t elf "$kernel"
}

t_mem_min_above_max() {
	both_loaded &&
	refused "kexec: --mem-min: 0x2000000 is above --mem-max 0x1ffffff" \
		-- -l "$kernel" --mem-min=0x2000000 --mem-max=0x1ffffff
}

# The kernel wants 16 MiB (pref_address) or more; 1 MiB is all it may use.
t_mem_max_too_low() {
	both_loaded &&
	refused "kexec: kernel: no room for 0x100000 bytes: it must go in 0x1000000-0x37ffffff, outside --mem-min/--mem-max 0x0-0xfffff" \
		-- -l "$kernel" --mem-max=0xfffff
}

# The firmware map has RAM 0x0-0x9fbff and 0x100000-0x1ffdffff.
t_mem_min_beyond_ram() {
	both_loaded &&
	refused "kexec: kernel: no room for 0x100000 bytes: no usable memory in 0x20000000-0x37ffffff (usable: 0x0-0x1ffdffff; check --mem-min/--mem-max)" \
		-- -l "$kernel" --mem-min=0x20000000
}

t_window_too_small() {
	both_loaded &&
	refused "kexec: kernel: no room for 0x100000 bytes in 0x1000000-0x107ffff (check --mem-min/--mem-max)" \
		-- -l "$kernel" --mem-min=0x1000000 --mem-max=0x107ffff
}

# A kernel that is not relocatable goes to 1 MiB or nowhere.
t_fixed_kernel_outside_window() {
	both_loaded &&
	refused "kexec: kernel: 0x100000-0x13ffff is outside --mem-min/--mem-max 0x2000000-0xffffffffffffffff" \
		-- -l "$tmp/fixed" --mem-min=0x2000000
}

t_panic_no_crash_region() {
	good -l "$kernel" &&
	grep -v 'Crash kernel' "$root/proc/iomem" > "$w/iomem" &&
	cp "$w/iomem" "$root/proc/iomem" &&
	refused "kexec: -p: no crash kernel memory reserved (boot with crashkernel=SIZE, e.g. crashkernel=64M)" \
		-- -p "$kernel"
}

# A 1 MiB crash region cannot hold the kernel's 1 MiB plus the rest.
t_panic_region_too_small() {
	good -l "$kernel" &&
	sed 's/1a000000-1dffffff : Crash kernel/1a000000-1a0fffff : Crash kernel/' \
		"$root/proc/iomem" > "$w/iomem" &&
	cp "$w/iomem" "$root/proc/iomem" &&
	grep -q '1a0fffff : Crash kernel' "$root/proc/iomem" ||
		fail "fixture: no crash region to shrink" &&
	refused "kexec: *: no room for 0x* bytes* (the crash kernel region is too small; reserve more with crashkernel=)" \
		-- -p "$kernel"
}

t_panic_not_relocatable() {
	both_loaded &&
	refused "kexec: $tmp/fixed: -p needs a relocatable kernel (CONFIG_RELOCATABLE)" \
		-- -p "$tmp/fixed"
}

# -e with only a crash kernel loaded.
t_exec_nothing_loaded() {
	good -p "$kernel" &&
	refused "kexec: exec: nothing loaded (load a kernel with kexec -l first)" \
		-- -e &&
	! calls | grep -q '^reboot' || fail "reboot was called"
}

# -j with only a normal kernel loaded.
t_jump_nothing_loaded() {
	good -l "$kernel" &&
	refused "kexec: jump: nothing loaded (load a kernel with kexec -p first)" \
		-- -j &&
	! calls | grep -q '^reboot' || fail "reboot was called"
}

# Another process holds the lock (flock(1)) and wrote its pid: every action
# that changes kernel state is refused; once it lets go, they work.
t_second_kexec_flock() {
	command -v flock >/dev/null || { why="SKIP: no flock(1)"; return 1; }
	both_loaded || return 1
	exec 9>"$lock"
	if ! flock -n 9; then
		exec 9>&-
		fail "cannot take $lock"
		return 1
	fi
	echo 4242 >&9
	refused "kexec: load: another kexec is running (pid 4242)" -- -l "$kernel" &&
	refused "kexec: load: another kexec is running (pid 4242)" -- -p "$kernel" &&
	refused "kexec: load: another kexec is running (pid 4242)" -- -f "$kernel" &&
	refused "kexec: unload: another kexec is running (pid 4242)" -- -u &&
	refused "kexec: exec: another kexec is running (pid 4242)" -- -e &&
	refused "kexec: jump: another kexec is running (pid 4242)" -- -j &&
	kx -- -S && [ "$rc" -eq 1 ] || fail "-S is read-only and needs no lock: rc=$rc"
	res=$?
	exec 9>&-
	[ "$res" -eq 0 ] &&
	good -u && [ "$(slot normal)" = none ] || fail "-u after the lock was released"
}

# A real kexec holds the lock while it waits for its kernel on a FIFO.
t_second_kexec_running() {
	command -v timeout >/dev/null || { why="SKIP: no timeout(1)"; return 1; }
	both_loaded || return 1
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
		fail "the first kexec (pid $holder) did not take the lock" &&
	refused "kexec: load: another kexec is running (pid $holder)" \
		-- -l "$kernel" --append=second
	res=$?
	# shellcheck disable=SC2016 # expanded by the inner sh
	timeout 20 sh -c 'cat "$1" > "$2"' sh "$kernel" "$w/fifo" ||
		fail "could not feed the first kexec"
	wait "$holder"
	frc=$?
	[ "$res" -eq 0 ] &&
	[ "$frc" -eq 0 ] || fail "the first kexec: rc=$frc $(head -c 200 "$w/first.err")" &&
	[ "$(slot normal)" = load-3 ] || fail "slot-normal is $(slot normal), want load-3" &&
	grep -q third "$out"/load-3/segment-*.bin || fail "load-3 is not the first kexec's"
}

# The kernel's own lock: EBUSY from kexec_load and from reboot.
t_kernel_busy() {
	both_loaded &&
	refused "kexec: kexec_load: the kernel is busy with another kexec load or reboot (try again)" \
		KJUMP_FAKE_ERRNO=EBUSY -- -l "$kernel" &&
	refused "kexec: kexec_load: the kernel is busy with another kexec load or reboot (try again)" \
		KJUMP_FAKE_ERRNO=EBUSY -- -p "$kernel" &&
	refused "kexec: unload: the kernel is busy with another kexec load or reboot (try again)" \
		KJUMP_FAKE_ERRNO=EBUSY -- -u &&
	refused "kexec: exec: the kernel is busy with another kexec load or reboot (try again)" \
		KJUMP_FAKE_REBOOT_ERRNO=EBUSY -- -e -x
}

# Without CAP_SYS_BOOT (the fake checks it with KJUMP_FAKE_NEED_CAP):
# as root, drop to nobody with setpriv(1).
t_non_root() {
	both_loaded || return 1
	caps=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
	if [ -n "$caps" ] && [ $(((0x$caps >> 22) & 1)) -eq 1 ]; then
		[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null ||
			{ why="SKIP: CAP_SYS_BOOT held and no setpriv to drop it"; return 1; }
		prefix="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --"
		chmod 755 "$tmp" "$w"
		chmod 777 "$out"
		chmod 666 "$out"/*
	fi
	refused "kexec: kexec_load: not permitted: this process lacks CAP_SYS_BOOT (run kexec as root)" \
		KJUMP_FAKE_NEED_CAP=1 -- -l "$kernel" &&
	refused "kexec: kexec_load: not permitted: this process lacks CAP_SYS_BOOT (run kexec as root)" \
		KJUMP_FAKE_NEED_CAP=1 -- -p "$kernel" &&
	refused "kexec: unload: not permitted: this process lacks CAP_SYS_BOOT (run kexec as root)" \
		KJUMP_FAKE_NEED_CAP=1 -- -u &&
	refused "kexec: exec: not permitted (needs CAP_SYS_BOOT)" \
		KJUMP_FAKE_NEED_CAP=1 -- -e -x &&
	refused "kexec: jump: not permitted (needs CAP_SYS_BOOT)" \
		KJUMP_FAKE_NEED_CAP=1 -- -j
}

# kernel.kexec_load_disabled=1: kexec_load says EPERM, for unloads too.
t_load_disabled() {
	both_loaded || return 1
	mkdir -p "$root/proc/sys/kernel"
	echo 1 > "$root/proc/sys/kernel/kexec_load_disabled"
	refused "kexec: kexec_load: disabled by sysctl kernel.kexec_load_disabled=1 (it stays set until reboot)" \
		-- -l "$kernel" &&
	refused "kexec: kexec_load: disabled by sysctl kernel.kexec_load_disabled=1 (it stays set until reboot)" \
		-- -p "$kernel" &&
	refused "kexec: unload: disabled by sysctl kernel.kexec_load_disabled=1 (it stays set until reboot)" \
		-- -p -u
}

t_jump_buf_pfn_garbage() {
	both_loaded || return 1
	for g in zzz 0 0x 12abc -5 ""; do
		printf '%s\n' "$g" > "$root/sys/kernel/kexec_jump_buf_pfn"
		refused "kexec: /sys/kernel/kexec_jump_buf_pfn: not a valid page frame number" \
			-- -p "$kernel" || { why="pfn '$g': $why"; return 1; }
	done
}

t_unknown_short_option() {
	both_loaded &&
	refused "kexec: -q: unknown option (try 'kexec --help')" -- -q -l "$kernel" &&
	refused "kexec: -q: unknown option (try 'kexec --help')" -- -uq
}

t_unknown_long_option() {
	both_loaded &&
	refused "kexec: --bogus: unknown option (try 'kexec --help')" -- --bogus -u &&
	refused "kexec: --bogus=1: unknown option (try 'kexec --help')" -- -l "$kernel" --bogus=1
}

t_long_option_missing_argument() {
	both_loaded &&
	refused "kexec: --initrd: needs an argument" -- -l "$kernel" --initrd &&
	refused "kexec: --mem-max: needs an argument" -- -l "$kernel" --mem-max &&
	refused "kexec: -t: needs an argument" -- -l "$kernel" -t
}

t_long_option_unwanted_argument() {
	both_loaded &&
	refused "kexec: --unload=1: takes no argument" -- --unload=1
}

for c in $CASES; do
	fresh
	why=
	fn=t_$(echo "$c" | tr - _)
	if $fn; then
		say PASS "$c"
	else
		case $why in
		"SKIP: "*) say SKIP "$c" "${why#SKIP: }" ;;
		*) say FAIL "$c" "${why:-failed}"; failed=1 ;;
		esac
	fi
done
exit $failed
