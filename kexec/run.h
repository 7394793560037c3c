/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_RUN_H
#define KJUMP_RUN_H

#include "options.h"

/*
 * -e: run the loaded kernel (sync and ifdown first unless -y/-x).  Only
 * returns on failure, or with 0 when a preserve-context image came back.
 */
int exec_kernel(const struct kexec_opts *opts);

/* -j: reboot(LINUX_REBOOT_CMD_KJUMP); 0 means we jumped and came back. */
int jump_kernel(const struct kexec_opts *opts);

/*
 * -S: print whether the crash (or, with -l, the normal) slot is loaded.
 * Returns the exit status kexec-tools uses: 1 loaded, 0 not, 2 on error.
 */
int report_status(const struct kexec_opts *opts);

/* Default action after a load: hand over to 'shutdown -r now'. */
int run_shutdown(void);

#endif
