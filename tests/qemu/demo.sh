#!/bin/sh
# The main demo: kernel A loads kernel B as its crash kernel, jumps into it
# (kexec -p, kexec -j), B reads A's memory through /proc/vmcore and jumps
# back, and A carries on.  Runs the "jump" QEMU scenario and prints a
# transcript of what each kernel said, then the scenario's verdict.
# make demo-hibernate runs it with hib-resume: hibernate, power-off, a new
# boot that resumes the image, A carrying on.
#
#   KEXEC=path/to/static/i386/kexec demo.sh [SCENARIO]
set -u
here=$(cd "$(dirname "$0")" && pwd)
name=${1:-jump}
logdir=${KJUMP_QEMU_LOGDIR:-$here/logs}
export KJUMP_QEMU_LOGDIR=$logdir

echo "== kexec-tools-kjump demo: scenario '$name' in QEMU (TCG)"
echo "== the first run builds the companion kernel (about 5 minutes) and caches it"
"$here/run-scenario.sh" "$name"
rc=$?
serial=$logdir/$name.serial.log
if [ -f "$serial" ]; then
	echo
	echo "== transcript (lines the guests printed; full log: $serial)"
	# "KJ A:" and "KJ B:" lines are the scenario's own reports; a kernel
	# banner, a power-off and a resume's progress line are the machine's.
	tr -d '\r' <"$serial" |
		grep -aE '(^| )KJ [AB]: |Linux version |reboot: Power down|\] resume: ' |
		sed -E -e 's/^.*(KJ [AB]: )/\1/' \
			-e 's/^.*Linux version ([^ ]+).*/  -- a kernel boots (Linux \1)/' \
			-e 's/^.*reboot: Power down.*/  -- the machine powers off/' \
			-e 's/^.*\] (resume: .*)/  [kexec]    \1/' |
		sed -e 's/^KJ A: /  [kernel A] /' -e 's/^KJ B: /  [kernel B] /'
fi
echo
[ $rc = 0 ] && echo "== demo passed" || echo "== demo FAILED (exit $rc)"
exit $rc
