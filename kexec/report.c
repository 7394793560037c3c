// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>

#include "report.h"

void report_err(const char *fmt, ...)
{
	va_list ap;

	fputs("kexec: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void report_log(void *data, enum kj_log_level level, const char *msg)
{
	(void)data;
	switch (level) {
	case KJ_LOG_ERR:
		fprintf(stderr, "kexec: %s\n", msg);
		break;
	case KJ_LOG_WARNING:
		fprintf(stderr, "kexec: warning: %s\n", msg);
		break;
	case KJ_LOG_DEBUG:
		fputs(msg, stderr);
		break;
	}
}
