#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The series as a git branch: the way to change it.  The folders
# kernel-companion/VERSION/ (series, patches/) are an export of a branch
# kjump-VERSION in a git tree of Debian's linux-source-VERSION, as the
# stable queue and PREEMPT_RT keep theirs; edit the branch (rebase -i,
# commit --fixup, ...), then export.
#
#   series-git.sh import VERSION DIR
#       DIR (new): git tree of /usr/src/linux-source-VERSION.tar.xz, one
#       commit "linux-source-VERSION" (tag kjump-base-VERSION), then
#       branch kjump-VERSION with the series applied by git am
#   series-git.sh export VERSION DIR
#       kjump-base-VERSION..kjump-VERSION of DIR as VERSION/patches (the
#       old ones removed) and VERSION/series (its comment lines kept),
#       with git format-patch: numbered, zero commit ids
#
# A change to one version names and makes the twin change in the other
# (CONTRIBUTING.md); series-drift.sh checks that they stay as recorded.
# KJUMP_COMPANION_DIR: where VERSION/ is (default: this script's
# directory).  The tree stays outside this repository (1.5 GB).
set -eu
here=${KJUMP_COMPANION_DIR:-$(cd "$(dirname "$0")" && pwd)}

die() { echo "series-git: $*" >&2; exit 1; }
usage() { echo "usage: $0 import|export VERSION DIR" >&2; exit 2; }

[ $# = 3 ] || usage
cmd=$1 version=$2 dir=$3
companion=$here/$version
[ -r "$companion/series" ] || die "linux $version: no series ($companion/series)"
git() { command git -C "$dir" -c user.name="kexec-tools-kjump team" \
	-c user.email=team@kjump.invalid -c core.abbrev=9 "$@"; }

patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$companion/series" |
		grep -v '^$'
}

import() {
	tarball=${KJUMP_LINUX_TARBALL:-/usr/src/linux-source-$version.tar.xz}
	[ -r "$tarball" ] || die "$tarball: not found (install linux-source-$version)"
	[ ! -e "$dir" ] || die "$dir: exists (import makes a new tree)"
	mkdir -p "$dir"
	tar -xJf "$tarball" -C "$dir" --strip-components=1
	git init -q
	# -f: Debian's tarball has a .gitignore that ignores its top level
	git add -f -A
	git commit -q -m "linux-source-$version"
	git tag "kjump-base-$version"
	git checkout -q -b "kjump-$version"
	for p in $(patches); do
		git am -q --keep-cr "$companion/patches/$p" ||
			die "$p does not apply (git am --abort in $dir)"
	done
	echo "series-git: $dir: branch kjump-$version, $(patches | wc -l) patches on kjump-base-$version"
}

export_series() {
	[ -d "$dir/.git" ] || die "$dir: not a git tree (series-git.sh import first)"
	out=$(mktemp -d "${TMPDIR:-/tmp}/series-git.XXXXXX")
	trap 'rm -rf "$out"' EXIT
	git format-patch -q --zero-commit --numbered -o "$out" \
		"kjump-base-$version..kjump-$version"
	n=$(ls "$out" | wc -l)
	[ "$n" -gt 0 ] || die "kjump-$version has no commits"
	rm -f "$companion"/patches/*.patch
	cp "$out"/*.patch "$companion/patches/"
	{
		grep '^#' "$companion/series"
		(cd "$out" && ls -- *.patch)
	} >"$out/series"
	mv "$out/series" "$companion/series"
	echo "series-git: $companion: $n patches from kjump-$version"
}

case $cmd in
import) import ;;
export) export_series ;;
*) usage ;;
esac
