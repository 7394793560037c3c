#!/bin/sh
# make-corpus.sh SRCDIR MAKE_SEEDS OUTDIR: the fuzzers' seed corpora,
# OUTDIR/<harness>/, a few small valid inputs each:
#   bzimage, elf, image  from MAKE_SEEDS (synthetic, built field by field)
#   iomem          the /proc/iomem fixtures
#   memmap         the same behind a 0 byte (iomem mode), and the
#                  /sys/firmware/memmap fixtures as "start\nend\ntype\n"
#                  lines behind a 1 byte (firmware mode)
#   cmdline        the /proc/cmdline fixtures behind a 0 and a 1 byte
set -eu

srcdir=$1
make_seeds=$2
out=$3
fix=$srcdir/tests/unit/fixtures

rm -rf "$out"
mkdir -p "$out/iomem" "$out/memmap" "$out/cmdline"
"$make_seeds" "$out"

for f in "$fix"/*/proc/iomem "$fix"/iomem-nonroot.txt; do
	name=$(echo "${f#"$fix"/}" | tr / -)
	cp "$f" "$out/iomem/$name"
	{ printf '\0'; cat "$f"; } >"$out/memmap/iomem-$name"
done

for d in "$fix"/*/sys/firmware/memmap; do
	name=$(echo "${d#"$fix"/}" | cut -d/ -f1)
	{
		printf '\1'
		for e in $(ls "$d" | sort -n | head -n 6); do
			cat "$d/$e/start" "$d/$e/end" "$d/$e/type"
		done
	} >"$out/memmap/firmware-$name"
done

for f in "$fix"/*/proc/cmdline; do
	name=$(echo "${f#"$fix"/}" | cut -d/ -f1)
	{ printf '\0'; cat "$f"; } >"$out/cmdline/$name"
	{ printf '\1'; cat "$f"; } >"$out/cmdline/$name-drop-crashkernel"
done
