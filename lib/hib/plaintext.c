// SPDX-License-Identifier: GPL-2.0-only
/*
 * An image holds all of A's memory in clear, the keys of every dm-crypt
 * mapping A has open included (target.h: kjh_check_plaintext()).  Written
 * to a plain partition, those keys would outlive the hibernation on the
 * disk, next to the data they protect.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "hib/target.h"

/* The dm uuid of /sys/block/NAME, empty when it has none. */
static void dm_uuid(struct kj_ctx *ctx, const char *name, char *uuid,
		    size_t size)
{
	char abs[512], path[KJ_PATH_MAX];
	FILE *f;

	uuid[0] = '\0';
	snprintf(abs, sizeof(abs), "/sys/block/%s/dm/uuid", name);
	f = fopen(kj_path(ctx, abs, path, sizeof(path)), "re");
	if (!f)
		return;
	if (!fgets(uuid, (int)size, f))
		uuid[0] = '\0';
	uuid[strcspn(uuid, "\n")] = '\0';
	fclose(f);
}

int kjh_check_plaintext(struct kj_ctx *ctx, const char *what)
{
	char path[KJ_PATH_MAX], uuid[160];
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	dir = opendir(kj_path(ctx, "/sys/block", path, sizeof(path)));
	if (!dir)
		return 0;		/* no sysfs block devices: no mappings */
	while (!ret && (d = readdir(dir))) {
		if (strncmp(d->d_name, "dm-", 3))
			continue;
		dm_uuid(ctx, d->d_name, uuid, sizeof(uuid));
		if (strncmp(uuid, "CRYPT-", 6))
			continue;
		kj_err(ctx, "%s: %s is a dm-crypt mapping: its key would be written in clear into the image (--allow-plaintext to hibernate anyway)",
		       what, d->d_name);
		ret = -EPERM;
	}
	closedir(dir);
	return ret;
}
