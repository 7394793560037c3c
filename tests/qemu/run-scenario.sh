#!/bin/bash
# Boot one QEMU scenario and judge it from the host.
#
#   run-scenario.sh NAME
#
# NAME has two parts in tests/qemu/scenarios/:
#   NAME.guest.sh  runs in the guest as /scenarios/NAME.sh, in kernel A and
#                  again in any kernel B it kexecs into (see guest/common.sh);
#   NAME.host      what the host expects on the serial console, one
#                  directive a line ('#' starts a comment line):
#     expect SECS REGEX  the next serial line matching REGEX (grep -E) must
#                        appear within SECS of the previous match; the
#                        expects are matched in order
#     reject REGEX       no serial line may match REGEX, at any time
#     append WORDS       extra words for A's kernel command line
#     timeout SECS       bound on the whole run (default 180)
#     config NAME        boot a kernel built with build-kernel.sh -c NAME
#                        (e.g. pae) instead of $KJUMP_KERNEL_CONFIG/base
#     disk MIB           give the guest a fresh, zeroed raw disk of MIB MiB
#                        (LOGDIR/NAME.disk.img) as a virtio-blk drive, /dev/vda
#     memory MIB         guest RAM (default 512)
#     smp N              vCPUs (default 2)
#     xfail REASON       the run is known to fail: report XFAIL (exit 0)
#                        when it fails, FAIL when it passes
#     skip REASON        do not run at all: report SKIP (exit 77); meant
#                        for "ours skip" / "debian skip"
#     allow-panic-after REGEX
#                        an intended crash: from the first serial line
#                        matching REGEX up to the next kernel banner
#                        ("Linux version N"), lines matching "Kernel panic"
#                        or "Call Trace" are not kernel errors.  Everything
#                        else (Oops, BUG:, WARNING:) still is, and so is
#                        any panic before REGEX or after the banner.
#     allow-warning REGEX
#                        a known kernel WARNING that is not the test's
#                        subject: a "WARNING:" line that also matches REGEX
#                        and its report up to "---[ end trace" (80 lines
#                        at most) are not
#                        kernel errors.  Any other WARNING still is.
#   A directive prefixed with "ours " or "debian " applies only when
#   testing that kexec.  In REGEX and WORDS, @MARKER@ is this run's random
#   marker (also passed to A as kjump.marker=), @IMPL@ the kexec under
#   test and @SCENARIO@ the name.
#
# Every run also fails on a kernel error on the console (Oops, BUG:,
# WARNING:, Call Trace, Kernel panic; see allow-panic-after), when QEMU
# exits before the last expect (a triple fault ends QEMU because of
# -no-reboot), or when the guest does not power off after the last expect.
#
# Environment:
#   KEXEC              our static i386 kexec (needed when KEXEC_IMPL=ours)
#   KEXEC_IMPL         ours (default) or debian (Debian's kexec-tools 2.0.25)
#   KJUMP_QEMU_LOGDIR  where logs go (default tests/qemu/logs)
#   KJUMP_CACHE_DIR    cache for the kernel, .debs and initramfs images
#   KJUMP_KERNEL_CONFIG  fragment for build-kernel.sh -c (default base)
#   KJUMP_BZIMAGE      use this bzImage instead of building the kernel
#   KJUMP_TIMEOUT_SCALE  multiply every timeout by this integer (default 1)
#   KJUMP_VERBOSE=1    print each matched step with its time on stderr
#   KJUMP_HOST_FILE    read the directives from this file instead of
#                      scenarios/NAME.host (bench.sh: other run counts)
#
# Prints exactly one line on stdout:
#   PASS: qemu/NAME (X.Ys)     exit 0  (X.Y: QEMU start to QEMU exit)
#   FAIL: qemu/NAME: REASON    exit 1  (then the serial log tail on stderr)
#   SKIP: qemu/NAME: REASON    exit 77 (no qemu-system-i386 or kernel source)
#   XFAIL: qemu/NAME: REASON (FAILURE)   exit 0, only with an xfail directive
# With KEXEC_IMPL=debian the name reads qemu/NAME@debian.
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KJUMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kexec-tools-kjump}
logdir=${KJUMP_QEMU_LOGDIR:-$here/logs}
scale=${KJUMP_TIMEOUT_SCALE:-1}
verbose=${KJUMP_VERBOSE:-0}
impl=${KEXEC_IMPL:-ours}
badre='Oops|BUG:|WARNING:|Call Trace|Kernel panic'
panicre='Kernel panic|Call Trace'  # what allow-panic-after tolerates
bannerre='Linux version [0-9]'      # a kernel starting: ends that window

if [ $# != 1 ]; then
	echo "usage: $0 NAME   (scenarios: $(cd "$here/scenarios" && ls *.host | sed 's/\.host$//' | tr '\n' ' '))" >&2
	exit 2
fi
name=$1
case $impl in
ours) label=qemu/$name ;;
debian) label=qemu/$name@debian ;;
*) echo "run-scenario: KEXEC_IMPL must be ours or debian, not '$impl'" >&2; exit 2 ;;
esac
base=$name
[ "$impl" = ours ] || base=$name@$impl
serial=$logdir/$base.serial.log

qemu_pid=
xfail=
started=0       # QEMU ran: the logs in $logdir are this run's

result() {      # result WORD EXIT TEXT
	echo "$1: $label$3"
	exit "$2"
}
skip() { result SKIP 77 ": $*"; }
fail() {
	if [ -n "$xfail" ]; then
		result XFAIL 0 ": $xfail ($*)"
	fi
	if [ $started = 1 ] && [ -s "$serial" ]; then
		echo "--- last 40 lines of $serial:" >&2
		tail -n 40 "$serial" | tr -d '\r' | sed 's/^/  serial| /' >&2
		echo "--- end of serial log" >&2
	fi
	[ $started = 1 ] && [ -s "$logdir/$base.steps" ] && sed 's/^/  step| /' "$logdir/$base.steps" >&2
	result FAIL 1 ": $*"
}

alive() {       # QEMU still running (not gone, not a zombie)?
	local st
	[ -n "$qemu_pid" ] || return 1
	read -r _ _ st _ 2>/dev/null <"/proc/$qemu_pid/stat" || return 1
	[ "$st" != Z ]
}

stop_qemu() {
	local i
	[ -n "$qemu_pid" ] || return 0
	if alive; then
		kill "$qemu_pid" 2>/dev/null
		for ((i = 0; i < 50; i++)); do
			alive || break
			sleep 0.1
		done
		alive && kill -KILL "$qemu_pid" 2>/dev/null
	fi
	wait "$qemu_pid" 2>/dev/null
	qemu_pid=
}
trap stop_qemu EXIT
trap 'trap - INT TERM; stop_qemu; xfail=; fail "interrupted by a signal"' INT TERM

now() { now_us=${EPOCHREALTIME/./}; }
secs() {        # secs MICROSECONDS -> "X.Y"
	printf '%d.%d' $(($1 / 1000000)) $(($1 % 1000000 / 100000))
}

# --- preconditions ---
hostfile=${KJUMP_HOST_FILE:-$here/scenarios/$name.host}
[ -f "$hostfile" ] && [ -f "$here/scenarios/$name.guest.sh" ] ||
	fail "no such scenario (need $hostfile and scenarios/$name.guest.sh)"
command -v qemu-system-i386 >/dev/null 2>&1 || skip "qemu-system-i386 not installed"
if [ -z "${KJUMP_BZIMAGE:-}" ]; then
	tarball=${KJUMP_LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
	[ -r "$tarball" ] || skip "kernel source $tarball not found (install linux-source-6.1)"
fi
if [ "$impl" = ours ]; then
	[ -n "${KEXEC:-}" ] || fail "KEXEC is not set (path of our static i386 kexec; KEXEC_IMPL=debian tests Debian's instead)"
	[ -f "$KEXEC" ] || fail "KEXEC=$KEXEC: no such file"
fi
mkdir -p "$logdir" || fail "cannot create $logdir"
rm -f "$serial" "$logdir/$base".*

# --- the host's expectations ---
marker=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
subst() {
	local s=$1
	s=${s//@MARKER@/$marker}
	s=${s//@IMPL@/$impl}
	s=${s//@SCENARIO@/$name}
	printf '%s' "$s"
}
exp_t=() exp_re=() rejects=() extra= allow_after= allow_warn= skip_why=
total=180
kconfig=${KJUMP_KERNEL_CONFIG:-base}
disk_mib= mem_mib=512 smp=2
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case $line in '' | '#'*) continue ;; esac
	read -r kw rest <<<"$line"
	case $kw in
	ours | debian)
		[ "$kw" = "$impl" ] || continue
		read -r kw rest <<<"$rest" ;;
	esac
	case $kw in
	expect)
		read -r t re <<<"$rest"
		[[ $t =~ ^[0-9]+$ ]] && [ -n "$re" ] ||
			fail "${hostfile##*/}:$lineno: expect SECS REGEX"
		exp_t+=("$((t * scale))")
		exp_re+=("$(subst "$re")") ;;
	reject)
		[ -n "$rest" ] || fail "${hostfile##*/}:$lineno: reject REGEX"
		rejects+=("$(subst "$rest")") ;;
	append) extra="$extra $(subst "$rest")" ;;
	xfail) xfail=${rest:-known failure} ;;
	skip) skip_why=${rest:-skipped by $name.host} ;;
	allow-panic-after)
		[ -n "$rest" ] || fail "${hostfile##*/}:$lineno: allow-panic-after REGEX"
		allow_after=$(subst "$rest") ;;
	allow-warning)
		[ -n "$rest" ] || fail "${hostfile##*/}:$lineno: allow-warning REGEX"
		allow_warn=$(subst "$rest") ;;
	timeout)
		[[ $rest =~ ^[0-9]+$ ]] || fail "${hostfile##*/}:$lineno: timeout SECS"
		total=$rest ;;
	config)
		[[ $rest =~ ^[A-Za-z0-9_-]+$ ]] || fail "${hostfile##*/}:$lineno: config NAME"
		kconfig=$rest ;;
	disk)
		[[ $rest =~ ^[1-9][0-9]*$ ]] || fail "${hostfile##*/}:$lineno: disk MIB"
		disk_mib=$rest ;;
	memory)
		[[ $rest =~ ^[1-9][0-9]*$ ]] || fail "${hostfile##*/}:$lineno: memory MIB"
		mem_mib=$rest ;;
	smp)
		[[ $rest =~ ^[1-9][0-9]*$ ]] || fail "${hostfile##*/}:$lineno: smp N"
		smp=$rest ;;
	*) fail "${hostfile##*/}:$lineno: unknown directive '$kw'" ;;
	esac
done <"$hostfile"
[ -z "$skip_why" ] || { xfail=; skip "$skip_why"; }
[ ${#exp_re[@]} -gt 0 ] || fail "${hostfile##*/} has no expect line"
total=$((total * scale))
poweroff_t=$((30 * scale))

# --- kernel and initramfs ---
if [ -n "${KJUMP_BZIMAGE:-}" ]; then
	bzimage=$KJUMP_BZIMAGE
	[ -r "$bzimage" ] || fail "KJUMP_BZIMAGE=$bzimage: not readable"
else
	kdir=$("$top/kernel-companion/build-kernel.sh" -q \
		-c "$kconfig" 2>"$logdir/$base.build.log" | tail -n 1)
	bzimage=$kdir/bzImage
	if [ -z "$kdir" ] || [ ! -r "$bzimage" ]; then
		tail -n 20 "$logdir/$base.build.log" >&2
		fail "kernel build failed (log: $logdir/$base.build.log)"
	fi
fi
imgdir=${KJUMP_QEMU_BUILDDIR:-$cache/qemu-initramfs}
# A holds the kernel, so each kernel config gets its own images; sharing
# one directory would rebuild them on every switch.
[ "$kconfig" = base ] || imgdir=$imgdir-$kconfig
if ! "$here/make-initramfs.sh" -k "$bzimage" "$imgdir" >>"$logdir/$base.build.log" 2>&1; then
	tail -n 20 "$logdir/$base.build.log" >&2
	fail "initramfs build failed (log: $logdir/$base.build.log)"
fi

cmdline="${extra# } console=ttyS0,115200 panic=-1 kjump.scenario=$name kjump.impl=$impl kjump.marker=$marker"
cmdline=${cmdline# }

# Lines 1..N of the serial log that are complete (end in a newline), or all
# of them once QEMU has gone; carriage returns dropped, and a guest report
# line ("[ 1.234567] KJ A: ...", from /dev/kmsg) cut down to "KJ A: ...",
# even when some console output came before it on the same line.
complete_lines() {
	if [ "$1" = all ]; then
		tr -d '\r' <"$serial"
	else
		head -n "$(wc -l <"$serial")" "$serial" | tr -d '\r'
	fi | sed -E 's/^.*\[ *[0-9]+\.[0-9]+\] (KJ [^ :]+: )/\1/'
}

# Drop the lines allow-panic-after tolerates: those matching $panicre from
# the first line matching $allow_after to the next kernel banner.  Also
# drop each WARNING report allow-warning tolerates: from a "WARNING:" line
# matching $allow_warn to its "---[ end trace" line.
tolerated_dropped() {
	if [ -z "$allow_after" ] && [ -z "$allow_warn" ]; then
		cat
		return
	fi
	KJ_FROM=$allow_after KJ_OK=$panicre KJ_TO=$bannerre KJ_WARN=$allow_warn awk '
		BEGIN { from = ENVIRON["KJ_FROM"]; ok = ENVIRON["KJ_OK"]
			to = ENVIRON["KJ_TO"]; warn = ENVIRON["KJ_WARN"] }
		inwarn && (/---\[ end trace/ || ++wl > 80) { inwarn = 0; next }
		inwarn { next }
		warn != "" && /WARNING:/ && $0 ~ warn { inwarn = 1; wl = 0; next }
		from == "" { print; next }
		state == 0 && $0 ~ from { state = 1; print; next }
		state == 1 && $0 ~ to { state = 2 }
		state == 1 && $0 ~ ok { next }
		{ print }'
}

# check_bad all|complete: fail on a kernel error or a reject match.
check_bad() {
	local hit r
	[ -f "$serial" ] || return 0
	if hit=$(complete_lines "$1" | tolerated_dropped | grep -m 1 -E -- "$badre"); then
		fail "kernel error on the console: $hit"
	fi
	for r in "${rejects[@]}"; do
		if hit=$(complete_lines "$1" | grep -m 1 -E -- "$r"); then
			fail "rejected line /$r/: $hit"
		fi
	done
}

# --- run QEMU (one at a time: a lock shared by every run-scenario.sh) ---
mkdir -p "$cache"
exec 8>"$cache/.qemu.lock"
flock 8 || fail "cannot lock $cache/.qemu.lock"

{
	echo "scenario: $name"
	echo "impl: $impl${KEXEC:+ (KEXEC=$KEXEC)}"
	echo "marker: $marker"
	echo "kernel: $bzimage (config $kconfig)"
	echo "machine: ${mem_mib} MiB, $smp vCPUs${disk_mib:+, virtio disk $disk_mib MiB}"
	echo "initrd: $imgdir/initrd-a.cpio.gz"
	echo "cmdline: $cmdline"
} >"$logdir/$base.meta"
: >"$logdir/$base.steps"
: >"$serial"
drive=()
if [ -n "$disk_mib" ]; then
	disk=$logdir/$base.disk.img
	rm -f "$disk"
	truncate -s "${disk_mib}M" "$disk" || fail "cannot create $disk"
	drive=(-drive "file=$disk,format=raw,if=virtio")
fi

now
t0=$now_us
started=1
qemu-system-i386 -accel tcg -nodefaults -no-reboot -nographic \
	-m "$mem_mib" -smp "$smp" "${drive[@]}" \
	-serial "file:$serial" \
	-d guest_errors,cpu_reset -D "$logdir/$base.qemu-debug.log" \
	-kernel "$bzimage" -initrd "$imgdir/initrd-a.cpio.gz" \
	-append "$cmdline" \
	</dev/null >"$logdir/$base.qemu.log" 2>&1 8>&- &
qemu_pid=$!
echo "$qemu_pid" >"$logdir/$base.qemu.pid"

step=0
nsteps=${#exp_re[@]}
pos=0                           # serial lines already consumed by expects
total_deadline=$((t0 + total * 1000000))
step_deadline=$((t0 + exp_t[0] * 1000000))
gone=0
while :; do
	alive || gone=1
	which=complete
	[ $gone = 1 ] && which=all
	check_bad $which
	while [ $step -lt $nsteps ]; do
		n=$(complete_lines $which | tail -n +$((pos + 1)) |
			grep -n -m 1 -E -- "${exp_re[step]}" | cut -d: -f1)
		[ -n "$n" ] || break
		pos=$((pos + n))
		now
		printf '%6ss  %d/%d  /%s/  line %d\n' "$(secs $((now_us - t0)))" \
			$((step + 1)) $nsteps "${exp_re[step]}" $pos >>"$logdir/$base.steps"
		[ "$verbose" = 1 ] && tail -n 1 "$logdir/$base.steps" >&2
		step=$((step + 1))
		[ $step -lt $nsteps ] && step_deadline=$((now_us + exp_t[step] * 1000000))
	done
	[ $step -ge $nsteps ] && break
	if [ $gone = 1 ]; then
		wait "$qemu_pid"
		qrc=$?
		qemu_pid=
		why="QEMU exited (status $qrc) before /${exp_re[step]}/"
		if grep -q 'Triple fault' "$logdir/$base.qemu-debug.log" 2>/dev/null; then
			why="$why: triple fault"
		elif [ -s "$logdir/$base.qemu.log" ]; then
			why="$why: $(tail -n 1 "$logdir/$base.qemu.log")"
		fi
		fail "$why"
	fi
	now
	[ $now_us -lt $total_deadline ] ||
		fail "timeout: scenario not done after ${total}s, waiting for /${exp_re[step]}/"
	[ $now_us -lt $step_deadline ] ||
		fail "timeout: no /${exp_re[step]}/ within ${exp_t[step]}s (step $((step + 1))/$nsteps)"
	sleep 0.1
done

# All expects met: the guest now powers off, which ends QEMU.
off_deadline=$((now_us + poweroff_t * 1000000))
while alive; do
	check_bad complete
	now
	[ $now_us -lt $off_deadline ] ||
		fail "guest did not power off within ${poweroff_t}s after the last expect"
	sleep 0.1
done
now
t1=$now_us
wait "$qemu_pid"
qemu_pid=
check_bad all
echo "done in $(secs $((t1 - t0)))s" >>"$logdir/$base.steps"
[ "$verbose" = 1 ] && tail -n 1 "$logdir/$base.steps" >&2
if [ -n "$xfail" ]; then
	x=$xfail
	xfail=
	fail "passed, but marked xfail: $x"
fi
result PASS 0 " ($(secs $((t1 - t0)))s)"
