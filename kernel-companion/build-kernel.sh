#!/bin/sh
# Build a companion test kernel (bzImage) from Debian's linux-source-VERSION
# with kernel-companion/VERSION/series applied, into a cache outside the git
# tree.
#
#   build-kernel.sh [-c CONFIG] [-k VERSION] [-q]
#
# VERSION is the kernel the series is for: 6.1 (default) or 6.12, each with
# its own series and patches under kernel-companion/VERSION/; the default
# comes from $KJUMP_LINUX, so that a whole test run can switch.
# CONFIG names a fragment in kernel-companion/configs/ (default: base, the
# i386 kernel).  Every kernel starts from tinyconfig plus common.config.
# A fragment with a "# arch: x86_64" line builds for that architecture
# (default i386, which also takes base.config before any other fragment).
# An x86_64 fragment goes on top of x86_64.config likewise.  A line
# "# linux-VERSION: CONFIG_..." in a fragment counts for that VERSION
# only (a symbol another version names differently).
# A fragment with a "# series-upto: NNNN" line applies only the patches
# numbered up to NNNN (e.g. a kernel with the preserve-context fixes but
# without KJUMP); "# series-upto-VERSION: NNNN" overrides it for the series
# of that VERSION.
# A fragment with "# test-source: PATH" lines (PATH from the top of this
# repository) also builds those C files into drivers/misc: test-only
# drivers the QEMU scenarios need (tests/qemu/kernel/), not part of the
# series.
# The result is cached under $KJUMP_CACHE_DIR (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/kexec-tools-kjump), keyed by the hash of
# the series, every patch it lists, the fragment, this script and the
# source tarball; a second run with the same inputs only prints the path.
# On success the last line of stdout is the directory holding bzImage and
# .config.  With KJUMP_BUILD_RECORD=FILE, each run also appends one line,
# "VERSION CONFIG built|cached|failed SECONDS", to FILE (make check's
# table of kernel builds, tests/harness/summary.sh).
#
# Kept trees.  A fragment with a "# starts-from: NAME" line is built in
# the kept tree of fragment NAME (same version), in place: the tree is
# brought from the patches, test drivers and config it was last built
# with to this fragment's, and kbuild recompiles only what that
# difference touches (nokjump after base takes about a third of a fresh
# build).  The fragments named so (base, x86_64) build in their kept
# tree too, so the tree, $KJUMP_CACHE_DIR/tree-NAME[-VERSION], always
# holds the last kernel built of its family, and a rebuild after a change
# to one patch recompiles only what the patch touches.  The tree stays
# where it is: an out-of-tree part of the build (objtool) records its
# absolute path, and a copy elsewhere would rebuild it and so every
# object.  The tree's lock is held for the whole build, so two builds of
# one family take turns.  Without a kept tree, or when it cannot be
# brought to the wanted state (a patch that does not reverse, a change
# that was interrupted), the build starts from the tarball.  Other
# fragments build in work-NAME-KEY, removed afterwards unless
# KJUMP_KEEP_TREE=1.  KJUMP_CCACHE=1 runs the compiler through ccache
# (cache in $KJUMP_CACHE_DIR/ccache); off by default: on a miss it
# preprocesses every file twice, a fifth more per fresh build, and the
# kept trees already spare the rebuilds it was for.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
config=base
quiet=0
version=${KJUMP_LINUX:-6.1}
while getopts c:k:q opt; do
	case $opt in
	c) config=$OPTARG ;;
	k) version=$OPTARG ;;
	q) quiet=1 ;;
	*) echo "usage: $0 [-c CONFIG] [-k VERSION] [-q]" >&2; exit 2 ;;
	esac
done

tarball=${KJUMP_LINUX_TARBALL:-/usr/src/linux-source-$version.tar.xz}
cache=${KJUMP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/kexec-tools-kjump}
fragment=$here/configs/$config.config
companion=$here/$version
series=$companion/series
jobs=${KJUMP_JOBS:-$(nproc)}

die() { echo "build-kernel: $*" >&2; exit 1; }
record() {
	[ -z "${KJUMP_BUILD_RECORD:-}" ] ||
		echo "$version $config $1 $2" >>"$KJUMP_BUILD_RECORD"
}
say() { [ "$quiet" = 1 ] || echo "build-kernel: $*" >&2; }

[ -r "$series" ] || die "linux $version: no series for it (kernel-companion/$version/series)"
[ -r "$tarball" ] || die "$tarball: not found (install linux-source-$version)"
[ -r "$fragment" ] || die "$fragment: no such config fragment"

arch=$(sed -n 's/^# arch: *\([a-z0-9_]*\)$/\1/p' "$fragment")
arch=${arch:-i386}
case $arch in
i386) fragments="$here/configs/common.config $here/configs/base.config"
	[ "$config" = base ] || fragments="$fragments $fragment" ;;
x86_64) fragments="$here/configs/common.config $here/configs/x86_64.config"
	[ "$config" = x86_64 ] || fragments="$fragments $fragment" ;;
*) die "$fragment: arch $arch: want i386 or x86_64" ;;
esac

# The cut for this version's series if the fragment names one, else the
# generic one.
upto=$(sed -n "s/^# series-upto-$version: *\([0-9]\{4\}\)\$/\1/p" "$fragment")
[ -n "$upto" ] ||
	upto=$(sed -n 's/^# series-upto: *\([0-9]\{4\}\)$/\1/p' "$fragment")
top=$(cd "$here/.." && pwd)
test_sources=$(sed -n 's/^# test-source: *\([A-Za-z0-9_./-]*\.c\)$/\1/p' "$fragment")
for t in $test_sources; do
	[ -r "$top/$t" ] || die "$fragment: test-source $t: not found"
done

patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series" | grep -v '^$' |
		awk -v upto="${upto:-9999}" 'substr($0, 1, 4) + 0 <= upto + 0' ||
		true
}

# The cache key covers everything that changes the result.
key=$( {
	echo "config=$config"
	cat "$0" $fragments "$series"
	for p in $(patches); do
		[ -r "$companion/patches/$p" ] ||
			die "$version/series lists $p, not in $version/patches/"
		cat "$companion/patches/$p"
	done
	for t in $test_sources; do
		echo "test-source $t"
		cat "$top/$t"
	done
	stat -c '%s %Y' "$tarball"
} | sha256sum | cut -c1-16)

# 6.1 keeps its old names; another version is part of the name.
name=$config
[ "$version" = 6.1 ] || name=$config-$version
out=$cache/kernel-$name-$key
if [ -f "$out/bzImage" ]; then
	say "cached: $out"
	record cached 0
	echo "$out"
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock-$name"
flock 9
if [ -f "$out/bzImage" ]; then
	record cached 0
	echo "$out"
	exit 0
fi

work=$cache/work-$name-$key
kmake() {
	if [ "${KJUMP_CCACHE:-0}" = 1 ] && command -v ccache >/dev/null 2>&1; then
		CCACHE_DIR=${KJUMP_CCACHE_DIR:-$cache/ccache} \
		CCACHE_BASEDIR=$work CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-4G} \
			make -C "$work" ARCH=$arch CC="ccache gcc" "$@"
	else
		make -C "$work" ARCH=$arch "$@"
	fi
}

# The kept tree this build starts from, if any (see "Kept trees" above).
from=$(sed -n 's/^# starts-from: *\([A-Za-z0-9_-]*\)$/\1/p' "$fragment")
if [ -z "$from" ] &&
	grep -qx "# starts-from: $config" "$here"/configs/*.config; then
	from=$config
fi
tree=
if [ -n "$from" ]; then
	tree=$cache/tree-$from
	[ "$version" = 6.1 ] || tree=$tree-$version
fi

# What a tree holds besides the tarball, in .kjump-tree: one line per
# applied patch and per test driver, with their hashes; copies of the
# patches (to take them out again) in .kjump-patches/.
wanted_state() {
	echo "tarball $(stat -c '%s %Y' "$tarball")"
	for p in $(patches); do
		echo "patch $p $(sha256sum <"$companion/patches/$p" | cut -c1-16)"
	done
	for t in $test_sources; do
		echo "test $t $(sha256sum <"$top/$t" | cut -c1-16)"
	done
}

apply_patch() {
	say "applying $1"
	patch -d "$work" -p1 --quiet --forward <"$companion/patches/$1" ||
		return 1
	cp "$companion/patches/$1" "$work/.kjump-patches/$1"
}

add_test_drivers() {
	[ -n "$test_sources" ] || return 0
	cp "$work/drivers/misc/Makefile" "$work/.kjump-patches/misc-Makefile"
	for t in $test_sources; do
		obj=$(basename "$t" .c)
		say "adding test driver $t"
		cp "$top/$t" "$work/drivers/misc/$obj.c"
		echo "obj-y += $obj.o" >>"$work/drivers/misc/Makefile"
	done
}

remove_test_drivers() {
	grep '^test ' "$1" | while read -r _ t _; do
		rm -f "$work/drivers/misc/$(basename "$t" .c).c"
	done
	[ ! -f "$work/.kjump-patches/misc-Makefile" ] ||
		mv "$work/.kjump-patches/misc-Makefile" "$work/drivers/misc/Makefile"
}

fresh_tree() {
	rm -rf "$work"
	mkdir -p "$work/.kjump-patches"
	say "unpacking $tarball"
	tar -xJf "$tarball" -C "$work" --strip-components=1
	for p in $(patches); do
		apply_patch "$p" || die "$p does not apply"
	done
	add_test_drivers
}

# Bring a kept tree from the state in its .kjump-tree to the wanted one:
# take out the patches after the common prefix (last first), put in the
# wanted ones, swap the test drivers if they differ.  The state file is
# set aside while this runs, so a change that was interrupted is never
# taken for a known state.  Fails (and the caller starts afresh) when
# anything does not go in or out.
sync_tree() {
	have=$work/.kjump-tree.have
	want=$work/.kjump-tree.want
	mv "$work/.kjump-tree" "$have" || return 1
	wanted_state >"$want"
	[ "$(sed -n 1p "$have")" = "$(sed -n 1p "$want")" ] || return 1
	# The number of leading patch lines both have.
	common=$(awk 'FNR == NR { if (/^patch /) w[++n] = $0; next }
		/^patch / { i++; if (i == ok + 1 && $0 == w[i]) ok = i }
		END { print ok + 0 }' "$want" "$have") || return 1
	for p in $(grep '^patch ' "$have" | tail -n +$((common + 1)) |
			awk '{ l[NR] = $2 } END { for (i = NR; i > 0; i--) print l[i] }'); do
		say "taking out $p"
		patch -d "$work" -p1 -R --quiet --force \
			<"$work/.kjump-patches/$p" >/dev/null || return 1
		rm -f "$work/.kjump-patches/$p"
	done
	for p in $(grep '^patch ' "$want" | tail -n +$((common + 1)) |
			awk '{ print $2 }'); do
		apply_patch "$p" || return 1
	done
	if [ "$(grep '^test ' "$have")" != "$(grep '^test ' "$want")" ]; then
		remove_test_drivers "$have"
		add_test_drivers
	fi
	rm -f "$have"
	mv "$want" "$work/.kjump-tree"
}

if [ -n "$tree" ]; then
	# The tree is this build's until it ends.
	work=$tree
	exec 8>"$tree.lock"
	flock 8
fi
start=$(date +%s)
if [ -n "$tree" ] && [ -f "$work/.kjump-tree" ]; then
	say "building in the kept tree $work"
	sync_tree || {
		say "the kept tree does not fit: starting from the tarball"
		fresh_tree
		wanted_state >"$work/.kjump-tree"
	}
else
	fresh_tree
	wanted_state >"$work/.kjump-tree"
fi

say "configuring ($config, linux $version)"
# A fragment line "# linux-VERSION: CONFIG_..." counts for that version
# only: a symbol another version names differently.
mkdir -p "$work/.kjump-config"
merged=
for f in $fragments; do
	sed "s/^# linux-$version: //" "$f" >"$work/.kjump-config/${f##*/}"
	merged="$merged $work/.kjump-config/${f##*/}"
done
kmake -s tinyconfig >/dev/null
(cd "$work" && ./scripts/kconfig/merge_config.sh -m .config $merged) >/dev/null
kmake -s olddefconfig >/dev/null

missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) sym=${line%%=*}
		if grep -q "^$sym=" "$work/.config"; then
			echo "build-kernel: $sym should be off" >&2; missing=1
		fi ;;
	CONFIG_*) grep -qxF "$line" "$work/.config" || {
			echo "build-kernel: $line did not stick" >&2; missing=1; } ;;
	esac
done <<FRAGMENTS
$(cat $merged | awk -F= '/^CONFIG_/ { if (!($1 in v)) k[n++] = $1; v[$1] = $0 }
	END { for (i = 0; i < n; i++) print v[k[i]] }')
FRAGMENTS
[ $missing = 0 ] || die "config fragment $config did not apply"

say "building bzImage with -j$jobs"
log=$work/build.log
if ! kmake -j"$jobs" bzImage >"$log" 2>&1; then
	tail -n 40 "$log" >&2
	record failed $(($(date +%s) - start))
	die "kernel build failed (log: $log)"
fi

tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$work/arch/x86/boot/bzImage" "$work/.config" "$work/System.map" "$tmp/"
cp "$work/vmlinux" "$tmp/" 2>/dev/null || true
echo $(( $(date +%s) - start )) >"$tmp/build-seconds"
mv "$tmp" "$out"
record built "$(cat "$out/build-seconds")"
if [ -n "$tree" ]; then
	say "kept the tree: $tree"
elif [ "${KJUMP_KEEP_TREE:-0}" != 1 ]; then
	rm -rf "$work"
fi
say "built in $(cat "$out/build-seconds") s: $out"
echo "$out"
