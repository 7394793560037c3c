// SPDX-License-Identifier: GPL-2.0-only
/*
 * kjtools: the guest tools as one static binary, to keep the initramfs
 * images small (a static glibc costs ~650 KB per program).  Each tool's .c
 * file is a complete program; make-initramfs.sh compiles it with
 * -Dmain=TOOL_main and links it here.  The tool is chosen by the name the
 * binary is called as (the images have /usr/bin/TOOL -> kjtools), or by
 * the first argument: kjtools TOOL ARGS...
 */
#include <stdio.h>
#include <string.h>

int memfill_main(int argc, char **argv);
int vmcore_check_main(int argc, char **argv);
int physmem_main(int argc, char **argv);
int monotime_main(int argc, char **argv);
int runas_main(int argc, char **argv);
int dropcap_main(int argc, char **argv);

static const struct {
	const char *name;
	int (*fn)(int, char **);
} tools[] = {
	{ "memfill", memfill_main },
	{ "vmcore-check", vmcore_check_main },
	{ "physmem", physmem_main },
	{ "monotime", monotime_main },
	{ "runas", runas_main },
	{ "dropcap", dropcap_main },
};

static int run(const char *name, int argc, char **argv)
{
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (!strcmp(name, tools[i].name))
			return tools[i].fn(argc, argv);
	return -1;
}

int main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');
	int rc;

	base = base ? base + 1 : argv[0];
	rc = run(base, argc, argv);
	if (rc < 0 && argc > 1)
		rc = run(argv[1], argc - 1, argv + 1);
	if (rc < 0) {
		fprintf(stderr, "usage: kjtools memfill|vmcore-check|physmem|monotime|runas|dropcap ARGS...\n");
		return 2;
	}
	return rc;
}
