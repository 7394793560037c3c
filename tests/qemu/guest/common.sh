# Helpers for the guest scenario scripts (/scenarios/NAME.sh), sourced as
#   . /lib/kjump/common.sh
# /init exports KJ_STAGE, KJ_SCENARIO, KJ_MARKER, KJ_IMPL and KEXEC (the kexec
# binary under test).  Scenarios report facts with kj_say; the host decides
# pass or fail from those lines (tests/qemu/scenarios/NAME.host).

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

# kj_b_append: the command line for a kexec'd stage B of this scenario.
kj_b_append() {
	echo "console=ttyS0,115200 panic=-1 kjump.stage=B kjump.scenario=$KJ_SCENARIO kjump.impl=$KJ_IMPL kjump.marker=$KJ_MARKER"
}

# kj_loaded: print "kexec_loaded=<value of /sys/kernel/kexec_loaded>".
kj_loaded() {
	kj_say "kexec_loaded=$(cat /sys/kernel/kexec_loaded 2>&1)"
}

# kj_need_kexec: stop the scenario if the kexec under test is missing.
kj_need_kexec() {
	if [ ! -x "$KEXEC" ]; then
		kj_say "no kexec at $KEXEC (impl=$KJ_IMPL)"
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
	return $_rc
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

# kj_memfill_start MIB TAG: fill MIB of memory with memfill's pattern TAG
# in the background ($mfpid) and say its first report line.  Its lines come
# through a FIFO the shell holds open read-write on fd 3, so `read` blocks
# until memfill writes.
kj_memfill_start() {
	mkfifo /tmp/memfill.fifo || return 1
	exec 3<>/tmp/memfill.fifo
	memfill "$1" "$2" >&3 2>/tmp/memfill.err &
	mfpid=$!
	IFS= read -r _l <&3
	kj_say "$_l"
}

# kj_memfill_verify: have memfill check every page; print its report.
kj_memfill_verify() {
	kill -USR1 "$mfpid"
	IFS= read -r _l <&3
	echo "$_l"
}

# kj_counter_start: a loop that bumps /tmp/counter every 50 ms ($cpid),
# to show user space runs on after a jump.
kj_counter_start() {
	(i=0; while :; do i=$((i + 1)); echo $i >/tmp/counter.new;
		mv /tmp/counter.new /tmp/counter; sleep 0.05; done) &
	cpid=$!
}

# kj_counter_wait PREV: wait (5 s of monotime at most, not a sleep) for
# the thawed counter loop to pass PREV; print "NOW advanced" or
# "NOW stuck".
kj_counter_wait() {
	_now=$(cat /tmp/counter 2>/dev/null)
	_tw=$(($(monotime) + 5000000))
	while [ "$_now" -le "$1" ] && [ "$(monotime)" -lt $_tw ]; do
		_now=$(cat /tmp/counter 2>/dev/null)
	done
	if [ "$_now" -gt "$1" ]; then echo "$_now advanced"; else echo "$_now stuck"; fi
}

# kj_dmesg_errors: how many Oops/WARNING/BUG lines the kernel logged.
kj_dmesg_errors() {
	dmesg | grep -cE 'Oops|WARNING|BUG'
}
