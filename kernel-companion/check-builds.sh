#!/bin/bash
# The series' build matrix, as a kernel test robot would run it: for every
# configuration variant, compile the objects the series touches, with W=1
# (and sparse with -s), in Debian's linux-source-VERSION with the whole series
# and without it, and report what the series adds: a build that fails,
# warnings that are new.  Then, for the two architectures' test configs,
# the same after each patch in turn ("each patch builds").
#
#   check-builds.sh [-k VERSION] [-s] [-v VARIANT]... [-p]
#
#   -k   the kernel version: 6.1 (default, or $KJUMP_LINUX) or 6.12, with
#        its series in kernel-companion/VERSION/
#   -s   also run sparse (make C=1; needs the sparse package)
#   -v   only this variant (repeatable; default all, see VARIANTS below)
#   -p   also the per-patch pass (slow: every patch, two architectures)
#   -c   only checkpatch (below), no builds
#
# First, every patch of the series through the tree's own
# scripts/checkpatch.pl --strict: a table row per patch with a finding
# (errors, warnings, checks), and the exit status 1 on any.
#
# Objects only: a link error (a symbol a variant's config leaves out) is not
# seen; build-kernel.sh links the test configs.  Trees and objects go under
# $KJUMP_CACHE_DIR/check-builds (outside git).  Prints a markdown table;
# exit status 1 when a variant does not build or has new warnings.
# KJUMP_COMPANION_DIR: where configs/ and VERSION/ are (default:
# this script's directory; for running a copy of the script).
set -u

here=${KJUMP_COMPANION_DIR:-$(cd "$(dirname "$0")" && pwd)}
version=${KJUMP_LINUX:-6.1}
cache=${KJUMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kexec-tools-kjump}/check-builds
jobs=${KJUMP_JOBS:-$(nproc)}
configs=$here/configs

# name | arch | fragments on top of tinyconfig + common.config | symbols
# (fragments "@debian-686": Debian's own 686 config instead, from the
# linux-image-686 package, fetched once with apt-get download)
VARIANTS="
i386|i386|base|
i386-no-kexec-jump|i386|base|CONFIG_KEXEC_JUMP=n
i386-no-kexec-jump-crash|i386|base|CONFIG_KEXEC_JUMP_CRASH=n
i386-no-hibernation|i386|base|CONFIG_HIBERNATION=n
i386-no-crash-dump|i386|base|CONFIG_CRASH_DUMP=n
i386-no-proc-vmcore|i386|base|CONFIG_PROC_VMCORE=n
i386-up|i386|base|CONFIG_SMP=n
i386-pae|i386|base pae|
x86_64|x86_64|x86_64|
x86_64-no-crash-dump|x86_64|x86_64|CONFIG_CRASH_DUMP=n
x86_64-no-kexec-jump-crash|x86_64|x86_64|CONFIG_KEXEC_JUMP_CRASH=n
debian-686|i386|@debian-686|CONFIG_KEXEC_JUMP=y CONFIG_KEXEC_JUMP_CRASH=y
"

die() { echo "check-builds: $*" >&2; exit 2; }

sparse=0 per_patch=0 only= checkpatch_only=0
while getopts ck:spv: opt; do
	case $opt in
	c) checkpatch_only=1 ;;
	k) version=$OPTARG ;;
	s) sparse=1 ;;
	p) per_patch=1 ;;
	v) only="$only $OPTARG" ;;
	*) echo "usage: $0 [-k VERSION] [-c] [-s] [-v VARIANT]... [-p]" >&2; exit 2 ;;
	esac
done
tarball=${KJUMP_LINUX_TARBALL:-/usr/src/linux-source-$version.tar.xz}
companion=$here/$version
[ "$version" = 6.1 ] || cache=$cache-$version
[ -r "$companion/series" ] || die "linux $version: no series for it ($companion/series)"
[ -r "$tarball" ] || die "$tarball: not found (install linux-source-$version)"
[ $sparse = 0 ] || command -v sparse >/dev/null || die "sparse: not installed (apt-get install sparse)"

patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$companion/series" | grep -v '^$'
}

# The .c and .S files the series touches.
touched() {
	local p
	for p in $(patches); do
		sed -n 's|^+++ b/\(.*\.[cS]\)$|\1|p' "$companion/patches/$p"
	done | sort -u
}

# The first $1 patches of the series, names and contents, as one hash.
series_hash() {
	local n=$1 p i=0
	for p in $(patches); do
		i=$((i + 1))
		[ $i -le "$n" ] || break
		echo "$p"
		cat "$companion/patches/$p"
	done | sha256sum | cut -c1-16
}

# tree DIR N: DIR holds the tarball with the first N patches applied.  A
# tree is reused only while the patches it has are still the series' own
# (.applied: the count and series_hash of them); a tree with fewer gets
# the rest, any other is unpacked again, so a changed or reordered series
# never builds on stale patches.
tree() {
	local dir=$1 n=$2 p i=0 have=-1 hash=
	[ -f "$dir/.applied" ] && read -r have hash <"$dir/.applied"
	[ "$have" -ge 0 ] 2>/dev/null && [ "$hash" = "$(series_hash "$have")" ] ||
		have=-1
	if [ "$have" -lt 0 ] || [ "$have" -gt "$n" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf "$tarball" -C "$dir" --strip-components=1 || return 1
		have=0
	fi
	for p in $(patches); do
		i=$((i + 1))
		[ $i -gt "$have" ] || continue
		[ $i -le "$n" ] || break
		patch -d "$dir" -p1 --quiet --forward <"$companion/patches/$p" ||
			{ echo "check-builds: $p does not apply" >&2; return 1; }
		echo "$i $(series_hash "$i")" >"$dir/.applied"
	done
	echo "$n $(series_hash "$n")" >"$dir/.applied"
}

# kconfig_patch PATCH: whether PATCH changes a Kconfig file.
kconfig_patch() {
	grep -q '^+++ b/\(.*/\)\?Kconfig[^/]*$' "$companion/patches/$1"
}

# Debian's 686 kernel config, from the package linux-image-686 depends on.
debian_686_config() {
	local dir=$cache/debian-686 pkg deb
	ls "$dir"/config-* >/dev/null 2>&1 && { ls "$dir"/config-* | head -n 1; return 0; }
	mkdir -p "$dir"
	pkg=$(apt-cache depends linux-image-686:i386 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[^ ]*-686\).*/\1/p' | head -n 1)
	[ -n "$pkg" ] || { echo "check-builds: no linux-image-686 in apt's lists" >&2; return 1; }
	(cd "$dir" && apt-get download "$pkg:i386" >/dev/null 2>&1) ||
		{ echo "check-builds: apt-get download $pkg failed" >&2; return 1; }
	deb=$(ls "$dir"/*.deb | head -n 1)
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$dir" --wildcards './boot/config-*' &&
		mv "$dir"/boot/config-* "$dir"/ && rm -rf "$dir/boot" "$deb" || return 1
	ls "$dir"/config-* | head -n 1
}

# configure SRC OUT ARCH FRAGMENTS SYMBOLS
configure() {
	local src=$1 out=$2 arch=$3 frags=$4 syms=$5 f list=
	mkdir -p "$out"
	# the starting .config: Debian's, or tinyconfig and our fragments
	if [ "$frags" = @debian-686 ]; then
		f=$(debian_686_config) && cp "$f" "$out/.config" || return 1
	else
		list=$configs/common.config
		[ "$arch" = i386 ] && [ "${frags%% *}" != base ] && list="$list $configs/base.config"
		for f in $frags; do list="$list $configs/$f.config"; done
		# build-kernel.sh's "# linux-VERSION:" lines, resolved
		for f in $list; do
			sed "s/^# linux-$version: //" "$f" >"$out/frag-${f##*/}"
		done
		list=$(for f in $list; do printf '%s ' "$out/frag-${f##*/}"; done)
		make -C "$src" -s O="$out" ARCH="$arch" tinyconfig >/dev/null 2>&1 || return 1
	fi
	printf '%s\n' $syms >"$out/variant.config"
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" .config \
		$list "$out/variant.config" >/dev/null 2>&1) &&
		make -C "$src" -s O="$out" ARCH="$arch" olddefconfig >/dev/null 2>&1
}

# objects SRC ARCH: the touched objects that exist in SRC for ARCH
objects() {
	local f
	for f in $(touched); do
		case $f in
		arch/x86/kernel/*_32.[cS]) [ "$2" = i386 ] || continue ;;
		arch/x86/kernel/*_64.[cS]) [ "$2" = x86_64 ] || continue ;;
		esac
		[ -f "$1/$f" ] && echo "${f%.*}.o"
	done
}

# enabled SRC OUT OBJ: whether OUT's .config builds OBJ, from the line of
# its directory's Makefile that names it (obj-y, or obj-$(CONFIG_X) with X
# set; x86's _32/_64 objects are named _$(BITS) there).  Kbuild compiles a
# single object named on the command line whatever the config says.
enabled() {
	local src=$1 out=$2 o=$3 base var sym
	base=$(basename "$o" .o | sed -E 's/_(32|64)$/_$(BITS)/')
	var=$(sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba' -e '}' "$src/$(dirname "$o")/Makefile" |
		awk -v b="$base.o" '{ for (i = 3; i <= NF; i++) if ($i == b) { print $1; exit } }')
	case $var in
	obj-y) return 0 ;;
	'obj-$(CONFIG_'*')')
		sym=${var#obj-\$(}
		grep -qx "${sym%)}=y" "$out/.config" ;;
	*) return 0 ;;
	esac
}

# build SRC OUT ARCH LOG: compile the touched objects that OUT's config
# builds, all in one make (-k: one that fails does not hide the others'
# warnings); 0 if all built.
build() {
	local src=$1 out=$2 arch=$3 log=$4 o c= objs=
	[ $sparse = 1 ] && c="C=1"
	: >"$log"
	make -C "$src" -s O="$out" ARCH="$arch" -j"$jobs" prepare >>"$log" 2>&1 || return 1
	for o in $(objects "$src" "$arch"); do
		enabled "$src" "$out" "$o" || continue
		rm -f "$out/$o"
		objs="$objs $o"
	done
	[ -n "$objs" ] || return 0
	# shellcheck disable=SC2086 # the object list and C=1 split on purpose
	make -C "$src" -s -k O="$out" ARCH="$arch" W=1 $c -j"$jobs" $objs >>"$log" 2>&1
}

# The warnings of LOG without line numbers, to compare two builds.
warnings() {
	grep -E 'warning:|error:' "$1" |
		sed -E "s|$cache/src-[a-z]+/||g; s/:[0-9]+:[0-9]+:/:/; s/:[0-9]+:/:/" | sort -u
}

mkdir -p "$cache" || exit 2
tree "$cache/src-base" 0 || die "cannot unpack the source"

bad=0
# checkpatch.pl --strict of every patch, with the unpatched tree's own
# script, from that tree: one row per patch it finds anything in, and a
# total.  Two kinds are left out because they need a git tree, and the
# tree is a tarball: the commit ids of Fixes: cannot be looked up
# (UNKNOWN_COMMIT_ID), and CamelCase is judged against the identifiers
# git knows, so an upstream label the series uses (Resume_devices) would
# count as new (CAMELCASE).
checkpatch() {
	local p out total=0 found=0
	echo "| patch | checkpatch --strict |"
	echo "|---|---|"
	for p in $(patches); do
		total=$((total + 1))
		out=$(cd "$cache/src-base" &&
			perl scripts/checkpatch.pl --strict -q --no-summary \
				--root="$cache/src-base" \
				--ignore UNKNOWN_COMMIT_ID,CAMELCASE \
				"$companion/patches/$p" 2>&1)
		[ -n "$out" ] || continue
		found=$((found + 1))
		echo "| ${p%%-*} | $(printf '%s\n' "$out" | grep -cE '^(ERROR|WARNING|CHECK):') findings |"
		printf '%s\n' "$out" | sed 's/^/    /' >&2
	done
	echo "| all $total | $found with findings |"
	echo
	[ "$found" = 0 ] || bad=1
}
checkpatch
[ $checkpatch_only = 0 ] || exit $bad
tree "$cache/src-series" "$(patches | wc -l)" || die "the series does not apply"

echo "| variant | arch | extra symbols | series builds | new warnings |"
echo "|---|---|---|---|---|"
while IFS='|' read -r name arch frags syms; do
	[ -n "$name" ] || continue
	if [ -n "$only" ] && ! [[ " $only " == *" $name "* ]]; then
		continue
	fi
	for t in base series; do
		configure "$cache/src-$t" "$cache/out-$t-$name" "$arch" "$frags" "$syms" ||
			die "$name: cannot configure the $t tree"
	done
	build "$cache/src-base" "$cache/out-base-$name" "$arch" "$cache/$name.base.log"
	if build "$cache/src-series" "$cache/out-series-$name" "$arch" "$cache/$name.series.log"; then
		built=yes
	else
		built="**no**"
		bad=1
	fi
	new=$(comm -13 <(warnings "$cache/$name.base.log") <(warnings "$cache/$name.series.log"))
	n=$(printf '%s' "$new" | grep -c . || true)
	[ "$n" = 0 ] || bad=1
	echo "| $name | $arch | ${syms:-none} | $built | $n |"
	[ -z "$new" ] || printf '%s\n' "$new" | sed 's/^/    /' >&2
done <<<"$VARIANTS"

if [ $per_patch = 1 ]; then
	echo
	echo "| patch | i386 | x86_64 |"
	echo "|---|---|---|"
	n=0
	for p in $(patches); do
		n=$((n + 1))
		tree "$cache/src-step" "$n" || die "$p does not apply"
		row="| ${p%%-*} |"
		for v in "i386|base" "x86_64|x86_64"; do
			arch=${v%%|*}
			# again after a patch that changes a Kconfig file (0032
			# adds KEXEC_JUMP_CRASH, which common.config sets)
			[ $n -gt 1 ] && ! kconfig_patch "$p" ||
				configure "$cache/src-step" "$cache/out-step-$arch" "$arch" "${v#*|}" "" ||
				die "step $n: cannot configure"
			if build "$cache/src-step" "$cache/out-step-$arch" "$arch" "$cache/step-$n-$arch.log"; then
				w=$(comm -13 <(warnings "$cache/${arch}.base.log" 2>/dev/null) \
					<(warnings "$cache/step-$n-$arch.log") | grep -c . || true)
				row="$row builds, $w new warnings |"
			else
				row="$row **does not build** |"
				bad=1
			fi
		done
		echo "$row"
	done
fi
exit $bad
