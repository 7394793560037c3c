#!/bin/bash
# Regenerate the .host files of the jump scenarios, which repeat one block
# of expects per round trip:  tests/qemu/gen-jump-hosts.sh
set -eu
cd "$(dirname "$0")/scenarios"
gen_jump() {
	local name=$1 n=$2 cfg=$3
	{
	echo "# $name: kexec -p, then $n kexec -j round trips A -> B -> A in one boot."
	echo "# One block per trip, all from one template (trip k: B resumed k-1,"
	echo "# then A's checks).  Ours only: kexec -j is our option."
	echo "timeout $((60 + n * 12))"
	[ -n "$cfg" ] && echo "config $cfg"
	# a non-PAE kernel says so at boot: prove this one is the PAE build
	[ "$cfg" = pae ] && echo 'reject L1TF: Kernel not compiled for PAE'
	echo "disk 16"
	echo "append crashkernel=64M kjump.trips=$n"
	echo "debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours; see jump-debian-baseline"
	echo "expect 60 ^KJ A: start scenario=$name impl=@IMPL@"
	echo 'expect 10 ^KJ A: fs: A-fs @MARKER@$'
	echo 'expect 30 ^KJ A: memfill tag=@MARKER@@MARKER@ pages=16384 sum=[0-9a-f]{16} locked=1$'
	echo 'expect 30 ^KJ A: before: memfill: verify 16384 pages: OK$'
	echo "expect 10 ^KJ A: tsc khz=[1-9][0-9]+$"
	echo "expect 10 ^KJ A: shell pid=[0-9]+ start=[0-9]+ memfill=[0-9]+ counter-loop=[0-9]+ trips=$n\$"
	echo 'expect 60 ^KJ A: load rc=0$'
	echo 'expect 5 ^KJ A: load stderr-lines=0$'
	echo 'expect 5 ^KJ A: kexec_crash_loaded=1$'
	for ((k = 1; k <= n; k++)); do
		echo "# trip $k"
		echo "expect 30 ^KJ A: trip $k jump counter=[0-9]+\$"
		if [ $k = 1 ]; then
			echo 'expect 60 Linux version [0-9]'
			echo "expect 60 ^KJ B: start scenario=$name"
			echo 'expect 10 ^KJ B: cmdline: (.* )?kjump\.marker=@MARKER@( |$)'
			echo 'expect 10 ^KJ B: kexec_jump_buf_pfn=0x[0-9a-f]+ kexec_backup=0x[0-9a-f]+@0x[0-9a-f]+:0x[0-9a-f]+$'
			echo 'expect 60 ^KJ B: find rc=0$'
			echo 'expect 5 ^KJ B: find tag=@MARKER@@MARKER@ pages=16384 found=16384 dup=[0-9]+ bad=0 .* result=ok$'
		else
			echo "expect 30 ^KJ B: resumed n=$((k - 1)) rc=0\$"
		fi
		echo "expect 10 ^KJ B: n=$((k - 1)) disk-a=\"A-was-here @MARKER@ $k\"\$"
		echo "expect 10 ^KJ B: jump back n=$((k - 1))\$"
		echo "expect 30 ^KJ A: trip $k rc=0 ms=[0-9]+ a-ms=[0-9]+ shell=([0-9]+/[0-9]+) was=\\1 counter=[0-9]+>[0-9]+ advanced \\(memfill: verify 16384 pages: OK\\) disk=\"B-was-here @MARKER@ $((k - 1))\" fs=\"A-fs @MARKER@ trip $k\" dmesg-errors=0\$"
	done
	echo "expect 10 ^KJ A: trip ms: [0-9 ]+\$"
	echo "expect 10 ^KJ A: warm round trip median ms=[0-9]+ \\(trips 2..$n\\) min=[0-9]+ max=[0-9]+\$"
	echo 'expect 10 ^KJ A: end rc=0 marker=@MARKER@$'
	echo 'reject ^KJ B: end'
	echo 'reject ^KJ [AB]: .*stderr: '
	echo 'reject ^KJ A: trip [0-9]+ rc=[1-9]'
	echo 'reject ^KJ B: jump back rc='
	} > $name.host
}
gen_base() {
	local name=jump-debian-baseline
	{
	echo "# $name: the upstream preserve-context kexec jump with Debian's"
	echo "# kexec-tools (always /opt/debian/sbin/kexec), $n round trips: the peer"
	echo "# baseline for jump's timings.  One block per trip from one template."
	echo "timeout $((120 + n * 15))"
	echo "append kjump.trips=$n"
	echo "# B's /proc/vmcore: kexec-tools writes a preserve-context ELF core header"
	echo "# with no PT_NOTE, and vmcore_init() then WARNs on vmalloc_user(0) and gives"
	echo "# up (a stock 6.1 behaviour, not this project's): tolerate that one WARNING."
	echo 'allow-warning at mm/vmalloc.c:[0-9]+ __vmalloc_node_range'
	echo "debian skip it always runs Debian's kexec; the run without KEXEC_IMPL=debian covers it"
	echo "expect 60 ^KJ A: start scenario=$name"
	echo 'expect 30 ^KJ A: memfill tag=@MARKER@@MARKER@ pages=16384 sum=[0-9a-f]{16} locked=1$'
	echo 'expect 10 ^KJ A: tsc khz=[1-9][0-9]+$'
	echo "expect 10 ^KJ A: shell pid=[0-9]+ start=[0-9]+ trips=$n\$"
	echo 'expect 90 ^KJ A: load rc=0$'
	echo 'expect 5 ^KJ A: load ms=[0-9]+$'
	echo 'expect 5 ^KJ A: kexec_loaded=1$'
	for ((k = 1; k <= n; k++)); do
		echo "# trip $k"
		echo "expect 10 ^KJ A: trip $k exec counter=[0-9]+\$"
		if [ $k = 1 ]; then
			echo 'expect 60 Linux version [0-9]'
			echo 'expect 30 Warning: Zero PT_NOTE entries found'
			echo 'expect 10 Kdump: vmcore not initialized'
			echo "expect 60 ^KJ B: start scenario=$name"
			echo 'expect 10 ^KJ B: cmdline: (.* )?kjump\.marker=@MARKER@( |$)'
			echo 'expect 10 ^KJ B: entry=0x[0-9a-f]+$'
			echo 'expect 30 ^KJ B: helper rc=0$'
			echo 'expect 5 ^KJ B: kexec_loaded=1$'
		else
			echo "expect 30 ^KJ B: resumed n=$((k - 1)) exec-rc=[0-9]+\$"
		fi
		echo "expect 10 ^KJ B: jump back n=$((k - 1))\$"
		echo "expect 30 ^KJ A: trip $k back exec-rc=[0-9]+ exec-stderr=\".*\" ms=[0-9]+ a-ms=[0-9]+ shell=([0-9]+/[0-9]+) was=\\1 counter=[0-9]+>[0-9]+ advanced \\(memfill: verify 16384 pages: OK\\) dmesg-errors=0\$"
	done
	echo 'expect 10 ^KJ A: trip ms: [0-9 ]+$'
	echo "expect 10 ^KJ A: warm round trip median ms=[0-9]+ \\(trips 2..$n\\) min=[0-9]+ max=[0-9]+\$"
	echo 'expect 10 ^KJ A: end rc=0 marker=@MARKER@$'
	echo 'reject ^KJ B: end'
	} > $name.host
}
gen_jump jump 20 ""
gen_jump jump-pae 20 pae
n=6 gen_base
