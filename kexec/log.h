/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Messages.  Every error the user sees is one line on stderr of the form
 * "kexec: <what>: <why>".  Debug output (-d) goes to stderr as well.
 */
#ifndef KJUMP_LOG_H
#define KJUMP_LOG_H

#include <stdbool.h>

#define KX_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Print "kexec: <formatted>\n" on stderr. */
void kx_err(const char *fmt, ...) KX_PRINTF(1, 2);
/* Print "kexec: warning: <formatted>\n" on stderr. */
void kx_warn(const char *fmt, ...) KX_PRINTF(1, 2);
/* Print to stderr when debug output is on. */
void kx_dbg(const char *fmt, ...) KX_PRINTF(1, 2);
void kx_set_debug(bool on);
bool kx_debug_enabled(void);

#endif
