#!/bin/bash
# Benchmark our kexec against Debian's kexec-tools 2.0.25 in one QEMU run
# (scenario "bench": one boot of the companion kernel, both kexecs, the
# same images), then print a table of medians.
#
#   KEXEC=path/to/static/i386/kexec bench.sh        run it (make bench)
#   bench.sh --host RUNS TRIPS      print the bench scenario's header
#                                   ("#: " directives, for
#                                   KJUMP_HOST_FILE) for RUNS samples per
#                                   load metric and TRIPS round trips per
#                                   jump implementation (the header in
#                                   scenarios/bench.guest.sh is --host 3 3)
#   bench.sh --table SERIAL_LOG [METRICS]  the table from a finished run's
#                                   log (x86_64-bench: start-up load-l
#                                   load-sl load-sp)
#   bench.sh --resume-table SERIAL_LOG STEPS ...  ours against swsusp, the
#                                   medians of finished hib-resume-bench runs
#   bench.sh --latency-table SERIAL_LOG  p50/p90/max of the warm round
#                                   trips of a finished jump run
#   bench.sh --latency              only the tail-latency runs (make
#                                   bench-latency): the jump scenario with
#                                   BENCH_LATENCY_TRIPS round trips on each
#                                   kernel of BENCH_LATENCY_LINUX
#   bench.sh --hib-table SERIAL_LOG STEPS  the hibernation table from a
#                                   finished hib-bench run (make bench runs
#                                   it after the kexec benchmark)
#
# Environment: BENCH_RUNS (default 7), BENCH_TRIPS (default 6, at least 2:
# trip 1 boots B and is left out of the median), BENCH_LATENCY_TRIPS
# (default 51), BENCH_LATENCY_LINUX (default "6.1 6.12"), and everything
# run-scenario.sh reads (KEXEC, KJUMP_QEMU_LOGDIR, KJUMP_TIMEOUT_SCALE...).
# The table also goes to $KJUMP_QEMU_LOGDIR/bench.txt.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
IMPLS="ours debian"

gen_host() {
	local runs=$1 trips=$2
	[ -z "${3:-}" ] || printf '%s\n' "$3"
	cat <<EOF
#: timeout $((120 + runs * 60 + trips * 30))
#: append crashkernel=64M kjump.runs=$runs kjump.trips=$trips
#: allow-warning at mm/vmalloc.c:[0-9]+ __vmalloc_node_range
#: debian skip it always runs both kexecs; the run without KEXEC_IMPL=debian covers it
#: mark A.start
#: mark B.start 180
#: mark B.start 180
#: mark B.start 180
#: mark A.end 120
EOF
}

# The header of the jump scenario with TRIPS round trips (make bench's
# tail-latency run).
gen_jump_host() {
	cat <<EOF
#: timeout $((120 + $1 * 10))
#: disk 16
#: append crashkernel=64M kjump.trips=$1
#: mark A.start
#: mark B.start 120
#: mark A.end
EOF
}

# The tail of the warm round trips (trip 1 boots B) of a jump run: p50,
# p90, max in ms, the slowest trips, from "KJ A: trip K rc=0 ms=N" lines.
latency_table() {
	tr -d '\r' <"$1" | sed -nE 's/^.*KJ A: trip ([0-9]+) rc=0 ms=([0-9]+) .*$/\1 \2/p' |
		awk '$1 > 1' | sort -k2,2n | awk -v note="${BENCH_NOTE:-}" '
	{ trip[NR] = $1; ms[NR] = $2 }
	function pct(p,   i) { i = int((NR * p + 99) / 100); if (i < 1) i = 1; return ms[i] }
	END {
		if (NR < 2) { print "latency: fewer than 2 warm trips" > "/dev/stderr"; exit 1 }
		print "kexec -j round trips, warm (trip 1 boots B and is left out), TSC wall time in A" (note != "" ? "; " note : "")
		print ""
		print "| trips | p50 ms | p90 ms | max ms | max / p50 |"
		print "|---:|---:|---:|---:|---:|"
		printf "| %d | %d | %d | %d | %.2f |\n", NR, pct(50), pct(90), ms[NR], ms[NR] / pct(50)
		printf "\nslowest:"
		for (i = NR; i > NR - 3 && i >= 1; i--) printf " trip %d %d ms;", trip[i], ms[i]
		print ""
	}'
}

# The guest's report lines, "KJ A: bench ...", as "METRIC RUN IMPL US".
samples() {
	tr -d '\r' <"$1" | sed -nE \
		's/^.*KJ A: bench ([a-z-]+) run=([0-9]+) impl=([a-z]+) (exec-)?rc=[0-9]+ us=([0-9]+).*$/\1 \2 \3 \5/p'
}

# stats: sorted microseconds on stdin -> "median min max count" in ms
stats() {
	awk '{ v[NR] = $1 }
	END {
		if (NR == 0) exit 1
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.1f %.1f %.1f %d\n", m / 1000, v[1] / 1000, v[NR] / 1000, NR
	}'
}

# table LOG [METRICS]: the medians of a bench (i386: the default
# metrics) or x86_64-bench run (start-up load-l load-sl load-sp).
table() {
	local log=$1 metrics=${2:-start-up load-l load-p jump jump-pc}
	local tmp m impl first label n meta kernel
	tmp=$(mktemp) || return 1
	samples "$log" >"$tmp"
	meta=${log%.serial.log}.meta
	kernel="the companion kernel"
	[ -f "$meta" ] && grep -q '^kernel: .*(config debian amd64)' "$meta" &&
		kernel="Debian's amd64 kernel"
	echo "kexec benchmark: ours (/sbin/kexec) vs Debian kexec-tools 2.0.25 (/opt/debian/sbin/kexec)"
	echo "one QEMU guest (TCG), one boot of $kernel, the same bzImage and initrd"
	[ -f "$meta" ] && sed -n 's/^kernel: /kernel: /p; s/^machine: /guest: /p' "$meta"
	[ -n "${BENCH_NOTE:-}" ] && echo "$BENCH_NOTE"
	echo "ratio = Debian median / ours median: above 1 means ours is faster"
	echo
	echo "| metric | ours median ms | Debian median ms | ratio Debian/ours | ours min-max ms | Debian min-max ms | N |"
	echo "|---|---:|---:|---:|---:|---:|---|"
	for m in $metrics; do
		case $m in
		start-up) label='start-up (`kexec -v`)'; first=1 ;;
		load-l) label='`-l` load'; first=1 ;;
		load-p) label='`-p` load'; first=1 ;;
		load-sl) label='`-s -l` load (kexec_file_load)'; first=1 ;;
		load-sp) label='`-s -p` load (kexec_file_load)'; first=1 ;;
		jump) label='jump round trip (warm; ours `-p`+`-j`)'; first=2 ;;
		jump-pc) label='jump round trip (warm; both preserve-context)'; first=2 ;;
		esac
		declare -A st=()
		for impl in $IMPLS; do
			# Debian has one jump: the preserve-context one
			mm=$m
			[ $m = jump-pc ] && [ $impl = debian ] && mm=jump
			st[$impl]=$(awk -v m=$mm -v i=$impl -v f=$first \
				'$1 == m && $3 == i && $2 >= f { print $4 }' "$tmp" |
				sort -n | stats) || { echo "bench: no $m samples for $impl in $log" >&2; rm -f "$tmp"; return 1; }
		done
		read -r om omin omax on <<<"${st[ours]}"
		read -r dm dmin dmax dn <<<"${st[debian]}"
		n=$on
		[ "$on" = "$dn" ] || n="$on/$dn"
		[ $first = 2 ] && n="$n (trips $first..$((on + 1)))"
		printf '| %s | %s | %s | %s | %s-%s | %s-%s | %s |\n' "$label" \
			"$om" "$dm" "$(awk -v d="$dm" -v o="$om" 'BEGIN { if (o > 0) printf "%.2f", d / o; else print "-" }')" \
			"$omin" "$omax" "$dmin" "$dmax" "$n"
	done
	rm -f "$tmp"
}

# The hibernation table, from a finished hib-bench run's serial log and
# steps file: per compressor the image and its rates, then the raw disk.
hib_table() {
	local log=$1 steps=$2
	tr -d '\r' <"$log" | awk -v steps="$steps" '
	function kv(line, key,   m) {
		if (match(line, " " key "=[^ ]+")) {
			m = substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
			return m
		}
		return ""
	}
	/KJ A: hib-bench compress=/ {
		c = kv($0, "compress"); n++; name[n] = c
		img[c] = kv($0, "image-bytes"); wms[c] = kv($0, "write-ms")
		pages[c] = kv($0, "pages"); used[c] = kv($0, "used")
		ratio[c] = kv($0, "ratio"); mibs[c] = kv($0, "mibs")
		wall[c] = kv($0, "wall-ms")
	}
	/KJ B: hib-bench raw-dd/ { rawb = kv($0, "bytes"); rawms = kv($0, "ms") }
	/KJ B: hib-bench vmcore-read/ { vcb = kv($0, "bytes"); vcms = kv($0, "ms") }
	END {
		while ((getline l < steps) > 0) {
			if (l ~ /handover to B .*hibernate/) { split(l, a, " "); th = a[1] + 0 }
			if (l ~ /qemu exited .boot 1,/) { split(l, a, " "); tx = a[1] + 0 }
		}
		raw = rawms > 0 ? rawb / 1048576 / (rawms / 1000) : 0
		print "kexec hibernation (hib-bench): one QEMU guest (TCG), 512 MiB, 2 vCPUs, 60% of MemTotal in use, virtio disk"
		print ""
		print "| compress | image MiB | used MiB | pages / used | ratio (raw/stored) | raw MiB/s | image MiB/s | image rate / raw dd | writer ms | kexec wall ms |"
		print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		for (i = 1; i <= n; i++) {
			c = name[i]
			im = img[c] / 1048576
			rate = wms[c] > 0 ? im / (wms[c] / 1000) : 0
			printf "| %s | %.1f | %.1f | %.3f | %s | %s | %.1f | %.2f | %s | %s |\n", c, im,
				used[c] * 4096 / 1048576, pages[c] / used[c], ratio[c], mibs[c],
				rate, (raw > 0 ? rate / raw : 0), wms[c], wall[c]
		}
		printf "\nraw dd in B (O_DIRECT, 4 MiB writes, fsync): %.1f MiB in %d ms = %.1f MiB/s\n", rawb / 1048576, rawms, raw
		if (vcms > 0)
			printf "reading /proc/vmcore in B (dd, 4 MiB reads): %.1f MiB in %d ms = %.1f MiB/s\n", vcb / 1048576, vcms, vcb / 1048576 / (vcms / 1000)
		if (th > 0 && tx > 0)
			printf "kexec --hibernate to power-off (host clock, handover line to QEMU exit): %.1f s\n", tx - th
	}'
}

# Ours against swsusp, from finished hib-resume-bench runs.  resume_rows
# prints one line per case of one run: the host times of the steps file
# (command to QEMU exit, QEMU start to the resumed shell, to every page
# verified), image bytes and swap use from the serial log, and for ours
# where the resume's time goes; "-" where a value does not apply.
resume_rows() {
	local log=$1 steps=$2
	tr -d '\r' <"$log" | awk -v steps="$steps" '
	function kv(line, key) {
		if (match(line, " " key "=[^ ]+"))
			return substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2)
		return ""
	}
	function t(l,   a) { split(l, a, " "); return a[1] + 0 }
	function casename(l,   w, v) { split(l, w, "bench "); split(w[2], v, " "); return v[1] }
	/KJ A: bench [a-z0-9-]+ hibernate pages=/ { c = casename($0); n++; name[n] = c; pages[c] = kv($0, "pages") }
	/KJ A: bench [a-z0-9-]+ resumed swapped=/ { x = kv($0, "swapped"); sub(/MiB$/, "", x); swr[casename($0)] = x }
	/KJ A: bench [a-z0-9-]+ image .* in [0-9]+ bytes/ {
		if (match($0, "in [0-9]+ bytes")) img[casename($0)] = substr($0, RSTART + 3, RLENGTH - 9)
	}
	/PM: hibernation: Wrote [0-9]+ kbytes/ {
		if (match($0, "Wrote [0-9]+ kbytes")) wrote[++nw] = substr($0, RSTART + 6, RLENGTH - 13) * 1024
	}
	/resume: .* pages read and verified in [0-9]+ ms/ {
		if (match($0, "in [0-9]+ ms")) rd[++nr] = substr($0, RSTART + 3, RLENGTH - 6)
		if (match($0, "stream [0-9]+ ms")) sm[nr] = substr($0, RSTART + 7, RLENGTH - 10)
		if (match($0, "of which [0-9]+ ms")) wt[nr] = substr($0, RSTART + 9, RLENGTH - 12)
	}
	/KJ A: bench swsusp-80-noswap failed/ { x = $0; sub(/.*failed /, "", x); print "noswap", x }
	END {
		while ((getline l < steps) > 0) {
			if (l ~ /qemu started/) qs[++nq] = t(l)
			if (l ~ /qemu exited/) qx[++nx] = t(l)
			if (l ~ /A\.start/) ast[nq] = t(l)
			if (match(l, "bench [a-z0-9-]+ (hibernate|resumed|verified|warm-up|warmed)")) {
				split(substr(l, RSTART, RLENGTH), v, " ")
				at[v[2], v[3]] = t(l); boot[v[2], v[3]] = nq
			}
		}
		iw = 0; ir = 0
		for (i = 1; i <= n; i++) {
			c = name[i]
			rb = boot[c, "resumed"]
			h = qx[boot[c, "hibernate"]] - at[c, "hibernate"]
			r = at[c, "resumed"] - qs[rb]
			vv = at[c, "verified"] - qs[rb]
			if (c ~ /^ours/) {
				ir++
				ab = ast[rb] - qs[rb]; rs = rd[ir] / 1000
				wu = (c, "warmed") in at ? at[c, "warmed"] - at[c, "warm-up"] : "-"
				print "case", c, pages[c], h, r, vv, img[c] / 1e6, swr[c], ab, rs, r - ab - rs, sm[ir] / 1000, wt[ir] / 1000, wu
			} else {
				print "case", c, pages[c], h, r, vv, wrote[++iw] / 1e6, swr[c], "-", "-", "-", "-", "-", "-"
			}
		}
	}'
}

# resume_table SERIAL STEPS [SERIAL STEPS ...]: the medians of the runs.
resume_table() {
	local runs=$(($# / 2))
	while [ $# -ge 2 ]; do
		resume_rows "$1" "$2" || return 1
		shift 2
	done | awk -v runs=$runs '
	function median(list,   a, m, i, j, x) {
		m = split(list, a, " ")
		for (i = 2; i <= m; i++) {	# insertion sort, m is small
			x = a[i] + 0
			for (j = i - 1; j >= 1 && a[j] + 0 > x; j--) a[j + 1] = a[j]
			a[j + 1] = x
		}
		return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
	}
	$1 == "noswap" { sub(/^noswap /, ""); noswap = $0; next }
	$1 == "case" {
		c = $2
		if (!(c in seen)) { seen[c] = 1; order[++n] = c }
		for (k = 3; k <= NF; k++)
			if ($k != "-") v[c, k] = v[c, k] (v[c, k] == "" ? "" : " ") $k
	}
	function m(c, k, f) { return v[c, k] == "" ? "" : sprintf(f, median(v[c, k])) }
	END {
		printf "kexec hibernation against swsusp (hib-resume-bench): one QEMU guest (TCG), 512 MiB, 2 vCPUs, crashkernel=64M, the same kernel and virtio disk; memfill (not locked) filling X%% of MemTotal; medians of %d run(s)\n\n", runs
		print "| case | pages filled | hibernate s | resume s | until verified s | image MB | swapped out MiB | boot to shell s | image read s | restore to shell s |"
		print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		for (i = 1; i <= n; i++) {
			c = order[i]
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, m(c, 3, "%d"),
				m(c, 4, "%.1f"), m(c, 5, "%.1f"), m(c, 6, "%.1f"), m(c, 7, "%.1f"),
				m(c, 8, "%d"), m(c, 9, "%.1f"), m(c, 10, "%.1f"), m(c, 11, "%.1f")
		}
		print ""
		print "image MB: ours, the bytes on disk; swsusp, the kbytes it says it wrote (before LZO)"
		for (i = 1; i <= n; i++) {
			c = order[i]
			if (v[c, 12] == "")
				continue
			printf "%s: the image read: stream %s s, of which the writer waited %s s for decoded chunks", c, m(c, 12, "%.2f"), m(c, 13, "%.2f")
			if (v[c, 14] != "")
				printf "; kexec --warm-up before it (B boots) %s s", m(c, 14, "%.1f")
			print ""
		}
		if (noswap != "")
			printf "\nswsusp at 80%% without swap: %s\n", noswap
	}'
}

# latency_runs: the jump scenario with BENCH_LATENCY_TRIPS round trips on
# the companion kernel of each version in BENCH_LATENCY_LINUX, and the
# p50/p90/max table of each (LOGDIR/jump-latency[@VERSION].txt).
latency_trips() {
	ltrips=${BENCH_LATENCY_TRIPS:-51}
	[[ $ltrips =~ ^[1-9][0-9]*$ ]] && [ "$ltrips" -ge 3 ] ||
		{ echo "bench: BENCH_LATENCY_TRIPS must be an integer >= 3, not '$ltrips'" >&2; return 2; }
}

latency_runs() {
	local v name out
	gen_jump_host "$ltrips" >"$logdir/jump-$ltrips.host" || return 1
	for v in ${BENCH_LATENCY_LINUX:-6.1 6.12}; do
		name=jump
		[ "$v" = 6.1 ] || name=jump@$v
		echo "== tail latency: scenario $name, $ltrips round trips"
		KJUMP_LINUX=$v KJUMP_HOST_FILE=$logdir/jump-$ltrips.host \
			"$here/run-scenario.sh" jump ||
			{ echo "== bench: the $name run failed (logs: $logdir/$name.*)" >&2; return 1; }
		out=$logdir/${name/jump/jump-latency}
		cp "$logdir/$name.serial.log" "$out.serial.log" || return 1
		BENCH_NOTE="run: $(date -u '+%Y-%m-%d %H:%M UTC'), linux $v" \
			latency_table "$out.serial.log" >"$out.txt" || return 1
		cat "$out.txt"
		echo
	done
}

case ${1:-} in
--latency)
	[ $# = 1 ] || { echo "usage: $0 --latency" >&2; exit 2; }
	logdir=${KJUMP_QEMU_LOGDIR:-$here/logs}
	export KJUMP_QEMU_LOGDIR=$logdir
	mkdir -p "$logdir" || exit 1
	latency_trips || exit 2
	latency_runs
	exit ;;
--latency-table)
	[ $# = 2 ] || { echo "usage: $0 --latency-table SERIAL_LOG" >&2; exit 2; }
	latency_table "$2"
	exit ;;
--resume-table)
	shift
	[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] ||
		{ echo "usage: $0 --resume-table SERIAL_LOG STEPS [SERIAL_LOG STEPS ...]" >&2; exit 2; }
	resume_table "$@"
	exit ;;
--hib-table)
	[ $# = 3 ] || { echo "usage: $0 --hib-table SERIAL_LOG STEPS" >&2; exit 2; }
	hib_table "$2" "$3"
	exit ;;
--host)
	[ $# = 3 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] && [[ $3 =~ ^[1-9][0-9]*$ ]] && [ "$3" -ge 2 ] ||
		{ echo "usage: $0 --host RUNS TRIPS (TRIPS >= 2)" >&2; exit 2; }
	gen_host "$2" "$3"
	exit 0 ;;
--table)
	[ $# = 2 ] || [ $# = 3 ] || { echo "usage: $0 --table SERIAL_LOG [METRICS]" >&2; exit 2; }
	table "$2" ${3:+"$3"}
	exit ;;
'') ;;
*) echo "usage: $0 [--latency | --host RUNS TRIPS | --table SERIAL_LOG]" >&2; exit 2 ;;
esac

runs=${BENCH_RUNS:-7}
trips=${BENCH_TRIPS:-6}
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bench: BENCH_RUNS must be a positive integer, not '$runs'" >&2; exit 2; }
[[ $trips =~ ^[1-9][0-9]*$ ]] && [ "$trips" -ge 2 ] ||
	{ echo "bench: BENCH_TRIPS must be an integer >= 2 (trip 1 boots B), not '$trips'" >&2; exit 2; }
latency_trips || exit 2
logdir=${KJUMP_QEMU_LOGDIR:-$here/logs}
export KJUMP_QEMU_LOGDIR=$logdir
mkdir -p "$logdir" || exit 1
hostfile=$logdir/bench-$runs-$trips.host
gen_host "$runs" "$trips" >"$hostfile" || exit 1

echo "== bench: $runs runs per load metric, $trips round trips per jump (one QEMU guest)"
load0=$(cut -d' ' -f1 /proc/loadavg)
echo "== host: $(nproc) CPUs, load average $load0"
t0=$SECONDS
KJUMP_HOST_FILE=$hostfile "$here/run-scenario.sh" bench
rc=$?
load1=$(cut -d' ' -f1 /proc/loadavg)
echo "== host load average after: $load1 ($((SECONDS - t0)) s)"
[ $rc = 0 ] || { echo "== bench: the run failed (logs: $logdir/bench.*)" >&2; exit 1; }
echo
BENCH_NOTE="run: $(date -u '+%Y-%m-%d %H:%M UTC'), $runs runs, $trips trips; host: $(nproc) CPUs, 1-min load average $load0 before, $load1 after" \
	table "$logdir/bench.serial.log" >"$logdir/bench.txt" || exit 1
cat "$logdir/bench.txt"
echo
echo "(also in $logdir/bench.txt; raw lines: grep 'KJ A: bench' $logdir/bench.serial.log)"
echo
echo "== x86_64: scenario x86_64-bench, $runs runs per load metric (Debian's amd64 kernel)"
sed "s/kjump\.runs=[0-9]*/kjump.runs=$runs/" "$here/scenarios/x86_64-bench.guest.sh" \
	>"$logdir/x86_64-bench-$runs.host" || exit 1
KJUMP_HOST_FILE=$logdir/x86_64-bench-$runs.host "$here/run-scenario.sh" x86_64-bench
rc=$?
if [ $rc = 77 ]; then
	echo "== x86_64-bench skipped (no static x86_64 kexec: KEXEC_X86_64)"
else
	[ $rc = 0 ] || { echo "== bench: x86_64-bench failed (logs: $logdir/x86_64-bench.*)" >&2; exit 1; }
	BENCH_NOTE="run: $(date -u '+%Y-%m-%d %H:%M UTC'), $runs runs" \
		table "$logdir/x86_64-bench.serial.log" "start-up load-l load-sl load-sp" \
		>"$logdir/x86_64-bench.txt" || exit 1
	cat "$logdir/x86_64-bench.txt"
	echo
	echo "== x86_64 jump: scenario x86_64-jump-bench, $runs runs, $trips round trips (the x86_64 companion kernel)"
	gen_host "$runs" "$trips" "$(printf '#: arch x86_64\n#: config x86_64')" \
		>"$logdir/x86_64-jump-bench-$runs-$trips.host" || exit 1
	KJUMP_HOST_FILE=$logdir/x86_64-jump-bench-$runs-$trips.host \
		"$here/run-scenario.sh" x86_64-jump-bench ||
		{ echo "== bench: x86_64-jump-bench failed (logs: $logdir/x86_64-jump-bench.*)" >&2; exit 1; }
	BENCH_NOTE="run: $(date -u '+%Y-%m-%d %H:%M UTC'), $runs runs, $trips trips" \
		table "$logdir/x86_64-jump-bench.serial.log" >"$logdir/x86_64-jump-bench.txt" || exit 1
	cat "$logdir/x86_64-jump-bench.txt"
fi
echo
latency_runs || exit 1
echo "== hibernation: scenario hib-bench"
"$here/run-scenario.sh" hib-bench ||
	{ echo "== bench: hib-bench failed (logs: $logdir/hib-bench.*)" >&2; exit 1; }
hib_table "$logdir/hib-bench.serial.log" "$logdir/hib-bench.steps" >"$logdir/hib-bench.txt" || exit 1
cat "$logdir/hib-bench.txt"
echo
rruns=${BENCH_RESUME_RUNS:-3}
[[ $rruns =~ ^[1-9][0-9]*$ ]] || { echo "bench: BENCH_RESUME_RUNS must be a positive integer, not '$rruns'" >&2; exit 2; }
echo "== hibernation against swsusp: scenario hib-resume-bench, $rruns run(s)"
pairs=()
for ((i = 1; i <= rruns; i++)); do
	"$here/run-scenario.sh" hib-resume-bench ||
		{ echo "== bench: hib-resume-bench failed (logs: $logdir/hib-resume-bench.*)" >&2; exit 1; }
	for f in serial.log steps; do
		cp "$logdir/hib-resume-bench.$f" "$logdir/hib-resume-bench.run$i.$f" || exit 1
	done
	pairs+=("$logdir/hib-resume-bench.run$i.serial.log" "$logdir/hib-resume-bench.run$i.steps")
done
resume_table "${pairs[@]}" >"$logdir/hib-resume-bench.txt" || exit 1
cat "$logdir/hib-resume-bench.txt"
