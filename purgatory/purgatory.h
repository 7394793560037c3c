/* SPDX-License-Identifier: GPL-2.0-only */
/* Purgatory internals shared between its C files. */
#ifndef PURGATORY_PURGATORY_H
#define PURGATORY_PURGATORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "purgatory-params.h"

/* string.c: GCC may emit calls to the first four even when freestanding. */
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
#define HEX32_LEN	10		/* "0x" + 8 digits */
void fmt_hex32(char *out, uint32_t v);	/* writes HEX32_LEN chars, no NUL */

/* serial.c: 8250 UART, polled, baud rate left as the firmware/kernel set it */
void serial_putc(uint16_t port, char c);

/* console.c */
struct console {
	uint16_t port;		/* 0: no output at all */
	bool verbose;		/* PGF_SERIAL: progress lines as well */
};
/* Tiny printf: %s, %u, %x (always 8 digits), %%.  Ends no line itself. */
void con_say(const struct console *con, const char *fmt, ...);	/* if verbose */
void con_err(const struct console *con, const char *fmt, ...);	/* if port */

/* verify.c */
enum verify_result {
	VERIFY_OK,
	VERIFY_MISMATCH,
	VERIFY_BAD_REGIONS,	/* too many, or not below 4 GiB */
};
enum verify_result verify_regions(const struct purgatory_params *p);

/* cmdline.c */
enum cmdline_result {
	CMDLINE_OK,
	CMDLINE_NO_ROOM,
	CMDLINE_NO_ADDR,	/* cmdline_end is 0 */
	CMDLINE_NOT_NUL,	/* cmdline_end does not point at the NUL */
};
enum cmdline_result append_jump_back_entry(const struct purgatory_params *p);

/* purgatory.c, called from entry.S */
void purgatory_main(struct purgatory_params *p);

#endif
