#!/bin/sh
# disk-persist: one scenario over two QEMU boots on the same disk, as
# hibernation's resume will need.
#
# Boot 1 (kjump.boot=1): the disk is fresh (all zeros).  A writes a pattern
#    derived from the marker (PATTERN_LINES lines "kjump MARKER line N") raw
#    at 1 MiB of /dev/vda, and a label in sector 0 naming the marker, the
#    boot, the length and the md5 of the pattern; it reads both back from
#    the device (page cache dropped), then asks the host for another boot
#    (kj_reboot_host) and powers off.
# Boot 2 (kjump.boot=2, a new QEMU with the same -drive file): A regenerates
#    the pattern from the marker and finds on the disk boot 1's label and
#    exactly that pattern, and zeros after it.
#: timeout 150
#: disk 4
#: mark A.start
#: mark A.reboot 60
#: mark A.start
#: mark A.end 60
. /lib/kjump/common.sh

DISK=/dev/vda
LABEL_SECTOR=0
DATA_SECTOR=2048           # 1 MiB
PATTERN_LINES=3000

pattern() {                # the pattern, from the marker only
	i=1
	while [ $i -le $PATTERN_LINES ]; do
		echo "kjump $KJ_MARKER line $i"
		i=$((i + 1))
	done
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# read_label: sector 0's text
read_label() {
	dd if=$DISK bs=512 skip=$LABEL_SECTOR count=1 2>/dev/null | tr -d '\000' |
		head -n 1 | sed 's/ *$//'
}

# disk_md5 BYTES: the md5 of BYTES bytes at the data sector
disk_md5() {
	dd if=$DISK bs=512 skip=$DATA_SECTOR count=$((($1 + 511) / 512)) 2>/dev/null |
		head -c "$1" | md5sum | cut -d' ' -f1
}

if [ ! -b $DISK ]; then
	kj_fail disk "no $DISK"
	exit 1
fi
pattern >/tmp/pattern
bytes=$(wc -c </tmp/pattern)
md5=$(md5sum </tmp/pattern | cut -d' ' -f1)
label="kjump disk-persist marker=$KJ_MARKER written-by-boot=1 bytes=$bytes md5=$md5"
kj_say "boot $KJ_BOOT: pattern bytes=$bytes md5=$md5"

case $KJ_BOOT in
1)
	kj_eq fresh-disk "$(read_label)" ""
	dd if=/tmp/pattern of=$DISK bs=512 seek=$DATA_SECTOR conv=notrunc,fsync 2>/tmp/dd.err
	kj_eq write-pattern "rc=$?" "rc=0" || { kj_say_lines "dd: " /tmp/dd.err; exit 1; }
	printf '%-511s\n' "$label" |
		dd of=$DISK bs=512 seek=$LABEL_SECTOR count=1 conv=notrunc,fsync 2>/tmp/dd.err
	kj_eq write-label "rc=$?" "rc=0" || { kj_say_lines "dd: " /tmp/dd.err; exit 1; }
	drop_caches
	kj_eq readback-label "$(read_label)" "$label"
	kj_eq readback-pattern "$(disk_md5 "$bytes")" "$md5"
	kj_reboot_host
	;;
2)
	kj_eq label-from-boot-1 "$(read_label)" "$label"
	kj_eq pattern-from-boot-1 "$(disk_md5 "$bytes")" "$md5"
	# after the pattern, up to the next sector boundary and one more
	# sector: zeros, as on the fresh disk
	tail_bytes=$(((bytes + 511) / 512 * 512 + 512))
	kj_eq zeros-after "$(dd if=$DISK bs=512 skip=$DATA_SECTOR count=$((tail_bytes / 512)) 2>/dev/null |
		tail -c +$((bytes + 1)) | tr -d '\000' | wc -c)" 0
	;;
*)
	kj_fail boot "kjump.boot=$KJ_BOOT: this scenario has two boots"
	;;
esac
