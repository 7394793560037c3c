#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# tests/harness/prebuild-kernels.sh, make check's background kernel
# builds, with a stand-in for build-kernel.sh (it records its arguments
# and its nice value, and can hang until it is killed) and stand-ins for
# QEMU and the kernel tarball (run-scenario.sh lists only kernels it could
# boot):
#   list         the kernels of a TESTS list: first use first, once each,
#                none for unit tests, purgatory, the Debian amd64 kernel
#                or a test that would skip (jump-pae with Debian's kexec)
#   build-order  start builds them in that order at nice 19 and ends by
#                itself (no pid file left)
#   stop         stop ends the whole group, the build it runs included
#   restart      a second start ends the first group and owns the pid file
#   watch-gone   the group ends when the make that started it is gone
#
# Prints "PASS: unit/prebuild/NAME" or "FAIL: unit/prebuild/NAME: WHY" per
# case; exits 1 if any failed.  Waits are for a file or a process, with a
# timeout, never a fixed sleep.
# (cleanup and the wait_for predicates are called indirectly)
# shellcheck disable=SC2317
set -u
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/prebuild.XXXXXX") || exit 1
failed=0
pids=
cleanup() {
	for p in $pids; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

pass() { echo "PASS: unit/prebuild/$1"; }
fail() { echo "FAIL: unit/prebuild/$1: $2"; failed=1; }

# A source tree of links to this one, with the stand-in build-kernel.sh.
src=$tmp/src
mkdir -p "$src/kernel-companion" "$tmp/bin" "$tmp/state"
ln -s "$top/tests" "$src/tests"
cat >"$src/kernel-companion/build-kernel.sh" <<'EOF'
#!/bin/sh
echo "$* nice=$(nice)" >>"$PREBUILD_CALLS"
echo $$ >"$PREBUILD_CALLS.pid"
[ -f "$PREBUILD_CALLS.hang" ] && exec sleep 600
exit 0
EOF
for q in qemu-system-i386 qemu-system-x86_64; do
	printf '#!/bin/sh\nexit 0\n' >"$tmp/bin/$q"
	chmod +x "$tmp/bin/$q"
done
export PATH="$tmp/bin:$PATH" KJUMP_LINUX_TARBALL=/dev/null \
	KEXEC=/nonexistent KEXEC_X86_64=/nonexistent \
	PREBUILD_CALLS="$tmp/calls"
unset KJUMP_BZIMAGE KEXEC_IMPL KJUMP_KERNEL_CONFIG KJUMP_HOST_FILE
prebuild=$top/tests/harness/prebuild-kernels.sh

# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS
wait_for() {
	_end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt $_end ] || return 1
		sleep 0.1
	done
}
# gone PID: not running (a zombie no one reaped yet counts as gone)
gone() {
	[ ! -r "/proc/$1/stat" ] ||
		[ "$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f1)" = Z ]
}
lines() { [ "$(wc -l <"$2" 2>/dev/null || echo 0)" -ge "$1" ]; }
no_file() { [ ! -e "$1" ]; }
has_file() { [ -s "$1" ]; }

q=tests/harness/qemu
TESTS="$q/purgatory.qemu tests/unit/test_options $q/jump.qemu
	$q/jump-pae.qemu $q/kdump@debian.qemu $q/x86_64-bad-input.qemu
	$q/x86_64-jump-fallback.qemu $q/jump@6.12.qemu $q/jump.qemu
	$q/hib-resume-pae.qemu $q/jump-pae@6.12.qemu $q/jump-pae@6.12@debian.qemu"
want="6.1 base
6.1 pae
6.1 x86_64-nokjump
6.12 base
6.12 pae"
# shellcheck disable=SC2086
got=$(sh "$prebuild" list "$src" $TESTS)
if [ "$got" = "$want" ]; then
	pass list
else
	fail list "got '$(echo "$got" | tr '\n' ';')'"
fi

# shellcheck disable=SC2086
sh "$prebuild" start "$src" "$tmp/state" $$ $q/jump.qemu $q/jump-pae.qemu
if ! wait_for 30 lines 2 "$tmp/state/prebuild.log" ||
	! wait_for 10 no_file "$tmp/state/prebuild.pid"; then
	fail build-order "not done after 30 s: log '$(tr '\n' ';' <"$tmp/state/prebuild.log")'"
else
	got=$(cat "$tmp/calls" 2>/dev/null)
	want="-q -k 6.1 -c base nice=19
-q -k 6.1 -c pae nice=19"
	log=$(sed 's/, [0-9]* s$//' "$tmp/state/prebuild.log")
	if [ "$got" != "$want" ]; then
		fail build-order "calls '$(echo "$got" | tr '\n' ';')'"
	elif [ "$log" != "6.1 base: built
6.1 pae: built" ]; then
		fail build-order "log '$(echo "$log" | tr '\n' ';')'"
	else
		pass build-order
	fi
fi

# hang_start WATCHPID: start, wait for the build that hangs; its pid in bk
hang_start() {
	rm -f "$tmp/calls" "$tmp/calls.pid"
	: >"$tmp/calls.hang"
	sh "$prebuild" start "$src" "$tmp/state" "$1" $q/jump-pae.qemu
	wait_for 30 has_file "$tmp/calls.pid" || return 1
	read -r bk <"$tmp/calls.pid"
	[ -f "$tmp/state/prebuild.pid" ]
}

if ! hang_start $$; then
	fail stop "the build did not start"
else
	read -r leader <"$tmp/state/prebuild.pid"
	sh "$prebuild" stop "$tmp/state"
	if ! wait_for 10 gone "$bk"; then
		fail stop "the build ($bk) still runs"
		kill "$bk" 2>/dev/null
	elif ! wait_for 10 gone "$leader"; then
		fail stop "the group leader ($leader) still runs"
	elif [ -e "$tmp/state/prebuild.pid" ]; then
		fail stop "prebuild.pid left behind"
	else
		pass stop
	fi
fi

# A second start ends the first group; the pid file is the new one's.
if ! hang_start $$; then
	fail restart "the first build did not start"
else
	read -r leader1 <"$tmp/state/prebuild.pid"
	bk1=$bk
	if ! hang_start $$; then
		fail restart "the second build did not start"
	elif ! gone "$bk1" || ! gone "$leader1"; then
		fail restart "the first group still runs"
	elif [ "$(cat "$tmp/state/prebuild.pid")" = "$leader1" ]; then
		fail restart "the pid file is the first group's"
	else
		read -r leader2 <"$tmp/state/prebuild.pid"
		sh "$prebuild" stop "$tmp/state"
		if wait_for 10 gone "$bk" && wait_for 10 gone "$leader2"; then
			pass restart
		else
			fail restart "the second group outlived stop"
		fi
	fi
fi

sleep 600 &
watch=$!
pids="$pids $watch"
if ! hang_start $watch; then
	fail watch-gone "the build did not start"
else
	kill $watch
	# the watcher looks every 5 s
	if ! wait_for 20 gone "$bk"; then
		fail watch-gone "the build ($bk) still runs 20 s after its make"
		sh "$prebuild" stop "$tmp/state"
	else
		pass watch-gone
	fi
fi
exit $failed
