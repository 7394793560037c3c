#!/bin/sh
# Run every QEMU scenario (or the ones named) one after the other.
#
#   run-all.sh [NAME...]
#   run-all.sh --list      print the scenario names and exit
#
# Prints run-scenario.sh's result line for each scenario on stdout
# (PASS:/FAIL:/SKIP:/XFAIL:), diagnostics on stderr, then exits 1 if any
# scenario failed, 77 if every one was skipped, else 0.  The environment
# (KEXEC, KEXEC_IMPL, KJUMP_QEMU_LOGDIR, ...) is passed through; see
# run-scenario.sh.
here=$(cd "$(dirname "$0")" && pwd)

# Every scenarios/NAME.guest.sh is a scenario (its "#: " header holds the
# host's settings; see run-scenario.sh).
if [ "${1:-}" = --list ]; then
	for f in "$here"/scenarios/*.guest.sh; do
		f=${f##*/}
		echo "${f%.guest.sh}"
	done
	exit 0
fi
if [ $# = 0 ]; then
	for f in "$here"/scenarios/*.guest.sh; do
		f=${f##*/}
		set -- "$@" "${f%.guest.sh}"
	done
fi
failed=0
ran=0
skipped=0
for name in "$@"; do
	"$here/run-scenario.sh" "$name"
	case $? in
	0) ran=$((ran + 1)) ;;
	77) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
done
[ $failed = 0 ] || exit 1
[ $ran = 0 ] && [ $skipped -gt 0 ] && exit 77
exit 0
