#!/bin/sh
# run-fuzz.sh fuzz|check: run every libFuzzer harness for FUZZ_SECONDS
# (default 60; check mode: FUZZ_CHECK_SECONDS, default 8) and print one
# result line each and a summary:
#
#   PASS: fuzz/<name>: <N> executions in <S> s, 0 crashes
#   FAIL: fuzz/<name>: crash after <N> executions: <artifact>
#   PASS: fuzz/image-i386: replayed <N> inputs   (the image corpus through
#         the -m32 reader, tests/fuzz/replay-image-i386, when it is built)
#   fuzz: <H> harnesses, <N> executions, <C> crashes, <S> s each
#
# fuzz exits 1 if a harness crashed or there is no fuzzer to run; check
# prints SKIP lines instead when clang/libFuzzer is missing (for make
# check, which counts the lines: tests/fuzz/check.sh).
#
# Environment (set by make): FUZZ_HARNESSES (names), FUZZ_DIR (the build
# directory's tests/fuzz: fuzz_<name>, corpus/<name>/ seeds), FUZZ_SKIP
# (why there are no fuzzers, empty if there are), srcdir.
# Per harness: work/<name>/ keeps the corpus the fuzzer grows between
# runs, artifacts/<name>/ receives crash inputs, logs/<name>.log the
# fuzzer's output.  Reproduce a crash with: FUZZ_DIR/fuzz_<name> ARTIFACT
set -u

mode=${1:-fuzz}
case $mode in
fuzz) secs=${FUZZ_SECONDS:-60} ;;
check) secs=${FUZZ_CHECK_SECONDS:-8} ;;
*) echo "usage: $0 fuzz|check" >&2; exit 2 ;;
esac
dir=${FUZZ_DIR:-tests/fuzz}
srcdir=${srcdir:-.}
names=${FUZZ_HARNESSES:-}

if [ -z "$names" ]; then
	echo "SKIP: fuzz: no harnesses named (FUZZ_HARNESSES is set by make)"
	[ "$mode" = check ]
	exit
fi
if [ -n "${FUZZ_SKIP:-}" ]; then
	for n in $names; do
		echo "SKIP: fuzz/$n: ${FUZZ_SKIP}"
	done
	[ "$mode" = check ] && exit 0
	echo "fuzz: nothing run: ${FUZZ_SKIP}" >&2
	exit 1
fi

# The memory-map harness writes a firmware directory per input: on
# tmpfs if there is one.
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	TMPDIR=/dev/shm
	export TMPDIR
fi

max_len() {
	case $1 in
	bzimage) echo 16384 ;;
	image) echo 65536 ;;
	elf) echo 8192 ;;
	*) echo 4096 ;;
	esac
}

total_execs=0
total_crashes=0
count=0
for n in $names; do
	prog=$dir/fuzz_$n
	work=$dir/work/$n
	art=$dir/artifacts/$n
	log=$dir/logs/$n.log
	mkdir -p "$work" "$art" "$dir/logs"
	ls "$art" >"$dir/logs/$n.before"
	dict=
	[ -f "$srcdir/tests/fuzz/$n.dict" ] &&
		dict=-dict=$srcdir/tests/fuzz/$n.dict
	"$prog" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
		-max_len="$(max_len "$n")" -print_final_stats=1 \
		-artifact_prefix="$art/" $dict "$work" "$dir/corpus/$n" \
		>"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" |
		tail -n 1)
	[ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" |
		tail -n 1)
	[ -n "$execs" ] || execs=0
	new=$(ls "$art" | grep -vxF -f "$dir/logs/$n.before")
	rm -f "$dir/logs/$n.before"
	crashes=$(echo "$new" | grep -c .)
	if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
		crashes=1
	fi
	count=$((count + 1))
	total_execs=$((total_execs + execs))
	total_crashes=$((total_crashes + crashes))
	if [ "$crashes" -eq 0 ]; then
		echo "PASS: fuzz/$n: $execs executions in $secs s, 0 crashes"
		continue
	fi
	first=$(echo "$new" | head -n 1)
	echo "FAIL: fuzz/$n: crash after $execs executions (exit $rc):" \
		"${first:+$art/$first}, log $log"
	grep -E 'ERROR|invariant broken|runtime error|SUMMARY' "$log" |
		head -n 5 | sed 's/^/    /'
done

# The image corpus (seeds and what the fuzzer grew) through the 32-bit
# reader, where libFuzzer cannot run.
replay=$dir/replay-image-i386
if [ -x "$replay" ] && [ -d "$dir/corpus/image" ]; then
	mkdir -p "$dir/work/image"
	if out=$("$replay" "$dir/corpus/image" "$dir/work/image" 2>&1); then
		echo "PASS: fuzz/image-i386: $out"
	else
		echo "FAIL: fuzz/image-i386: $(echo "$out" | tail -n 1)"
		total_crashes=$((total_crashes + 1))
	fi
fi

echo "fuzz: $count harnesses, $total_execs executions, $total_crashes crashes, $secs s each"
[ "$total_crashes" -eq 0 ]
