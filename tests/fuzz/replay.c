// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay FILE|DIR...: run a harness' LLVMFuzzerTestOneInput() on every
 * file named and every file in the directories named, without
 * libFuzzer: the i386 build (replay-image-i386) runs the corpus the
 * 64-bit fuzzer grew through the 32-bit reader, where sizes are 32 bits
 * wide.  Prints "replayed N inputs"; a broken promise aborts.
 */
#include <dirent.h>
#include <errno.h>

#include "fuzz.h"

static int replay_file(const char *path, unsigned long *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(1u << 21);
	size_t len;

	if (!f || !buf) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		free(buf);
		return -1;
	}
	len = fread(buf, 1, 1u << 21, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	(*n)++;
	return 0;
}

static int replay(const char *path, unsigned long *n)
{
	char file[4096];
	struct dirent *d;
	DIR *dir = opendir(path);
	int ret = 0;

	if (!dir)
		return replay_file(path, n);
	while (!ret && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, d->d_name);
		ret = replay_file(file, n);
	}
	closedir(dir);
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long n = 0;
	int i;

	for (i = 1; i < argc; i++)
		if (replay(argv[i], &n))
			return 1;
	printf("replayed %lu inputs\n", n);
	return 0;
}
