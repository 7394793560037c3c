#!/bin/sh
# Build the two initramfs images the QEMU scenarios boot.
#
#   make-initramfs.sh [-a ARCH] [-k BZIMAGE] OUTDIR
#
# ARCH is i386 (the default) or x86_64: the guests' word size.  For
# x86_64 the images hold the amd64 busybox, tools built -m64 and our
# static x86_64 kexec (and image writer), Debian's amd64 kexec-tools with
# the Xen libraries it links, no kexec_test, and in A two altered
# copies of the kernel for the refusal cases: /boot/bzImage-unsigned
# (its PE certificate table cleared) and /boot/bzImage-no64 (the
# XLF_KERNEL_64 bit cleared); with -V also /boot/vmlinux, the kernel's
# ELF file taken out of the bzImage.
#
# OUTDIR/initrd-b.cpio  busybox (static, i386) with its applet symlinks,
#                       /init, /lib/kjump/common.sh, /scenarios/NAME.sh,
#                       the guest tools (tools/*.c: memfill, vmcore-check,
#                       physmem, monotime, runas) under /usr/bin, and our kexec
#                       at /sbin/kexec when $KEXEC is set.
# OUTDIR/initrd-a.cpio  all of B, plus /boot/bzImage, /boot/initrd-b.cpio,
#                       /boot/vmlinux (the kernel's vmlinux next to BZIMAGE,
#                       stripped; left out if there is none),
#                       /boot/kexec_test when $KEXEC_TEST is set,
#                       Debian's kexec-tools at /opt/debian/sbin/kexec and
#                       the shared libraries it needs, and
#                       /boot/initrd-b-debian.cpio: B plus Debian's
#                       kexec-tools (for a B that runs it).
#
# BZIMAGE defaults to the companion kernel (kernel-companion/build-kernel.sh).
# $KJUMP_SAVE, when set, names the static image writer of ARCH (put in B
# as /usr/sbin/kjump-save).
# $KEXEC, when set, names our static i386 kexec; $KEXEC_TEST, when set,
# the kexec_test image (kexec_test/ in the build tree).  The Debian packages
# (busybox-static, kexec-tools, libc6, all :i386) are fetched once with
# `apt-get download` into $KJUMP_CACHE_DIR/debs-i386 and unpacked with
# `dpkg-deb -x`; nothing is installed.
#
# The guest tools are built with $KJUMP_GUEST_CC (default gcc) as one static
# i386 program, kjtools, with a link per tool (a static glibc is ~650 KB a
# program).
#
# The images are rebuilt only when the hash of the inputs (this script, the
# guest files, the tools, the scenarios, the .debs, the kernel and $KEXEC)
# changes.
# Files are owned by root in the archive; no root privileges are needed.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${KJUMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kexec-tools-kjump}

die() { echo "make-initramfs: $*" >&2; exit 1; }
say() { echo "make-initramfs: $*" >&2; }

bzimage=
arch=i386
with_vmlinux=0
usage="usage: $0 [-a i386|x86_64] [-k BZIMAGE] [-V] OUTDIR"
while getopts a:k:V opt; do
	case $opt in
	a) arch=$OPTARG ;;
	k) bzimage=$OPTARG ;;
	V) with_vmlinux=1 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { echo "$usage" >&2; exit 2; }
out=$1
# debarch: Debian's name; wordflag: gcc's; elfid: ELF class (byte 4) and
# e_machine (bytes 18-19) as od prints them
case $arch in
i386) debarch=i386 wordflag=-m32 elfclass=01 elfmachine=0300
	pkgs="busybox-static kexec-tools libc6" ;;
x86_64) debarch=amd64 wordflag=-m64 elfclass=02 elfmachine=3e00
	# kexec-tools links libxenctrl (libxenmisc4.17) and its libraries
	pkgs="busybox-static kexec-tools libc6 libxenmisc4.17 libxentoollog1
		libxencall1 libxenevtchn1 libxengnttab1 libxenforeignmemory1
		libxendevicemodel1 libxentoolcore1"
	[ -n "$bzimage" ] || die "-a x86_64 needs -k BZIMAGE (tests/qemu/debian-kernel.sh)"
	KEXEC_TEST= ;;
*) die "-a $arch: not i386 or x86_64" ;;
esac
debdir=$cache/debs-$debarch

if [ -z "$bzimage" ]; then
	kdir=$("$top/kernel-companion/build-kernel.sh" -q | tail -n 1) ||
		die "kernel build failed"
	bzimage=$kdir/bzImage
fi
[ -r "$bzimage" ] || die "$bzimage: no such kernel image"
bzimage=$(realpath "$bzimage")
# The same kernel as an ELF file, for the ELF loader (elf-vmlinux): the
# companion kernel's build leaves one next to its bzImage; Debian's
# packaged kernel has none, so -V (x86_64 only: the file is 60 MiB of the
# image, for the one scenario that loads it) decompresses its payload.
vmlinux=$(dirname "$bzimage")/vmlinux
[ -r "$vmlinux" ] || vmlinux=
[ "$arch" = i386 ] || vmlinux=
[ $with_vmlinux = 0 ] || [ "$arch" = x86_64 ] || die "-V: for -a x86_64 only"

kexec_ours=${KEXEC:-}
if [ -n "$kexec_ours" ]; then
	[ -f "$kexec_ours" ] || die "KEXEC=$kexec_ours: no such file"
	# ELF magic, class and e_machine: catch a build for the other arch early.
	hdr=$(od -An -tx1 -N20 "$kexec_ours" | tr -d ' \n')
	case $hdr in
	7f454c46$elfclass*) ;;
	*) die "KEXEC=$kexec_ours: not a $arch ELF file (class)" ;;
	esac
	[ "$(echo "$hdr" | cut -c37-40)" = $elfmachine ] ||
		die "KEXEC=$kexec_ours: not an $arch executable (e_machine)"
	kexec_ours=$(realpath "$kexec_ours")
fi

# The image writer for a B that saves A (hibernation scenarios).
kjump_save=${KJUMP_SAVE:-}
if [ -n "$kjump_save" ]; then
	[ -f "$kjump_save" ] || die "KJUMP_SAVE=$kjump_save: no such file"
	hdr=$(od -An -tx1 -N20 "$kjump_save" | tr -d ' \n')
	case $hdr in
	7f454c46$elfclass*) ;;
	*) die "KJUMP_SAVE=$kjump_save: not a $arch ELF file (class)" ;;
	esac
	[ "$(echo "$hdr" | cut -c37-40)" = $elfmachine ] ||
		die "KJUMP_SAVE=$kjump_save: not an $arch executable (e_machine)"
	kjump_save=$(realpath "$kjump_save")
fi

kexec_test=${KEXEC_TEST:-}
if [ -n "$kexec_test" ]; then
	[ -f "$kexec_test" ] || die "KEXEC_TEST=$kexec_test: no such file"
	case $(od -An -tx1 -N20 "$kexec_test" | tr -d ' \n') in
	7f454c4601??????????????????????????0300) ;;
	*) die "KEXEC_TEST=$kexec_test: not an ELF32 i386 image" ;;
	esac
	kexec_test=$(realpath "$kexec_test")
fi

# newest cached .deb of package $1, or nothing
deb_of() {
	ls "$debdir/$1"_*_"$debarch".deb 2>/dev/null | sort -V | tail -n 1
}

fetch_debs() {
	mkdir -p "$debdir"
	for p in $pkgs; do
		[ -n "$(deb_of "$p")" ] && continue
		say "downloading $p:$debarch"
		(cd "$debdir" && apt-get download -q "$p:$debarch") >"$debdir/download.log" 2>&1 || {
			cat "$debdir/download.log" >&2
			die "apt-get download $p:$debarch failed (is the $debarch architecture enabled? dpkg --add-architecture $debarch && apt-get update)"
		}
		[ -n "$(deb_of "$p")" ] || die "apt-get download $p:$debarch left no .deb in $debdir"
	done
}

# Write one newc header plus name (padded to 4 bytes) for an entry with no
# data: $1 name, $2 mode (decimal), $3 rdev major, $4 rdev minor, $5 ino.
newc_entry() {
	namesize=$((${#1} + 1))
	printf '070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X' \
		"$5" "$2" 0 0 1 0 0 0 0 "$3" "$4" "$namesize" 0
	printf '%s\000' "$1"
	pad=$(((4 - (110 + namesize) % 4) % 4))
	while [ $pad -gt 0 ]; do printf '\000'; pad=$((pad - 1)); done
}

# A tiny newc archive holding /dev and /dev/console (char 5:1), written by
# hand so that building the images needs no mknod (and so no root).  The
# kernel opens /dev/console for init before /init can mount devtmpfs.
devnodes_cpio() {
	newc_entry dev $((0040755)) 0 0 1
	newc_entry dev/console $((0020600)) 5 1 2
	newc_entry 'TRAILER!!!' 0 0 0 0
}

# The marker kexec -p looks for (lib/hib/helper-mark.h): an uncompressed
# newc archive appended to a B initramfs, holding etc/kjump-hibernate-helper.
helper_marker_cpio() {
	newc_entry etc $((0040755)) 0 0 3
	newc_entry etc/kjump-hibernate-helper $((0100644)) 0 0 4
	newc_entry 'TRAILER!!!' 0 0 0 0
}

# with_helper_marker IN OUT: IN padded to 4 bytes (the kernel looks for
# the next archive's header on a 4-byte boundary), then the marker.
with_helper_marker() {
	cp "$1" "$2"
	pad=$(((4 - $(wc -c <"$1") % 4) % 4))
	while [ $pad -gt 0 ]; do printf '\000' >>"$2"; pad=$((pad - 1)); done
	helper_marker_cpio >>"$2"
}

# Pack directory $1 into the newc archive $2, uncompressed: under TCG a
# kernel inflates a gzip'd initramfs slowly (about 1.5 s of every boot of
# A or B), an uncompressed one it unpacks in a third of that.
pack() {
	{
		(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
			cpio -o -H newc -R 0:0 --quiet)
		devnodes_cpio     # second archive: `cpio -t` lists only the first
	} >"$2"
}

guest_cc=${KJUMP_GUEST_CC:-gcc}
guest_cflags="$wordflag -Os -std=c11 -Wall -Wextra -Werror"
tools="memfill vmcore-check physmem monotime runas dropcap"
# The part of libkjump the tools use (vmcore-check reads the core with it).
lib_srcs="lib/vmcore.c lib/elf-read.c lib/ctx.c lib/file-io.c lib/hib/image-read.c lib/hib/compress.c lib/hib/crc32c.c lib/hib/request.c"

# Build tools/*.c into the static multi-call binary $1.
build_tools() {
	tb=$stage/tools-obj
	mkdir -p "$tb"
	for t in $tools; do
		$guest_cc $guest_cflags -Dmain="$(echo "$t" | tr - _)_main" \
			-I"$top/include" -I"$top/lib" -c -o "$tb/$t.o" "$here/tools/$t.c" ||
			die "cannot compile tools/$t.c for $arch (gcc-multilib installed?)"
	done
	$guest_cc $guest_cflags -c -o "$tb/kjtools.o" "$here/tools/kjtools.c" ||
		die "cannot compile tools/kjtools.c"
	for f in $lib_srcs; do
		$guest_cc $guest_cflags -D_GNU_SOURCE -I"$top/include" \
			-I"$top/lib" -I"$top/lib/hib" -c -o "$tb/lib-$(basename "$f" .c).o" \
			"$top/$f" || die "cannot compile $f for the guest tools"
	done
	$guest_cc $wordflag -static -s -o "$1" "$tb"/*.o -llz4 -lzstd -pthread ||
		die "cannot link the static $arch guest tools"
	rm -rf "$tb"
}

fetch_debs

inputs_hash=$( {
	cd "$here"
	echo "== cc $guest_cc $arch vmlinux=$with_vmlinux"
	for f in make-initramfs.sh guest/* tools/*.[ch] scenarios/*.guest.sh \
	    ../../hibernate/kjump-mkinitramfs ../../hibernate/kjump-resume; do
		echo "== $f"
		cat "$f"
	done
	for f in $lib_srcs include/kjump/kjump.h include/kjump/kjump-hib.h \
	    $(cd "$top" && echo include/kjump/hib/*.h) lib/ctx.h lib/elf-read.h; do
		echo "== $f"
		cat "$top/$f"
	done
	for p in $pkgs; do
		echo "== deb $(basename "$(deb_of "$p")")"
		cat "$(deb_of "$p")"
	done
	echo "== bzImage"
	cat "$bzimage"
	if [ -n "$vmlinux" ]; then
		echo "== vmlinux"
		cat "$vmlinux"
	else
		echo "== no vmlinux"
	fi
	if [ -n "$kexec_ours" ]; then
		echo "== kexec"
		cat "$kexec_ours"
	else
		echo "== no kexec"
	fi
	if [ -n "$kexec_test" ]; then
		echo "== kexec_test"
		cat "$kexec_test"
	else
		echo "== no kexec_test"
	fi
	if [ -n "$kjump_save" ]; then
		echo "== kjump-save"
		cat "$kjump_save"
	else
		echo "== no kjump-save"
	fi
} | sha256sum | cut -d' ' -f1)

mkdir -p "$out"
exec 9>"$out/.lock"
flock 9
if [ -f "$out/inputs.sha256" ] && [ -f "$out/initrd-a.cpio" ] &&
	[ -f "$out/initrd-b.cpio" ] &&
	[ "$(cat "$out/inputs.sha256")" = "$inputs_hash" ]; then
	exit 0
fi

say "building images in $out"
stage=$(mktemp -d "$out/.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
ex=$stage/extract
mkdir -p "$ex"
for p in $pkgs; do
	dpkg-deb -x "$(deb_of "$p")" "$ex"
done

# --- B: busybox, init, scenarios (and our kexec) ---
b=$stage/b
mkdir -p "$b/bin" "$b/sbin" "$b/usr/bin" "$b/usr/sbin" "$b/proc" "$b/sys" \
	"$b/dev" "$b/run" "$b/tmp" "$b/root" "$b/etc" "$b/lib/kjump" "$b/scenarios"
cp "$ex/bin/busybox" "$b/bin/busybox"
# Applet symlinks.  Listing the applets runs the i386 busybox on the host;
# if the host cannot run it, /init falls back to `busybox --install -s`.
if applets=$("$b/bin/busybox" --list-full 2>/dev/null) && [ -n "$applets" ]; then
	for a in $applets; do
		case $a in
		*/*) ;;
		*) continue ;;       # linuxrc
		esac
		[ -e "$b/$a" ] || [ -L "$b/$a" ] && continue
		d=$(dirname "$a")
		case $d in
		bin) ln -s busybox "$b/$a" ;;
		*) ln -s /bin/busybox "$b/$a" ;;
		esac
	done
else
	say "cannot run the i386 busybox here; /init will install the applets"
	ln -s busybox "$b/bin/sh"
fi
install -m 0755 "$here/guest/init" "$b/init"
install -m 0644 "$here/guest/common.sh" "$b/lib/kjump/common.sh"
for f in "$here"/scenarios/*.guest.sh; do
	n=$(basename "$f" .guest.sh)
	install -m 0755 "$f" "$b/scenarios/$n.sh"
done
build_tools "$b/usr/bin/kjtools"
for t in $tools; do
	ln -s kjtools "$b/usr/bin/$t"
done
if [ -n "$kexec_ours" ]; then
	install -m 0755 "$kexec_ours" "$b/sbin/kexec"
fi
if [ -n "$kjump_save" ]; then
	install -m 0755 "$kjump_save" "$b/usr/sbin/kjump-save"
fi
install -m 0755 "$top/hibernate/kjump-resume" "$b/usr/sbin/kjump-resume"
echo "root:x:0:0:root:/root:/bin/sh" >"$b/etc/passwd"
echo "root:x:0:" >"$b/etc/group"

# elf_needed FILE: its DT_NEEDED libraries; elf_interp FILE: its
# program interpreter (both empty for a static file)
elf_needed() {
	readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}
elf_interp() {
	readelf -l "$1" 2>/dev/null |
		sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p'
}

# add_libs DIR FILE: every shared library FILE needs, found in the
# unpacked packages ($ex), copied to the same path in DIR, and its
# interpreter; recursively
add_libs() {
	_interp=$(elf_interp "$2")
	if [ -n "$_interp" ] && [ ! -e "$1$_interp" ]; then
		[ -e "$ex$_interp" ] || die "$2: interpreter $_interp is in none of: $pkgs"
		mkdir -p "$1$(dirname "$_interp")"
		cp -L "$ex$_interp" "$1$_interp"
	fi
	for _n in $(elf_needed "$2"); do
		_p=$(cd "$ex" && ls lib/*-linux-gnu/"$_n" usr/lib/*-linux-gnu/"$_n" \
			2>/dev/null | head -n 1)
		[ -n "$_p" ] || die "$2 needs $_n, in none of: $pkgs"
		[ -e "$1/$_p" ] && continue
		mkdir -p "$1/$(dirname "$_p")"
		cp -L "$ex/$_p" "$1/$_p"
		add_libs "$1" "$ex/$_p"
	done
}

# add_debian_kexec DIR: Debian's kexec-tools and the libraries it needs
add_debian_kexec() {
	mkdir -p "$1/opt/debian/sbin"
	install -m 0755 "$ex/sbin/kexec" "$1/opt/debian/sbin/kexec"
	add_libs "$1" "$ex/sbin/kexec"
}

# vmlinux_of BZIMAGE OUT: the ELF kernel inside an xz-compressed bzImage
# (the payload's xz stream; xz complains about the bytes after it)
vmlinux_of() {
	_off=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$1" | head -n 1 | cut -d: -f1)
	[ -n "$_off" ] || die "$1: no xz payload to take a vmlinux from"
	tail -c +$((_off + 1)) "$1" | xz -dc >"$2" 2>/dev/null || :
	[ "$(od -An -tx1 -N5 "$2" | tr -d ' ')" = 7f454c4602 ] ||
		die "$1: the xz payload is no ELF64 vmlinux"
}

# le_patch FILE OFFSET BYTES...: overwrite bytes (two hex digits each)
le_patch() {
	_f=$1 _off=$2
	shift 2
	printf "$(printf '\\%03o' $(for x in "$@"; do echo $((0x$x)); done))" |
		dd of="$_f" bs=1 seek="$_off" conv=notrunc status=none
}

# u32 FILE OFFSET: a little-endian 32-bit value of FILE
u32() {
	od -An -tu4 -j"$2" -N4 "$1" | tr -d ' '
}

# The x86_64 refusal cases' kernels (see the top): a PE32+ certificate
# table is data directory 4, at e_lfanew + 24 + 112 + 4 * 8.  A kernel
# without an EFI stub (the companion kernel) has no PE header, and no
# unsigned twin: only Debian's signed kernel needs one.
altered_kernels() {
	cp "$bzimage" "$1/boot/bzImage-no64"
	xlf=$(od -An -tu1 -j$((0x236)) -N1 "$bzimage" | tr -d ' ')
	le_patch "$1/boot/bzImage-no64" $((0x236)) "$(printf '%02x' $((xlf & ~1)))"
	if [ "$(od -An -tx1 -N2 "$bzimage" | tr -d ' ')" != 4d5a ]; then
		say "$bzimage: no EFI stub: /boot/bzImage-unsigned left out"
		return
	fi
	cp "$bzimage" "$1/boot/bzImage-unsigned"
	pe=$(u32 "$bzimage" 60)
	[ "$(od -An -tx1 -j$((pe + 24)) -N2 "$bzimage" | tr -d ' ')" = 0b02 ] ||
		die "$bzimage: no PE32+ header at $pe"
	le_patch "$1/boot/bzImage-unsigned" $((pe + 24 + 112 + 32)) 00 00 00 00 00 00 00 00
}

# --- B with Debian's kexec too, for a B that runs it (jump-debian-baseline) ---
bd=$stage/bd
cp -a "$b" "$bd"
add_debian_kexec "$bd"
pack "$bd" "$stage/initrd-b-debian.cpio"
rm -rf "$bd"

# --- A: B plus the kernel, B's initramfs and Debian's kexec-tools ---
a=$stage/a
cp -a "$b" "$a"
mkdir -p "$a/boot"
pack "$b" "$stage/initrd-b.cpio"
cp "$bzimage" "$a/boot/bzImage"
if [ -n "$vmlinux" ]; then
	# Symbols and debug sections are a third of it; loading needs none.
	${STRIP:-strip} -o "$a/boot/vmlinux" "$vmlinux" ||
		die "cannot strip $vmlinux"
elif [ "$arch" = i386 ]; then
	say "no vmlinux next to $bzimage: /boot/vmlinux left out"
fi
cp "$stage/initrd-b.cpio" "$a/boot/initrd-b.cpio"
# B with the image writer's marker, for the hibernation scenarios
with_helper_marker "$stage/initrd-b.cpio" "$a/boot/initrd-b-hib.cpio"
# and the writer's own initramfs, as a user builds it (its /init, not the
# scenarios'), from the guest's busybox and this tree's programs
if [ -n "$kexec_ours" ] && [ -n "$kjump_save" ]; then
	sh "$top/hibernate/kjump-mkinitramfs" -o "$a/boot/kjump-b.img" \
		-b "$ex/bin/busybox" -x "$kexec_ours" -s "$kjump_save" >&2 ||
		die "kjump-mkinitramfs failed"
fi
if [ -n "$kexec_test" ]; then
	cp "$kexec_test" "$a/boot/kexec_test"
fi
cp "$stage/initrd-b-debian.cpio" "$a/boot/initrd-b-debian.cpio"
add_debian_kexec "$a"
[ "$arch" = i386 ] || altered_kernels "$a"
[ $with_vmlinux = 0 ] || vmlinux_of "$bzimage" "$a/boot/vmlinux"
pack "$a" "$stage/initrd-a.cpio"

mv -f "$stage/initrd-b.cpio" "$out/initrd-b.cpio"
mv -f "$stage/initrd-a.cpio" "$out/initrd-a.cpio"
echo "$inputs_hash" >"$out/inputs.sha256"
say "A $(wc -c <"$out/initrd-a.cpio") bytes, B $(wc -c <"$out/initrd-b.cpio") bytes"
