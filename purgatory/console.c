/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Formatted lines on the serial console.  Just enough printf for short
 * progress and error messages; no buffering and no state, so it is safe
 * to call at any point, including right before halting.
 */
#include <stdarg.h>

#include "purgatory.h"

static void con_putc(const struct console *con, char c)
{
	if (c == '\n')
		serial_putc(con->port, '\r');
	serial_putc(con->port, c);
}

static void con_puts(const struct console *con, const char *s)
{
	while (*s)
		con_putc(con, *s++);
}

static void con_putu(const struct console *con, uint32_t v)
{
	char buf[10];
	int n = 0;

	do {
		buf[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		con_putc(con, buf[--n]);
}

static void con_vprintf(const struct console *con, const char *fmt, va_list ap)
{
	char hex[HEX32_LEN + 1];

	for (; *fmt; fmt++) {
		if (*fmt != '%' || !fmt[1]) {
			con_putc(con, *fmt);
			continue;
		}
		switch (*++fmt) {
		case 's':
			con_puts(con, va_arg(ap, const char *));
			break;
		case 'u':
			con_putu(con, va_arg(ap, uint32_t));
			break;
		case 'x':
			fmt_hex32(hex, va_arg(ap, uint32_t));
			hex[HEX32_LEN] = '\0';
			con_puts(con, hex + 2);
			break;
		default:
			con_putc(con, *fmt);
			break;
		}
	}
}

void con_say(const struct console *con, const char *fmt, ...)
{
	va_list ap;

	if (!con->port || !con->verbose)
		return;
	va_start(ap, fmt);
	con_vprintf(con, fmt, ap);
	va_end(ap);
}

void con_err(const struct console *con, const char *fmt, ...)
{
	va_list ap;

	if (!con->port)
		return;
	va_start(ap, fmt);
	con_vprintf(con, fmt, ap);
	va_end(ap);
}
