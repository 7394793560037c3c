/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared bits of the libFuzzer harnesses.  A harness parses the fuzzer's
 * bytes with one of our parsers and checks what the parser promises on
 * success; a broken promise is reported and abort()ed, which libFuzzer
 * records as a crash like any sanitizer finding.
 */
#ifndef KJUMP_FUZZ_H
#define KJUMP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant broken: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* The input as a NUL-terminated string, in a buffer of its exact size. */
static inline char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Is [p, p + n) inside [buf, buf + len)?  Compared as offsets. */
static inline int fuzz_inside(const char *buf, size_t len, const char *p,
			      size_t n)
{
	uintptr_t b = (uintptr_t)buf, q = (uintptr_t)p;

	return q >= b && q - b <= len && n <= len - (q - b);
}

/* A reason must be a non-empty, terminated string. */
static inline void fuzz_check_why(const char *why, size_t whylen)
{
	FUZZ_ASSERT(why[0] != '\0');
	FUZZ_ASSERT(memchr(why, '\0', whylen) != NULL);
}

#endif
