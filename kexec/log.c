// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

/*
 * The one piece of process-wide state: whether -d was given.  Threading a
 * flag through every parser only to gate stderr output would obscure the
 * data path, and nothing else depends on it.
 */
static bool debug_on;

void kx_set_debug(bool on)
{
	debug_on = on;
}

bool kx_debug_enabled(void)
{
	return debug_on;
}

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void kx_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("kexec: ", fmt, ap);
	va_end(ap);
}

void kx_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("kexec: warning: ", fmt, ap);
	va_end(ap);
}

void kx_dbg(const char *fmt, ...)
{
	va_list ap;

	if (!debug_on)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}
