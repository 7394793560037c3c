// SPDX-License-Identifier: GPL-2.0-only
/*
 * physmem: a few bytes of physical memory through /dev/mem.
 *
 *   physmem read PADDR LEN         print LEN (1..256) bytes at PADDR in hex
 *   physmem write PADDR HEXBYTES   write the bytes (1..256), then read them
 *                                  back and print them in hex
 *
 * Needs CONFIG_DEVMEM, and CONFIG_STRICT_DEVMEM off for RAM.  Exit status
 * 0 success, 1 the read-back differs from what was written, 2 usage or
 * I/O error.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BYTES 256

static int fail(const char *what, uint64_t paddr)
{
	fprintf(stderr, "physmem: %s at 0x%" PRIx64 ": %s\n", what, paddr,
		errno ? strerror(errno) : "short transfer");
	return 2;
}

static int usage(void)
{
	fprintf(stderr, "usage: physmem read PADDR LEN | physmem write PADDR HEXBYTES\n");
	return 2;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || end == s || *end || *s == '-' ? -1 : 0;
}

static int parse_hex(const char *s, uint8_t *buf, size_t *len)
{
	size_t n = strlen(s), i;

	if (!n || n % 2 || n / 2 > MAX_BYTES)
		return -1;
	for (i = 0; i < n; i++) {
		char c = s[i];
		int v = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (v < 0)
			return -1;
		buf[i / 2] = (uint8_t)(i % 2 ? buf[i / 2] | v : v << 4);
	}
	*len = n / 2;
	return 0;
}

static void print_hex(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x", buf[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	uint8_t want[MAX_BYTES], got[MAX_BYTES];
	uint64_t paddr, len64;
	size_t len;
	int writing, fd;

	if (argc != 4 || parse_u64(argv[2], &paddr))
		return usage();
	writing = !strcmp(argv[1], "write");
	if (writing) {
		if (parse_hex(argv[3], want, &len))
			return usage();
	} else if (!strcmp(argv[1], "read")) {
		if (parse_u64(argv[3], &len64) || !len64 || len64 > MAX_BYTES)
			return usage();
		len = (size_t)len64;
	} else {
		return usage();
	}
	fd = open("/dev/mem", (writing ? O_RDWR : O_RDONLY) | O_SYNC);
	if (fd < 0) {
		fprintf(stderr, "physmem: /dev/mem: %s\n", strerror(errno));
		return 2;
	}
	errno = 0;
	if (writing && pwrite(fd, want, len, (off_t)paddr) != (ssize_t)len)
		return fail("write", paddr);
	errno = 0;
	if (pread(fd, got, len, (off_t)paddr) != (ssize_t)len)
		return fail("read", paddr);
	print_hex(got, len);
	return writing && memcmp(want, got, len) ? 1 : 0;
}
