#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the purgatory blob and embed it as C.
#
#   purgatory/build.sh SRCDIR OUTDIR
#
# SRCDIR is the top of the source tree (only read); OUTDIR receives
#   purgatory-blob.c         const unsigned char purgatory_blob[] + size
#   purgatory-obj/           objects, ELF images, link map, purgatory.bin
#
# Environment: CC (default gcc), LD (ld), OBJCOPY (objcopy),
# PURGATORY_CFLAGS (appended to the compiler flags).  The host's CFLAGS
# are deliberately ignored: purgatory is freestanding i386 code, whatever
# the tool is built for.
#
# The blob must run wherever it is loaded without being relocated, so it
# is linked at several bases and the flat images are compared: any byte
# that depends on the link address fails the build.

set -eu

me=purgatory/build.sh

die() {
	echo "$me: error: $*" >&2
	exit 1
}

[ $# -eq 2 ] || die "usage: $me SRCDIR OUTDIR"
src=$1
out=$2
[ -f "$src/purgatory/arch/i386/entry.S" ] || die "$src does not look like the source tree"

CC=${CC:-gcc}
LD=${LD:-ld}
OBJCOPY=${OBJCOPY:-objcopy}

# Bases for the position-independence proof: page aligned (kexec segments
# are), one of them with many address bits set.
BASES="0x0 0x100000 0x7feed000"
# Keep purgatory small: it is copied and hashed on every load.
MAX_MEMSZ=16384

obj=$out/purgatory-obj
rm -rf "$obj"
mkdir -p "$obj"

# -fPIE + hidden visibility: data is reached @GOTOFF (pc-relative), calls
# are direct; -fcf-protection=none because endbr32 does not exist before
# the P6; no SSE/x87 state is ours to touch; -mpreferred-stack-boundary=2
# because entry.S only keeps the stack 4-byte aligned between frames.
CFLAGS_P="-m32 -march=i386 -Os -std=c11 -g0
	-ffreestanding -fno-builtin -fno-common
	-fPIE -fvisibility=hidden
	-fno-stack-protector -fcf-protection=none
	-fno-asynchronous-unwind-tables -fno-unwind-tables
	-fno-tree-loop-distribute-patterns -fno-delete-null-pointer-checks
	-mno-sse -mno-mmx -mno-80387 -mpreferred-stack-boundary=2
	-U_FORTIFY_SOURCE
	-Wall -Wextra -Werror
	${PURGATORY_CFLAGS:-}"

SOURCES="purgatory/arch/i386/entry.S purgatory/purgatory.c purgatory/verify.c
	purgatory/cmdline.c purgatory/console.c purgatory/serial.c
	purgatory/string.c util/sha256.c"

set --
for f in $SOURCES; do
	o=$obj/$(basename "$f" | sed 's/\.[cS]$//').o
	# shellcheck disable=SC2086 # CC and CFLAGS_P are word lists
	$CC $CFLAGS_P -I "$src/include" -I "$src/purgatory" \
		-I "$src/purgatory/arch/i386" \
		-c "$src/$f" -o "$o" || die "compiling $f failed"
	set -- "$@" "$o"
done

# ld >= 2.39 warns about the single RWX segment, which is what we want.
ldflags="-m elf_i386 -static -nostdlib --build-id=none --orphan-handling=error"
if $LD --help 2>/dev/null | grep -q -e '--no-warn-rwx-segments'; then
	ldflags="$ldflags --no-warn-rwx-segments"
fi

link_at() {
	base=$1
	shift
	# shellcheck disable=SC2086
	$LD $ldflags -T "$src/purgatory/arch/i386/purgatory.lds" \
		--defsym=PURGATORY_BASE="$base" \
		-Map "$obj/purgatory-$base.map" \
		-o "$obj/purgatory-$base.elf" "$@" ||
		die "linking at $base failed"
	$OBJCOPY -O binary "$obj/purgatory-$base.elf" "$obj/purgatory-$base.bin" ||
		die "objcopy at $base failed"
}

ref=
for base in $BASES; do
	link_at "$base" "$@"
	if [ -z "$ref" ]; then
		ref=$base
		continue
	fi
	if ! cmp -s "$obj/purgatory-$ref.bin" "$obj/purgatory-$base.bin"; then
		echo "$me: error: purgatory is not position independent:" >&2
		echo "$me: images linked at $ref and $base differ" \
			"(offset, octal bytes):" >&2
		cmp -l "$obj/purgatory-$ref.bin" "$obj/purgatory-$base.bin" |
			head -n 10 >&2 || true
		exit 1
	fi
done

bin=$obj/purgatory.bin
cp "$obj/purgatory-$ref.bin" "$bin"

# Little-endian u32 at a byte offset, read without assuming the build
# host's byte order.
le32() {
	od -An -v -tu1 -j "$2" -N 4 "$1" |
		awk '{ printf "%.0f\n", $1 + 256 * ($2 + 256 * ($3 + 256 * $4)) }'
}

size=$(wc -c < "$bin")
size=$((size + 0))
first=$(od -An -tu1 -N 1 "$bin" | tr -d ' ')
magic=$(le32 "$bin" 16)
version=$(le32 "$bin" 20)
params_offset=$(le32 "$bin" 24)
memsz=$(le32 "$bin" 28)
stack_top=$(le32 "$bin" 32)
pp_size=$(sed -n 's/^#define[[:space:]]*PP_SIZE[[:space:]]*\([0-9][0-9]*\).*/\1/p' \
	"$src/purgatory/arch/i386/asm-offsets.h")
[ -n "$pp_size" ] || die "PP_SIZE not found in purgatory/arch/i386/asm-offsets.h"

[ "$first" = 235 ] || die "byte 0 is not a short jmp (0xeb) but $first"
[ "$magic" = 1263161415 ] || die "bad header magic $magic"
[ "$version" = 1 ] || die "bad header version $version"
[ "$memsz" -ge "$size" ] || die "header memsz $memsz < file size $size"
[ "$memsz" -le "$MAX_MEMSZ" ] || die "memsz $memsz > $MAX_MEMSZ bytes"
[ $((params_offset + pp_size)) -le "$size" ] ||
	die "params at $params_offset (+$pp_size) not inside the file ($size)"
[ "$stack_top" -gt "$size" ] && [ "$stack_top" -le "$memsz" ] ||
	die "stack top $stack_top not in the bss part ($size..$memsz)"

# Embed as C.  od + awk only (no xxd), byte for byte deterministic.
tmp=$out/purgatory-blob.c.tmp
{
	echo '/* SPDX-License-Identifier: GPL-2.0-only */'
	echo '/* Generated by purgatory/build.sh from purgatory.bin: do not edit. */'
	echo '#include "purgatory-blob.h"'
	echo
	echo 'const unsigned char purgatory_blob[] = {'
	od -An -v -tx1 "$bin" |
		awk '{ s = "\t"; for (i = 1; i <= NF; i++) s = s "0x" $i ","; print s }'
	echo '};'
	echo
	echo 'const unsigned int purgatory_blob_size = sizeof(purgatory_blob);'
} > "$tmp" || die "writing $tmp failed"
mv -f "$tmp" "$out/purgatory-blob.c"

echo "$me: purgatory.bin $size bytes, memsz $memsz, params at $params_offset," \
	"stack top at $stack_top; identical at bases $BASES"
