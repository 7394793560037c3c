#!/bin/sh
# kexec-test-jump-none: kexec-test-jump with --args-none: no purgatory,
# relocate_kernel calls kexec_test directly and the way back is 0(%esp).
KT_ARGS=none
. /scenarios/kexec-test-jump.sh
