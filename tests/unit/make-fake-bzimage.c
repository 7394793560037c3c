// SPDX-License-Identifier: GPL-2.0-only
/*
 * make-fake-bzimage: write a synthetic bzImage (see synth-bzimage.h) for
 * the end-to-end tests.  It is no kernel; it only has to convince the
 * loader.
 *
 *   make-fake-bzimage OUT [--payload BYTES] [--cmdline-size N]
 *                         [--init-size BYTES] [--truncate BYTES]
 *                         [--seed N] [--fixed] [--xloadflags N]
 *                         [--signed]
 *
 * --truncate drops that many bytes from the end, so the payload is
 * shorter than the header's syssize says.  --fixed clears
 * relocatable_kernel: the kernel must run at 1 MiB.  --xloadflags sets
 * the header's xloadflags (3: a 64-bit kernel that may go above 4 GiB),
 * --signed adds a PE/COFF stub with a certificate table.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth-bzimage.h"

static int number(const char *opt, const char *text, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(text, &end, 0);
	if (errno || end == text || *end) {
		fprintf(stderr, "make-fake-bzimage: %s %s: not a number\n",
			opt, text);
		return -1;
	}
	return 0;
}

static int write_out(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	n = fwrite(buf, 1, len, f);
	if (fclose(f) || n != len) {
		fprintf(stderr, "make-fake-bzimage: %s: write failed\n", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "payload", required_argument, NULL, 'p' },
		{ "cmdline-size", required_argument, NULL, 'c' },
		{ "init-size", required_argument, NULL, 'i' },
		{ "truncate", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "fixed", no_argument, NULL, 'f' },
		{ "xloadflags", required_argument, NULL, 'x' },
		{ "signed", no_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long v, cut = 0;
	struct synth_bzimage s;
	uint8_t *buf;
	size_t len;
	int c, ret;

	synth_defaults(&s);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == '?')
			return 2;
		if (c == 'f') {
			s.relocatable = 0;
			continue;
		}
		if (c == 'S') {
			s.pe_signed = 1;
			continue;
		}
		if (number(argv[optind - 1], optarg, &v))
			return 2;
		switch (c) {
		case 'p': s.payload_len = v; break;
		case 'c': s.cmdline_size = (uint32_t)v; break;
		case 'i': s.init_size = (uint32_t)v; break;
		case 't': cut = v; break;
		case 's': s.seed = (uint32_t)v; break;
		case 'x': s.xloadflags = (uint16_t)v; break;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: make-fake-bzimage OUT [--payload N] [--cmdline-size N] [--init-size N] [--truncate N] [--seed N] [--fixed] [--xloadflags N] [--signed]\n");
		return 2;
	}
	if (s.init_size < s.payload_len)
		s.init_size = (uint32_t)s.payload_len;
	buf = synth_build(&s, &len);
	if (!buf) {
		fprintf(stderr, "make-fake-bzimage: out of memory\n");
		return 1;
	}
	if (cut > len)
		cut = len;
	ret = write_out(argv[optind], buf, len - cut);
	free(buf);
	return ret ? 1 : 0;
}
