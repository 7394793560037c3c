#!/bin/sh
# jump-param: the kexec jump parameter page carries a request from A to B
# and a status back (/sys/kernel/kexec_jump_request, kexec_jump_status),
# and a jump with a request publishes A's saveable-page map.
#
# A: root without CAP_SYS_BOOT cannot write a request (EPERM);
#    writes a request naming the marker, kexec -j; B reads A's page:
#    magic, version, the same request text, the map and file system
#    list flags, a map of a plausible number of pages (more than A's used
#    memory in pages minus a margin, fewer than all of RAM), a list of
#    no file systems (A mounts none read-write on a block device), a
#    4-byte kernel word; B writes a
#    status and jumps back.  A finds that status, and its request
#    cleared.  A second jump without a request: B sees no request and no
#    map, and A finds the status B wrote that time.
#: timeout 200
#: append crashkernel=64M
#: debian skip the parameter page is the companion kernel's
#: mark A.start
#: mark B.start 120
#: mark A.end
. /lib/kjump/common.sh

REQ=/sys/kernel/kexec_jump_request
ST=/sys/kernel/kexec_jump_status

u32_at() {                 # u32_at FILE OFFSET
	od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '
}

u64_at() {                 # u64_at FILE OFFSET (low half: enough here)
	od -An -tu4 -j "$2" -N 4 "$1" | tr -d ' '
}

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_true files "no $REQ or $ST" test -e $REQ -a -e $ST
	kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)" || exit 1
	used=$(awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 } END { print int((t - f) / 4) }' /proc/meminfo)
	kj_say "used pages before the jump: $used"
	# root without CAP_SYS_BOOT plants no request (patch 0034)
	echo x >/tmp/x
	kj_match no-cap-sys-boot "$({ dropcap 22 dd if=/tmp/x of=$REQ 2>&1; echo rc=$?; } | tr '\n' ' ')" \
		'Operation not permitted .*rc=1 $'

	kj_eq no-cap-sys-boot-len "$(kj_request_len)" 0
	printf 'kjump-test-request 1\nmarker=%s\nused=%s\n' "$KJ_MARKER" "$used" >/tmp/req
	dd if=/tmp/req of=$REQ bs=4096 2>/tmp/dd.err
	kj_eq write-request "rc=$?" "rc=0" || { kj_say_lines "dd: " /tmp/dd.err; exit 1; }
	dd if=$REQ of=/tmp/page bs=4096 count=1 2>/dev/null
	kj_eq a-request-len "$(u32_at /tmp/page 64)" "$(wc -c </tmp/req)"
	kj_eq status-write-in-a "$(echo x 2>/dev/null >$ST; echo rc=$?)" "rc=1"
	for trip in 1 2; do
		kj_handover B "trip $trip"
		"$KEXEC" -j 2>/tmp/jump.err
		rc=$?
		kj_say_lines "jump stderr: " /tmp/jump.err
		kj_eq "trip $trip" "rc=$rc" "rc=0" || exit 1
		kj_eq "trip $trip status" "$(cat $ST)" "kjump-test-status trip=$trip marker=$KJ_MARKER"
		dd if=$REQ of=/tmp/page bs=4096 count=1 2>/dev/null
		kj_eq "trip $trip request cleared" \
			"len=$(u32_at /tmp/page 64) flags=$(u32_at /tmp/page 12)" "len=0 flags=0"
	done
	;;
B)
	n=1
	while :; do
		dd if=$REQ of=/tmp/page bs=4096 count=1 2>/tmp/dd.err
		kj_eq "n=$n read" "rc=$? size=$(wc -c </tmp/page)" "rc=0 size=4096"
		kj_eq "n=$n header" "magic=$(u32_at /tmp/page 0) version=$(u32_at /tmp/page 4) size=$(u32_at /tmp/page 8) word=$(u32_at /tmp/page 72)" \
			"magic=1297240139 version=1 size=4096 word=4"
		len=$(u32_at /tmp/page 64)
		flags=$(u32_at /tmp/page 12)
		if [ $n = 1 ]; then
			dd if=/tmp/page of=/tmp/req bs=1 skip=128 count="$len" 2>/dev/null
			kj_match "n=1 request" "$(head -n 2 /tmp/req | tr '\n' ' ')" \
				"^kjump-test-request 1 marker=$KJ_MARKER \$"
			used=$(sed -n 's/^used=//p' /tmp/req)
			pages=$(u64_at /tmp/page 32)
			pfn_end=$(u64_at /tmp/page 24)
			kj_say "map: pages=$pages pfn_end=$pfn_end A-used=$used free=$(u64_at /tmp/page 48)"
			kj_eq "n=1 map and file system flags" "$flags" 9
			kj_true "n=1 file system list" "no list" test "$(u64_at /tmp/page 56)" != 0
			kj_eq "n=1 file systems" "$(u32_at /tmp/page 76)" 0
			kj_true "n=1 map size" "map of $pages pages for $used used of $pfn_end" \
				test "$pages" -gt $((used / 2)) -a "$pages" -lt "$pfn_end"
			kj_true "n=1 map dir" "no map directory" test "$(u64_at /tmp/page 16)" != 0
			kj_true "n=1 snapshot header" "no swsusp header" test "$(u64_at /tmp/page 40)" != 0
		else
			kj_eq "n=$n no request" "len=$len flags=$flags" "len=0 flags=0"
		fi
		kj_eq "n=$n request write in B" "$(echo x 2>/dev/null >$REQ; echo rc=$?)" "rc=1"
		printf 'kjump-test-status trip=%s marker=%s\n' "$n" "$KJ_MARKER" >/tmp/st
		dd if=/tmp/st of=$ST bs=4096 2>/tmp/dd.err
		kj_eq "n=$n write status" "rc=$?" "rc=0"
		kj_handover A "jump back n=$n"
		"$KEXEC" -j 2>/tmp/jump.err
		rc=$?
		kj_say_lines "jump back stderr: " /tmp/jump.err
		[ $rc = 0 ] || { kj_fail "jump back n=$n" "kexec -j exit status $rc"; exit 1; }
		n=$((n + 1))
	done
	;;
esac
