#!/bin/sh
# hib-snapshot-xfs: hib-snapshot (scenarios/hib-snapshot.guest.sh) with the
# image in a file on the xfs file system A has mounted: kexec creates it
# (mode 0600, fully allocated) and hands B its extents, as found by
# FIEMAP; B writes those blocks of the raw device only.  After the run the
# host's check of the disk (xfs: xfs_repair -n) must be clean.
#: timeout 420
#: disk 900
#: disk-fs xfs
#: fsck-after
#: append crashkernel=64M
#: debian skip kexec --snapshot is ours
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/hib-snapshot.sh
