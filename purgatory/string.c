/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memory and string helpers purgatory needs.  GCC is allowed to emit
 * calls to memcpy/memmove/memset/memcmp even with -ffreestanding, so they
 * must exist; the build uses -fno-tree-loop-distribute-patterns so the
 * loops below are not themselves turned back into calls to memset/memcpy.
 */
#include "purgatory.h"

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	/* Compare as integers: the pointers need not be in one object. */
	if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d - (uintptr_t)s >= n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;

	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

void fmt_hex32(char *out, uint32_t v)
{
	int i;

	out[0] = '0';
	out[1] = 'x';
	for (i = 9; i >= 2; i--, v >>= 4)
		out[i] = "0123456789abcdef"[v & 15];
}
