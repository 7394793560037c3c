#!/bin/sh
# Run the test suites and print one summary line: "N passed, N failed[, N skipped]".
#
#   run-checks.sh unit|qemu|all
#
# Every test prints result lines "PASS: name", "FAIL: name: why" or
# "SKIP: name: why"; this script runs them, passes their output through
# and counts.  A test program that exits non-zero without printing a
# FAIL line counts as one failure, so a crash cannot pass silently.
#
# Environment (set by make): UNIT_TEST_PROGS, UNIT_SHELL_TESTS, srcdir,
# builddir, QEMU_TESTS (yes|no), KEXEC_I386 (static i386 kexec for guests),
# FUZZ_* (tests/fuzz/run-fuzz.sh).
set -u

part=${1:-all}
srcdir=${srcdir:-.}
builddir=${builddir:-.}
results=$(mktemp)
trap 'rm -f "$results"' EXIT

# run NAME CMD...: run one test program, record its result lines.
run() {
	name=$1
	shift
	out=$(mktemp)
	rcfile=$(mktemp)
	# Stream the output (QEMU scenarios take a while) and keep a copy.
	{ "$@" 2>&1; echo $? >"$rcfile"; } | tee "$out"
	rc=$(cat "$rcfile")
	grep -E '^(PASS|FAIL|SKIP): ' "$out" >>"$results"
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && ! grep -q '^FAIL: ' "$out"; then
		echo "FAIL: $name: exited with status $rc" | tee -a "$results"
	fi
	if [ "$rc" -eq 0 ] && ! grep -qE '^(PASS|FAIL|SKIP): ' "$out"; then
		echo "FAIL: $name: printed no result" | tee -a "$results"
	fi
	rm -f "$out" "$rcfile"
}

run_unit() {
	for prog in ${UNIT_TEST_PROGS:-}; do
		run "$prog" "$builddir/$prog"
	done
	for script in ${UNIT_SHELL_TESTS:-}; do
		run "$script" sh "$srcdir/$script"
	done
	# A short libFuzzer run of every harness (SKIP lines without clang).
	run fuzz sh "$srcdir/tests/fuzz/run-fuzz.sh" check
}

run_qemu() {
	if [ "${QEMU_TESTS:-yes}" != yes ]; then
		for s in $(sh "$srcdir/tests/qemu/run-all.sh" --list); do
			echo "SKIP: qemu/$s: configured with --disable-qemu-tests" |
				tee -a "$results"
		done
		echo "SKIP: purgatory-qemu: configured with --disable-qemu-tests" |
			tee -a "$results"
		return
	fi
	run purgatory-qemu sh "$srcdir/tests/qemu/purgatory/run.sh" \
		"$srcdir" "$builddir/tests/qemu"
	run qemu sh "$srcdir/tests/qemu/run-all.sh"
	# The peer, Debian's kexec-tools, on the same kernel and images.
	run qemu-debian env KEXEC_IMPL=debian \
		sh "$srcdir/tests/qemu/run-all.sh" kdump
}

# With the QEMU half enabled the test kernel gets built anyway: let the
# unit tests parse that real bzImage and its vmlinux too (cached after the
# first build).
real_kernel() {
	[ "${QEMU_TESTS:-yes}" = yes ] && [ -z "${KJUMP_BZIMAGE:-}" ] || return 0
	echo "(building or fetching the cached test kernel)"
	dir=$(sh "$srcdir/kernel-companion/build-kernel.sh" -q | tail -n 1) &&
		[ -f "$dir/bzImage" ] && KJUMP_BZIMAGE=$dir/bzImage &&
		export KJUMP_BZIMAGE || return 0
	# The same kernel as an ELF file, for the ELF loader's tests.
	if [ -z "${KJUMP_VMLINUX:-}" ] && [ -f "$dir/vmlinux" ]; then
		KJUMP_VMLINUX=$dir/vmlinux
		export KJUMP_VMLINUX
	fi
	return 0
}

case $part in
unit) run_unit ;;
qemu) run_qemu ;;
# The subshell keeps KJUMP_BZIMAGE from the QEMU half: there it would
# override every scenario's own kernel config (pae, nokjump).
all) (real_kernel; run_unit); run_qemu ;;
*) echo "usage: $0 unit|qemu|all" >&2; exit 2 ;;
esac

passed=$(grep -c '^PASS: ' "$results")
failed=$(grep -c '^FAIL: ' "$results")
skipped=$(grep -c '^SKIP: ' "$results")
echo
if [ "$failed" -ne 0 ]; then
	echo "Failed:"
	grep '^FAIL: ' "$results" | sed 's/^/  /'
fi
if [ "$skipped" -ne 0 ]; then
	echo "$passed passed, $failed failed, $skipped skipped"
else
	echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
