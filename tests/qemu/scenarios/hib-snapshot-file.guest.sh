#!/bin/sh
# hib-snapshot-file: hib-snapshot (scenarios/hib-snapshot.guest.sh) with the
# image in a file on the ext4 file system A has mounted: kexec creates it
# (mode 0600, fully allocated) and hands B its extents; B writes those
# blocks of the raw device only.  After the run the host's e2fsck -fn of
# the disk must be clean.
#: timeout 420
#: disk 700
#: disk-fs ext4
#: fsck-after
#: append crashkernel=64M
#: debian skip kexec --snapshot is ours
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/hib-snapshot.sh
