// SPDX-License-Identifier: GPL-2.0-only
/*
 * kj_hibernate(): save this kernel's memory image from the crash kernel.
 *
 * Everything that can be checked is checked here, before the jump: the
 * kernel can carry a request, is not locked down, a crash kernel with the
 * image writer is loaded, the target is usable and large enough for the
 * worst case.  The target is then prepared (header, extents, A's sections,
 * all synced), the request goes into the kexec jump parameter page, and
 * the jump happens; the writer in the crash kernel answers in the status.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "ctx.h"
#include "file-io.h"
#include "kexec-syscall.h"
#include "kjump/kjump.h"
#include "hib/helper-mark.h"
#include "hib/host.h"
#include "kjump/hib/image-read.h"
#include "kjump/hib/jump-param.h"
#include "kjump/hib/request.h"
#include "hib/target.h"

#define LOCKDOWN_PATH		"/sys/kernel/security/lockdown"
#define JUMP_BUF_PFN_PATH	"/sys/kernel/kexec_jump_buf_pfn"
#define BOOT_ID_PATH		"/proc/sys/kernel/random/boot_id"
#define DROP_CACHES_PATH	"/proc/sys/vm/drop_caches"

/* What A knows about itself for the image header. */
struct hib_self {
	struct kjh_ram_range ram[KJH_HOST_RAM_MAX];
	uint32_t ram_count;
	uint64_t ram_pages;		/* outside the crash region */
	uint64_t crash_start, crash_end;	/* inclusive; 0, 0: none */
	uint64_t jump_buf_pfn;
	char boot_id[37];
	uint64_t max_pages;		/* what a resume has room for; 0: any */
};

static const char *what(const struct kj_hibernate_spec *spec)
{
	if (spec->warm_up)
		return "--warm-up";
	return spec->snapshot ? "--snapshot" : "--hibernate";
}


static int check_kernel(struct kj_ctx *ctx, const struct kj_hibernate_spec *s)
{
	char path[KJ_PATH_MAX], text[256];

	if (access(kj_path(ctx, KJ_JUMP_REQUEST_PATH, path, sizeof(path)),
		   W_OK)) {
		kj_err(ctx, "%s: this kernel cannot pass a request to the crash kernel (no %s: it needs the kexec jump companion series)",
		       what(s), KJ_JUMP_REQUEST_PATH);
		return -ENOSYS;
	}
	/* The kernel refuses too; say why before anything is prepared. */
	if (!read_text(kj_path(ctx, LOCKDOWN_PATH, path, sizeof(path)), text,
		       sizeof(text)) && !strstr(text, "[none]")) {
		kj_err(ctx, "%s: refused: the kernel is locked down (%s), and hibernation is restricted under lockdown",
		       what(s), text);
		return -EPERM;
	}
	return 0;
}

static int check_crash_kernel(struct kj_ctx *ctx,
			      const struct kj_hibernate_spec *s)
{
	int loaded = kexec_slot_loaded(ctx, true);

	if (loaded < 0) {
		kj_err(ctx, "%s: cannot tell whether a crash kernel is loaded (%s)",
		       what(s), strerror(-loaded));
		return loaded;
	}
	if (!loaded) {
		kj_err(ctx, "%s: nothing loaded (load the image-writing kernel with kexec -p first)",
		       what(s));
		return -ENOENT;
	}
	if (!hib_helper_mark_valid(ctx)) {
		kj_err(ctx, "%s: the loaded crash kernel has no image writer in its initramfs (build it with kjump-mkinitramfs and load it again with kexec -p)",
		       what(s));
		return -ENOENT;
	}
	return 0;
}

static int read_ram(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		    struct hib_self *self)
{
	struct kjh_host *host;
	uint32_t i;
	int ret;

	host = malloc(sizeof(*host));
	if (!host) {
		kj_err(ctx, "%s: out of memory", what(s));
		return -ENOMEM;
	}
	ret = kjh_host_read(ctx, what(s), host);
	if (ret)
		goto out;
	self->crash_start = host->crash_start;
	self->crash_end = host->crash_end;
	for (i = 0; i < host->ram_count; i++) {
		self->ram[i] = host->ram[i];
		self->ram_pages += (host->ram[i].end + 1 - host->ram[i].start) / 4096;
	}
	self->ram_count = host->ram_count;
	if (self->crash_end)
		self->ram_pages -= (self->crash_end + 1 - self->crash_start) / 4096;
out:
	free(host);
	return ret;
}

static int read_self(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		     struct hib_self *self)
{
	char path[KJ_PATH_MAX];
	unsigned long long pfn;
	int ret;

	ret = read_ulong(kj_path(ctx, JUMP_BUF_PFN_PATH, path, sizeof(path)),
			 &pfn);
	if (ret) {
		kj_err(ctx, "%s: %s: %s (no kexec jump buffer)", what(s), path,
		       strerror(-ret));
		return ret;
	}
	self->jump_buf_pfn = pfn;
	if (read_text(kj_path(ctx, BOOT_ID_PATH, path, sizeof(path)),
		      self->boot_id, sizeof(self->boot_id)))
		self->boot_id[0] = '\0';
	return read_ram(ctx, s, self);
}

/* MemTotal - MemFree in pages, for the caller's comparison. */
static uint64_t used_pages(struct kj_ctx *ctx)
{
	uint64_t total, avail;

	return kjh_host_meminfo(ctx, &total, &avail) ? 0 : total - avail;
}

/*
 * A resume writes every page of the image into the free memory of the
 * resuming kernel (the same RAM, less what that kernel and its
 * initramfs use: the reserve), with a pfn and a restore entry per page
 * besides (kjh_restore_need()).  Refuse now an image it could not
 * hold; B checks the exact page count against the same room.
 */
static int check_memory(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
			struct hib_self *self)
{
	uint64_t total, avail, used;
	uint64_t reserve = (uint64_t)s->resume_reserve_mib << 8;

	if (s->snapshot)
		return 0;		/* never resumed */
	if (kjh_host_meminfo(ctx, &total, &avail)) {
		kj_err(ctx, "%s: %s: no MemTotal and MemFree", what(s),
		       KJH_MEMINFO_PATH);
		return -EIO;
	}
	used = total - avail;
	self->max_pages = total > reserve ? total - reserve : 1;
	if (kjh_restore_need(used) <= self->max_pages)
		return 0;
	kj_err(ctx, "%s: this system uses %llu MiB, and a resume would have room for %llu MiB (%llu MiB of RAM less --resume-reserve=%u): free memory%s",
	       what(s), (unsigned long long)(kjh_restore_need(used) >> 8),
	       (unsigned long long)(self->max_pages >> 8),
	       (unsigned long long)(total >> 8), s->resume_reserve_mib,
	       s->drop_caches ? "" : " or hibernate with --drop-caches");
	return -ENOMEM;
}

static int fill_request(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
			const struct kjh_target *t, const struct kjh_header *h,
			struct kjh_request *req)
{
	memset(req, 0, sizeof(*req));
	req->mode = s->snapshot ? KJH_MODE_SNAPSHOT : KJH_MODE_HIBERNATE;
	req->dev_major = t->dev_major;
	req->dev_minor = t->dev_minor;
	req->dev_size = t->dev_size;
	req->offset = t->offset;
	req->capacity = t->capacity;
	memcpy(req->nonce, h->nonce, sizeof(req->nonce));
	req->compress = KJH_COMPRESS_LZ4;
	if (s->compress && kjh_compress_parse(s->compress, &req->compress)) {
		kj_err(ctx, "%s: --compress=%s: not lz4, zstd or none",
		       what(s), s->compress);
		return -EINVAL;
	}
	req->level = s->level;
	req->threads = s->threads;
	req->created = h->created;
	snprintf(req->target, sizeof(req->target), "%s", s->target);
	return 0;
}

static int write_request(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
			 const struct kjh_request *req)
{
	char path[KJ_PATH_MAX], text[KJ_JUMP_REQUEST_MAX];
	int len, fd, ret = 0;

	len = kjh_request_format(req, text, sizeof(text));
	if (len < 0) {
		kj_err(ctx, "%s: the request does not fit in the parameter page",
		       what(s));
		return len;
	}
	kj_path(ctx, KJ_JUMP_REQUEST_PATH, path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, text, len) != len)
		ret = -errno;
	if (fd >= 0 && close(fd) && !ret)
		ret = -errno;
	/* x86_64 companion kernels before patch 0038 could not save */
	if (ret == -EOPNOTSUPP)
		kj_err(ctx, "%s: the kernel refused the request (%s): this kernel cannot be saved by a kexec jump (an x86_64 companion kernel without patch 0038)",
		       what(s), strerror(-ret));
	else if (ret)
		kj_err(ctx, "%s: %s: %s", what(s), path, strerror(-ret));
	return ret;
}

/*
 * One NUL byte withdraws the request in the page at path (a write of
 * nothing never reaches the kernel): 0 or -errno.
 */
static int withdraw_request(const char *path)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "", 1) != 1)
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

/* Leave no request behind when we do not jump after all. */
static void clear_request(struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	int ret;

	ret = withdraw_request(kj_path(ctx, KJ_JUMP_REQUEST_PATH, path,
				       sizeof(path)));
	if (ret)
		kj_warn(ctx, "%s: withdrawing the request: %s", path,
			strerror(-ret));
}

int kj_withdraw_stale_request(struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], *text;
	const struct kj_jump_param *p;
	struct kjh_request req;
	size_t len;
	int ret;

	kj_path(ctx, KJ_JUMP_REQUEST_PATH, path, sizeof(path));
	if (read_file(path, 2 * KJ_JUMP_PARAM_SIZE, &text, &len))
		return 0;	/* no parameter page: nothing to withdraw */
	p = (const struct kj_jump_param *)text;
	ret = len == KJ_JUMP_PARAM_SIZE && p->magic == KJ_JUMP_PARAM_MAGIC &&
	      p->request_len <= KJ_JUMP_REQUEST_MAX &&
	      !kjh_request_parse(p->request, p->request_len, &req, NULL, 0) &&
	      req.mode != KJH_MODE_READY;
	free(text);
	if (!ret)
		return 0;	/* none, or not ours: another use of the page */
	ret = withdraw_request(path);
	if (!ret) {
		kj_warn(ctx, "jump: withdrew a hibernation request that a failed kexec --hibernate or --snapshot left behind");
		return 1;
	}
	/* EPERM: entered by a jump, the request is the other kernel's */
	if (ret == -EPERM)
		return 0;
	kj_err(ctx, "jump: %s holds a hibernation request that cannot be withdrawn: %s",
	       path, strerror(-ret));
	return ret;
}

static void drop_caches(struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	int fd;

	sync();
	fd = open(kj_path(ctx, DROP_CACHES_PATH, path, sizeof(path)),
		  O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		kj_warn(ctx, "--drop-caches: %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

static int read_status(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		       struct kjh_status *st)
{
	char path[KJ_PATH_MAX], err[256], *text;
	size_t len;
	int ret;

	ret = read_file(kj_path(ctx, KJ_JUMP_STATUS_PATH, path, sizeof(path)),
			KJ_JUMP_STATUS_MAX, &text, &len);
	if (ret) {
		kj_err(ctx, "%s: %s: %s", what(s), path, strerror(-ret));
		return ret;
	}
	if (!len) {
		kj_err(ctx, "%s: the crash kernel came back without an answer (does its init run the image writer?)",
		       what(s));
		ret = -EPROTO;
	} else if (kjh_status_parse(text, len, st, err, sizeof(err))) {
		kj_err(ctx, "%s: the crash kernel's answer is not readable: %s",
		       what(s), err);
		ret = -EPROTO;
	}
	free(text);
	return ret;
}

static int judge_status(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
			const struct kjh_status *st,
			struct kj_hibernate_result *res)
{
	switch (st->result) {
	case KJH_RESULT_OK:
		break;
	case KJH_RESULT_CANCELLED:
		kj_err(ctx, "%s: cancelled: %s", what(s), st->reason);
		return -ECANCELED;
	default:
		kj_err(ctx, "%s: the image writer failed: %s", what(s),
		       st->reason);
		return -EIO;
	}
	res->image_bytes = st->image_bytes;
	res->pages = st->pages;
	res->data_pages = st->data_pages;
	res->zero_pages = st->zero_pages;
	res->raw_bytes = st->raw_bytes;
	res->stored_bytes = st->stored_bytes;
	res->write_ms = st->write_ms;
	if (!s->snapshot && !s->warm_up && !res->resumed) {
		kj_err(ctx, "%s: the crash kernel came back instead of powering off; the image is invalid",
		       what(s));
		return -EIO;
	}
	return 0;
}

/*
 * Back by a jump, and running on: an image of this kernel that a boot
 * could resume would restore memory older than the disks.  The writer
 * commits a snapshot as such and invalidates a hibernation image it
 * comes back from; should it not have, it is done here.
 */
static int came_back(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		     struct kjh_target *t)
{
	int ret = kjh_target_invalidate(ctx, t, 1u << KJH_STATE_COMMITTED,
					KJH_INVALID_CAME_BACK);

	if (ret < 0) {
		kj_err(ctx, "%s: back from the crash kernel, and its image could not be made invalid: do not resume %s",
		       what(s), s->target);
		return ret;
	}
	if (ret)
		kj_warn(ctx, "%s: back from the crash kernel with a committed image: made it invalid",
			what(s));
	return 0;
}

/*
 * Back by a resume: the memory that was saved predates the writer's
 * answer, so what it saved is read from the image's header, which the
 * resume marked consumed.
 */
static int read_resumed(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
			const struct kjh_target *t,
			struct kj_hibernate_result *res)
{
	struct kjh_header h;
	char why[160];
	int ret;

	ret = kjh_target_read_block0(ctx, t, &h);
	if (ret) {
		kj_err(ctx, "%s: resumed, but its header does not read back: %s",
		       what(s), strerror(-ret));
		return ret;
	}
	if (kjh_header_check(&h, why, sizeof(why))) {
		kj_err(ctx, "%s: resumed, but its header is damaged: %s",
		       what(s), why);
		return -EBADMSG;
	}
	if (h.state != KJH_STATE_CONSUMED)
		kj_warn(ctx, "%s: resumed, but the image is %s, not consumed",
			what(s), kjh_state_name(h.state));
	res->image_bytes = h.image_bytes;
	res->pages = h.pages;
	res->data_pages = h.data_pages;
	res->zero_pages = h.zero_pages;
	res->raw_bytes = h.raw_bytes;
	res->stored_bytes = h.stored_bytes;
	return 0;
}

static void fill_header(const struct hib_self *self, struct kjh_header *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	if (!uname(&u)) {
		snprintf(h->id.release, sizeof(h->id.release), "%s", u.release);
		snprintf(h->id.version, sizeof(h->id.version), "%s", u.version);
		snprintf(h->id.machine, sizeof(h->id.machine), "%.*s",
			 (int)sizeof(h->id.machine) - 1, u.machine);
	}
	h->created = time(NULL);
	h->crash_start = self->crash_start;
	h->crash_end = self->crash_end;
	h->jump_buf_pfn = self->jump_buf_pfn;
	snprintf(h->id.boot_id, sizeof(h->id.boot_id), "%s", self->boot_id);
}

static int new_nonce(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		     struct kjh_header *h)
{
	if (getrandom(h->nonce, sizeof(h->nonce), 0) == sizeof(h->nonce))
		return 0;
	kj_err(ctx, "%s: getrandom: %s", what(s), strerror(errno));
	return -errno;
}

/* Prepare the target and pass the request: all before the jump. */
static int prepare(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		   struct hib_self *self, struct kjh_target *t)
{
	struct kjh_request req;
	struct kjh_header h;
	struct kjh_fs *fs = NULL;
	uint32_t nfs = 0;
	int ret;

	ret = kjh_target_open(ctx, s->target, kjh_worst_case_bytes(self->ram_pages),
			      s->overwrite, t);
	if (ret)
		return ret;
	fill_header(self, &h);
	ret = new_nonce(ctx, s, &h);
	if (!ret)
		ret = kjh_rw_filesystems(ctx, !s->snapshot, &fs, &nfs);
	if (!ret)
		ret = fill_request(ctx, s, t, &h, &req);
	req.max_pages = self->max_pages;
	if (!ret)
		ret = kjh_target_prepare(ctx, t, &h, self->ram, self->ram_count,
					 fs, nfs);
	if (!ret)
		ret = write_request(ctx, s, &req);
	free(fs);
	return ret;
}

/* Only the round trip: B boots now, or is entered again, and answers. */
static int warm_up(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		   struct kj_hibernate_result *res)
{
	struct kjh_request req = { .mode = KJH_MODE_READY };
	struct kjh_status st;
	int ret;

	ret = write_request(ctx, s, &req);
	if (ret)
		return ret;
	ret = kj_jump(ctx, s->run_flags);
	if (ret) {
		clear_request(ctx);
		return ret;
	}
	ret = read_status(ctx, s, &st);
	if (!ret)
		ret = judge_status(ctx, s, &st, res);
	return ret;
}

bool kj_compress_valid(const char *name)
{
	enum kjh_compress c;

	return !kjh_compress_parse(name, &c);
}

/*
 * Prepare, jump, and hear how it went: back by a jump (a snapshot, or a
 * failure), or by a resume, after which the image is wiped: in the
 * background when the wipe lock is held (locked), which the next
 * hibernation waits for; else here, since a background wipe frozen in
 * the middle of a slice by a later jump could go on zeroing that jump's
 * image.
 */
static int save(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		struct hib_self *self, bool locked,
		struct kj_hibernate_result *res)
{
	struct kjh_target t = { .fd = -1 };
	struct kjh_status st;
	int ret;

	ret = prepare(ctx, s, self, &t);
	if (ret)
		goto out_fail;
	/* again: what preparing a new file wrote is cached too */
	if (s->drop_caches)
		drop_caches(ctx);
	res->used_pages = used_pages(ctx);
	ret = kj_jump(ctx, s->run_flags);
	kjh_target_after_jump(&t);
	if (ret)
		goto out_fail;
	/*
	 * After a power-off and a resume (kexec --resume), the kernel has
	 * unloaded the crash kernel, whose memory did not survive; after a
	 * jump back it is still loaded.
	 */
	if (!s->snapshot)
		res->resumed = kexec_slot_loaded(ctx, true) == 0;
	if (res->resumed) {
		ret = read_resumed(ctx, s, &t, res);
		if (!ret && locked)
			kjh_wipe_in_background(ctx, &t);
		else if (!ret)
			kjh_target_wipe(ctx, &t);	/* reported; A runs */
	} else {
		ret = came_back(ctx, s, &t);
		if (!ret)
			ret = read_status(ctx, s, &st);
		if (!ret)
			ret = judge_status(ctx, s, &st, res);
	}
	kjh_target_close(&t);
	return ret;

out_fail:
	clear_request(ctx);
	kjh_target_abandon(ctx, &t);
	return ret;
}

int kj_hibernate(struct kj_ctx *ctx, const struct kj_hibernate_spec *s,
		 struct kj_hibernate_result *res)
{
	struct hib_self self = { 0 };
	int ret, lock;

	memset(res, 0, sizeof(*res));
	ret = check_kernel(ctx, s);
	if (!ret)
		ret = check_crash_kernel(ctx, s);
	if (!ret && s->warm_up)
		return warm_up(ctx, s, res);
	if (!ret)
		ret = read_self(ctx, s, &self);
	if (!ret && !s->allow_plaintext)
		ret = kjh_check_plaintext(ctx, what(s));
	/* the memory check counts what --drop-caches leaves */
	if (!ret && s->drop_caches)
		drop_caches(ctx);
	if (!ret)
		ret = check_memory(ctx, s, &self);
	if (ret)
		return ret;
	/* not while the wipe of the last resumed image still runs */
	lock = kjh_wipe_lock(ctx);
	ret = save(ctx, s, &self, lock >= 0, res);
	if (lock >= 0)
		close(lock);
	return ret;
}
