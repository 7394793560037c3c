#!/bin/bash
# Run one QEMU scenario and judge it:  run-scenario.sh NAME
#
# A scenario is one file, scenarios/NAME.guest.sh.  It runs in the guest
# (in kernel A, and again in every kexec'd kernel B) and judges its own
# facts: each check prints "KJ <stage>: check WHAT ok" or
# "KJ <stage>: FAIL WHAT: WHY" (guest/common.sh), and /init ends each stage
# with "KJ <stage>: end rc=N checks=N failed=N marker=M".  The host keeps
# only generic rules, read from the "#: " lines of that file (its header):
#
#     timeout SECS       the whole scenario, all boots (default 180)
#     silence SECS       fail when the console prints nothing for SECS
#                        (default 90)
#     append WORDS       extra words for A's kernel command line
#     mark STAGE.start [SECS]
#     mark STAGE.end [SECS]
#     mark STAGE.reboot [SECS]
#                        the stage lines the run must show, in this order,
#                        each within SECS of the one before (default: no
#                        limit of its own, except 60 s for the first mark
#                        of a boot).  STAGE.start is /init's
#                        "KJ STAGE: start scenario=NAME ... boot=N marker=M"
#                        (for any start but a boot's first, a kernel banner
#                        must come before it: a kernel really booted);
#                        STAGE.end is "KJ STAGE: end rc=0 checks=N failed=0
#                        marker=M" with N >= 1, and ends the run (only
#                        with no-poweroff may a console mark come last);
#                        STAGE.reboot is the guest's request for another
#                        boot ("KJ STAGE: reboot-host boot=N rc=0 checks=N
#                        failed=0 marker=M"): the guest powers off and the
#                        host starts QEMU again with the same disk and
#                        kjump.boot=N+1.  Default: mark A.start, mark A.end.
#     console SECS REGEX a console line that no guest shell can judge (a
#                        bare test image such as kexec_test, which only
#                        has the serial port), in order with the marks;
#                        it may also be a guest line that orders such
#                        lines ("KJ A: trip 2 exec"); a boot after the
#                        first may begin with one (its kernel restores a
#                        hibernated system by itself, resume=: no /init)
#     reject REGEX       a console line that must never appear (the same
#                        use)
#     differ WORD        the guest's reports "KJ STAGE: WORD VALUE" (at
#                        least two, e.g. one per boot) must each carry
#                        another VALUE: where KASLR put each boot's kernel
#     config NAME        build-kernel.sh -c NAME instead of base
#     arch x86_64        a 64-bit guest: qemu-system-x86_64, Debian's
#                        amd64 kernel (debian-kernel.sh) instead of the
#                        companion kernel, images of make-initramfs.sh
#                        -a x86_64 and $KEXEC_X86_64 as our kexec; with
#                        "config vmlinux", A's image also holds
#                        /boot/vmlinux (make-initramfs.sh -V); with
#                        "config NAME" of an x86_64 fragment (configs/
#                        x86_64.config), the companion kernel of that
#                        fragment instead of Debian's
#     disk MIB           a fresh, zeroed raw disk of MIB MiB
#                        (LOGDIR/NAME.disk.img) as virtio-blk, /dev/vda;
#                        every boot of the run sees the same file
#     disk-fs TYPE       make an ext2/ext3/ext4, xfs or vfat file system on
#                        the whole disk on the host before the first boot
#     fsck-after         after the last boot, the host's check of the
#                        disk (as for fs-disk) must find nothing to fix
#     fs-disk MIB TYPE   one more fresh disk (LOGDIR/NAME.fs.img, then
#                        NAME.fs2.img, ...: /dev/vdb, /dev/vdc, ...) with
#                        an ext2/ext3/ext4, xfs or vfat file system made
#                        on the host; may be given again for another disk;
#                        every boot sees them, and after the last one the
#                        host's checker (e2fsck -fn, xfs_repair -n,
#                        fsck.vfat -n) must find nothing to fix
#     log-disk MIB SECTOR  a second fresh raw disk (/dev/vdb) behind
#                        QEMU's blklogwrites, which logs every write and
#                        flush the guest makes (LOGDIR/NAME.log-disk.img,
#                        the log NAME.log-disk.log); one boot only; after
#                        it the host's tests/harness/logwrites-check must
#                        find the guest's writes below SECTOR followed by
#                        a flush before its first write at SECTOR or above
#     image-verify       after the last boot, the host's kexec
#                        ($KJUMP_BUILDDIR/kexec/kexec, else $KEXEC) must
#                        verify the hibernation image at the disk's start
#     disk-fault SECTOR  every write to the disk that covers 512-byte
#                        sector SECTOR fails with EIO (QEMU's blkdebug)
#     memory MIB         guest RAM (default 512)
#     boot N memory MIB  boot N (1, 2, ...) only: guest RAM MIB
#     boot N config NAME boot N only: the kernel of build-kernel.sh -c NAME
#                        (the initramfs stays the one of the main config)
#     boot N append WORDS  boot N only: WORDS after A's command line (the
#                        kernel takes the last crashkernel=, say)
#     smp N              vCPUs (default 2)
#     cpu MODEL          QEMU's -cpu MODEL (default: QEMU's own, qemu32,
#                        which has no NX)
#     no-poweroff        the guest ends without powering off (kexec_test
#                        halts): after the last mark the host stops QEMU
#     extended           run by make check-extended, not make check
#                        (run-all.sh --list-extended)
#     xfail REASON       known to fail: XFAIL (exit 0) when it fails, FAIL
#                        when it passes
#     skip REASON        do not run: SKIP (exit 77)
#     allow-panic-after REGEX
#                        an intended crash: from each line matching
#                        REGEX up to the next kernel banner or guest report
#                        line (KJ S: ...), lines matching
#                        "Kernel panic" or "Call Trace" are not kernel
#                        errors (Oops, BUG:, WARNING: still are)
#     allow-warning REGEX
#                        one known WARNING that is not the test's subject:
#                        a "WARNING:" line matching REGEX and its report up
#                        to "---[ end trace" (80 lines at most)
#   A directive prefixed with "ours " or "debian " applies only when
#   testing that kexec.  In REGEX and WORDS, @MARKER@ is this run's random
#   marker (also on A's command line as kjump.marker=), @IMPL@ the kexec
#   under test and @SCENARIO@ the name.
#
# Before a kernel stage passes control to another one (kexec -e, -j, a
# crash), it says "KJ S: handover to T [(TEXT)]" (kj_handover); the next report line
# must then come from T ("KJ T: ...", or "kexec_test: ..." for T=kexec_test).
# So the order of the stages is proven without a regex per round trip.
#
# Every run also fails on: a guest FAIL line; a "kexec_test: FAIL" or
# "kexec_test: check X: FAIL" line; a start, end or reboot-host line out of
# the order of the marks; a kernel error on the console (Oops, BUG:,
# WARNING:, Call Trace, Kernel panic; see allow-panic-after and
# allow-warning); QEMU exiting before a boot's last mark (a triple fault
# ends QEMU because of -no-reboot); the guest not powering off within 30 s
# of a boot's last mark; the timeouts above.
#
# The serial log is read as it grows, one line at a time, from one open
# file descriptor (each line is looked at once).
#
# Environment:
#   KEXEC              our static i386 kexec (needed when KEXEC_IMPL=ours)
#   KEXEC_X86_64       our static x86_64 kexec, for "arch x86_64" (SKIP
#                      when unset)
#   KEXEC_TEST         the kexec_test image, put in A as /boot/kexec_test
#                      (default: kexec_test/kexec_test of the build tree
#                      that $KEXEC, tests/qemu/kexec-i386, belongs to)
#   KEXEC_IMPL         ours (default) or debian (Debian's kexec-tools 2.0.25)
#   KJUMP_QEMU_LOGDIR  where logs go (default tests/qemu/logs)
#   KJUMP_CACHE_DIR    cache for the kernel, .debs and initramfs images
#   KJUMP_KERNEL_CONFIG  fragment for build-kernel.sh -c (default base)
#   KJUMP_LINUX        the companion kernel's version, 6.1 (default) or 6.12
#                      (build-kernel.sh -k); not 6.1: the name reads
#                      qemu/NAME@VERSION
#   KJUMP_BZIMAGE      use this bzImage instead of building the kernel
#   KJUMP_TIMEOUT_SCALE  multiply every timeout by this integer (default 1)
#   KJUMP_VERBOSE=1    print each matched mark with its time on stderr
#   KJUMP_LIST_KERNELS=1  run nothing: print the companion kernels the run
#                      would build, one "VERSION CONFIG" line each (none
#                      when it would skip; tests/harness/prebuild-kernels.sh)
#   KJUMP_HOST_FILE    read the "#: " directives from this file instead of
#                      the scenario's header (bench.sh: other run counts)
#   KJUMP_QEMU_DEBUG   QEMU's -d items for LOGDIR/NAME.qemu-debug.log
#                      (default guest_errors,cpu_reset; int,cpu_reset logs
#                      every interrupt and exception: where a triple fault
#                      came from)
#
# Prints exactly one line on stdout:
#   PASS: qemu/NAME (X.Ys)     exit 0  (X.Y: QEMU start to QEMU exit)
#   FAIL: qemu/NAME: REASON    exit 1  (then the serial log tail on stderr)
#   SKIP: qemu/NAME: REASON    exit 77 (no qemu-system-i386 or kernel source)
#   XFAIL: qemu/NAME: REASON (FAILURE)   exit 0, only with an xfail directive
# With KEXEC_IMPL=debian the name reads qemu/NAME@debian (after @VERSION).
# (bash: run as "sh run-scenario.sh NAME" too)
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
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
bannerre='Linux version [0-9]'      # a kernel starting
imagefailre='^kexec_test: (check [^:]*: )?FAIL'
# a guest report line from /dev/kmsg: "[    1.234567] KJ A: ...", possibly
# after other console output on the same line
kjre='\[ *[0-9]+\.[0-9]+\] (KJ [^ :]+: .*)$'

if [ $# != 1 ]; then
	echo "usage: $0 NAME   (scenarios: $("$here/run-all.sh" --list | tr '\n' ' '))" >&2
	exit 2
fi
name=$1
linux=${KJUMP_LINUX:-6.1}
export KJUMP_LINUX=$linux
base=$name
[ "$linux" = 6.1 ] || base=$name@$linux
case $impl in
ours) ;;
debian) base=$base@debian ;;
*) echo "run-scenario: KEXEC_IMPL must be ours or debian, not '$impl'" >&2; exit 2 ;;
esac
label=qemu/$base
serial=$logdir/$base.serial.log
steps=$logdir/$base.steps

qemu_pid=
xfail=
started=0       # QEMU ran: the logs in $logdir are this run's

result() {      # result WORD EXIT TEXT
	[ "${KJUMP_LIST_KERNELS:-0}" = 1 ] && exit 0
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
	[ $started = 1 ] && [ -s "$steps" ] && sed 's/^/  step| /' "$steps" >&2
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
sfile=$here/scenarios/$name.guest.sh
hostfile=${KJUMP_HOST_FILE:-$sfile}
[ -f "$sfile" ] || fail "no such scenario (need scenarios/$name.guest.sh)"
[ -f "$hostfile" ] || fail "KJUMP_HOST_FILE=$hostfile: no such file"
if [ "${KJUMP_LIST_KERNELS:-0}" != 1 ]; then
	mkdir -p "$logdir" || fail "cannot create $logdir"
	rm -f "$serial" "$logdir/$base".*
fi

# --- the header ---
marker=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
subst() {
	local s=$1
	s=${s//@MARKER@/$marker}
	s=${s//@IMPL@/$impl}
	s=${s//@SCENARIO@/$name}
	printf '%s' "$s"
}
# the marks: kind (start, end, reboot, console), stage, timeout, regex
mk_kind=() mk_stage=() mk_t=() mk_re=()
rejects=() differs=() extra= allow_after= allow_warn= skip_why=
total=180 silence=90
kconfig=${KJUMP_KERNEL_CONFIG:-base}
boot_mem=() boot_cfg=() boot_bz=() boot_app=()
garch=i386
disk_mib= disk_fs= fs_disks=() log_disk_mib= fsck_after=0 image_verify=0 disk_fault= mem_mib=512 smp=2 cpu= no_poweroff=0
hname=${hostfile##*/}
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
	lineno=$((lineno + 1))
	case $line in '#: '*) line=${line#'#: '} ;; *) continue ;; esac
	read -r kw rest <<<"$line"
	case $kw in
	ours | debian)
		[ "$kw" = "$impl" ] || continue
		read -r kw rest <<<"$rest" ;;
	esac
	bad="$hname:$lineno: bad directive '$line'"
	case $kw in
	mark)
		read -r m t <<<"$rest"
		[[ ${t:-0} =~ ^[0-9]+$ ]] &&
			[[ $m =~ ^([A-Za-z0-9_]+)\.(start|end|reboot)$ ]] ||
			fail "$bad (mark STAGE.start|end|reboot [SECS])"
		mk_stage+=("${BASH_REMATCH[1]}")
		mk_kind+=("${BASH_REMATCH[2]}")
		mk_t+=("$((${t:-0} * scale))")
		mk_re+=("") ;;
	console)
		read -r t re <<<"$rest"
		[[ $t =~ ^[0-9]+$ ]] && [ -n "$re" ] || fail "$bad (console SECS REGEX)"
		mk_kind+=(console) mk_stage+=("")
		mk_t+=("$((t * scale))")
		mk_re+=("$(subst "$re")") ;;
	reject)
		[ -n "$rest" ] || fail "$bad (reject REGEX)"
		rejects+=("$(subst "$rest")") ;;
	differ)
		[[ $rest =~ ^[A-Za-z0-9_.-]+$ ]] || fail "$bad (differ WORD)"
		differs+=("$rest") ;;
	append) extra="$extra $(subst "$rest")" ;;
	xfail) xfail=${rest:-known failure} ;;
	extended) [ -z "$rest" ] || fail "$bad (extended takes no argument)" ;;
	skip) skip_why=${rest:-skipped by $hname} ;;
	allow-panic-after)
		[ -n "$rest" ] || fail "$bad (allow-panic-after REGEX)"
		allow_after=$(subst "$rest") ;;
	allow-warning)
		[ -n "$rest" ] || fail "$bad (allow-warning REGEX)"
		allow_warn=$(subst "$rest") ;;
	timeout)
		[[ $rest =~ ^[0-9]+$ ]] || fail "$bad (timeout SECS)"
		total=$rest ;;
	silence)
		[[ $rest =~ ^[0-9]+$ ]] || fail "$bad (silence SECS)"
		silence=$rest ;;
	config)
		[[ $rest =~ ^[A-Za-z0-9_-]+$ ]] || fail "$bad (config NAME)"
		kconfig=$rest ;;
	arch)
		[[ $rest =~ ^(i386|x86_64)$ ]] || fail "$bad (arch i386|x86_64)"
		garch=$rest ;;
	disk)
		[[ $rest =~ ^[1-9][0-9]*$ ]] || fail "$bad (disk MIB)"
		disk_mib=$rest ;;
	disk-fs)
		[[ $rest =~ ^(ext[234]|xfs|vfat)$ ]] || fail "$bad (disk-fs ext2|ext3|ext4|xfs|vfat)"
		disk_fs=$rest ;;
	fs-disk)
		[[ $rest =~ ^([1-9][0-9]*)\ (ext[234]|xfs|vfat)$ ]] || fail "$bad (fs-disk MIB ext2|ext3|ext4|xfs|vfat)"
		fs_disks+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]}") ;;
	log-disk)
		[[ $rest =~ ^([1-9][0-9]*)\ ([1-9][0-9]*)$ ]] || fail "$bad (log-disk MIB SECTOR)"
		log_disk_mib=${BASH_REMATCH[1]} log_disk_sector=${BASH_REMATCH[2]} ;;
	fsck-after)
		[ -z "$rest" ] || fail "$bad (fsck-after takes no argument)"
		fsck_after=1 ;;
	image-verify)
		[ -z "$rest" ] || fail "$bad (image-verify takes no argument)"
		image_verify=1 ;;
	disk-fault)
		[[ $rest =~ ^[0-9]+$ ]] || fail "$bad (disk-fault SECTOR)"
		disk_fault=$rest ;;
	memory)
		[[ $rest =~ ^[1-9][0-9]*$ ]] || fail "$bad (memory MIB)"
		mem_mib=$rest ;;
	boot)
		if [[ $rest =~ ^([1-9][0-9]*)\ memory\ ([1-9][0-9]*)$ ]]; then
			boot_mem[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		elif [[ $rest =~ ^([1-9][0-9]*)\ config\ ([A-Za-z0-9_-]+)$ ]]; then
			boot_cfg[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		elif [[ $rest =~ ^([1-9][0-9]*)\ append\ (.+)$ ]]; then
			boot_app[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
		else
			fail "$bad (boot N memory MIB, boot N config NAME, boot N append WORDS)"
		fi ;;
	smp)
		[[ $rest =~ ^[1-9][0-9]*$ ]] || fail "$bad (smp N)"
		smp=$rest ;;
	cpu)
		[[ $rest =~ ^[A-Za-z0-9_,+.=-]+$ ]] || fail "$bad (cpu MODEL)"
		cpu=$rest ;;
	no-poweroff)
		[ -z "$rest" ] || fail "$bad (no-poweroff takes no argument)"
		no_poweroff=1 ;;
	*) fail "$hname:$lineno: unknown directive '$kw'" ;;
	esac
done <"$hostfile"
[ -z "$skip_why" ] || { xfail=; skip "$skip_why"; }
qemu=qemu-system-$garch
command -v "$qemu" >/dev/null 2>&1 || skip "$qemu not installed"
if [ "$garch" = x86_64 ]; then
	kexec_ours=${KEXEC_X86_64:-}
	if [ "$impl" = ours ]; then
		[ -n "$kexec_ours" ] || skip "KEXEC_X86_64 is not set (no static x86_64 kexec: configure found no static -m64 toolchain)"
		# (not built yet with make -j when the kernels are listed)
		[ -f "$kexec_ours" ] || [ "${KJUMP_LIST_KERNELS:-0}" = 1 ] ||
			fail "KEXEC_X86_64=$kexec_ours: no such file"
	fi
else
	if [ -z "${KJUMP_BZIMAGE:-}" ]; then
		tarball=${KJUMP_LINUX_TARBALL:-/usr/src/linux-source-$linux.tar.xz}
		[ -r "$tarball" ] || skip "kernel source $tarball not found (install linux-source-$linux)"
	fi
	kexec_ours=${KEXEC:-}
	if [ "$impl" = ours ]; then
		[ -n "$kexec_ours" ] || fail "KEXEC is not set (path of our static i386 kexec; KEXEC_IMPL=debian tests Debian's instead)"
		# (not built yet with make -j when the kernels are listed)
		[ -f "$kexec_ours" ] || [ "${KJUMP_LIST_KERNELS:-0}" = 1 ] ||
			fail "KEXEC=$kexec_ours: no such file"
	fi
fi
if [ ${#mk_kind[@]} = 0 ]; then
	mk_kind=(start end) mk_stage=(A A) mk_t=(0 0) mk_re=("" "")
fi
nmarks=${#mk_kind[@]}
[ "${mk_kind[nmarks - 1]}" = end ] ||
	{ [ $no_poweroff = 1 ] && [ "${mk_kind[nmarks - 1]}" = console ]; } ||
	fail "$hname: the last mark must be STAGE.end (or, with no-poweroff, a console mark)"
# A boot begins with a start mark: the first mark and every one after a
# reboot mark.  A later boot may begin with a console mark instead: its
# kernel restores a hibernated system itself (resume=), and no /init runs.
for ((i = 0; i < nmarks; i++)); do
	if [ $i = 0 ] || [ "${mk_kind[i - 1]}" = reboot ]; then
		[ "${mk_kind[i]}" = start ] || { [ $i != 0 ] && [ "${mk_kind[i]}" = console ]; } ||
			fail "$hname: a boot must begin with a STAGE.start mark (or, after the first, a console mark)"
		[ "${mk_t[i]}" = 0 ] && mk_t[i]=$((60 * scale))
	fi
	[ "${mk_kind[i]}" = end ] && [ $i != $((nmarks - 1)) ] &&
		fail "$hname: only the last mark may be STAGE.end"
done
total=$((total * scale))
silence=$((silence * scale))
poweroff_t=$((30 * scale))

# What the kernel part below builds, for KJUMP_LIST_KERNELS=1.
list_kernels() {
	local n
	if [ -z "${KJUMP_BZIMAGE:-}" ] && { [ "$garch" = i386 ] ||
		{ [ "$kconfig" != base ] && [ "$kconfig" != vmlinux ]; }; }; then
		echo "$linux $kconfig"
	fi
	for n in "${!boot_cfg[@]}"; do
		echo "$linux ${boot_cfg[n]}"
	done
}
if [ "${KJUMP_LIST_KERNELS:-0}" = 1 ]; then
	list_kernels
	exit 0
fi

# --- kernel and initramfs ---
unset imgsuffix
mkflags=
if [ "$garch" = x86_64 ] && { [ "$kconfig" = base ] || [ "$kconfig" = vmlinux ]; }; then
	bzimage=$("$here/debian-kernel.sh" -q 2>"$logdir/$base.build.log" | tail -n 1)
	if [ -z "$bzimage" ] || [ ! -r "$bzimage" ]; then
		tail -n 20 "$logdir/$base.build.log" >&2
		fail "no Debian amd64 kernel (log: $logdir/$base.build.log)"
	fi
	# "config vmlinux": A's image also holds the kernel's ELF file
	[ "$kconfig" = vmlinux ] && mkflags=-V
	kconfig="debian amd64"
	imgsuffix=-x86_64${mkflags:+-vmlinux}
elif [ -n "${KJUMP_BZIMAGE:-}" ]; then
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
	karch=i386
	grep -qx 'CONFIG_X86_64=y' "$kdir/.config" && karch=x86_64
	[ "$karch" = "$garch" ] ||
		fail "$hname: config $kconfig builds an $karch kernel, the guest is $garch"
fi
for n in "${!boot_cfg[@]}"; do
	kd=$("$top/kernel-companion/build-kernel.sh" -q \
		-c "${boot_cfg[n]}" 2>>"$logdir/$base.build.log" | tail -n 1)
	[ -n "$kd" ] && [ -r "$kd/bzImage" ] ||
		fail "boot $n: kernel build of config ${boot_cfg[n]} failed (log: $logdir/$base.build.log)"
	boot_bz[n]=$kd/bzImage
done
if [ "$garch" = i386 ] && [ -z "${KEXEC_TEST:-}" ] && [ -n "${KEXEC:-}" ]; then
	kt=$(dirname "$KEXEC")/../../kexec_test/kexec_test
	[ -f "$kt" ] && export KEXEC_TEST=$kt
fi
# the image writer of the guest's arch, next to its kexec
if [ -z "${KJUMP_SAVE:-}" ] && [ -n "$kexec_ours" ]; then
	ks=$(dirname "$kexec_ours")/kjump-save-$garch
	[ -f "$ks" ] && export KJUMP_SAVE=$ks
fi
# The images hold this tree's guest files: one directory per source tree,
# so that a run in another tree (another worktree) cannot rebuild them
# between this run's build and its boot.
imgdir=${KJUMP_QEMU_BUILDDIR:-$cache/qemu-initramfs-$(printf '%s' "$top" | sha256sum | cut -c1-12)}
# A holds the kernel, so each kernel config gets its own images; sharing
# one directory would rebuild them on every switch.
# (Debian's kernel set imgsuffix above; each companion config its own,
# never the same as Debian's)
if [ -z "${imgsuffix+set}" ]; then
	case $garch/$kconfig in
	i386/base) imgsuffix= ;;
	i386/*) imgsuffix=-$kconfig ;;
	*) imgsuffix=-companion-$kconfig ;;
	esac
fi
imgdir=$imgdir${imgsuffix:-}
[ "$linux" = 6.1 ] || imgdir=$imgdir-$linux
if ! KEXEC=$kexec_ours "$here/make-initramfs.sh" -a "$garch" -k "$bzimage" ${mkflags:-} "$imgdir" \
	>>"$logdir/$base.build.log" 2>&1; then
	tail -n 20 "$logdir/$base.build.log" >&2
	fail "initramfs build failed (log: $logdir/$base.build.log)"
fi

cmdline="${extra# } console=ttyS0,115200 panic=-1 kjump.scenario=$name kjump.impl=$impl kjump.marker=$marker"
cmdline=${cmdline# }

# --- judging the console, one line at a time ---
cur=0           # the next mark to match
boot=1
banner=0        # a kernel banner since the last mark
inwarn=0 wl=0   # inside a tolerated WARNING report
pstate=0        # allow-panic-after: 0 before REGEX, 1 in a window, 2 after one
lines=0         # serial lines read
checks=0        # "check ... ok" lines seen
handover=       # the stage that must report next ("KJ S: handover to T")
handover_from= handovers=0

markname() {    # markname INDEX: how the steps file and errors name it
	case ${mk_kind[$1]} in
	console) echo "console /${mk_re[$1]}/" ;;
	*) echo "${mk_stage[$1]}.${mk_kind[$1]}" ;;
	esac
}

matched() {     # the current mark has been seen
	now
	printf '%6ss  %d/%d  %s  line %d  (%d checks ok, %d hand-overs so far)\n' \
		"$(secs $((now_us - t0)))" $((cur + 1)) $nmarks "$(markname $cur)" \
		$lines $checks $handovers >>"$steps"
	[ "$verbose" = 1 ] && tail -n 1 "$steps" >&2
	cur=$((cur + 1))
	banner=0
	mark_deadline=0
	[ $cur -lt $nmarks ] && [ "${mk_t[cur]}" != 0 ] &&
		mark_deadline=$((now_us + mk_t[cur] * 1000000))
}

# the kernel-error scan, with the allow-panic-after window and the
# allow-warning report skipped
scan_errors() {
	local l=$1
	if [ $inwarn = 1 ]; then
		wl=$((wl + 1))
		if [[ $l == *'---[ end trace'* ]] || [ $wl -gt 80 ]; then
			inwarn=0
		fi
		return
	fi
	if [ -n "$allow_warn" ] && [[ $l == *WARNING:* ]] && [[ $l =~ $allow_warn ]]; then
		inwarn=1 wl=0
		return
	fi
	if [ -n "$allow_after" ]; then
		if [ $pstate != 1 ] && [[ $l =~ $allow_after ]]; then
			pstate=1
		elif [ $pstate = 1 ]; then
			# the next kernel speaks: booted, or entered where a
			# jump had left it (jump-panic)
			if [[ $l =~ $bannerre ]] || [[ $l =~ ^KJ\ [^\ :]+: ]]; then
				pstate=2
			elif [[ $l =~ $panicre ]]; then
				return
			fi
		fi
	fi
	[[ $l =~ $badre ]] && fail "kernel error on the console: $l"
}

# a start, end or reboot-host line of stage $1 ($2: the text after "KJ S: ")
stage_line() {
	local st=$1 msg=$2 kind want n
	case $msg in
	'start scenario='*) kind=start ;;
	'end rc='*) kind=end ;;
	'reboot-host '*) kind=reboot ;;
	esac
	if [ $cur -ge $nmarks ] || [ "${mk_kind[cur]}" != $kind ] ||
		[ "${mk_stage[cur]}" != "$st" ]; then
		want="after the last mark"
		[ $cur -lt $nmarks ] && want="while waiting for $(markname $cur)"
		fail "unexpected 'KJ $st: $msg' $want"
	fi
	case $kind in
	start)
		want="start scenario=$name impl=[a-z]+ boot=$boot marker=$marker( |\$)"
		# the host set the first stage's implementation
		[ $cur = 0 ] || [ "${mk_kind[cur - 1]}" = reboot ] &&
			want="start scenario=$name impl=$impl boot=$boot marker=$marker( |\$)"
		[[ $msg =~ ^$want ]] || fail "$st started with the wrong words (want /$want/): $msg"
		if ! { [ $cur = 0 ] || [ "${mk_kind[cur - 1]}" = reboot ]; } && [ $banner = 0 ]; then
			fail "$st started with no kernel banner (/$bannerre/) since the last mark"
		fi ;;
	end | reboot)
		if [ $kind = end ]; then
			want="^end rc=0 checks=([0-9]+) failed=0 marker=$marker\$"
		else
			want="^reboot-host boot=$boot rc=0 checks=([0-9]+) failed=0 marker=$marker\$"
		fi
		[[ $msg =~ $want ]] || fail "$st did not end well (want /$want/): $msg"
		n=${BASH_REMATCH[1]}
		[ "$n" -ge 1 ] || fail "$st ended without a single check: $msg" ;;
	esac
	matched
}

line() {
	local l=${1//$'\r'/} r st msg
	lines=$((lines + 1))
	[[ $l =~ $kjre ]] && l=${BASH_REMATCH[1]}
	scan_errors "$l"
	[[ $l =~ $bannerre ]] && banner=1
	[[ $l =~ $imagefailre ]] && fail "the test image failed: $l"
	for r in "${rejects[@]}"; do
		[[ $l =~ $r ]] && fail "rejected line /$r/: $l"
	done
	st=
	if [[ $l =~ ^KJ\ ([^ :]+):\ (.*)$ ]]; then
		st=${BASH_REMATCH[1]} msg=${BASH_REMATCH[2]}
	elif [[ $l == 'kexec_test: '* ]]; then
		st=kexec_test msg=${l#kexec_test: }
	fi
	if [ -n "$st" ] && [ -n "$handover" ]; then
		[[ $msg == 'FAIL '* ]] && fail "$st: ${msg#FAIL }"
		[ "$st" = "$handover" ] ||
			fail "$handover_from handed over to $handover, but the next report is from $st: $l"
		handover=
	fi
	if [ "$st" = kexec_test ]; then
		:
	elif [ -n "$st" ]; then
		case $msg in
		'FAIL '*) fail "$st: ${msg#FAIL }" ;;
		'handover to '*)
			handover=${msg#handover to } handover_from=$st
			handover=${handover%% *}
			handovers=$((handovers + 1)) ;;
		'check '*' ok') checks=$((checks + 1)) ;;
		'start scenario='* | 'end rc='* | 'reboot-host '*)
			stage_line "$st" "$msg"
			return ;;
		esac
	fi
	if [ $cur -lt $nmarks ] && [ "${mk_kind[cur]}" = console ] &&
		[[ $l =~ ${mk_re[cur]} ]]; then
		matched
	fi
}

# last mark of the boot that is running: the next end or reboot mark
boot_last() {
	local i
	for ((i = cur; i < nmarks; i++)); do
		case ${mk_kind[i]} in end | reboot) echo $i; return ;; esac
	done
	echo $((nmarks - 1))
}

# --- run QEMU (one at a time: a lock shared by every run-scenario.sh) ---
mkdir -p "$cache"
exec 8>"$cache/.qemu.lock"
flock 8 || fail "cannot lock $cache/.qemu.lock"

nboots=1
for k in "${mk_kind[@]}"; do [ "$k" = reboot ] && nboots=$((nboots + 1)); done
{
	echo "scenario: $name"
	echo "impl: $impl${kexec_ours:+ (kexec $kexec_ours)}"
	echo "marker: $marker"
	echo "kernel: $bzimage (config $kconfig)"
	echo "machine: $qemu, ${mem_mib} MiB, $smp vCPUs${cpu:+, cpu $cpu}${disk_mib:+, virtio disk $disk_mib MiB}"
	echo "boots: $nboots"
	echo "marks:$(for ((i = 0; i < nmarks; i++)); do printf ' %s' "$(markname $i)"; done)"
	echo "initrd: $imgdir/initrd-a.cpio"
	echo "cmdline: $cmdline kjump.boot=1"
} >"$logdir/$base.meta"
: >"$steps"
: >"$serial"
exec 7<"$serial"
# mkfs_on TYPE FILE [LABEL]: the file system of a disk (label kjumpfs)
mkfs_on() {
	case $1 in
	xfs) mkfs.xfs -q -f -L "${3:-kjumpfs}" "$2" ;;
	vfat) mkfs.vfat -n "$(echo "${3:-kjumpfs}" | tr a-z A-Z)" "$2" ;;
	*) mkfs."$1" -q -F -L "${3:-kjumpfs}" "$2" ;;
	esac
}
# fsck_of TYPE FILE: the host's read-only check of that file system.  A
# vfat one A had mounted may keep its dirty bit, as after a crash: Linux
# never clears a dirty bit it found at mount, and only a hibernation
# resumed unmounts what A mounted.  Nothing else may need fixing.
fsck_of() {
	case $1 in
	xfs) xfs_repair -n "$2" ;;
	vfat)
		fsck.vfat -n "$2" >"$logdir/$base.vfat-check" 2>&1 && { cat "$logdir/$base.vfat-check"; return 0; }
		cat "$logdir/$base.vfat-check"
		! grep -vqE '^(fsck\.fat [0-9.]+ |Dirty bit is set\. Fs was not properly unmounted|[[:space:]]*Automatically removing dirty bit\.|Leaving filesystem unchanged\.|.*: [0-9]+ files, [0-9]+/[0-9]+ clusters|$)' \
			"$logdir/$base.vfat-check" ;;
	*) e2fsck -fn "$2" ;;
	esac
}
drive=()
if [ -n "$disk_mib" ]; then
	disk=$logdir/$base.disk.img
	rm -f "$disk"
	truncate -s "${disk_mib}M" "$disk" || fail "cannot create $disk"
	if [ -n "$disk_fs" ]; then
		mkfs_on "$disk_fs" "$disk" kjump >>"$logdir/$base.build.log" 2>&1 ||
			fail "mkfs.$disk_fs on $disk failed (log: $logdir/$base.build.log)"
	fi
	drive=(-drive "file=$disk,format=raw,if=virtio")
	if [ -n "$disk_fault" ]; then
		# QEMU's blkdebug: every write that covers the sector fails (EIO)
		printf '[inject-error]\nevent = "pwritev"\nerrno = "5"\nsector = "%s"\nonce = "off"\n' \
			"$disk_fault" >"$logdir/$base.blkdebug.conf"
		drive=(-drive "file=blkdebug:$logdir/$base.blkdebug.conf:$disk,format=raw,if=virtio")
	fi
fi
# fs_disk_img N: the host file of the Nth fs-disk (0: NAME.fs.img)
fs_disk_img() {
	if [ "$1" = 0 ]; then echo "$logdir/$base.fs.img"; else echo "$logdir/$base.fs$(($1 + 1)).img"; fi
}
for i in "${!fs_disks[@]}"; do
	# after the image disk, so that the first is /dev/vdb
	[ -n "$disk_mib" ] || fail "fs-disk: needs a disk directive first (it is /dev/vdb)"
	read -r mib type <<<"${fs_disks[$i]}"
	img=$(fs_disk_img "$i")
	rm -f "$img"
	truncate -s "${mib}M" "$img" || fail "cannot create $img"
	mkfs_on "$type" "$img" >>"$logdir/$base.build.log" 2>&1 ||
		fail "mkfs.$type on $img failed (log: $logdir/$base.build.log)"
	drive+=(-drive "file=$img,format=raw,if=virtio")
done
if [ -n "$log_disk_mib" ]; then
	[ -n "$disk_mib" ] && [ ${#fs_disks[@]} = 0 ] ||
		fail "log-disk: needs a disk directive first and no fs-disk (it is /dev/vdb)"
	log_disk=$logdir/$base.log-disk.img log_log=$logdir/$base.log-disk.log
	logcheck=${KJUMP_BUILDDIR:+$KJUMP_BUILDDIR/tests/harness/logwrites-check}
	[ -x "${logcheck:-}" ] || fail "log-disk: no logwrites-check (KJUMP_BUILDDIR/tests/harness; make check builds it)"
	rm -f "$log_disk" "$log_log"
	truncate -s "${log_disk_mib}M" "$log_disk" && : >"$log_log" ||
		fail "cannot create $log_disk"
	drive+=(-drive "driver=blklogwrites,file.driver=file,file.filename=$log_disk,log.driver=file,log.filename=$log_log,if=virtio")
fi

now
t0=$now_us
total_deadline=$((t0 + total * 1000000))
started=1
partial=
while :; do
	# boot $boot: its own QEMU, the same serial log (appended) and disk
	sfx=
	[ $boot = 1 ] || sfx=.boot$boot
	echo "--- boot $boot${boot_mem[boot]:+ (${boot_mem[boot]} MiB)}${boot_cfg[boot]:+ (kernel ${boot_cfg[boot]})}${boot_app[boot]:+ (+ ${boot_app[boot]})}" >>"$steps"
	now
	printf '%6ss  qemu started (boot %d)\n' "$(secs $((now_us - t0)))" $boot >>"$steps"
	"$qemu" -accel tcg -nodefaults -no-reboot -nographic \
		-m "${boot_mem[boot]:-$mem_mib}" -smp "$smp" ${cpu:+-cpu "$cpu"} "${drive[@]}" \
		-chardev "file,id=ser0,path=$serial,append=on" -serial chardev:ser0 \
		-d ${KJUMP_QEMU_DEBUG:-guest_errors,cpu_reset} -D "$logdir/$base$sfx.qemu-debug.log" \
		-kernel "${boot_bz[boot]:-$bzimage}" -initrd "$imgdir/initrd-a.cpio" \
		-append "$cmdline${boot_app[boot]:+ ${boot_app[boot]}} kjump.boot=$boot" \
		</dev/null >>"$logdir/$base.qemu.log" 2>&1 8>&- &
	qemu_pid=$!
	echo "$qemu_pid" >>"$logdir/$base.qemu.pid"
	last=$(boot_last)
	mark_deadline=$((now_us + mk_t[cur] * 1000000))
	heard=$now_us           # the console's last output
	off_deadline=0
	while :; do
		if IFS= read -r chunk <&7; then
			line "$partial$chunk"
			partial=
			now
			heard=$now_us
			continue
		fi
		partial+=$chunk    # a line still being written
		[ -n "$chunk" ] && { now; heard=$now_us; }
		if ! alive; then
			# QEMU is gone: everything it wrote is in the file
			while IFS= read -r chunk <&7 || [ -n "$chunk" ]; do
				line "$partial$chunk"
				partial=
			done
			partial=
			break
		fi
		now
		if [ $cur -gt $last ]; then
			# the boot's last mark: the guest powers off, or, with
			# no-poweroff, QEMU is stopped here
			if [ $no_poweroff = 1 ]; then
				stop_qemu
				continue
			fi
			[ $off_deadline != 0 ] || off_deadline=$((now_us + poweroff_t * 1000000))
			[ $now_us -lt $off_deadline ] ||
				fail "guest did not power off within ${poweroff_t}s after $(markname $last)"
		else
			[ $now_us -lt $total_deadline ] ||
				fail "timeout: scenario not done after ${total}s, waiting for $(markname $cur)"
			[ $mark_deadline = 0 ] || [ $now_us -lt $mark_deadline ] ||
				fail "timeout: no $(markname $cur) within ${mk_t[cur]}s of the mark before (mark $((cur + 1))/$nmarks)"
			[ $now_us -lt $((heard + silence * 1000000)) ] ||
				fail "timeout: the console was silent for ${silence}s, waiting for $(markname $cur)"
		fi
		sleep 0.05
	done
	now
	t1=$now_us
	if [ -n "$qemu_pid" ]; then
		wait "$qemu_pid"
		qrc=$?
		qemu_pid=
		printf '%6ss  qemu exited (boot %d, status %d)\n' \
			"$(secs $((t1 - t0)))" $boot $qrc >>"$steps"
	else
		qrc=0   # stopped by us (no-poweroff)
	fi
	if [ $cur -le $last ]; then
		why="QEMU exited (status $qrc) before $(markname $cur) (boot $boot)"
		if grep -q 'Triple fault' "$logdir/$base$sfx.qemu-debug.log" 2>/dev/null; then
			why="$why: triple fault"
		elif [ -s "$logdir/$base.qemu.log" ]; then
			why="$why: $(tail -n 1 "$logdir/$base.qemu.log")"
		fi
		fail "$why"
	fi
	[ $cur -lt $nmarks ] || break
	boot=$((boot + 1))
done
echo "done in $(secs $((t1 - t0)))s, $boot boot(s), $checks checks ok, $handovers hand-overs" >>"$steps"
if [ "$fsck_after" = 1 ]; then
	[ -n "$disk_mib" ] || fail "fsck-after: the scenario has no disk"
	if ! fsck_of "${disk_fs:-ext4}" "$disk" >"$logdir/$base.fsck.log" 2>&1; then
		tail -n 20 "$logdir/$base.fsck.log" >&2
		fail "the host's check of the disk after the run found problems (log: $logdir/$base.fsck.log)"
	fi
	echo "the host's check of the disk: clean" >>"$steps"
fi
for i in "${!fs_disks[@]}"; do
	read -r mib type <<<"${fs_disks[$i]}"
	img=$(fs_disk_img "$i")
	if ! fsck_of "$type" "$img" >"$logdir/$base.fs-fsck.log" 2>&1; then
		tail -n 20 "$logdir/$base.fs-fsck.log" >&2
		fail "the host's check of the $type disk $img after the run found problems (log: $logdir/$base.fs-fsck.log)"
	fi
	echo "the host's check of the $type file system disk $img: clean" >>"$steps"
done
if [ -n "$log_disk_mib" ]; then
	[ "$boot" = 1 ] || fail "log-disk: a second boot would start a new log"
	if ! "$logcheck" "$log_log" "$log_disk_sector" >"$logdir/$base.log-disk.check" 2>&1; then
		cat "$logdir/$base.log-disk.check" >&2
		fail "the write log of /dev/vdb has no flush between the writes below sector $log_disk_sector and those above: $(tail -n 1 "$logdir/$base.log-disk.check")"
	fi
	echo "write log of /dev/vdb: flushed in between ($(head -n 1 "$logdir/$base.log-disk.check"))" >>"$steps"
fi
for w in "${differs[@]}"; do
	vals=$(grep -a -o "KJ [A-Za-z0-9']*: $w [^ ]*" "$serial" | awk '{ print $NF }' | tr -d '\r')
	[ "$(echo "$vals" | grep -c .)" -ge 2 ] ||
		fail "differ $w: fewer than two '$w' reports on the console"
	[ "$(echo "$vals" | sort -u | wc -l)" = "$(echo "$vals" | wc -l)" ] ||
		fail "differ $w: two '$w' reports say the same: $(echo $vals)"
	echo "differ $w: $(echo $vals)" >>"$steps"
done
if [ "$image_verify" = 1 ]; then
	# the host's own build reads the image the guest wrote
	hk=${KJUMP_BUILDDIR:+$KJUMP_BUILDDIR/kexec/kexec}
	[ -x "${hk:-}" ] || hk=${KEXEC:-}
	[ -n "$hk" ] || fail "image-verify: no kexec for the host (KJUMP_BUILDDIR or KEXEC)"
	if ! "$hk" --image-info="$disk" --verify >"$logdir/$base.image-info.log" 2>&1; then
		tail -n 5 "$logdir/$base.image-info.log" >&2
		fail "image-verify: $hk --image-info --verify of the disk failed (log: $logdir/$base.image-info.log)"
	fi
	echo "image-verify ($hk): $(grep '^verify' "$logdir/$base.image-info.log")" >>"$steps"
fi
[ "$verbose" = 1 ] && tail -n 1 "$steps" >&2
if [ -n "$xfail" ]; then
	x=$xfail
	xfail=
	fail "passed, but marked xfail: $x"
fi
result PASS 0 " ($(secs $((t1 - t0)))s)"
