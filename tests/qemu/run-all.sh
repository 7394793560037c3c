#!/bin/sh
# Run every QEMU scenario (or the ones named) one after the other.
#
#   run-all.sh [NAME...]
#   run-all.sh --list      print the names of make check's scenarios
#   run-all.sh --list-extended  print those of make check-extended only
#
# Prints run-scenario.sh's result line for each scenario on stdout
# (PASS:/FAIL:/SKIP:/XFAIL:), diagnostics on stderr, then exits 1 if any
# scenario failed, 77 if every one was skipped, else 0.  The environment
# (KEXEC, KEXEC_IMPL, KJUMP_QEMU_LOGDIR, ...) is passed through; see
# run-scenario.sh.
here=$(cd "$(dirname "$0")" && pwd)

# Every scenarios/NAME.guest.sh is a scenario (its "#: " header holds the
# host's settings; see run-scenario.sh); one whose header says
# "#: extended" is make check-extended's only.
case ${1:-} in
--list|--list-extended)
	for f in "$here"/scenarios/*.guest.sh; do
		ext=0
		grep -qx '#: extended' "$f" && ext=1
		[ "$1" = --list ] && [ $ext = 1 ] && continue
		[ "$1" = --list-extended ] && [ $ext = 0 ] && continue
		f=${f##*/}
		echo "${f%.guest.sh}"
	done
	exit 0 ;;
esac
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
