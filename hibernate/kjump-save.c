// SPDX-License-Identifier: GPL-2.0-only
/*
 * kjump-save: the image writer that runs in kernel B.  It reads A's
 * request from the kexec jump parameter page, saves A's memory out of
 * /proc/vmcore into the target A prepared (save.c), writes the status
 * back into the page and then powers off (mode hibernate, on success) or
 * jumps back to A (snapshot, and on every failure).  A ready request
 * (kexec --warm-up) saves nothing: it answers and jumps back at once.
 * A hibernation image is never left committed behind a jump back: when
 * the power-off fails (or --no-power-off asks for the jump), the image
 * is made invalid first, and A hears of a failure.
 *
 *   kjump-save [--once] [--no-jump] [--no-power-off] [-v] [--root DIR]
 *              [--param FILE] [--status FILE] [--vmcore PATH] [--dev PATH]
 *
 * Exit: 0 saved (--no-jump), 1 failed, 2 bad usage, 3 no request (a
 * plain jump), 4 entered by a crash of the other kernel (booted by it, or
 * entered again while parked): there is nothing to serve, and no way back.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "kjump/kjump.h"
#include "dev-node.h"
#include "save.h"

#define EXIT_NO_REQUEST	3
#define EXIT_CRASH	4
#define EXIT_USAGE	2
#define PROGRESS_MS	2000u

struct opts {
	bool once, no_jump, no_power_off, verbose;
	const char *root, *param, *status, *vmcore, *dev;
};

struct ui {
	bool tty;			/* stderr */
	bool keys;			/* stdin a tty, non-canonical */
	struct termios saved;
	uint64_t last_ms;
	bool printed;
};

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

static void log_line(void *data, enum kj_log_level level, const char *msg)
{
	(void)data;
	if (level == KJ_LOG_DEBUG)
		fputs(msg, stderr);
	else
		fprintf(stderr, "kjump-save: %s%s\n",
			level == KJ_LOG_WARNING ? "warning: " : "", msg);
}

static void usage(FILE *f)
{
	fputs("usage: kjump-save [--once] [--no-jump] [--no-power-off] [-v]\n"
	      "                  [--root DIR] [--param FILE] [--status FILE]"
	      " [--vmcore PATH] [--dev PATH]\n", f);
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longs[] = {
		{ "once", no_argument, NULL, 'o' },
		{ "no-jump", no_argument, NULL, 'n' },
		{ "no-power-off", no_argument, NULL, 'P' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "root", required_argument, NULL, 'r' },
		{ "param", required_argument, NULL, 'p' },
		{ "status", required_argument, NULL, 's' },
		{ "vmcore", required_argument, NULL, 'c' },
		{ "dev", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->root = "";
	o->vmcore = "/proc/vmcore";
	while ((c = getopt_long(argc, argv, "v", longs, NULL)) != -1) {
		switch (c) {
		case 'o': o->once = true; break;
		case 'n': o->no_jump = true; break;
		case 'P': o->no_power_off = true; break;
		case 'v': o->verbose = true; break;
		case 'r': o->root = optarg; break;
		case 'p': o->param = optarg; break;
		case 's': o->status = optarg; break;
		case 'c': o->vmcore = optarg; break;
		case 'd': o->dev = optarg; break;
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* path under the root, unless given (a test's file) */
static const char *rooted(const struct opts *o, const char *given,
			  const char *abs, char *buf, size_t size)
{
	if (given)
		return given;
	snprintf(buf, size, "%s%s", o->root, abs);
	return buf;
}

/* -ENODEV: no jump record leads to a page: a crash booted this kernel. */
static int read_param(const char *path, struct kj_jump_param *p)
{
	ssize_t n = 0, r = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "kjump-save: %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(p, 0, sizeof(*p));
	while (n < (ssize_t)sizeof(*p)) {
		r = read(fd, (char *)p + n, sizeof(*p) - (size_t)n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(fd);
	if (!n && r < 0 && errno == ENODEV)
		return -ENODEV;
	if (n != (ssize_t)sizeof(*p) || p->magic != KJ_JUMP_PARAM_MAGIC ||
	    p->version != KJ_JUMP_PARAM_VERSION ||
	    p->size != KJ_JUMP_PARAM_SIZE ||
	    p->request_len > KJ_JUMP_REQUEST_MAX) {
		fprintf(stderr, "kjump-save: %s: not a kexec jump parameter page"
			" of version %u\n", path, KJ_JUMP_PARAM_VERSION);
		return -1;
	}
	return 0;
}

static int write_status(const char *path, const struct kjh_status *st)
{
	char buf[KJ_JUMP_STATUS_MAX];
	int len = kjh_status_format(st, buf, sizeof(buf));
	int fd, ok;

	if (len < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "kjump-save: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = write(fd, buf, (size_t)len) == len;
	if (close(fd) || !ok) {
		fprintf(stderr, "kjump-save: %s: writing the status failed\n",
			path);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------- the user */

static void keys_on(struct ui *ui)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &ui->saved))
		return;
	t = ui->saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	ui->keys = !tcsetattr(STDIN_FILENO, TCSANOW, &t);
}

static void keys_off(struct ui *ui)
{
	if (ui->keys)
		tcsetattr(STDIN_FILENO, TCSANOW, &ui->saved);
	ui->keys = false;
}

static bool cancelled(void *data)
{
	struct ui *ui = data;
	struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
	char c;

	if (got_signal)
		return true;
	return ui->keys && poll(&pfd, 1, 0) == 1 &&
	       read(STDIN_FILENO, &c, 1) == 1;
}

static double mib(uint64_t bytes)
{
	return (double)bytes / (1024.0 * 1024.0);
}

static void progress(void *data, const struct kjs_progress *p)
{
	struct ui *ui = data;
	uint64_t done = p->done_pages * 4096, all = p->total_pages * 4096;
	double secs = (double)p->elapsed_ms / 1000.0;
	double rate = secs > 0 ? mib(done) / secs : 0;
	unsigned int eta;

	if (p->final) {
		if (ui->tty && ui->printed)
			fputc('\n', stderr);
		fprintf(stderr, "kjump-save: saved %" PRIu64 " pages (%" PRIu64
			" data, %" PRIu64 " zero) in %" PRIu64
			" bytes, %.1f MiB/s, %" PRIu64 " ms\n", p->done_pages,
			p->data_pages, p->zero_pages, p->stored_bytes, rate,
			p->elapsed_ms);
		return;
	}
	if (!ui->tty && p->elapsed_ms < ui->last_ms + PROGRESS_MS)
		return;
	if (ui->tty && ui->printed && p->elapsed_ms < ui->last_ms + 100)
		return;
	ui->last_ms = p->elapsed_ms;
	eta = rate > 0 ? (unsigned int)(mib(all - done) / rate + 0.5) : 0;
	fprintf(stderr, "%skjump-save: %u%% %.0f MiB of %.0f MiB, %.1f MiB/s,"
		" ETA %u s%s", ui->tty ? "\r" : "",
		all ? (unsigned int)(done * 100 / all) : 100, mib(done),
		mib(all), rate, eta, ui->tty ? "\033[K" : "\n");
	ui->printed = true;
}

/* ------------------------------------------------------------- a save */

/* What a save served, for undoing its commit should B come back. */
struct served {
	struct kjh_request req;
	char node[4096];
};

static int serve(struct kj_ctx *ctx, const struct opts *o,
		 struct kjh_status *st, enum kjh_mode *mode,
		 struct served *sv)
{
	char pbuf[4096], err[160];
	struct kj_jump_param *param = malloc(sizeof(*param));
	struct kjh_request req;
	struct ui ui = { .tty = isatty(STDERR_FILENO) };
	struct kjs_job job;
	char *node = sv->node;
	int r = -1;

	memset(st, 0, sizeof(*st));
	*mode = KJH_MODE_SNAPSHOT;	/* failures go back to A */
	if (!param)
		goto out;
	r = read_param(rooted(o, o->param, KJ_JUMP_REQUEST_PATH, pbuf,
			      sizeof(pbuf)), param);
	if (r == -ENODEV) {
		fputs("kjump-save: entered by a crash of the other kernel: nothing to serve\n",
		      stderr);
		r = EXIT_CRASH;
		goto out;
	}
	if (r)
		goto out;
	if (!param->request_len) {
		fputs("kjump-save: no hibernation request\n", stderr);
		r = EXIT_NO_REQUEST;
		goto out;
	}
	if (kjh_request_parse(param->request, param->request_len, &req, err,
			      sizeof(err))) {
		st->result = KJH_RESULT_ERROR;
		snprintf(st->reason, sizeof(st->reason),
			 "bad hibernation request: %s", err);
		fprintf(stderr, "kjump-save: %s\n", st->reason);
		r = 1;
		goto out;
	}
	if (req.mode == KJH_MODE_READY) {
		/* kexec --warm-up: this boot was the point */
		fputs("kjump-save: ready, back to the hibernating kernel\n",
		      stderr);
		st->result = KJH_RESULT_OK;
		*mode = KJH_MODE_READY;
		r = 0;
		goto out;
	}
	if (o->dev)
		snprintf(node, sizeof(sv->node), "%s", o->dev);
	else if ((r = kjs_dev_node(o->root, req.dev_major, req.dev_minor,
				   node, sizeof(sv->node)))) {
		st->result = KJH_RESULT_ERROR;
		snprintf(st->reason, sizeof(st->reason),
			 "no device node for %u:%u: %s", req.dev_major,
			 req.dev_minor, strerror(-r));
		fprintf(stderr, "kjump-save: %s\n", st->reason);
		r = 1;
		goto out;
	}
	job = (struct kjs_job){ ctx, param, &req, o->vmcore, node, progress,
				cancelled, &ui, false, o->root };
	keys_on(&ui);
	r = kjs_save(&job, st) ? 1 : 0;
	keys_off(&ui);
	if (r)
		fprintf(stderr, "%skjump-save: %s\n", ui.tty && ui.printed ?
			"\n" : "", st->reason);
	else
		*mode = req.mode;
	sv->req = req;
out:
	free(param);
	return r;
}

/* Returns only when the machine did not power off. */
static void power_off(const struct opts *o, char *why, size_t size)
{
	if (o->no_power_off) {
		snprintf(why, size, "--no-power-off");
		return;
	}
	sync();
	reboot(RB_POWER_OFF);
	snprintf(why, size, "power off: %s", strerror(errno));
}

/*
 * B goes back to A after committing a hibernation image: A runs on, so
 * the image is made invalid first, and A hears of a failure.
 */
static void came_back(struct kj_ctx *ctx, const struct served *sv,
		      const char *why, struct kjh_status *st)
{
	struct kjs_job job = { .ctx = ctx, .req = &sv->req,
			       .dev = sv->node };
	struct kjh_status inv = { 0 };

	memset(st, 0, sizeof(*st));
	st->result = KJH_RESULT_ERROR;
	if (kjs_invalidate(&job, &inv))
		snprintf(st->reason, sizeof(st->reason),
			 "%s; the image could not be made invalid (%.160s): do not resume it",
			 why, inv.reason);
	else
		snprintf(st->reason, sizeof(st->reason),
			 "%s; the image is made invalid, back to the hibernating kernel",
			 why);
	fprintf(stderr, "kjump-save: %s\n", st->reason);
}

int main(int argc, char **argv)
{
	struct kjh_status st;
	struct served sv;
	struct kj_ctx *ctx;
	enum kjh_mode mode;
	struct opts o;
	char sbuf[4096], why[96];
	int r, jumped;

	if (parse_opts(argc, argv, &o))
		return EXIT_USAGE;
	ctx = kj_ctx_new(o.root);
	if (!ctx) {
		fputs("kjump-save: out of memory\n", stderr);
		return 1;
	}
	kj_ctx_set_log(ctx, log_line, NULL);
	kj_ctx_set_debug(ctx, o.verbose);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (;;) {
		got_signal = 0;
		r = serve(ctx, &o, &st, &mode, &sv);
		if (r == EXIT_NO_REQUEST || r == EXIT_CRASH ||
		    (r && !st.reason[0]))
			break;		/* nothing asked, or nowhere to answer */
		if (!r && mode == KJH_MODE_HIBERNATE && !o.no_jump) {
			power_off(&o, why, sizeof(why));
			came_back(ctx, &sv, why, &st);
			r = 1;
		}
		if (write_status(rooted(&o, o.status, KJ_JUMP_STATUS_PATH,
					sbuf, sizeof(sbuf)), &st) && !r)
			r = 1;
		if (o.no_jump)
			break;
		jumped = kj_jump(ctx, 0);
		if (jumped == -EOWNERDEAD)
			r = EXIT_CRASH;	/* entered again by the other's crash */
		if (jumped || o.once)
			break;
	}
	kj_ctx_free(ctx);
	return r;
}
