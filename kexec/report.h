/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the command line tool prints on stderr: every error is one line,
 * "kexec: <what>: <why>"; the library's messages arrive through
 * report_log() and get the same form.
 */
#ifndef KJUMP_REPORT_H
#define KJUMP_REPORT_H

#include "kjump/kjump.h"

/* "kexec: <formatted>\n" on stderr. */
void report_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The library's log callback (kj_ctx_set_log()). */
void report_log(void *data, enum kj_log_level level, const char *msg);

#endif
