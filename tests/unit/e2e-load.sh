#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# End-to-end runs of the real kexec binary without a kernel to load into:
# tests/unit/fake-kexec.so (LD_PRELOAD) records kexec_load(2) and
# reboot(2) instead of making them and serves /proc and /sys from a fake
# root built from tests/unit/fixtures/qemu-i386-512m; tests/unit/check-load
# then judges the recorded segments.
#
# Environment:
#   KJUMP_BUILDDIR  top of the build tree, holding tests/unit/kexec-i386 and
#                   tests/unit/{fake-kexec.so,check-load,make-fake-bzimage}
#                   (default: the current directory)
#   KJUMP_FIXTURES  tests/unit/fixtures of the source tree
#                   (default: fixtures next to this script)
#   KJUMP_BZIMAGE   a real bzImage to load instead of a synthetic one
#   KJUMP_VMLINUX   a real vmlinux for the elf-real-vmlinux case (else SKIP)
#   TMPDIR          scratch space (removed afterwards)
#
# Prints one line per case: "PASS: unit/e2e/NAME", "FAIL: unit/e2e/NAME:
# WHY" or "SKIP: unit/e2e/NAME: WHY"; exits 1 if any case failed.
#
# Safety: the shim is what keeps kexec -e from rebooting this machine.
# It is proven active (kexec -v must leave its mark) before any case runs;
# if it is not (a static kexec ignores LD_PRELOAD), every case is skipped.
#
# The cases are "check || fail WHY && check || fail WHY ..." chains called
# through $fn: hence the shellcheck exceptions.
# shellcheck disable=SC2015,SC2317
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${KJUMP_BUILDDIR:-.}" && pwd)
fixtures=${KJUMP_FIXTURES:-$here/fixtures}
kexec=$build/tests/unit/kexec-i386
shim=$build/tests/unit/fake-kexec.so
check=$build/tests/unit/check-load
mkimage=$build/tests/unit/make-fake-bzimage
mkelf=$build/tests/unit/make-fake-elf

CASES="load-initrd-append reuse-cmdline no-checks debug truncated-image
	cmdline-too-long load-eperm unload unload-parked load-parked
	unload-busy unload-discard discard-misused exec-not-loaded exec-loaded
	exec-no-sync-no-ifdown force jump jump-refused jump-save-refused
	jump-stock-kernel
	jump-nothing-loaded jump-back jump-back-crashed jump-peer-crashed
	default-shutdown
	missing-kernel
	load-panic load-panic-jump load-panic-no-jump no-jump-misused
	jump-not-for-jump panic-cmdline-too-long panic-reuse-cmdline status-crash
	status-normal preserve-load preserve-window-too-big preserve-exec
	helper-from-cmdline helper-no-entry helper-already-loaded
	jump-fallback-a jump-fallback-b jump-fallback-nothing
	preserve-mark-cleared bzimage-entry elf-args-linux elf-probed
	elf-args-none elf-entry elf-refused elf-type-unknown not-any-image
	elf-real-vmlinux elf-preserve elf-preserve-args-none
	hib-helper-mark hib-lockdown hib-request-refused hib-no-companion
	file-load file-load-panic file-unload file-auto-fallback
	file-auto-options file-not-64 file-auto-enosys file-enosys
	file-lockdown-unsigned file-lockdown-eperm file-panic-refused
	file-cmdline-too-long file-only-kexec-load file-panic-no-region
	load-on-x86-64 acpi-rsdp"

failed=0

say() {
	echo "$1: unit/e2e/$2${3:+: $3}"
}

skip_all() {
	for c in $CASES; do
		say SKIP "$c" "$1"
	done
	exit 0
}

for f in "$kexec" "$check" "$mkimage" "$mkelf"; do
	[ -x "$f" ] || skip_all "$f not built"
done
[ -f "$shim" ] || skip_all "$shim not built"
[ -d "$fixtures/qemu-i386-512m" ] || skip_all "no fixtures in $fixtures (set KJUMP_FIXTURES)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kjump-e2e.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

# ------------------------------------------------------------- helpers

# fresh: a new fake root ($root) and record directory ($out), nothing loaded
n=0
fresh() {
	n=$((n + 1))
	w=$tmp/case$n
	root=$w/root
	out=$w/out
	mkdir -p "$w" "$out"
	cp -R "$fixtures/qemu-i386-512m" "$root"
	chmod -R u+w "$root"	# distcheck's source tree is read-only
	mkdir -p "$root/sys/kernel"
	echo 0 > "$root/sys/kernel/kexec_loaded"
	echo 0 > "$root/sys/kernel/kexec_crash_loaded"
	mkdir -p "$root/run" "$root/proc/sys/kernel/random"
	echo "e2e-boot-$n" > "$root/proc/sys/kernel/random/boot_id"
}

# kx [VAR=VALUE...] -- ARGS...: kexec under the shim; sets $rc and
# leaves $w/stdout and $w/stderr
kx() {
	envs=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	# shellcheck disable=SC2086 # envs is a list of VAR=VALUE words
	env LD_PRELOAD="$shim" KJUMP_FAKE_ROOT="$root" KJUMP_FAKE_OUT="$out" \
		$envs "$kexec" "$@" >"$w/stdout" 2>"$w/stderr" </dev/null
	rc=$?
}

# The checks below return 1 on a problem; $why keeps the first one (the
# "a || fail X && b || fail Y" chains call fail more than once).
why=

fail() {
	[ -n "$why" ] || why=$*
	return 1
}

want_rc() {
	[ "$rc" -eq "$1" ] ||
		fail "exit $rc, want $1 (stderr: $(head -c 300 "$w/stderr" | tr '\n' '|'))"
}

no_stderr() {
	[ ! -s "$w/stderr" ] || fail "stderr: $(head -c 300 "$w/stderr" | tr '\n' '|')"
}

# one_error TEXT: stderr is one "kexec: " line containing TEXT
one_error() {
	lines=$(wc -l < "$w/stderr")
	first=$(head -n 1 "$w/stderr")
	[ "$lines" -eq 1 ] || fail "$lines stderr lines, want 1: $(head -c 300 "$w/stderr" | tr '\n' '|')" || return 1
	case $first in
	"kexec: "*) ;;
	*) fail "stderr does not start with 'kexec: ': $first"; return 1 ;;
	esac
	case $first in
	*"$1"*) ;;
	*) fail "stderr lacks '$1': $first"; return 1 ;;
	esac
}

calls() {
	cat "$out/calls" 2>/dev/null
}

# nr_calls WORD: how many recorded calls start with WORD
nr_calls() {
	calls | grep -cE "^$1( |\$)" || :
}

loaded() {
	cat "$root/sys/kernel/kexec_loaded"
}

last_load() {
	calls | sed -n 's/^kexec_load \(load-[0-9]*\) .*/\1/p' | tail -n 1
}

last_result() {
	calls | grep "^$1 " | tail -n 1 | sed 's/.*result=//'
}

# check_last CHECK-LOAD-ARGS...: the last load passes check-load
check_last() {
	l=$(last_load)
	[ -n "$l" ] || fail "no kexec_load recorded" || return 1
	"$check" --dump "$out/$l" --root "$root" --kernel "$kernel" "$@" \
		>"$w/check" 2>&1 ||
		fail "$(head -n 3 "$w/check" | tr '\n' '|')"
}

# flags of every kexec_load call: never KEXEC_DEBUG (0x10)
no_debug_flag() {
	for f in $(calls | sed -n 's/^kexec_load .* flags=\(0x[0-9a-f]*\) .*/\1/p'); do
		[ $((f & 0x10)) -eq 0 ] || fail "kexec_load flags $f contain 0x10" ||
			return 1
	done
}

load_ok() {
	kx -- -l "$kernel" "$@"
	want_rc 0 && [ "$(last_result kexec_load)" = OK ] ||
		fail "setup load failed: ${why:-result $(last_result kexec_load)}"
}

# ------------------------------------------------------------- inputs

synth=$tmp/bzImage
"$mkimage" "$synth" --payload 200000 --init-size 0x100000 || exit 1
if [ -n "${KJUMP_BZIMAGE:-}" ]; then
	kernel=$KJUMP_BZIMAGE
else
	kernel=$synth
fi
"$mkimage" "$tmp/truncated" --payload 200000 --truncate 4096 || exit 1
"$mkimage" "$tmp/small-cmdline" --cmdline-size 64 || exit 1
elf=$tmp/vmlinux
"$mkelf" "$elf" || exit 1
# 64-bit bzImages (XLF_KERNEL_64 | XLF_CAN_BE_LOADED_ABOVE_4G) for -s
bz64=$tmp/bzImage64
"$mkimage" "$bz64" --payload 200000 --xloadflags 3 || exit 1
bz64s=$tmp/bzImage64-signed
"$mkimage" "$bz64s" --payload 200000 --xloadflags 3 --signed || exit 1
initrd=$tmp/initrd
awk 'BEGIN { for (i = 0; i < 3000; i++) printf "initrd line %06d\n", i }' \
	> "$initrd"
long=$(awk 'BEGIN { for (i = 0; i < 20; i++) printf "word%02d ", i }')

# ------------------------------------------------------------- the shim

fresh
kx -- -v
if [ ! -s "$out/preload" ]; then
	skip_all "the LD_PRELOAD shim is not active (static kexec?)"
fi
case $(cat "$w/stdout") in
kexec-tools-kjump*) ;;
*) skip_all "kexec -v printed '$(cat "$w/stdout")'" ;;
esac

# ------------------------------------------------------------- cases

t_load_initrd_append() {
	kx -- -l "$kernel" --initrd="$initrd" --append="console=ttyS0" \
		--command-line "kjump.marker=e2e"
	want_rc 0 && no_stderr &&
	[ "$(nr_calls kexec_load)" -eq 1 ] || fail "calls: $(calls | tr '\n' '|')" &&
	[ "$(last_result kexec_load)" = OK ] || fail "kexec_load: $(last_result kexec_load)" &&
	[ "$(loaded)" = 1 ] || fail "kexec_loaded is $(loaded)" &&
	check_last --initrd "$initrd" --cmdline "console=ttyS0 kjump.marker=e2e"
}

t_reuse_cmdline() {
	kx -- -l "$kernel" --reuse-cmdline --append "kjump.extra=1"
	want_rc 0 && no_stderr &&
	check_last --cmdline "root=/dev/vda console=ttyS0,115200 crashkernel=64M quiet kjump.extra=1"
}

t_no_checks() {
	kx -- -l -i "$kernel" --append=quiet
	want_rc 0 && no_stderr && check_last --no-verify --append quiet
}

t_debug() {
	kx -- -d -l "$kernel" --initrd "$initrd"
	want_rc 0 &&
	grep -q 'segments' "$w/stderr" || fail "-d output lacks 'segments'" &&
	grep -q 'purgatory' "$w/stderr" || fail "-d output lacks 'purgatory'" &&
	! grep -q '^kexec: ' "$w/stderr" || fail "-d printed an error: $(grep '^kexec: ' "$w/stderr" | head -n 1)" &&
	no_debug_flag && check_last --initrd "$initrd"
}

# A bad image must not touch what is loaded.
t_truncated_image() {
	load_ok --append=first || return 1
	cp "$out/calls" "$w/calls.before"
	cp -R "$out/$(last_load)" "$w/load.before"
	kx -- -l "$tmp/truncated" --append=second
	want_rc 1 && one_error "truncated" &&
	cmp -s "$out/calls" "$w/calls.before" ||
		fail "calls changed: $(calls | tail -n 1)" &&
	[ "$(loaded)" = 1 ] || fail "kexec_loaded is $(loaded)" &&
	diff -r "$w/load.before" "$out/$(last_load)" >/dev/null ||
		fail "the recorded load changed"
}

t_cmdline_too_long() {
	kx -- -l "$tmp/small-cmdline" --append "$long"
	want_rc 1 && one_error "at most 64" &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called" &&
	[ "$(loaded)" = 0 ] || fail "kexec_loaded is $(loaded)"
}

t_load_eperm() {
	kx KJUMP_FAKE_ERRNO=EPERM -- -l "$kernel"
	want_rc 1 && one_error "not permitted" &&
	[ "$(last_result kexec_load)" = EPERM ] || fail "no failed kexec_load" &&
	[ "$(loaded)" = 0 ] || fail "kexec_loaded is $(loaded)"
}

t_unload() {
	load_ok || return 1
	kx -- -u
	want_rc 0 && no_stderr &&
	calls | tail -n 1 | grep -q '^kexec_load .* entry=0x0 nr_segments=0 .*result=OK' ||
		fail "last call: $(calls | tail -n 1)" &&
	[ "$(loaded)" = 0 ] || fail "kexec_loaded is $(loaded)" &&
	no_debug_flag
}

# The companion refuses to drop a crash kernel parked in a jump (patch
# 0024): EBUSY, and /sys/kernel/kexec_jump_parked says why.
PARKED="the crash kernel is parked in a kexec jump (kexec -j returns into it); kexec -p -u --discard unloads it, and its state with it"
t_unload_parked() {
	companion
	echo 1 > "$root/sys/kernel/kexec_jump_parked"
	kx KJUMP_FAKE_ERRNO=EBUSY -- -p -u
	want_rc 1 && one_error "unload: $PARKED" &&
	[ "$(last_result kexec_load)" = EBUSY ] || fail "no refused unload"
}

t_load_parked() {
	companion
	echo 1 > "$root/sys/kernel/kexec_jump_parked"
	kx KJUMP_FAKE_ERRNO=EBUSY -- -p "$kernel"
	want_rc 1 && one_error "kexec_load: $PARKED" &&
	[ "$(last_result kexec_load)" = EBUSY ] || fail "no refused load"
}

# Not parked: EBUSY is the kexec lock, as before.
t_unload_busy() {
	companion
	echo 0 > "$root/sys/kernel/kexec_jump_parked"
	kx KJUMP_FAKE_ERRNO=EBUSY -- -p -u
	want_rc 1 && one_error "unload: the kernel is busy with another kexec load or reboot (try again)"
}

# --discard: the unload carries KEXEC_PRESERVE_CONTEXT, by kexec_load.
t_unload_discard() {
	companion
	echo 1 > "$root/sys/kernel/kexec_jump_parked"
	kx -- -p -u --discard
	want_rc 0 && no_stderr &&
	calls | tail -n 1 | grep -q '^kexec_load .* entry=0x0 nr_segments=0 flags=0x30003 result=OK' ||
		fail "last call: $(calls | tail -n 1)"
}

# each_refused LINE ARGS...: every ARGS (a list of words) exits 1 with
# LINE as its one error line, and calls no kexec_load.
each_refused() {
	line=$1
	shift
	for args in "$@"; do
		# shellcheck disable=SC2086 # args is a list of words
		kx -- $args
		want_rc 1 && one_error "$line" &&
		[ "$(nr_calls kexec_load)" -eq 0 ] || { fail "$args"; return 1; }
	done
}

t_discard_misused() {
	each_refused "--discard: only with -p -u (and kexec_load: not -s)" \
		"-u --discard" "-p --discard $kernel" "-s -p -u --discard"
}

t_exec_not_loaded() {
	kx -- -e
	want_rc 1 && one_error "nothing loaded" &&
	[ "$(nr_calls reboot)" -eq 0 ] || fail "reboot was called"
}

t_exec_loaded() {
	load_ok || return 1
	kx -- -e
	want_rc 0 && no_stderr &&
	[ "$(calls | grep '^reboot ')" = "reboot cmd=0x45584543 result=OK" ] ||
		fail "reboot calls: $(calls | grep '^reboot ' | tr '\n' '|')" &&
	[ "$(nr_calls sync)" -ge 1 ] || fail "no sync before reboot" &&
	calls | grep -qx 'ifdown eth0' || fail "eth0 not taken down" &&
	! calls | grep -qx 'ifdown lo' || fail "lo taken down" &&
	# sync and ifdown come before the reboot
	[ "$(calls | tail -n 1 | cut -d' ' -f1)" = reboot ] ||
		fail "reboot is not the last call"
}

t_exec_no_sync_no_ifdown() {
	load_ok || return 1
	kx -- -e -x -y
	want_rc 0 &&
	[ "$(nr_calls reboot)" -eq 1 ] || fail "reboot calls: $(nr_calls reboot)" &&
	! calls | grep -q '^sync' || fail "synced despite -y" &&
	! calls | grep -q '^ifdown' || fail "ifdown despite -x"
}

t_force() {
	kx -- -f -x "$kernel" --append=forced
	want_rc 0 && no_stderr &&
	calls | head -n 1 | grep -q '^kexec_load .*result=OK' ||
		fail "first call: $(calls | head -n 1)" &&
	calls | grep -q '^reboot cmd=0x45584543 result=OK' ||
		fail "no reboot" && check_last --append forced
}

# A kernel with the companion: the jump buffer file exists.
companion() {
	echo 0x1f00 > "$root/sys/kernel/kexec_jump_buf_pfn"
}

t_jump() {
	companion
	echo 1 > "$root/sys/kernel/kexec_crash_loaded"
	kx -- -j
	want_rc 0 && no_stderr &&
	[ "$(calls | grep '^reboot ')" = "reboot cmd=0x3928a5fd result=OK" ] ||
		fail "reboot calls: $(calls | grep '^reboot ' | tr '\n' '|')"
}

# -j that the kernel refuses with errno $1: exit 1, one line starting $2.
jump_refused_with() {
	companion
	echo 1 > "$root/sys/kernel/kexec_crash_loaded"
	kx KJUMP_FAKE_REBOOT_ERRNO="$1" -- -j
	want_rc 1 && one_error "$2" &&
	[ "$(last_result reboot)" = "$1" ] || fail "no refused reboot"
}

t_jump_refused() {
	jump_refused_with EINVAL "jump: "
}

# An x86_64 companion kernel refuses a jump that saves it (a request).
t_jump_save_refused() {
	jump_refused_with EOPNOTSUPP "jump: the kernel cannot be saved by a jump (a request is pending in /sys/kernel/kexec_jump_request, and an x86_64 companion kernel without patch 0038 refuses it)"
}

# The crash kernel panicked during the jump and came back (patch 0026).
t_jump_peer_crashed() {
	jump_refused_with EOWNERDEAD "jump: the crash kernel panicked during the jump and came back here; the kernel unloaded it (load it again with kexec -p)"
}

# A stock kernel: say so, and never call reboot(2).
t_jump_stock_kernel() {
	echo 1 > "$root/sys/kernel/kexec_crash_loaded"
	kx -- -j
	want_rc 1 && one_error "jump: nothing to jump into (this kernel has no KJUMP" &&
	! calls | grep -q '^reboot ' || fail "reboot called"
}

t_jump_nothing_loaded() {
	companion
	kx -- -j
	want_rc 1 && one_error "jump: nothing loaded" &&
	! calls | grep -q '^reboot ' || fail "reboot called"
}

# In a kernel that was jumped into, -j jumps back: no crash image needed.
t_jump_back() {
	companion
	echo "console=ttyS0 kexec_jump_buf_pfn=0x1f00 kexec_backup=0x9ec00@0x1000:0x1ef61000" \
		> "$root/proc/cmdline"
	kx -- -j
	want_rc 0 && no_stderr &&
	[ "$(calls | grep '^reboot ')" = "reboot cmd=0x3928a5fd result=OK" ] ||
		fail "reboot calls: $(calls | grep '^reboot ' | tr '\n' '|')"
}

# In B: A crashed while B was parked and entered it instead (patch 0023).
t_jump_back_crashed() {
	companion
	echo "console=ttyS0 kexec_jump_buf_pfn=0x1f00 kexec_backup=0x9ec00@0x1000:0x1ef61000" \
		> "$root/proc/cmdline"
	kx KJUMP_FAKE_REBOOT_ERRNO=EOWNERDEAD -- -j
	want_rc 1 && one_error "jump: the previous kernel crashed while this one was parked; this kernel is its crash kernel now, and /proc/vmcore shows it at the crash" &&
	[ "$(last_result reboot)" = EOWNERDEAD ] || fail "no refused reboot"
}

# No action: load, then hand over to shutdown (refused by the shim).
t_default_shutdown() {
	kx -- "$kernel"
	[ "$(last_result kexec_load)" = OK ] || fail "no load" &&
	calls | grep -qx 'exec /sbin/shutdown -r now' ||
		fail "shutdown not run: $(calls | tr '\n' '|')" &&
	want_rc 1 && one_error "shutdown" &&
	[ "$(nr_calls reboot)" -eq 0 ] || fail "reboot was called"
}

t_missing_kernel() {
	kx -- -l "$tmp/no-such-kernel"
	want_rc 1 && one_error "no-such-kernel: No such file or directory" &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called"
}

# -p: the crash slot, everything inside the "Crash kernel" region.
t_load_panic() {
	region=$(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : Crash kernel$/0x\1-0x\2/p' \
		"$root/proc/iomem")
	[ -n "$region" ] || fail "no Crash kernel line in the fixture" || return 1
	kx -- -p "$kernel" --append=kjump.crash=1
	want_rc 0 && no_stderr &&
	[ "$(loaded)" = 0 ] || fail "kexec_loaded is $(loaded)" &&
	[ "$(cat "$root/sys/kernel/kexec_crash_loaded")" = 1 ] ||
		fail "kexec_crash_loaded is not 1" &&
	check_last --crash-region "$region" --append kjump.crash=1 \
		--append elfcorehdr= &&
	kx -- -p -u &&
	want_rc 0 &&
	calls | tail -n 1 | grep -q '^kexec_load .* nr_segments=0 flags=0x30001 result=OK' ||
		fail "crash unload: $(calls | tail -n 1)" &&
	[ "$(cat "$root/sys/kernel/kexec_crash_loaded")" = 0 ] ||
		fail "kexec_crash_loaded is not 0 after -p -u"
}

# On a companion kernel, -p asks for a crash image it can jump into:
# KEXEC_ON_CRASH | KEXEC_PRESERVE_CONTEXT, and B learns the jump buffer.
t_load_panic_jump() {
	companion
	kx -- -p "$kernel"
	want_rc 0 && no_stderr &&
	calls | grep -q '^kexec_load .* flags=0x30003 result=OK' ||
		fail "load: $(calls | grep '^kexec_load' | tail -n 1)" &&
	crash_region && check_last --crash-region "$region" --crash-jump \
		--append kexec_jump_buf_pfn=0x1f00
}

# --no-jump: an ordinary crash image (KEXEC_ON_CRASH only), no pfn word.
t_load_panic_no_jump() {
	companion
	kx -- -p --no-jump "$kernel"
	want_rc 0 && no_stderr &&
	calls | grep -q '^kexec_load .* flags=0x30001 result=OK' ||
		fail "load: $(calls | grep '^kexec_load' | tail -n 1)" &&
	crash_region && check_last --crash-region "$region" \
		--absent kexec_jump_buf_pfn=
}

t_no_jump_misused() {
	each_refused "--no-jump: only with a crash load (-p)" \
		"-l --no-jump $kernel" "-p -u --no-jump" "-j --no-jump"
}

# The companion's answer to -j into a crash image loaded without the opt-in.
t_jump_not_for_jump() {
	jump_refused_with ENOEXEC "jump: the crash kernel was not loaded for a jump (kexec -p --no-jump, or kexec_file_load): load it again with kexec -p"
}

# The fixture's crash region as check-load --crash-region takes it.
crash_region() {
	region=$(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : Crash kernel$/0x\1-0x\2/p' \
		"$root/proc/iomem" | tail -n 1)
	[ -n "$region" ] || fail "no Crash kernel line in the fixture"
}

# The crash words (about 57 bytes) push a short line past cmdline_size 64.
t_panic_cmdline_too_long() {
	kx -- -p "$tmp/small-cmdline" --append "console=ttyS0"
	want_rc 1 && one_error "with the crash parameters, this kernel takes at most 64" &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called" &&
	[ "$(cat "$root/sys/kernel/kexec_crash_loaded")" = 0 ] ||
		fail "kexec_crash_loaded is not 0" &&
	[ "$(loaded)" = 0 ] || fail "kexec_loaded is $(loaded)"
}

# -p --reuse-cmdline: crashkernel= and BOOT_IMAGE= dropped, crash words after.
t_panic_reuse_cmdline() {
	crash_region || return 1
	kx -- -p "$kernel" --reuse-cmdline
	want_rc 0 && no_stderr &&
	check_last --crash-region "$region" \
		--append "root=/dev/vda console=ttyS0,115200 quiet elfcorehdr=" \
		--absent crashkernel= --absent BOOT_IMAGE=
}

# -S (and -p -S): the crash slot; exit 1 when loaded, 0 when not.
t_status_crash() {
	kx -- -S
	want_rc 0 && no_stderr &&
	[ "$(cat "$w/stdout")" = "crash kernel: not loaded" ] ||
		fail "stdout: $(cat "$w/stdout")" &&
	echo 1 > "$root/sys/kernel/kexec_loaded" &&
	kx -- -p -S &&
	want_rc 0 &&
	[ "$(cat "$w/stdout")" = "crash kernel: not loaded" ] ||
		fail "normal slot reported as crash: $(cat "$w/stdout")" &&
	echo 0 > "$root/sys/kernel/kexec_loaded" &&
	kx -- -p "$kernel" &&
	want_rc 0 &&
	kx -- -S &&
	want_rc 1 && no_stderr &&
	[ "$(cat "$w/stdout")" = "crash kernel: loaded" ] ||
		fail "after -p: $(cat "$w/stdout")" &&
	[ "$(nr_calls kexec_load)" -eq 1 ] || fail "-S called kexec_load"
}

# -l -S: the normal slot, whatever the crash slot holds.
t_status_normal() {
	echo 1 > "$root/sys/kernel/kexec_crash_loaded"
	kx -- -l -S
	want_rc 0 && no_stderr &&
	[ "$(cat "$w/stdout")" = "normal kernel: not loaded" ] ||
		fail "stdout: $(cat "$w/stdout")" &&
	load_ok &&
	kx -- -l -S &&
	want_rc 1 && no_stderr &&
	[ "$(cat "$w/stdout")" = "normal kernel: loaded" ] ||
		fail "after -l: $(cat "$w/stdout")" &&
	echo 0 > "$root/sys/kernel/kexec_crash_loaded" &&
	kx -- -l -S &&
	want_rc 1 || fail "-l -S looked at the crash slot"
}

# --load-preserve-context: B gets low memory and the window, all swapped.
win=0x5ffffff
preserve_ok() {
	kx -- -l --load-preserve-context --mem-max=$win "$kernel" \
		--initrd "$initrd" --append=kjump.pc=1
	want_rc 0 && no_stderr &&
	[ "$(loaded)" = 1 ] || fail "kexec_loaded is $(loaded)"
}

t_preserve_load() {
	preserve_ok &&
	calls | grep -q '^kexec_load .* flags=0x30002 result=OK' ||
		fail "load: $(calls | grep '^kexec_load' | tail -n 1)" &&
	check_last --preserve-window "0x100000-$win" --initrd "$initrd" \
		--append kjump.pc=1 --absent elfcorehdr= \
		--absent kexec_backup= --absent kexec_jump_buf_pfn= &&
	[ -s "$root/run/kexec-preserve-context" ] || fail "no preserve mark"
}

# The kernel refuses more than half of RAM in one image: say it first.
t_preserve_window_too_big() {
	load_ok &&
	kx -- -l --load-preserve-context --mem-max=0x1ffffff0 "$kernel"
	want_rc 1 && one_error "more than half of RAM" &&
	[ "$(nr_calls kexec_load)" -eq 1 ] || fail "a second kexec_load" &&
	[ "$(loaded)" = 1 ] || fail "the first image is gone"
}

# -e of an image that comes back: no ifdown (A9 d), and exit 0 after it.
t_preserve_exec() {
	preserve_ok &&
	kx -- -e
	want_rc 0 && no_stderr &&
	[ "$(calls | grep '^reboot ')" = "reboot cmd=0x45584543 result=OK" ] ||
		fail "reboot calls: $(calls | grep '^reboot ' | tr '\n' '|')" &&
	! calls | grep -q '^ifdown' || fail "ifdown before a jump"
}

in_b_upstream() {
	echo "console=ttyS0 elfcorehdr=98304K kexec_jump_back_entry=0x1e0a4123" \
		> "$root/proc/cmdline"
}

t_helper_from_cmdline() {
	in_b_upstream
	kx -- --load-jump-back-helper
	want_rc 0 && no_stderr &&
	calls | grep -q '^kexec_load .* entry=0x1e0a4123 nr_segments=1 flags=0x30002 result=OK' ||
		fail "load: $(calls | grep '^kexec_load' | tr '\n' '|')" &&
	# empty, at the entry's page: one at 0 covers all memory in 6.12
	grep -q '^segment 0 0x1e0a4000 0x0 0x0$' "$out/$(last_load)/info" ||
		fail "segment: $(grep '^segment' "$out/$(last_load)/info")"
}

t_helper_no_entry() {
	kx -- --load-jump-back-helper
	want_rc 1 && one_error "no kexec_jump_back_entry= on /proc/cmdline" &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called"
}

t_helper_already_loaded() {
	load_ok &&
	kx -- --load-jump-back-helper --entry=0x1000
	want_rc 1 && one_error "already loaded" &&
	[ "$(nr_calls kexec_load)" -eq 1 ] || fail "a second kexec_load" &&
	[ "$(loaded)" = 1 ] || fail "the first image is gone"
}

# A stock kernel (no KJUMP): -j runs the preserve-context image.
t_jump_fallback_a() {
	preserve_ok &&
	kx -- -j
	want_rc 0 && no_stderr &&
	[ "$(calls | grep '^reboot ')" = "reboot cmd=0x45584543 result=OK" ] ||
		fail "reboot calls: $(calls | grep '^reboot ' | tr '\n' '|')" &&
	! calls | grep -q '^ifdown' || fail "ifdown before a jump"
}

# ... and in the kernel it entered, -j loads the way back and takes it.
t_jump_fallback_b() {
	in_b_upstream
	kx -- -j
	want_rc 0 && no_stderr &&
	calls | grep -q '^kexec_load .* entry=0x1e0a4123 nr_segments=1 flags=0x30002 result=OK' ||
		fail "no helper load: $(calls | tr '\n' '|')" &&
	[ "$(calls | tail -n 1)" = "reboot cmd=0x45584543 result=OK" ] ||
		fail "last call: $(calls | tail -n 1)" &&
	kx -- -j &&
	want_rc 0 && [ "$(nr_calls kexec_load)" -eq 1 ] ||
		fail "the second -j loaded the helper again"
}

t_jump_fallback_nothing() {
	load_ok &&
	kx -- -j
	want_rc 1 && one_error "nothing to jump into" &&
	[ "$(nr_calls reboot)" -eq 0 ] || fail "reboot called"
}

# An ordinary load or -u over a preserve image removes the mark.
t_preserve_mark_cleared() {
	preserve_ok && load_ok &&
	[ ! -e "$root/run/kexec-preserve-context" ] || fail "mark kept after -l" &&
	preserve_ok && kx -- -u && want_rc 0 &&
	[ ! -e "$root/run/kexec-preserve-context" ] || fail "mark kept after -u"
}

# --entry on a bzImage: purgatory's final eip.
t_bzimage_entry() {
	kx -- -l "$kernel" --entry=0x1234560 --append=quiet
	want_rc 0 && no_stderr && check_last --entry 0x1234560 --append quiet
}

# check_elf_last IMAGE CHECK-LOAD-ARGS...: the last load, of an ELF image
check_elf_last() {
	k=$1
	shift
	l=$(last_load)
	[ -n "$l" ] || fail "no kexec_load recorded" || return 1
	"$check" --dump "$out/$l" --root "$root" --kernel "$k" --elf "$@" \
		>"$w/check" 2>&1 ||
		fail "$(head -n 3 "$w/check" | tr '\n' '|')"
}

t_elf_args_linux() {
	kx -- -l -t elf-x86 --args-linux "$elf" --initrd="$initrd" \
		--append="console=ttyS0" --command-line "kjump.marker=elf"
	want_rc 0 && no_stderr &&
	[ "$(last_result kexec_load)" = OK ] || fail "kexec_load: $(last_result kexec_load)" &&
	[ "$(loaded)" = 1 ] || fail "kexec_loaded is $(loaded)" &&
	check_elf_last "$elf" --initrd "$initrd" \
		--cmdline "console=ttyS0 kjump.marker=elf"
}

# An ELF image loaded to come back: the same window rules as a bzImage.
t_elf_preserve() {
	kx -- -l --load-preserve-context --mem-max=$win -t elf-x86 "$elf" \
		--append=kjump.pc=elf
	want_rc 0 && no_stderr &&
	calls | grep -q '^kexec_load .* flags=0x30002 result=OK' ||
		fail "load: $(calls | grep '^kexec_load' | tail -n 1)" &&
	check_elf_last "$elf" --preserve-window "0x100000-$win" \
		--append kjump.pc=elf
}

# --args-none: no purgatory, no zero page, but low memory and the window
# are still every page covered (kexec_test's preserve mode).
t_elf_preserve_args_none() {
	kx -- -l --load-preserve-context --mem-max=$win -t elf-x86 \
		--args-none "$elf"
	want_rc 0 && no_stderr &&
	l=$(last_load) &&
	awk '$1 == "segment" { n++; if ($5 == "0x0") z++ }
	     END { exit !(n >= 3 && z >= 2) }' "$out/$l/info" ||
		fail "segments: $(grep '^segment' "$out/$l/info" | tr '\n' '|')"
}

# No -t: not a bzImage, so the ELF loader takes it, --args-linux style.
t_elf_probed() {
	kx -- -l "$elf" --reuse-cmdline
	want_rc 0 && no_stderr &&
	check_elf_last "$elf" --append "root=/dev/vda"
}

t_elf_args_none() {
	kx -- -l -t elf-x86 --args-none "$elf"
	want_rc 0 && no_stderr &&
	calls | grep -q '^kexec_load .* entry=0x1000000 nr_segments=2 .*result=OK' ||
		fail "call: $(calls | tail -n 1)" &&
	check_elf_last "$elf" --args-none
}

t_elf_entry() {
	kx -- -l -t elf-x86 --entry=0x1000040 "$elf" --append=x &&
	want_rc 0 && no_stderr && check_elf_last "$elf" --entry 0x1000040 &&
	kx -- -l -t elf-x86 --args-none --entry 0x7000 "$elf" &&
	want_rc 0 && no_stderr &&
	check_elf_last "$elf" --args-none --entry 0x7000
}

# Each refusal: one line, exit 1, no kexec_load, the earlier load intact.
t_elf_refused() {
	load_ok --append=first || return 1
	cp "$out/calls" "$w/calls.before"
	for args in "--args-elf:--args-elf: ELF boot notes are not supported" \
		"--args-none --initrd=$initrd:--args-none: --initrd cannot be used" \
		"--args-none --append=x:--args-none: --append/--command-line" \
		"--args-none --reuse-cmdline:--args-none: --reuse-cmdline" \
		"-p:-p needs a bzImage" \
		"--entry=0x100000000:above 4 GiB"; do
		# shellcheck disable=SC2086 # the options are words
		kx -- -l -t elf-x86 ${args%%:*} "$elf"
		want_rc 1 && one_error "${args#*:}" || return 1
		cmp -s "$out/calls" "$w/calls.before" ||
			fail "${args%%:*}: calls changed: $(calls | tail -n 1)" ||
			return 1
		[ "$(loaded)" = 1 ] || fail "${args%%:*}: kexec_loaded is $(loaded)" ||
			return 1
	done
}

t_elf_type_unknown() {
	kx -- -l -t vmlinux "$elf"
	want_rc 1 && one_error "-t vmlinux: unknown image type (known: bzImage, elf-x86)" &&
	kx -- -l -t elf-x86 "$kernel" &&
	want_rc 1 && one_error ": not an elf-x86: no ELF magic" &&
	kx -- -l -t bzImage "$elf" &&
	want_rc 1 && one_error ": not a bzImage: " &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called"
}

# Neither loader takes it: each says why, on one line.
t_not_any_image() {
	"$mkelf" "$tmp/x86_64.elf" --machine 62 || return 1
	kx -- -l "$tmp/x86_64.elf"
	want_rc 1 &&
	one_error "not a kernel image this kexec can load: not bzImage (" &&
	one_error "not elf-x86 (not an i386 image (e_machine 62))" &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called"
}

t_elf_real_vmlinux() {
	[ -n "${KJUMP_VMLINUX:-}" ] || { why="KJUMP_VMLINUX not set"; return 77; }
	kx -- -l -t elf-x86 "$KJUMP_VMLINUX" --initrd="$initrd" \
		--append="console=ttyS0 kjump.marker=real"
	want_rc 0 && no_stderr &&
	check_elf_last "$KJUMP_VMLINUX" --initrd "$initrd" \
		--cmdline "console=ttyS0 kjump.marker=real"
}

# -p with an initramfs from hibernate/kjump-mkinitramfs: kexec records that
# the crash kernel has the image writer; a plain initrd, or -p -u, clears it.
t_hib_helper_mark() {
	mark=$root/run/kexec-tools-kjump.crash
	bb=$(command -v busybox) || { why="no busybox here"; return 77; }
	sh "$here/../../hibernate/kjump-mkinitramfs" -o "$w/b.img" -b "$bb" \
		-x "$kexec" -s "$build/hibernate/kjump-save" >"$w/mk.out" 2>&1 ||
		fail "kjump-mkinitramfs: $(tail -n 1 "$w/mk.out")" || return 1
	[ "$(stat -c %a "$w/b.img")" = 600 ] || fail "image mode $(stat -c %a "$w/b.img")" || return 1
	gzip -dc "$w/b.img" 2>/dev/null | cpio -t --quiet 2>/dev/null >"$w/list"
	grep -qx init "$w/list" && grep -qx usr/sbin/kjump-save "$w/list" &&
	grep -qx sbin/kexec "$w/list" || fail "archive lacks init, kexec or kjump-save" || return 1
	kx -- -p "$kernel" --initrd="$w/b.img"
	want_rc 0 && no_stderr &&
	grep -qx 'hibernate-helper=1' "$mark" 2>/dev/null || fail "no helper mark after -p with the writer" &&
	grep -qx "boot-id=e2e-boot-$n" "$mark" || fail "mark: $(tr '\n' ' ' <"$mark")" &&
	kx -- -p "$kernel" --initrd="$initrd" &&
	want_rc 0 && [ ! -e "$mark" ] || fail "mark left after -p without the writer" &&
	kx -- -p "$kernel" --initrd="$w/b.img" && kx -- -p -u &&
	want_rc 0 && [ ! -e "$mark" ] || fail "mark left after -p -u"
}

# a companion kernel with a crash kernel that has the writer, locked down
hib_ready() {
	: >"$root/sys/kernel/kexec_jump_request"
	: >"$root/sys/kernel/kexec_jump_status"
	echo 0x15a >"$root/sys/kernel/kexec_jump_buf_pfn"
	echo 1 >"$root/sys/kernel/kexec_crash_loaded"
	printf 'hibernate-helper=1\nboot-id=e2e-boot-%s\n' "$n" \
		>"$root/run/kexec-tools-kjump.crash"
}

t_hib_lockdown() {
	hib_ready
	mkdir -p "$root/sys/kernel/security"
	echo "none [integrity] confidentiality" >"$root/sys/kernel/security/lockdown"
	kx -- --snapshot="$w/img"
	want_rc 1 &&
	one_error "--snapshot: refused: the kernel is locked down (none [integrity] confidentiality), and hibernation is restricted under lockdown" &&
	[ ! -e "$w/img" ] || fail "a target was created" &&
	[ "$(nr_calls reboot)" -eq 0 ] || fail "reboot was called"
}

# an x86_64 companion kernel without patch 0038 refuses every request
# (--warm-up's is the first kexec writes: no target to prepare here)
t_hib_request_refused() {
	hib_ready
	kx KJUMP_FAKE_REQUEST_ERRNO=EOPNOTSUPP -- --warm-up
	want_rc 1 &&
	one_error "--warm-up: the kernel refused the request (Operation not supported): this kernel cannot be saved by a kexec jump (an x86_64 companion kernel without patch 0038)" &&
	[ "$(nr_calls reboot)" -eq 0 ] || fail "reboot was called"
}

t_hib_no_companion() {
	echo 1 >"$root/sys/kernel/kexec_crash_loaded"
	kx -- --hibernate="$w/img"
	want_rc 1 &&
	one_error "--hibernate: this kernel cannot pass a request to the crash kernel (no /sys/kernel/kexec_jump_request: it needs the kexec jump companion series)" &&
	[ "$(nr_calls reboot)" -eq 0 ] || fail "reboot was called"
}

# ------------------------------------------------ kexec_file_load (-s, -a)

# file_call [N]: the Nth-from-last kexec_file_load line (default: last)
file_call() {
	calls | grep '^kexec_file_load ' | tail -n "${1:-1}" | head -n 1
}

crash_loaded() {
	cat "$root/sys/kernel/kexec_crash_loaded"
}

lockdown() {
	mkdir -p "$root/sys/kernel/security"
	echo "none [integrity] confidentiality" >"$root/sys/kernel/security/lockdown"
}

t_file_load() {
	kx -- -s -l "$bz64" --initrd="$initrd" --append="console=ttyS0" \
		--append="kjump.marker=e2e"
	want_rc 0 && no_stderr &&
	[ "$(nr_calls kexec_file_load)" -eq 1 ] && [ "$(nr_calls kexec_load)" -eq 0 ] ||
		fail "calls: $(calls | tr '\n' '|')" &&
	file_call | grep -qF "kernel=$bz64 initrd=$initrd flags=0x0 cmdline=\"console=ttyS0 kjump.marker=e2e\" result=OK" ||
		fail "call: $(file_call)" &&
	[ "$(loaded)" = 1 ] || fail "kexec_loaded is $(loaded)"
}

# The kernel adds elfcorehdr= itself: nothing of ours on the line.
t_file_load_panic() {
	kx -- -s -p "$bz64" --append=kjump.crash=1
	want_rc 0 && no_stderr &&
	file_call | grep -qF "initrd=- flags=0x6 cmdline=\"kjump.crash=1\" result=OK" ||
		fail "call: $(file_call)" &&
	[ "$(crash_loaded)" = 1 ] || fail "kexec_crash_loaded is $(crash_loaded)" &&
	[ "$(loaded)" = 0 ] || fail "kexec_loaded is $(loaded)" &&
	kx -- -s -p -u && want_rc 0 && no_stderr &&
	file_call | grep -q ' flags=0x3 .*result=OK' || fail "unload: $(file_call)" &&
	[ "$(crash_loaded)" = 0 ] || fail "kexec_crash_loaded is $(crash_loaded) after -s -p -u"
}

t_file_unload() {
	kx -- -s -l "$bz64" && want_rc 0 && [ "$(loaded)" = 1 ] ||
		fail "setup load: rc $rc, $(file_call)" || return 1
	kx -- -a -u
	want_rc 0 && no_stderr &&
	file_call | grep -q ' flags=0x1 .*result=OK' || fail "unload: $(file_call)" &&
	[ "$(loaded)" = 0 ] || fail "kexec_loaded is $(loaded) after -a -u" &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called"
}

# -a with a 32-bit bzImage: no kexec_file_load call at all, kexec_load.
t_file_auto_fallback() {
	kx -- -a -l "$kernel" --initrd="$initrd"
	want_rc 0 && no_stderr &&
	[ "$(nr_calls kexec_file_load)" -eq 0 ] || fail "kexec_file_load was called" &&
	[ "$(last_result kexec_load)" = OK ] || fail "kexec_load: $(last_result kexec_load)" &&
	check_last --initrd "$initrd"
}

# -a with an option only kexec_load has: kexec_load, even for a 64-bit image.
t_file_auto_options() {
	kx -- -a -l "$bz64" --mem-max=0x1fffffff
	want_rc 0 && no_stderr &&
	[ "$(nr_calls kexec_file_load)" -eq 0 ] || fail "kexec_file_load was called" &&
	[ "$(last_result kexec_load)" = OK ] || fail "kexec_load: $(last_result kexec_load)"
}

t_file_not_64() {
	kx -- -s -l "$kernel"
	want_rc 1 &&
	one_error "kexec: $kernel: kexec_file_load cannot load it: no 64-bit entry (a 32-bit kernel)" &&
	[ -z "$(calls)" ] || fail "calls: $(calls | tr '\n' '|')" &&
	kx -- -s -l "$tmp/truncated" && want_rc 1 &&
	one_error "kexec_file_load cannot load it: truncated" &&
	[ -z "$(calls)" ] || fail "calls: $(calls | tr '\n' '|')"
}

# -a on a kernel without the file call: kexec_load, silently.
t_file_auto_enosys() {
	kx KJUMP_FAKE_FILE_ERRNO=ENOSYS -- -a -l "$bz64"
	want_rc 0 && no_stderr &&
	[ "$(last_result kexec_file_load)" = ENOSYS ] || fail "calls: $(calls | tr '\n' '|')" &&
	[ "$(last_result kexec_load)" = OK ] || fail "kexec_load: $(last_result kexec_load)" &&
	[ "$(loaded)" = 1 ] || fail "kexec_loaded is $(loaded)"
}

t_file_enosys() {
	kx KJUMP_FAKE_FILE_ERRNO=ENOSYS -- -s -l "$bz64"
	want_rc 1 && one_error "kexec: kexec_file_load: the running kernel has no kexec_file_load" &&
	[ "$(nr_calls kexec_load)" -eq 0 ] || fail "kexec_load was called"
}

# Under lockdown an unsigned crash kernel does not reach the kernel while
# one is loaded: the kernel would drop that before refusing the new one.
t_file_lockdown_unsigned() {
	lockdown
	kx -- -s -p "$bz64s" && want_rc 0 && [ "$(crash_loaded)" = 1 ] ||
		fail "signed load: rc $rc, $(file_call)" || return 1
	kx -- -s -p "$bz64"
	want_rc 1 &&
	one_error "kexec: $bz64: refused before loading: the kernel is locked down (integrity) and the image carries no signature; it would drop the loaded crash kernel before refusing it (unload that with -p -u to try anyway)" &&
	[ "$(nr_calls kexec_file_load)" -eq 1 ] || fail "calls: $(calls | tr '\n' '|')" &&
	[ "$(crash_loaded)" = 1 ] || fail "the crash kernel was dropped" &&
	# nothing to lose: the kernel decides (IMA may vouch for the image)
	kx -- -s -l "$bz64" && want_rc 0 && no_stderr &&
	[ "$(nr_calls kexec_file_load)" -eq 2 ] || fail "normal load: $(calls | tr '\n' '|')" &&
	kx -- -s -p -u && kx -- -s -p "$bz64" && want_rc 0 && no_stderr &&
	[ "$(crash_loaded)" = 1 ] || fail "crash load into an empty slot: $(file_call)"
}

t_file_lockdown_eperm() {
	lockdown
	kx KJUMP_FAKE_FILE_ERRNO=EPERM -- -s -l "$bz64s"
	want_rc 1 &&
	one_error "kexec: kexec_file_load: refused: the kernel is locked down, and the image's signature did not verify against its keyrings" &&
	echo 1 >"$root/proc/sys/kernel/kexec_load_disabled" &&
	kx -- -s -l "$bz64s" && want_rc 1 &&
	one_error "kexec: kexec_file_load: disabled by sysctl kernel.kexec_load_disabled=1"
}

# A refusal after the kernel dropped the crash kernel says so.
t_file_panic_refused() {
	kx -- -s -p "$bz64" && want_rc 0 ||
		fail "setup load: $(file_call)" || return 1
	kx KJUMP_FAKE_FILE_ERRNO=EINVAL -- -s -p "$bz64"
	want_rc 1 &&
	one_error "kexec: kexec_file_load: the kernel rejected the image or its command line (Invalid argument; dmesg says which) (the kernel dropped the loaded crash kernel first; the crash slot is empty)" &&
	[ "$(crash_loaded)" = 0 ] || fail "kexec_crash_loaded is $(crash_loaded)"
}

# 2047 - 30 (elfcorehdr=) - 1 (NUL) = 2016 characters at most.
t_file_cmdline_too_long() {
	line=$(awk 'BEGIN { for (i = 0; i < 2016; i++) printf "x" }')
	kx -- -s -l "$bz64" --append="${line}y"
	want_rc 1 &&
	one_error "kexec: command line: 2017 bytes; through kexec_file_load this kernel takes 2016 at most" &&
	[ -z "$(calls)" ] || fail "calls: $(calls | tr '\n' '|')" &&
	kx -- -s -l "$bz64" --append="$line" && want_rc 0 && no_stderr &&
	[ "$(last_result kexec_file_load)" = OK ] || fail "2016 bytes: $(file_call)"
}

t_file_only_kexec_load() {
	kx -- -s -l "$bz64" --mem-max=0x1fffffff
	want_rc 1 &&
	one_error "kexec: --mem-max: only with kexec_load (-c); kexec_file_load (-s) has the kernel place the image" &&
	kx -- -s -l --load-preserve-context --mem-max=0x1fffffff "$bz64" &&
	want_rc 1 && one_error "kexec: --load-preserve-context: only with kexec_load (-c)" &&
	kx -- -s -l --args-none "$bz64" &&
	want_rc 1 && one_error "kexec: --args-none: only with kexec_load (-c)" &&
	kx -- -s -e && want_rc 1 &&
	one_error "kexec: -s: only with a load (-l, -p, -f) or an unload (-u), not with -e" &&
	kx -- -s -c -l "$bz64" && want_rc 1 &&
	one_error "kexec: options: -s and -c cannot be combined" &&
	[ -z "$(calls)" ] || fail "calls: $(calls | tr '\n' '|')"
}

t_file_panic_no_region() {
	grep -v 'Crash kernel' "$root/proc/iomem" >"$w/iomem" &&
	cp "$w/iomem" "$root/proc/iomem"
	kx -- -s -p "$bz64"
	want_rc 1 && one_error "kexec: -p: no crash kernel memory reserved (boot with crashkernel=" &&
	[ -z "$(calls)" ] || fail "calls: $(calls | tr '\n' '|')"
}

# An i386-only kexec on an x86_64 kernel: kexec_load would get EINVAL.
t_load_on_x86_64() {
	echo x86_64 >"$root/proc/sys/kernel/arch"
	kx -- -l "$kernel"
	want_rc 1 &&
	one_error "kexec: kexec_load: this kexec builds images for 32-bit (i386) kernels, and the running kernel is x86_64 (use a kexec built for x86_64, or -s with a 64-bit build)" &&
	kx -- -u && want_rc 1 && one_error "running kernel is x86_64" &&
	[ -z "$(calls)" ] || fail "calls: $(calls | tr '\n' '|')" &&
	kx -- -a -l "$bz64" && want_rc 0 && no_stderr &&
	[ "$(last_result kexec_file_load)" = OK ] || fail "-a: $(calls | tr '\n' '|')"
}

# acpi_rsdp= of the running kernel goes on, unless the new line has one.
t_acpi_rsdp() {
	printf 'console=ttyS0 acpi_rsdp=0xf5a40 quiet\n' >"$root/proc/cmdline"
	kx -- -s -l "$bz64" --append="x=1"
	want_rc 0 && no_stderr &&
	file_call | grep -qF 'cmdline="x=1 acpi_rsdp=0xf5a40" result=OK' ||
		fail "call: $(file_call)" &&
	kx -- -s -l "$bz64" --append="acpi_rsdp=0x1234" && want_rc 0 &&
	file_call | grep -qF 'cmdline="acpi_rsdp=0x1234" result=OK' ||
		fail "own word: $(file_call)" &&
	kx -- -l "$kernel" --append="x=1" && want_rc 0 &&
	check_last --cmdline "x=1 acpi_rsdp=0xf5a40"
}

for c in ${E2E_ONLY:-$CASES}; do
	fresh
	why=
	fn=t_$(echo "$c" | tr - _)
	$fn
	case $? in
	0) say PASS "$c" ;;
	77) say SKIP "$c" "$why" ;;
	*) say FAIL "$c" "${why:-failed}"; failed=1 ;;
	esac
done
exit $failed
