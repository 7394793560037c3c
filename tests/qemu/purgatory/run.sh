#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the purgatory blob for real, under qemu-system-i386 (TCG), inside a
# small multiboot harness that plays the kexec tool before and the next
# kernel after it.  No kernel and no kexec involved.
#
#   tests/qemu/purgatory/run.sh SRCDIR BUILDDIR
#
# Takes the blob the build made (purgatory/purgatory-blob-i386.c of the top
# build directory: KJUMP_BUILDDIR, else BUILDDIR/../..; PURGATORY_BLOB
# names another one), builds the harness around it under
# BUILDDIR/purgatory-qemu, runs every scenario, prints PASS:/FAIL: lines
# and exits 0 if all passed, 1 if not, 77 if qemu is missing (automake's
# "skipped").  Run "make" first.  Environment: CC, LD, QEMU, TIMEOUT.

set -eu

me=tests/qemu/purgatory/run.sh
[ $# -eq 2 ] || { echo "usage: $me SRCDIR BUILDDIR" >&2; exit 2; }
src=$1
build=$2
QEMU=${QEMU:-qemu-system-i386}
TIMEOUT=${TIMEOUT:-120}
CC=${CC:-gcc}
LD=${LD:-ld}

if ! command -v "$QEMU" > /dev/null 2>&1; then
	echo "SKIP: purgatory-qemu: $QEMU not found"
	exit 77
fi

work=$build/purgatory-qemu
mkdir -p "$work"
blob=${PURGATORY_BLOB:-${KJUMP_BUILDDIR:-$build/../..}/purgatory/purgatory-blob-i386.c}
[ -f "$blob" ] ||
	{ echo "FAIL: purgatory-qemu/build: no $blob (run make first)"; exit 1; }

hdir=$src/tests/qemu/purgatory
cflags="-m32 -march=i686 -Os -std=c11 -g0 -ffreestanding -fno-builtin
	-fno-pie -fno-stack-protector -fcf-protection=none
	-fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns
	-fno-delete-null-pointer-checks -mno-sse -mno-mmx -mno-80387
	-Wall -Wextra -Werror -I $src/include -I $src/purgatory/arch/i386"
set --
for f in "$hdir/harness-entry.S" "$hdir/harness.c" "$blob" \
	 "$src/util/sha256.c"; do
	o=$work/$(basename "$f" | sed 's/\.[cS]$//')-h.o
	# shellcheck disable=SC2086
	$CC $cflags -c "$f" -o "$o" ||
		{ echo "FAIL: purgatory-qemu/build: compiling $f"; exit 1; }
	set -- "$@" "$o"
done
$LD -m elf_i386 -static -nostdlib --build-id=none --no-warn-rwx-segments \
	-T "$hdir/harness.lds" -o "$work/harness.elf" "$@" 2> /dev/null ||
$LD -m elf_i386 -static -nostdlib --build-id=none \
	-T "$hdir/harness.lds" -o "$work/harness.elf" "$@" ||
	{ echo "FAIL: purgatory-qemu/build: linking the harness"; exit 1; }

failed=0

pass() { echo "PASS: purgatory-qemu/$1"; }
fail() { echo "FAIL: purgatory-qemu/$1"; failed=1; }

# Lines as the harness and purgatory wrote them, without the CRs.
clean_log() { tr -d '\r' < "$1"; }

start_qemu() {
	# -no-reboot: a triple fault ends qemu instead of looping.
	timeout "$TIMEOUT" "$QEMU" -M pc -accel tcg -m 64 -display none \
		-nodefaults -no-reboot -serial "file:$2" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-kernel "$work/harness.elf" -append "scenario=$1" \
		2> "$2.stderr"
}

# A scenario that lands: the harness checks and reports, qemu exits 33.
run_landing() {
	name=$1
	log=$work/$name.log
	rc=0
	start_qemu "$name" "$log" || rc=$?
	clean_log "$log" | grep -e '^PASS:' -e '^FAIL:' || true
	if clean_log "$log" | grep -q '^FAIL:'; then
		failed=1
	fi
	if [ "$rc" -eq 33 ]; then
		pass "$name/exit"
	else
		fail "$name/exit: qemu exit status $rc, want 33 (see $log)"
	fi
}

# A scenario that must halt in purgatory: wait for the line, make sure
# qemu is still there (halted, not rebooted or exited), then stop it.
run_halting() {
	name=$1
	line=$2
	log=$work/$name.log
	: > "$log"
	start_qemu "$name" "$log" &
	pid=$!
	n=0
	while [ "$n" -lt $((TIMEOUT * 5)) ]; do
		clean_log "$log" | grep -qxF "$line" && break
		kill -0 "$pid" 2> /dev/null || break
		sleep 0.2
		n=$((n + 1))
	done
	sleep 2
	alive=0
	kill -0 "$pid" 2> /dev/null && alive=1
	kill "$pid" 2> /dev/null || true
	wait "$pid" 2> /dev/null || true

	if clean_log "$log" | grep -qxF "$line"; then
		pass "$name/message"
	else
		fail "$name/message: no '$line' (see $log)"
	fi
	if [ "$alive" -eq 1 ] && ! clean_log "$log" | grep -q '^harness: landed'; then
		pass "$name/halted"
	else
		fail "$name/halted: purgatory did not stay halted (see $log)"
	fi
}

run_landing ok
if clean_log "$work/ok.log" | grep -q '^purgatory: sha256 ok' &&
   clean_log "$work/ok.log" | grep -q '^purgatory: starting 0x'; then
	pass "ok/progress-lines"
else
	fail "ok/progress-lines: PGF_SERIAL set but no progress on serial"
fi

run_landing quiet
if clean_log "$work/quiet.log" | grep -q '^purgatory:'; then
	fail "quiet/silent: purgatory printed without PGF_SERIAL"
else
	pass "quiet/silent"
fi

run_landing noroom
run_landing nojump
run_halting mismatch "purgatory: sha256 mismatch, halting"
if [ "$(clean_log "$work/mismatch.log" | grep -c '^purgatory:')" -eq 1 ]; then
	pass "mismatch/only-error-line"
else
	fail "mismatch/only-error-line: progress printed without PGF_SERIAL"
fi

exit "$failed"
