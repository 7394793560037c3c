#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The log driver of make check (LOG_DRIVER in Makefile.am), for automake's
# parallel test harness.  A test here is a program that prints many
# results, one a line on stdout or stderr:
#
#   PASS: NAME[ (DETAIL)]   FAIL: NAME: WHY   SKIP: NAME: WHY
#   XFAIL: NAME: WHY        XPASS: NAME: WHY  ERROR: NAME: WHY
#
# Each such line becomes one ":test-result:" line of the .trs file, so the
# harness counts, reports (test-suite.log) and rechecks (make recheck)
# every result rather than one per program.
#
#   driver.sh --test-name NAME --log-file LOG --trs-file TRS
#             [--color-tests yes|no] [--expect-failure yes|no]
#             [--enable-hard-errors yes|no] [--OPTION VALUE...]
#             -- COMMAND [ARG...]
#
# The exit status adds a result of its own where the lines leave a gap,
# so that a crash or a silent program cannot pass:
#   0                  and no result line: FAIL: NAME: printed no result
#   77                 and no result line: SKIP: NAME: exit status 77
#   99                 ERROR: NAME: hard error (exit status 99)
#                      (a FAIL with --enable-hard-errors no)
#   anything else      and no FAIL/ERROR line: FAIL: NAME: exit status N
# With --expect-failure yes (the test is in XFAIL_TESTS) a PASS line counts
# as XPASS and a FAIL line as XFAIL.
#
# The .trs also gets ":test-seconds: N", the test's wall time, which
# automake's harness ignores and summary.sh's table of the slowest tests
# reads.
#
# The result lines go to stdout (the console), coloured with
# --color-tests yes; LOG gets the whole output, then the results and the
# exit status.
set -u

me=tests/harness/driver.sh
usage() {
	echo "usage: $me --test-name NAME --log-file LOG --trs-file TRS [--OPTION VALUE...] -- COMMAND [ARG...]" >&2
	exit 2
}

name='' log='' trs='' color=no expect_failure=no hard_errors=yes
while [ $# -gt 0 ]; do
	case $1 in
	--) shift; break ;;
	--*) [ $# -ge 2 ] || usage ;;
	*) usage ;;
	esac
	case $1 in
	--test-name) name=$2 ;;
	--log-file) log=$2 ;;
	--trs-file) trs=$2 ;;
	--color-tests) color=$2 ;;
	--expect-failure) expect_failure=$2 ;;
	--enable-hard-errors) hard_errors=$2 ;;
	*) ;; # an option of a later automake: ignored with its value
	esac
	shift 2
done
if [ -z "$name" ] || [ -z "$log" ] || [ -z "$trs" ] || [ $# -eq 0 ]; then
	usage
fi

rm -f "$log" "$trs"
results=$trs.results
trap 'rm -f "$results"' EXIT
# A signal ends the test: leave no .trs behind, so the harness reruns it.
trap 'rm -f "$log" "$trs"; exit 130' HUP INT TERM

t0=$(date +%s)
"$@" >"$log" 2>&1
rc=$?
seconds=$(($(date +%s) - t0))

LC_ALL=C grep -E '^(PASS|FAIL|SKIP|XFAIL|XPASS|ERROR): ' "$log" >"$results"
if [ "$expect_failure" = yes ]; then
	sed -e 's/^PASS: /XPASS: /' -e 's/^FAIL: /XFAIL: /' "$results" \
		>"$results.x" && mv "$results.x" "$results"
fi

some=$(wc -l <"$results")
failing=$(LC_ALL=C grep -cE '^(FAIL|ERROR): ' "$results")
extra=
case $rc in
0) [ "$some" -gt 0 ] || extra="FAIL: $name: printed no result" ;;
77) [ "$some" -gt 0 ] || extra="SKIP: $name: exit status 77" ;;
99)
	if [ "$hard_errors" = no ]; then
		extra="FAIL: $name: hard error (exit status 99)"
	else
		extra="ERROR: $name: hard error (exit status 99)"
	fi
	;;
*) [ "$failing" -gt 0 ] || extra="FAIL: $name: exit status $rc" ;;
esac
[ -z "$extra" ] || echo "$extra" >>"$results"

if [ "$color" = yes ]; then
	esc=$(printf '\033')
	red="${esc}[0;31m" grn="${esc}[0;32m" lgn="${esc}[1;32m"
	blu="${esc}[1;34m" mgn="${esc}[0;35m" std="${esc}[m"
else
	red='' grn='' lgn='' blu='' mgn='' std=''
fi

# The .trs file: one result per line; the worst one for the whole program.
global=
{
	while IFS= read -r line; do
		res=${line%%:*}
		echo ":test-result: $res ${line#*: }"
		case $res in
		PASS) c=$grn ;;
		SKIP) c=$blu ;;
		XFAIL) c=$lgn ;;
		ERROR) c=$mgn ;;
		*) c=$red ;;
		esac
		echo "$c$res$std: ${line#*: }" >&3
		case $res:$global in
		ERROR:*) global=ERROR ;;
		FAIL:ERROR) ;;
		FAIL:*) global=FAIL ;;
		XPASS:ERROR | XPASS:FAIL) ;;
		XPASS:*) global=XPASS ;;
		PASS:ERROR | PASS:FAIL | PASS:XPASS) ;;
		PASS:*) global=PASS ;;
		XFAIL:ERROR | XFAIL:FAIL | XFAIL:XPASS | XFAIL:PASS) ;;
		XFAIL:*) global=XFAIL ;;
		SKIP:) global=SKIP ;;
		esac
	done <"$results"
	case $global in
	ERROR | FAIL | XPASS) echo ":recheck: yes" ;;
	*) echo ":recheck: no" ;;
	esac
	case $global in
	PASS) echo ":copy-in-global-log: no" ;;
	*) echo ":copy-in-global-log: yes" ;;
	esac
	echo ":global-test-result: $global"
	# Not automake's: summary.sh's table of the slowest tests.
	echo ":test-seconds: $seconds"
} 3>&1 >"$trs.tmp"
mv "$trs.tmp" "$trs"

{
	echo
	echo "--- results of $name (exit status $rc, $seconds s)"
	cat "$results"
} >>"$log"
exit 0
