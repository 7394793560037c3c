#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make check's fuzz test: every libFuzzer harness for FUZZ_CHECK_SECONDS
# (default 8), one result line each; SKIP lines without clang/libFuzzer.
# See run-fuzz.sh for the environment make sets.
exec sh "$(dirname "$0")/run-fuzz.sh" check
