# Helpers for the guest scenario scripts (/scenarios/NAME.sh), sourced as
#   . /lib/kjump/common.sh
# /init exports KJ_STAGE, KJ_SCENARIO, KJ_MARKER, KJ_IMPL, KJ_BOOT and KEXEC
# (the kexec binary under test).  Scenarios judge their own facts with the
# checks below (kj_ok, kj_fail, kj_eq, kj_match, kj_run_ok, kj_run_fails):
# each prints one verdict line, "KJ <stage>: check WHAT ok" or
# "KJ <stage>: FAIL WHAT: WHY", and is counted for the stage's end line.
# The host fails the run on the first FAIL line; its other rules are
# generic (tests/qemu/run-scenario.sh).

# kj_say TEXT...: one line for the host, "KJ <stage>: TEXT".
# It goes through /dev/kmsg, so it reaches the console as one printk record
# ("[ 1.234567] KJ A: TEXT") that kernel messages cannot split; the host
# strips the timestamp.  Each call opens /dev/kmsg afresh, which keeps it
# clear of the per-open-file rate limit.
kj_say() {
	if [ -w /dev/kmsg ]; then
		echo "KJ $KJ_STAGE: $*" >/dev/kmsg
	else
		echo "KJ $KJ_STAGE: $*"
	fi
}

# --- verdicts.  The counts live in files: checks made in subshells count.

# kj_ok WHAT: a check that passed.
kj_ok() {
	echo >>/tmp/kj.ok
	kj_say "check $* ok"
}

# kj_fail WHAT WHY: a check that failed; returns 1.
kj_fail() {
	echo >>/tmp/kj.fail
	_w=$1
	shift
	kj_say "FAIL $_w: $*"
	return 1
}

# kj_count ok|fail: how many checks passed / failed so far in this stage.
kj_count() {
	if [ -f "/tmp/kj.$1" ]; then wc -l <"/tmp/kj.$1" | tr -d ' '; else echo 0; fi
}

# kj_eq WHAT ACTUAL EXPECTED: ACTUAL must be EXPECTED.
kj_eq() {
	if [ "$2" = "$3" ]; then kj_ok "$1"; else kj_fail "$1" "got '$2', want '$3'"; fi
}

# kj_match WHAT ACTUAL ERE: ACTUAL (one line) must match the extended
# regular expression ERE (anchor it yourself).
kj_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		kj_ok "$1"
	else
		kj_fail "$1" "got '$2', want /$3/"
	fi
}

# kj_true WHAT WHY CMD...: CMD must succeed; WHY says what it means.
kj_true() {
	_w=$1 _y=$2
	shift 2
	if "$@"; then kj_ok "$_w"; else kj_fail "$_w" "$_y"; fi
}

# kj_handover STAGE [TEXT]: say that this stage passes control to STAGE now
# (just before kexec -e, kexec -j, a crash): "KJ S: handover to STAGE" or
# "KJ S: handover to STAGE (TEXT)".  The host then wants the next report
# line to come from STAGE ("KJ STAGE: ..."; "kexec_test: ..." for the bare
# test image), which proves the round trips went through the other side.
# (TEXT saves a second console line where a round trip is timed.)
kj_handover() {
	kj_say "handover to $1${2:+ ($2)}"
}

# kj_exec_into STAGE: hand over to STAGE with kexec -e, which must not
# return; if it does, a FAIL line and the scenario ends (exit 1).
kj_exec_into() {
	kj_handover "$1"
	kj_run exec "$KEXEC" -e
	kj_fail exec "kexec -e returned (exit status $kj_rc)"
	exit 1
}

# kj_reboot_host: when this stage ends, ask the host for another boot of
# the scenario, with the same disks (the header marks it STAGE.reboot).
kj_reboot_host() {
	: >/tmp/kj.reboot-host
}

# kj_b_append: the command line for a kexec'd stage B of this scenario.
kj_b_append() {
	echo "console=ttyS0,115200 panic=-1 kjump.stage=B kjump.scenario=$KJ_SCENARIO kjump.impl=$KJ_IMPL kjump.boot=$KJ_BOOT kjump.marker=$KJ_MARKER"
}

# kj_load_writer_b [NAME [APPEND]]: load B as the crash kernel with the
# image writer's initramfs (the hibernation scenarios), checked as kj_run_ok
# NAME (default load) does, with APPEND (default kj_b_append's words).
kj_load_writer_b() {
	kj_run_ok "${1:-load}" "$KEXEC" -p /boot/bzImage \
		--initrd=/boot/initrd-b-hib.cpio --append="${2:-$(kj_b_append)}"
}

# kj_b_save_and_power_off: in B, entered for a --hibernate: say so, ask
# the host for the next boot (init cannot: the writer powers off and
# never returns), and run the writer; a FAIL line if it returns.
kj_b_save_and_power_off() {
	kj_ok "B entered for the save"
	kj_say "reboot-host boot=$KJ_BOOT rc=0 checks=$(kj_count ok) failed=$(kj_count fail) marker=$KJ_MARKER"
	kjump-save --once </dev/null 2>/dev/console
	kj_fail kjump-save "returned with status $? instead of powering off"
}

# kj_check_b_cmdline: say B's /proc/cmdline and check it carries this
# run's marker and kjump.stage=B (kj_b_append's words).
kj_check_b_cmdline() {
	_cl=$(cat /proc/cmdline)
	kj_say "cmdline: $_cl"
	kj_match cmdline-marker "$_cl" "(^| )kjump\.marker=$KJ_MARKER( |\$)"
	kj_match cmdline-stage "$_cl" '(^| )kjump\.stage=B( |$)'
}

# kj_loaded [WANT]: print "kexec_loaded=<value of /sys/kernel/kexec_loaded>";
# with WANT, check it is WANT.
kj_loaded() {
	_v=$(cat /sys/kernel/kexec_loaded 2>&1)
	kj_say "kexec_loaded=$_v"
	[ $# = 0 ] || kj_eq kexec_loaded "$_v" "$1"
}

# kj_slot FILE WANT: check /sys/kernel/FILE (kexec_loaded,
# kexec_crash_loaded) reads WANT; WHAT is "FILE=WANT".
kj_slot() {
	kj_eq "$1=$2" "$(cat "/sys/kernel/$1" 2>&1)" "$2"
}

# kj_need_kexec: stop the scenario if the kexec under test is missing.
kj_need_kexec() {
	if [ ! -x "$KEXEC" ]; then
		kj_fail kexec "no kexec at $KEXEC (impl=$KJ_IMPL)"
		exit 1
	fi
}

# kj_run LABEL CMD [ARG...]: run CMD, then report
#   LABEL rc=N
#   LABEL stdout: LINE        (one per line of stdout)
#   LABEL stderr: LINE        (one per line of stderr)
#   LABEL stderr-lines=N      (a last line without a newline counts too)
# and return CMD's exit status.
kj_run() {
	_label=$1
	shift
	"$@" >/tmp/kj.out 2>/tmp/kj.err
	_rc=$?
	kj_say "$_label rc=$_rc"
	while IFS= read -r _l || [ -n "$_l" ]; do
		kj_say "$_label stdout: $_l"
	done </tmp/kj.out
	_n=0
	while IFS= read -r _l || [ -n "$_l" ]; do
		kj_say "$_label stderr: $_l"
		_n=$((_n + 1))
	done </tmp/kj.err
	kj_say "$_label stderr-lines=$_n"
	kj_rc=$_rc kj_nerr=$_n
	return $_rc
}

# kj_run_ok LABEL CMD [ARG...]: kj_run, then check it exited 0; with our
# kexec (KJ_IMPL=ours) also that it printed nothing on stderr.  Returns
# CMD's exit status.
kj_run_ok() {
	kj_run "$@"
	if [ $kj_rc != 0 ]; then
		kj_fail "$1" "exit status $kj_rc: $(head -n 1 /tmp/kj.err)"
	elif [ "$KJ_IMPL" = ours ] && [ $kj_nerr != 0 ]; then
		kj_fail "$1" "exit status 0 but $kj_nerr stderr lines: $(head -n 1 /tmp/kj.err)"
	else
		kj_ok "$1"
	fi
	return $kj_rc
}

# kj_judge LABEL EXIT ERE: after kj_run, check its exit status (EXIT, or
# !0 for any non-zero one) and that it printed exactly one line on stderr,
# matching ERE: "check LABEL ok" or a FAIL line.
kj_judge() {
	_e=$(cat /tmp/kj.err)
	if [ "$2" = '!0' ] && [ $kj_rc = 0 ]; then
		kj_fail "$1" "exit status 0, want non-zero"
	elif [ "$2" != '!0' ] && [ $kj_rc != "$2" ]; then
		kj_fail "$1" "exit status $kj_rc, want $2"
	elif [ $kj_nerr != 1 ]; then
		kj_fail "$1" "$kj_nerr stderr lines, want 1: $(head -n 1 /tmp/kj.err)"
	elif ! printf '%s\n' "$_e" | grep -Eq -- "$3"; then
		kj_fail "$1" "stderr '$_e', want /$3/"
	else
		kj_ok "$1"
	fi
}

# kj_run_fails LABEL ERE CMD [ARG...]: kj_run, then check CMD failed (a
# non-zero exit status) with exactly one line on stderr, matching ERE.
kj_run_fails() {
	_fl=$1 _re=$2
	shift 2
	kj_run "$_fl" "$@"
	kj_judge "$_fl" '!0' "$_re"
}

# kj_no_jump_refused: a crash kernel loaded with kexec -p --no-jump on a
# companion kernel: -j is refused (exit 1, ENOEXEC's line) and leaves it
# loaded.
kj_no_jump_refused() {
	kj_run jump-refused "$KEXEC" -j
	kj_judge jump-refused 1 '^kexec: jump: the crash kernel was not loaded for a jump '
	kj_slot kexec_crash_loaded 1
}

# kj_say_lines PREFIX FILE: one kj_say per line of FILE, after PREFIX.
kj_say_lines() {
	while IFS= read -r _l || [ -n "$_l" ]; do
		kj_say "$1$_l"
	done <"$2"
}

# kj_trim TEXT: TEXT without leading and trailing blanks.
kj_trim() {
	_t=$1
	_t=${_t#"${_t%%[! 	]*}"}
	_t=${_t%"${_t##*[! 	]}"}
	printf '%s' "$_t"
}

# kj_table: run a table of commands read from stdin, one row a case:
#   NAME | COMMAND | EXIT | STDERR-ERE
# COMMAND is shell words, eval'd (so "$KEXEC" and the script's variables
# work); EXIT is the exit status wanted, or !0 for any non-zero one; the
# command must print exactly one line on stderr, matching STDERR-ERE (the
# rest of the row).  Empty rows and rows starting with # are skipped.  When
# the scenario defines kj_table_state (it prints what no case may change,
# e.g. the kexec slots), that must read the same after each case: "check
# NAME state ok".  Each row gives "check NAME ok" or a FAIL line.
kj_table() {
	while IFS= read -r _row; do
		case $_row in '' | '#'*) continue ;; esac
		_tn=$(kj_trim "${_row%%|*}")
		_row=${_row#*|}
		_tc=${_row%%|*}
		_row=${_row#*|}
		_tx=$(kj_trim "${_row%%|*}")
		_tre=$(kj_trim "${_row#*|}")
		_ts0=$(kj_table_state 2>/dev/null)
		eval "kj_run \"\$_tn\" $_tc" </dev/null
		kj_judge "$_tn" "$_tx" "$_tre"
		if command -v kj_table_state >/dev/null 2>&1; then
			kj_eq "$_tn state" "$(kj_table_state)" "$_ts0"
		fi
	done
}

# cmdline_word NAME [DEFAULT]: the value of the last NAME= word of
# /proc/cmdline, else DEFAULT (default "none").
cmdline_word() {
	_v=${2:-none}
	set -f
	for _w in $(cat /proc/cmdline); do
		case $_w in "$1"=*) _v=${_w#*=} ;; esac
	done
	set +f
	echo "$_v"
}

# starttime PID: the process's start time in clock ticks ("gone" if none),
# which tells a process from a later one with the same PID.
starttime() {
	cut -d' ' -f22 "/proc/$1/stat" 2>/dev/null || echo gone
}

# kj_meminfo FIELD: the value of FIELD in /proc/meminfo (kB).
kj_meminfo() {
	awk -v f="$1:" '$1 == f { print $2 }' /proc/meminfo
}

# kj_memfill_pct PCT TAG: kj_memfill_start with as many MiB as make PCT% of
# MemTotal in use in all; sets total (MemTotal, kB), mib and PAGES (the
# pages memfill holds).
kj_memfill_pct() {
	total=$(kj_meminfo MemTotal)
	_used=$((total - $(kj_meminfo MemFree)))
	mib=$(((total * $1 / 100 - _used) / 1024))
	PAGES=$((mib * 256))
	kj_memfill_start $mib "$2"
}

# kj_reserved_pages: the pages of RAM the kernel reserved at boot, outside
# MemTotal, less the crash region: its own image, page tables and struct
# pages (with lockdep, its tables too).  An image saves them besides the
# used pages of MemTotal.  (/proc/zoneinfo: present - managed per zone.)
kj_reserved_pages() {
	_crash=$(grep 'Crash kernel' /proc/iomem | sed 's/^ *//; s/ .*//')
	_cp=0
	[ -n "$_crash" ] &&
		_cp=$(((0x${_crash#*-} + 1 - 0x${_crash%-*}) / 4096))
	awk -v cp=$_cp '$1 == "present" { p += $2 } $1 == "managed" { m += $2 }
		END { print p - m - cp }' /proc/zoneinfo
}

# kj_mbr DISK START SECTORS TYPE [START SECTORS TYPE]: write an MBR with
# one or two primary partitions (TYPE as an octal byte: 203 Linux, 202
# swap; START and SECTORS in 512-byte sectors) and have the kernel read it
# (blockdev's errors in /tmp/pt.err).
kj_mbr() {
	_disk=$1
	shift
	{
		dd if=/dev/zero bs=446 count=1 2>/dev/null
		_n=0
		while [ $# -ge 3 ]; do
			printf "\\000\\000\\000\\000\\$3\\000\\000\\000"
			printf "$(kj_le32 $1)$(kj_le32 $2)"
			_n=$((_n + 1))
			shift 3
		done
		dd if=/dev/zero bs=$((64 - 16 * _n)) count=1 2>/dev/null
		printf '\125\252'
	} >/tmp/mbr
	dd if=/tmp/mbr of="$_disk" bs=512 count=1 conv=notrunc,fsync 2>/dev/null
	blockdev --rereadpt "$_disk" 2>/tmp/pt.err
}

# kj_le32 N: N as four little-endian bytes, in printf escapes.
kj_le32() {
	printf '\\%03o\\%03o\\%03o\\%03o' $(($1 & 255)) $((($1 >> 8) & 255)) \
		$((($1 >> 16) & 255)) $((($1 >> 24) & 255))
}

# kj_memfill_start MIB TAG: fill MIB of memory with memfill's pattern TAG
# in the background ($mfpid), say its first report line and check it
# (kj_memfill_line holds it).  Its lines come through a FIFO the shell
# holds open read-write on fd 3, so `read` blocks until memfill writes
# (80 s at most: a memfill that failed is a FAIL line with its error).
# With MEMFILL_NOLOCK=1 exported the pages stay swappable (locked=0).
kj_memfill_start() {
	rm -f /tmp/memfill.fifo
	mkfifo /tmp/memfill.fifo || return 1
	exec 3<>/tmp/memfill.fifo
	memfill "$1" "$2" >&3 2>/tmp/memfill.err &
	mfpid=$!
	# its line, or its error: a memfill that exits never writes one,
	# and the harness gives up on a console silent for 90 s
	if ! IFS= read -t 80 -r kj_memfill_line <&3; then
		kj_fail memfill "no line from memfill in 80 s: $(head -n 1 /tmp/memfill.err)"
		return 1
	fi
	kj_say "$kj_memfill_line"
	_lk=1
	[ -n "${MEMFILL_NOLOCK:-}" ] && _lk=0
	kj_match memfill "$kj_memfill_line" \
		"^memfill tag=$2 pages=$(($1 * 256)) sum=[0-9a-f]{16} locked=$_lk\$"
}

# kj_memfill_verify: have memfill check every page; print its report.
kj_memfill_verify() {
	kill -USR1 "$mfpid"
	IFS= read -r _l <&3
	echo "$_l"
}

# kj_vmcore_find TAG PAGES [MORE]: find every memfill page with TAG in
# /proc/vmcore (vmcore-check --find, report in /tmp/find.out), say its
# lines, and check it ran cleanly (find-status) and found all PAGES
# (find-pages); MORE is a regex for the words right after "bad=0".
kj_vmcore_find() {
	vmcore-check --find "$1" "$2" >/tmp/find.out 2>/tmp/find.err
	_rc=$?
	kj_say_lines "" /tmp/find.out
	kj_say_lines "find stderr: " /tmp/find.err
	kj_eq find-status "rc=$_rc stderr-bytes=$(wc -c </tmp/find.err)" "rc=0 stderr-bytes=0"
	kj_match find-pages "$(cat /tmp/find.out)" \
		"^find tag=$1 pages=$2 found=$2 dup=[0-9]+ bad=0 ${3:+$3 }.* result=ok\$"
}

# kj_counter_start: a loop that bumps /tmp/counter every 50 ms ($cpid),
# to show user space runs on after a jump.
kj_counter_start() {
	(i=0; while :; do i=$((i + 1)); echo $i >/tmp/counter.new;
		mv /tmp/counter.new /tmp/counter; sleep 0.05; done) &
	cpid=$!
}

# kj_counter_read: the counter, 0 when a read gives nothing (a cat that
# could not start, with most of memory in use, prints nothing at all).
kj_counter_read() {
	_c=$(cat /tmp/counter 2>/dev/null)
	case $_c in '' | *[!0-9]*) echo 0 ;; *) echo "$_c" ;; esac
}

# kj_monotime: monotime's microseconds, tried again when it could not
# start (as cat, with most of memory in use and locked, right after a
# thaw); 0 after 100 tries.
kj_monotime() {
	_mi=0
	while [ $_mi -lt 100 ]; do
		_m=$(monotime 2>/dev/null)
		case $_m in '' | *[!0-9]*) _mi=$((_mi + 1)) ;; *) echo "$_m"; return ;; esac
	done
	echo 0
}

# kj_counter_wait PREV: wait (5 s of monotime at most, not a sleep; and
# at most 20000 reads, should monotime never start) for the thawed
# counter loop to pass PREV; print "NOW advanced" or "NOW stuck".
kj_counter_wait() {
	_tw=$(($(kj_monotime) + 5000000))
	_now=$(kj_counter_read)
	_reads=0
	while [ "$_now" -le "$1" ] && [ $_reads -lt 20000 ] &&
	      [ "$(kj_monotime)" -lt $_tw ]; do
		_now=$(kj_counter_read)
		_reads=$((_reads + 1))
	done
	if [ "$_now" -gt "$1" ]; then echo "$_now advanced"; else echo "$_now stuck"; fi
}

# kj_resume_refused DISK WHAT ERE: kexec --resume of DISK exits 1 with
# one line, "kexec: resume: DISK: " and then ERE, prints nothing else,
# and leaves the image committed and whole (--image-info --verify).
kj_resume_refused() {
	"$KEXEC" --resume="$1" >/tmp/r.out 2>/tmp/r.err
	_rc=$?
	kj_say_lines "$2: " /tmp/r.err
	kj_match "$2" "rc=$_rc lines=$(wc -l </tmp/r.err) out=$(wc -c </tmp/r.out) $(head -n 1 /tmp/r.err)" \
		"^rc=1 lines=1 out=0 kexec: resume: $1: $3"
	"$KEXEC" --image-info="$1" --verify >/tmp/v.out 2>&1
	kj_match "$2 kept" "$(grep -E '^(state|verify):' /tmp/v.out | tr '\n' ' ')" \
		'^state: committed verify: ok'
}

# kj_wait_wiped DISK: wait (60 s of monotime at most, not a sleep) for the
# background wipe of a resumed image on DISK to flag its header; print
# "wiped" or the state line --image-info last printed.
kj_wait_wiped() {
	_tw=$(($(kj_monotime) + 60000000))
	while :; do
		_st=$("$KEXEC" --image-info="$1" 2>&1 | head -n 1)
		case $_st in "state: consumed, wiped") echo wiped; return ;; esac
		[ "$(kj_monotime)" -lt $_tw ] || break
	done
	echo "$_st"
}

# kj_jump_trip LABEL [SAY]: A's kexec -j into B and back, with the counter
# loop of kj_counter_start running: "handover to B (LABEL)" first (SAY=0:
# "LABEL" only, for a jump that is not to reach B, or whose B cannot say
# anything before A reports again), then its stderr lines.  Sets kj_rc and
# kj_cw (kj_counter_wait's "NOW advanced|stuck"); stderr in /tmp/jump.err.
kj_jump_trip() {
	_prev=$(kj_counter_read)
	if [ "${2:-1}" = 0 ]; then kj_say "$1"; else kj_handover B "$1"; fi
	"$KEXEC" -j 2>/tmp/jump.err
	kj_rc=$?
	kj_say_lines "$1 stderr: " /tmp/jump.err
	kj_cw=$(kj_counter_wait "$_prev")
}

# kj_jump_back LABEL [SAY]: B's kexec -j back into A, "handover to A
# (LABEL)" first (SAY=0: "LABEL" only, for a way back on which A crashes
# before it can report), then its stderr lines.  Sets kj_rc; stderr in
# /tmp/jump.err.
kj_jump_back() {
	if [ "${2:-1}" = 0 ]; then kj_say "$1"; else kj_handover A "$1"; fi
	"$KEXEC" -j 2>/tmp/jump.err
	kj_rc=$?
	kj_say_lines "$1 stderr: " /tmp/jump.err
}

# kj_request_len: the request length in the kexec jump parameter page
# (a u32 at offset 64 of /sys/kernel/kexec_jump_request): 0 when no
# request is pending.
kj_request_len() {
	dd if=/sys/kernel/kexec_jump_request bs=4096 count=1 2>/dev/null |
		od -An -tu4 -j 64 -N 4 | tr -d ' '
}

# kj_drop_boot_files: in A', before kexec --resume: delete the kernels,
# initramfs images and Debian's kexec-tools that only the scenarios' first
# boot needs (x86_64: about 35 MiB of tmpfs), so that A' has the free
# memory a real initramfs leaves for the restore.
kj_drop_boot_files() {
	rm -rf /boot /opt/debian
}

# kj_low_ram_md5: the md5 of the RAM below 1 MiB, as far as /proc/iomem
# has it as whole pages of System RAM (QEMU: 0x1000-0x9efff).  On x86_64
# the real-mode trampoline that brings CPUs up lives there.
kj_low_ram_md5() {
	_r=$(grep -m 1 ': System RAM$' /proc/iomem | sed 's/^ *//; s/ .*//')
	_s=$((0x${_r%-*}))
	_e=$((0x${_r#*-} + 1))
	[ $_e -le 1048576 ] || _e=1048576
	_p=$(((_s + 4095) / 4096))
	dd if=/dev/mem bs=4096 skip=$_p count=$((_e / 4096 - _p)) 2>/dev/null |
		md5sum | cut -d' ' -f1
}

# kj_kaslr: where this kernel runs, "VIRT@PHYS": _text in /proc/kallsyms
# and the start of "Kernel code" in /proc/iomem.
kj_kaslr() {
	echo "$(grep -m 1 ' [Tt] _text$' /proc/kallsyms | cut -d' ' -f1)@$(grep -m 1 'Kernel code' /proc/iomem | sed 's/^ *//; s/-.*//')"
}

# kj_cpu_cycle CPU TIMES: take CPU offline and online again TIMES times,
# checked (its trampoline and its idle thread must work every time).
kj_cpu_cycle() {
	_f=/sys/devices/system/cpu/cpu$1/online
	_i=1
	while [ $_i -le $2 ]; do
		echo 0 >$_f && echo 1 >$_f
		kj_eq "cpu$1 cycle $_i" "$(cat $_f)" 1
		_i=$((_i + 1))
	done
}

# kj_dmesg_errors: how many kernel error lines the kernel logged (Oops,
# WARNING, BUG, "scheduling while atomic", a CPU that did not come up).
# (Never print those words in a KJ line: the host's console scan would
# take it for a kernel error.)
kj_dmesg_errors() {
	dmesg | grep -cE 'Oops|WARNING|BUG|scheduling while atomic|do_boot_cpu failed|failed to come online'
}

# --- make bench: one metric, ours against Debian's kexec-tools
# (/opt/debian/sbin/kexec), each sample "KJ A: bench METRIC run=I
# impl=IMPL rc=.. us=..", checked (rc=0, nothing on stderr, loaded then
# unloaded by the same kexec) but not judged.

# kj_bench_timed CMD...: run CMD (output to /tmp/out, /tmp/err); sets rc
# and us (CLOCK_MONOTONIC).
kj_bench_timed() {
	_t0=$(monotime)
	"$@" >/tmp/out 2>/tmp/err
	rc=$?
	_t1=$(monotime)
	us=$((_t1 - _t0))
}

# kj_bench_sample METRIC I IMPL IMAGE INITRD APPEND: one sample.
#   start-up  kexec -v (process start, no kexec work)
#   load-l    -l, then -u        load-p   -p, then -p -u
#   load-sl   -s -l, then -u     load-sp  -s -p, then -p -u
kj_bench_sample() {
	case $3 in ours) _k=$KEXEC ;; *) _k=/opt/debian/sbin/kexec ;; esac
	case $1 in
	start-up)
		kj_bench_timed "$_k" -v
		kj_say "bench $1 run=$2 impl=$3 rc=$rc us=$us"
		kj_eq "$1 run=$2 impl=$3" "rc=$rc stderr-bytes=$(wc -c </tmp/err)" "rc=0 stderr-bytes=0"
		return ;;
	load-l) _f=kexec_loaded _a=-l _p= ;;
	load-p) _f=kexec_crash_loaded _a=-p _p=-p ;;
	load-sl) _f=kexec_loaded _a="-s -l" _p= ;;
	load-sp) _f=kexec_crash_loaded _a="-s -p" _p=-p ;;
	esac
	kj_bench_timed "$_k" $_a "$4" --initrd="$5" --append="$6"
	_ld=$(cat /sys/kernel/$_f)
	kj_say_lines "$1 run=$2 impl=$3 stderr: " /tmp/err
	"$_k" $_p -u 2>/tmp/uerr
	_urc=$?
	kj_say_lines "$1 run=$2 impl=$3 unload stderr: " /tmp/uerr
	_af=$(cat /sys/kernel/$_f)
	kj_say "bench $1 run=$2 impl=$3 rc=$rc us=$us loaded=$_ld unload-rc=$_urc after=$_af"
	kj_eq "$1 run=$2 impl=$3" \
		"rc=$rc loaded=$_ld unload-rc=$_urc after=$_af stderr-bytes=$(cat /tmp/err /tmp/uerr | wc -c)" \
		"rc=0 loaded=1 unload-rc=0 after=0 stderr-bytes=0"
}

# kj_bench_metric METRIC RUNS IMAGE INITRD APPEND: runs 1..RUNS, the two
# implementations interleaved: ours first on odd runs, Debian's on even.
kj_bench_metric() {
	_i=1
	while [ $_i -le "$2" ]; do
		if [ $((_i % 2)) = 1 ]; then _o="ours debian"; else _o="debian ours"; fi
		for _impl in $_o; do
			kj_bench_sample "$1" $_i $_impl "$3" "$4" "$5"
		done
		_i=$((_i + 1))
	done
}

# --- memory ranges (kdump scenarios)

# kj_hexlist "S E S E ...": "0xS-0xE,0xS-0xE"
kj_hexlist() {
	_out=
	set -- $1
	while [ $# -ge 2 ]; do
		_out="$_out${_out:+,}0x$1-0x$2"
		shift 2
	done
	echo "$_out"
}

# kj_ranges_minus "S E S E ..." CS CE: the hex ranges (inclusive ends) minus
# [CS, CE], touching ones merged, as "0xS-0xE,0xS-0xE"
kj_ranges_minus() {
	_out='' _cs=$2 _ce=$3 _ps='' _pe=''
	set -- $1
	while [ $# -ge 2 ]; do
		_s=$((0x$1)) _e=$((0x$2))
		shift 2
		if [ $_e -lt $_cs ] || [ $_s -gt $_ce ]; then
			_kj_add "$_s" "$_e"
		else
			[ $_s -lt $_cs ] && _kj_add "$_s" $((_cs - 1))
			[ $_e -gt $_ce ] && _kj_add $((_ce + 1)) "$_e"
		fi
	done
	[ -n "$_ps" ] && _out="$_out${_out:+,}$(printf '0x%x-0x%x' "$_ps" "$_pe")"
	echo "$_out"
}
_kj_add() {
	if [ -n "$_ps" ] && [ $((_pe + 1)) -eq "$1" ]; then
		_pe=$2
		return
	fi
	[ -n "$_ps" ] && _out="$_out${_out:+,}$(printf '0x%x-0x%x' "$_ps" "$_pe")"
	_ps=$1 _pe=$2
}
