// SPDX-License-Identifier: GPL-2.0-only
/*
 * make-fake-elf: write a synthetic i386 ELF executable (see synth-elf.h)
 * for the end-to-end tests: text at 16 MiB, data + bss from a mid-page
 * address, a PT_NOTE, entry at the start of text.  It is no kernel; it
 * only has to convince the ELF loader.
 *
 *   make-fake-elf OUT [--machine N] [--seed N]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth-elf.h"

static int number(const char *opt, const char *text, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(text, &end, 0);
	if (errno || end == text || *end || *v > 0xffff) {
		fprintf(stderr, "make-fake-elf: %s %s: not a small number\n",
			opt, text);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "machine", required_argument, NULL, 'm' },
		{ "seed", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct synth_elf s;
	unsigned long v;
	uint8_t *buf;
	size_t len, n;
	FILE *f;
	int c;

	synth_elf_defaults(&s);
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if ((c != 'm' && c != 's') || number(argv[optind - 2], optarg, &v))
			return 2;
		if (c == 'm')
			s.machine = (uint16_t)v;
		else
			s.seed = (uint8_t)v;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "usage: make-fake-elf OUT [--machine N] [--seed N]\n");
		return 2;
	}
	buf = synth_elf_build(&s, &len);
	if (!buf) {
		fprintf(stderr, "make-fake-elf: out of memory\n");
		return 1;
	}
	f = fopen(argv[optind], "wb");
	if (!f) {
		perror(argv[optind]);
		free(buf);
		return 1;
	}
	n = fwrite(buf, 1, len, f);
	free(buf);
	if (fclose(f) || n != len) {
		fprintf(stderr, "make-fake-elf: %s: write failed\n", argv[optind]);
		return 1;
	}
	return 0;
}
