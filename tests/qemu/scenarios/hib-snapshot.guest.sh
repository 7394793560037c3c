#!/bin/sh
# hib-snapshot: kexec --snapshot saves A's memory image from B to a raw
# virtio disk and A carries on.  Shared by hib-snapshot-file,
# hib-snapshot-xfs and hib-snapshot-vfat (the image in a file on an ext4,
# xfs or vfat file system A has mounted) and their x86_64-* twins.
#
# A: no swap; fills memory to about 80% of MemTotal with memfill's pattern
#    (odd pages compressible, even ones random, from the marker), runs a
#    counter loop, holds a file open; loads B with the image writer's
#    initramfs (initrd-b-hib), then kexec --snapshot=TARGET.  Back in A:
#    exit status 0 and one line on stdout, the same shell, the counter
#    advanced, memfill re-verifies every page, the open file still reads;
#    the image verifies (kexec --image-info --verify: every chunk's
#    checksums), holds every memfill page with its exact content
#    (vmcore-check --image: decompressed and compared), and its page
#    count is within 4% of A's used pages (MemTotal - MemFree) at the
#    jump and of those plus the kernel's reserved pages, so free pages
#    were left out.  On x86_64, A's RAM below 1 MiB has the same md5
#    after the jump as before, B's another one, and CPU 1 cycles 3 times.
#    The file runs pass --drop-caches: the image must then hold no more
#    zero pages than the raw-disk run's few hundred.
# B: runs the image writer once (kjump-save --once), which jumps back.
#: timeout 420
#: disk 640
#: append crashkernel=64M
#: debian skip kexec --snapshot is ours
#: mark A.start
#: mark B.start 120
#: mark A.end
. /lib/kjump/common.sh

DISK=/dev/vda
tag=$KJ_MARKER$KJ_MARKER
COMPRESS=$(cmdline_word kjump.compress lz4)


case $KJ_STAGE in
A)
	kj_need_kexec
	[ -b $DISK ] || { kj_fail disk "no $DISK"; exit 1; }
	kj_eq no-swap "$(kj_meminfo SwapTotal)" 0
	# vfat keeps no modes: its mount's masks give every file the same
	# one, and an image must be 0600
	OPTS=defaults
	case ${KJ_SCENARIO#x86_64-} in
	hib-snapshot-file) FSTYPE=ext4 ;;
	hib-snapshot-xfs) FSTYPE=xfs ;;
	hib-snapshot-vfat) FSTYPE=vfat OPTS=umask=077 ;;
	*) FSTYPE= ;;
	esac
	if [ -n "$FSTYPE" ]; then
		mkdir -p /mnt/fs
		mount -t $FSTYPE -o $OPTS $DISK /mnt/fs || { kj_fail mount "cannot mount $DISK as $FSTYPE"; exit 1; }
		TARGET=/mnt/fs/hibernate.img
		echo "A-fs $KJ_MARKER" >/mnt/fs/hello
	else
		TARGET=$DISK
	fi
	kj_load_writer_b || exit 1

	kj_memfill_pct 80 "$tag" || exit 1
	kj_counter_start
	echo "open-file $KJ_MARKER" >/tmp/open.txt
	exec 6</tmp/open.txt
	st0=$(starttime $$)
	kj_say "MemTotal=${total}kB memfill=${mib}MiB pid=$$ target=$TARGET compress=$COMPRESS"
	# x86_64: B's trampoline takes A's low RAM while B runs; the host
	# wants A's and B's md5 of it different (differ lowram), and A's
	# must be A's again once back
	[ "$(uname -m)" = x86_64 ] && low0=$(kj_low_ram_md5) &&
		kj_say "lowram $low0"

	prev=$(cat /tmp/counter)
	kj_handover B "snapshot"
	# the file runs also drop clean caches (the file's own zeros)
	drop=
	[ -n "$FSTYPE" ] && drop=--drop-caches
	kj_run snap "$KEXEC" --snapshot="$TARGET" --compress="$COMPRESS" $drop
	rc=$?
	kj_eq snapshot "rc=$rc stderr-lines=$(wc -l </tmp/kj.err)" "rc=0 stderr-lines=0" || exit 1
	line=$(cat /tmp/kj.out)
	kj_match snapshot-line "$line" "^$TARGET: saved [0-9]+ pages \\([0-9]+ data, [0-9]+ zero; [0-9]+ used before\\) in [0-9]+ bytes"
	cw=$(kj_counter_wait "$prev")
	kj_eq "back in A" "shell=$$/$(starttime $$) counter ${cw#* } ($(kj_memfill_verify)) open=$(cat <&6) dmesg-errors=$(kj_dmesg_errors)" \
		"shell=$$/$st0 counter advanced (memfill: verify $PAGES pages: OK) open=open-file $KJ_MARKER dmesg-errors=0"

	pages=$(echo "$line" | sed -n 's/.*: saved \([0-9]*\) pages.*/\1/p')
	zero=$(echo "$line" | sed -n 's/.* data, \([0-9]*\) zero;.*/\1/p')
	kj_true "few zero pages" "$zero zero pages saved" test "$zero" -lt 4096
	upages=$(echo "$line" | sed -n 's/.*; \([0-9]*\) used before.*/\1/p')
	rpages=$(kj_reserved_pages)
	kj_say "image pages=$pages used-pages=$upages reserved-pages=$rpages"
	# the used pages, and at most the kernel's reserved ones besides
	kj_true "pages near used" "image holds $pages pages, A used $upages and reserved $rpages" \
		test $((pages * 100)) -ge $((upages * 96)) -a $((pages * 100)) -le $(((upages + rpages) * 104))
	if [ "$(uname -m)" = x86_64 ]; then
		kj_eq low-ram-back "$(kj_low_ram_md5)" "$low0"
		kj_cpu_cycle 1 3
	fi

	sync
	echo 3 >/proc/sys/vm/drop_caches
	kj_run info "$KEXEC" --image-info="$TARGET" --verify
	kj_eq info-rc "rc=$? stderr-lines=$(wc -l </tmp/kj.err)" "rc=0 stderr-lines=0"
	kj_match info-state "$(grep -E '^(state|resumable):' /tmp/kj.out | tr '\n' ' ')" \
		"^state: snapshot resumable: no \\(a snapshot"
	kj_match info-verify "$(grep '^verify' /tmp/kj.out)" "^verify: ok"
	vmcore-check --image "$TARGET" --find "$tag" $PAGES >/tmp/find.out 2>/tmp/find.err
	rc=$?
	kj_say_lines "" /tmp/find.out
	kj_say_lines "find stderr: " /tmp/find.err
	kj_match image-pattern "rc=$rc $(tail -n 1 /tmp/find.out)" \
		"^rc=0 find tag=$tag pages=$PAGES found=$PAGES dup=0 bad=0 .* result=ok\$"
	kill $cpid $mfpid
	if [ -n "$FSTYPE" ]; then
		kj_eq fs-after "$(cat /mnt/fs/hello)" "A-fs $KJ_MARKER"
		# nothing for group and others (vfat: 0700, its mount's mask)
		kj_match image-mode "$(stat -c %a $TARGET)" '^[67]00$'
		exec 6<&-
		kj_true umount "cannot unmount /mnt/fs" umount /mnt/fs
	fi
	;;
B)
	[ "$(uname -m)" = x86_64 ] && kj_say "lowram $(kj_low_ram_md5)"
	kj_handover A "image written"
	kjump-save --once </dev/null 2>/dev/console
	kj_fail kjump-save "returned with status $? instead of jumping back"
	;;
esac
