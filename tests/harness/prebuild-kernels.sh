#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build, in the background, the companion kernels the QEMU tests of this
# make check will need, while the first ones run:
#
#   prebuild-kernels.sh start SRCDIR STATEDIR WATCHPID TEST...
#   prebuild-kernels.sh stop STATEDIR
#   prebuild-kernels.sh list SRCDIR TEST...
#
# start asks run-scenario.sh (KJUMP_LIST_KERNELS=1) which kernels each
# .qemu TEST builds, and builds them one after the other in the order the
# tests first use them, at nice 19, in a process group of its own: a
# guest running meanwhile keeps the CPUs it wants, the build takes what
# the guest leaves (a serial make check keeps two cores about two thirds
# busy between its kernel builds).  A test that reaches a kernel first
# waits for it on build-kernel.sh's lock and then finds it built; a
# kernel that failed is built again by its test, which reports the error.
# The group ends when the builds are done, when stop is called (make
# check's end), or when WATCHPID (the make that started it) is gone, e.g.
# after ^C.  STATEDIR gets prebuild.pid (the group's id while it runs)
# and prebuild.log (one line per kernel, with the seconds it took).
# The environment is the tests' (KEXEC, KEXEC_X86_64, KJUMP_CACHE_DIR...).
# list prints the kernels start would build, "VERSION CONFIG" each.
set -u

# alive PID: running, not gone or a zombie
alive() {
	[ -r "/proc/$1/stat" ] &&
		[ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" != Z ]
}

# stop STATEDIR: end the group of STATEDIR/prebuild.pid and wait (10 s at
# most) for its leader to go, so that a new group's pid file is its own.
stop() {
	pidfile=$1/prebuild.pid
	[ -f "$pidfile" ] || return 0
	read -r pid <"$pidfile" || pid=
	rm -f "$pidfile"
	case $pid in '' | *[!0-9]*) return 0 ;; esac
	# Only the group this script started for STATEDIR: its leader runs
	# this script with it.
	[ -r "/proc/$pid/cmdline" ] || return 0
	cmd=$(tr '\0' ' ' <"/proc/$pid/cmdline")
	case $cmd in
	*"prebuild-kernels.sh run "*" $1 "*) ;;
	*) return 0 ;;
	esac
	kill -s TERM -- "-$pid" 2>/dev/null
	i=0
	while alive "$pid" && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	return 0
}

# The kernels of the tests, "VERSION CONFIG", first use first, once each
# (qemu.sh reads the test's name, run-scenario.sh its header).
kernels() {
	src=$1
	shift
	for t in "$@"; do
		case $t in *.qemu) ;; *) continue ;; esac
		KJUMP_LIST_KERNELS=1 QEMU_TESTS=yes srcdir=$src \
			sh "$src/tests/harness/qemu.sh" "$t" 2>/dev/null
	done | awk '!seen[$0]++'
}

run() {
	src=$1 state=$2 watch=$3
	shift 3
	echo $$ >"$state/prebuild.pid"
	: >"$state/prebuild.started"
	trap 'drop_pidfile; exit 143' TERM
	(
		while kill -0 "$watch" 2>/dev/null; do
			sleep 5
		done
		kill -s TERM 0
	) &
	watcher=$!
	kernels "$src" "$@" | while read -r linux config; do
		t0=$(date +%s)
		if nice -n 19 sh "$src/kernel-companion/build-kernel.sh" -q \
			-k "$linux" -c "$config" </dev/null >/dev/null 2>&1; then
			r=built
		else
			r=failed
		fi
		echo "$linux $config: $r, $(($(date +%s) - t0)) s" \
			>>"$state/prebuild.log"
	done
	kill "$watcher" 2>/dev/null
	drop_pidfile
}

# The pid file goes with the group that wrote it, not a later one's.
drop_pidfile() {
	read -r _p <"$state/prebuild.pid" 2>/dev/null || return 0
	[ "$_p" != $$ ] || rm -f "$state/prebuild.pid"
}

case ${1:-} in
start)
	[ $# -ge 4 ] || { echo "usage: $0 start SRCDIR STATEDIR WATCHPID TEST..." >&2; exit 2; }
	src=$2 state=$3 watch=$4
	shift 4
	stop "$state"
	: >"$state/prebuild.log" || exit 1
	rm -f "$state/prebuild.started"
	setsid sh "$0" run "$src" "$state" "$watch" "$@" \
		</dev/null >/dev/null 2>&1 &
	# Back once the group has written its id (for a stop at once).
	i=0
	while [ ! -e "$state/prebuild.started" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rm -f "$state/prebuild.started"
	;;
stop)
	[ $# = 2 ] || { echo "usage: $0 stop STATEDIR" >&2; exit 2; }
	stop "$2"
	;;
list)
	[ $# -ge 2 ] || { echo "usage: $0 list SRCDIR TEST..." >&2; exit 2; }
	shift
	kernels "$@"
	;;
run)
	shift
	run "$@"
	;;
*)
	echo "usage: $0 start SRCDIR STATEDIR WATCHPID TEST... | stop STATEDIR | list SRCDIR TEST..." >&2
	exit 2
	;;
esac
