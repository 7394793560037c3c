#!/bin/sh
# truncated-image: kexec -l of the first 100000 bytes of a bzImage fails and
# loads nothing.  Ours: exactly one line on stderr, "kexec: <what went
# wrong>".
#: timeout 120
# kexec-tools 2.0.25 does not compare the file size with the size the
# setup header declares ((setup_sects+1)*512 + syssize*16): it loads the
# first 100000 bytes of a 2 MB bzImage with exit status 0.
#: debian xfail Debian kexec-tools 2.0.25 loads a truncated bzImage
. /lib/kjump/common.sh

kj_need_kexec
head -c 100000 /boot/bzImage >/tmp/t
kj_eq truncated-size "$(wc -c </tmp/t)" 100000
if [ "$KJ_IMPL" = ours ]; then
	kj_run_fails load '^kexec: [^ ]' "$KEXEC" -l /tmp/t \
		--initrd=/boot/initrd-b.cpio --append="$(kj_b_append)"
else
	kj_run load "$KEXEC" -l /tmp/t --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)"
	kj_true load-fails "exit status $kj_rc, want non-zero" [ $kj_rc != 0 ]
fi
kj_loaded 0
