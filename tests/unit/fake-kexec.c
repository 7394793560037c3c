// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake-kexec.so: run the real kexec binary against a pretend kernel.
 *
 *	LD_PRELOAD=tests/unit/fake-kexec.so KJUMP_FAKE_ROOT=DIR \
 *		KJUMP_FAKE_OUT=DIR kexec/kexec -l bzImage ...
 *
 * Nothing reaches the real kernel: kexec_load(2) and reboot(2) are
 * recorded and answered here, sync() does nothing, network interfaces
 * are fake, and exec*() is refused.  Paths under /proc and /sys resolve
 * (and /run) below $KJUMP_FAKE_ROOT (a missing root makes them all ENOENT).
 *
 * Environment:
 *   KJUMP_FAKE_ROOT          the pretend /: sys/firmware/memmap,
 *                            proc/iomem, proc/cmdline, sys/kernel/...
 *   KJUMP_FAKE_OUT           the record directory (required for kexec_load
 *                            and reboot to succeed)
 *   KJUMP_FAKE_ERRNO         kexec_load fails with this errno (a name
 *                            such as EPERM, or a number)
 *   KJUMP_FAKE_FILE_ERRNO    kexec_file_load fails with this errno
 *   KJUMP_FAKE_REBOOT_ERRNO  reboot fails with this errno
 *   KJUMP_FAKE_REQUEST_ERRNO a write of a request to
 *                            /sys/kernel/kexec_jump_request fails with
 *                            this errno (one NUL byte, a withdrawal, still
 *                            works): an x86_64 companion kernel older than
 *                            patch 0038 answers EOPNOTSUPP
 *   KJUMP_FAKE_NEED_CAP      if set, kexec_load and reboot fail with EPERM
 *                            unless the caller's effective capabilities
 *                            (/proc/self/status CapEff) hold CAP_SYS_BOOT,
 *                            as the kernel's do (off by default: test
 *                            machines rarely grant it)
 *
 * Records in $KJUMP_FAKE_OUT:
 *   preload         written when the shim starts: proof it is active
 *   calls           one line per call, in order:
 *                     kexec_load load-N entry=0x.. nr_segments=N flags=0x.. result=OK|ENAME
 *                     kexec_file_load load-N kernel=PATH initrd=PATH|- flags=0x..
 *                       cmdline="..." result=OK|ENAME
 *                     reboot cmd=0x........ result=OK|ENAME
 *                     sync
 *                     ifdown NAME
 *                     exec PATH ARG...
 *   load-N/info     "entry 0x..", "flags 0x..", "nr_segments N" and one
 *                   "segment I MEM MEMSZ BUFSZ" line (hex) per segment
 *   load-N/segment-I.bin   the segment's bufsz bytes
 *   slot-normal, slot-crash  which load each slot holds: "load-N", or
 *                   "none" once it was unloaded or freed (missing: never
 *                   touched, i.e. as the fake root's kexec_*loaded say)
 *
 * A successful load sets $ROOT/sys/kernel/kexec_loaded (or, with
 * KEXEC_ON_CRASH, kexec_crash_loaded) to 1, an unload to 0.  Like the
 * kernel (6.1 kernel/kexec.c), kexec_load fails
 *   - with EPERM when $ROOT/proc/sys/kernel/kexec_load_disabled is 1 (or
 *     CAP_SYS_BOOT is missing, see KJUMP_FAKE_NEED_CAP);
 *   - with EINVAL for unknown flag bits or more than 16 segments;
 *   and only then, for a crash load, frees the crash slot's image, so
 *   that every later failure leaves the crash slot empty:
 *   - EINVAL for unaligned, overlapping or bufsz > memsz segments;
 *   - an injected KJUMP_FAKE_ERRNO other than EPERM, EBUSY and ENOSYS
 *     (those three come before the free and change nothing).
 * A failed normal load keeps the old image.  reboot(KEXEC) with nothing
 * loaded fails with EINVAL.
 *
 * /run/kexec-tools-kjump.lock resolves below $KJUMP_FAKE_ROOT too, so a
 * test can hold kexec's lock (and a run without a fake root never
 * touches the real one).
 */
/* Our wrappers replace libc's functions: no inline fortify copies. */
#undef _FORTIFY_SOURCE
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef SYS_kexec_load
# if defined(__i386__)
#  define SYS_kexec_load 283
# elif defined(__x86_64__)
#  define SYS_kexec_load 246
# endif
#endif

#define EXPORT		__attribute__((visibility("default")))
#define FAKE_MAX_SEGS	16
#define ON_CRASH	0x1ul
#define KNOWN_FLAGS	0xful		/* ON_CRASH, PRESERVE_CONTEXT, 0x4, 0x8 */
#define ARCH_MASK	0xffff0000ul
#define CMD_KEXEC	0x45584543u

struct fake_segment {
	const void *buf;
	size_t bufsz;
	const void *mem;
	size_t memsz;
};

/* ------------------------------------------------------------ helpers */

static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f) {
		static const char msg[] = "fake-kexec: a libc symbol is missing\n";

		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
			_exit(127);
		abort();
	}
	return f;
}

#define REAL(name)	((__typeof__(&name))real(#name))

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* Our own file access must not come back through the wrappers. */
static int raw_open(const char *path, int flags, mode_t mode)
{
	return ((int (*)(const char *, int, ...))real("open"))(path, flags,
								 mode);
}

static void write_file(const char *path, const void *data, size_t len,
		       bool append)
{
	int fd = raw_open(path, O_WRONLY | O_CREAT | O_CLOEXEC |
			  (append ? O_APPEND : O_TRUNC), 0644);
	const char *p = data;

	if (fd < 0)
		return;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			break;
		p += n;
		len -= (size_t)n;
	}
	close(fd);
}

static void out_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", env("KJUMP_FAKE_OUT"), name);
}

__attribute__((format(printf, 1, 2)))
static void record(const char *fmt, ...)
{
	char path[4096], line[4096];
	va_list ap;
	int n;

	if (!env("KJUMP_FAKE_OUT"))
		return;
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	out_path(path, sizeof(path), "calls");
	write_file(path, line, (size_t)n, true);
}

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "EPERM", EPERM }, { "EINVAL", EINVAL }, { "EBUSY", EBUSY },
	{ "ENOMEM", ENOMEM }, { "ENOSYS", ENOSYS },
	{ "EADDRNOTAVAIL", EADDRNOTAVAIL }, { "EOVERFLOW", EOVERFLOW },
	{ "EACCES", EACCES }, { "ENOEXEC", ENOEXEC },
	{ "EKEYREJECTED", EKEYREJECTED }, { "EBADF", EBADF },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "EOWNERDEAD", EOWNERDEAD },
};

static int parse_errno(const char *v)
{
	size_t i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (!strcmp(v, errnos[i].name))
			return errnos[i].err;
	return atoi(v) > 0 ? atoi(v) : EIO;
}

static const char *errno_name(int err)
{
	static char num[16];
	size_t i;

	for (i = 0; i < sizeof(errnos) / sizeof(errnos[0]); i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	snprintf(num, sizeof(num), "%d", err);
	return num;
}

/* The pretend kernel's state files. */
static void set_loaded(bool crash, int v)
{
	char path[4096];

	if (!env("KJUMP_FAKE_ROOT"))
		return;
	snprintf(path, sizeof(path), "%s/sys/kernel/%s", env("KJUMP_FAKE_ROOT"),
		 crash ? "kexec_crash_loaded" : "kexec_loaded");
	write_file(path, v ? "1\n" : "0\n", 2, false);
}

/* Which load a slot holds now: seq > 0, or 0 for none. */
static void set_slot(bool crash, int seq)
{
	char path[4096], text[32];
	int n;

	out_path(path, sizeof(path), crash ? "slot-crash" : "slot-normal");
	if (seq > 0)
		n = snprintf(text, sizeof(text), "load-%d\n", seq);
	else
		n = snprintf(text, sizeof(text), "none\n");
	write_file(path, text, (size_t)n, false);
	set_loaded(crash, seq > 0);
}

/* Read "0"/"1"-style flag files of the fake root (missing: 0). */
static bool root_flag(const char *rel)
{
	char path[4096], c = '0';
	int fd;

	if (!env("KJUMP_FAKE_ROOT"))
		return false;
	snprintf(path, sizeof(path), "%s/%s", env("KJUMP_FAKE_ROOT"), rel);
	fd = raw_open(path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = '0';
	close(fd);
	return c == '1';
}

/* CAP_SYS_BOOT (bit 22) in our effective set, when the test asks. */
static bool cap_sys_boot_missing(void)
{
	char text[4096], *line;
	unsigned long long caps = 0;
	ssize_t n;
	int fd;

	if (!env("KJUMP_FAKE_NEED_CAP"))
		return false;
	fd = raw_open("/proc/self/status", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return true;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	text[n > 0 ? n : 0] = '\0';
	line = strstr(text, "\nCapEff:");
	if (!line || sscanf(line + 8, "%llx", &caps) != 1)
		return true;
	return !(caps >> 22 & 1);
}

static bool is_loaded(bool crash)
{
	char path[4096], c = '0';
	int fd;

	if (!env("KJUMP_FAKE_ROOT"))
		return false;
	snprintf(path, sizeof(path), "%s/sys/kernel/%s", env("KJUMP_FAKE_ROOT"),
		 crash ? "kexec_crash_loaded" : "kexec_loaded");
	fd = raw_open(path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	if (read(fd, &c, 1) != 1)
		c = '0';
	close(fd);
	return c == '1';
}

/* ---------------------------------------------------------- redirects */

/* /proc, /sys and /run under the fake root; everything else as is. */
static const char *redirect(const char *path, char *buf, size_t size)
{
	const char *root = env("KJUMP_FAKE_ROOT");

	if (!path || path[0] != '/')
		return path;
	if (strncmp(path, "/proc/", 6) && strcmp(path, "/proc") &&
	    strncmp(path, "/sys/", 5) && strcmp(path, "/sys") &&
	    strncmp(path, "/run/", 5))
		return path;
	if (!strncmp(path, "/proc/self/", 11) ||
	    !strncmp(path, "/proc/thread-self/", 18))
		return path;
	if (!root)
		root = "/nonexistent-kjump-fake-root";
	snprintf(buf, size, "%s%s", root, path);
	return buf;
}

static bool has_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

/* The descriptor writes of a request fail on (KJUMP_FAKE_REQUEST_ERRNO). */
static int request_fd = -1;

static int note_request_fd(const char *path, int flags, int fd)
{
	if (fd >= 0 && env("KJUMP_FAKE_REQUEST_ERRNO") &&
	    (flags & O_ACCMODE) != O_RDONLY &&
	    !strcmp(path, "/sys/kernel/kexec_jump_request"))
		request_fd = fd;
	return fd;
}

#define OPEN_WRAPPER(name)						\
	EXPORT int name(const char *path, int flags, ...)		\
	{								\
		char buf[4096];						\
		mode_t mode = 0;					\
		va_list ap;						\
									\
		if (has_mode(flags)) {					\
			va_start(ap, flags);				\
			mode = va_arg(ap, mode_t);			\
			va_end(ap);					\
		}							\
		return note_request_fd(path, flags,			\
			((int (*)(const char *, int, ...))real(#name))(	\
			redirect(path, buf, sizeof(buf)), flags, mode));\
	}

OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)

#define OPENAT_WRAPPER(name)						\
	EXPORT int name(int dfd, const char *path, int flags, ...)	\
	{								\
		char buf[4096];						\
		mode_t mode = 0;					\
		va_list ap;						\
									\
		if (has_mode(flags)) {					\
			va_start(ap, flags);				\
			mode = va_arg(ap, mode_t);			\
			va_end(ap);					\
		}							\
		return ((int (*)(int, const char *, int, ...))		\
			real(#name))(dfd, redirect(path, buf,		\
			sizeof(buf)), flags, mode);			\
	}

OPENAT_WRAPPER(openat)
OPENAT_WRAPPER(openat64)

/* _FORTIFY_SOURCE variants */
EXPORT int __open_2(const char *path, int flags);
EXPORT int __open_2(const char *path, int flags)
{
	char buf[4096];

	return ((int (*)(const char *, int))real("__open_2"))(
		redirect(path, buf, sizeof(buf)), flags);
}

EXPORT int __open64_2(const char *path, int flags);
EXPORT int __open64_2(const char *path, int flags)
{
	char buf[4096];

	return ((int (*)(const char *, int))real("__open64_2"))(
		redirect(path, buf, sizeof(buf)), flags);
}

EXPORT FILE *fopen(const char *path, const char *mode)
{
	char buf[4096];

	return REAL(fopen)(redirect(path, buf, sizeof(buf)), mode);
}

EXPORT FILE *fopen64(const char *path, const char *mode)
{
	char buf[4096];

	return REAL(fopen64)(redirect(path, buf, sizeof(buf)), mode);
}

EXPORT DIR *opendir(const char *path)
{
	char buf[4096];

	return REAL(opendir)(redirect(path, buf, sizeof(buf)));
}

EXPORT int unlink(const char *path)
{
	char buf[4096];

	return REAL(unlink)(redirect(path, buf, sizeof(buf)));
}

EXPORT int access(const char *path, int mode)
{
	char buf[4096];

	return REAL(access)(redirect(path, buf, sizeof(buf)), mode);
}

EXPORT int stat(const char *path, struct stat *st)
{
	char buf[4096];

	return REAL(stat)(redirect(path, buf, sizeof(buf)), st);
}

EXPORT int lstat(const char *path, struct stat *st)
{
	char buf[4096];

	return REAL(lstat)(redirect(path, buf, sizeof(buf)), st);
}

EXPORT int stat64(const char *path, struct stat64 *st)
{
	char buf[4096];

	return REAL(stat64)(redirect(path, buf, sizeof(buf)), st);
}

EXPORT int lstat64(const char *path, struct stat64 *st)
{
	char buf[4096];

	return REAL(lstat64)(redirect(path, buf, sizeof(buf)), st);
}

/* ---------------------------------------------------------- kexec_load */

static int next_seq(void)
{
	char path[4096], text[32] = "";
	int fd, seq = 0;
	ssize_t n;

	out_path(path, sizeof(path), "seq");
	fd = raw_open(path, O_RDONLY | O_CLOEXEC, 0);
	if (fd >= 0) {
		n = read(fd, text, sizeof(text) - 1);
		text[n > 0 ? n : 0] = '\0';
		seq = atoi(text);
		close(fd);
	}
	seq++;
	snprintf(text, sizeof(text), "%d\n", seq);
	write_file(path, text, strlen(text), false);
	return seq;
}

static void dump_load(int seq, unsigned long entry, unsigned long nr,
		      const struct fake_segment *segs, unsigned long flags)
{
	char dir[4096], path[4200], line[256];
	unsigned long i;
	int n;

	snprintf(dir, sizeof(dir), "%s/load-%d", env("KJUMP_FAKE_OUT"), seq);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/info", dir);
	n = snprintf(line, sizeof(line), "entry 0x%lx\nflags 0x%lx\nnr_segments %lu\n",
		     entry, flags, nr);
	write_file(path, line, (size_t)n, false);
	for (i = 0; i < nr && i < FAKE_MAX_SEGS; i++) {
		n = snprintf(line, sizeof(line), "segment %lu 0x%lx 0x%zx 0x%zx\n",
			     i, (unsigned long)(uintptr_t)segs[i].mem,
			     segs[i].memsz, segs[i].bufsz);
		write_file(path, line, (size_t)n, true);
	}
	for (i = 0; i < nr && i < FAKE_MAX_SEGS; i++) {
		snprintf(path, sizeof(path), "%s/segment-%lu.bin", dir, i);
		write_file(path, segs[i].buf, segs[i].bufsz, false);
	}
}

/* The checks the kernel makes before it touches either slot. */
static int entry_checks(unsigned long nr, unsigned long flags)
{
	if (root_flag("proc/sys/kernel/kexec_load_disabled") ||
	    cap_sys_boot_missing())
		return EPERM;
	if ((flags & ~ARCH_MASK) & ~KNOWN_FLAGS)
		return EINVAL;
	if (nr > FAKE_MAX_SEGS)
		return EINVAL;
	return 0;
}

/* What the kernel's segment checks would say; 0 if it would take it. */
static int segment_checks(unsigned long nr, const struct fake_segment *s)
{
	unsigned long i, j;

	if (nr && !s)
		return EINVAL;
	for (i = 0; i < nr; i++) {
		uintptr_t m = (uintptr_t)s[i].mem;

		if ((m | s[i].memsz) & 0xfff || s[i].bufsz > s[i].memsz ||
		    m + s[i].memsz < m)
			return EINVAL;
		for (j = 0; j < i; j++) {
			uintptr_t o = (uintptr_t)s[j].mem;

			if (m < o + s[j].memsz && o < m + s[i].memsz)
				return EINVAL;
		}
	}
	return 0;
}

/* Errors the kernel returns before a crash load frees the old image. */
static bool before_free(int err)
{
	return err == EPERM || err == EBUSY || err == ENOSYS;
}

static long fake_kexec_load(unsigned long entry, unsigned long nr,
			    const struct fake_segment *segs,
			    unsigned long flags)
{
	const char *fail = env("KJUMP_FAKE_ERRNO");
	int seq, err, inject;

	if (!env("KJUMP_FAKE_OUT")) {
		errno = EPERM;
		return -1;
	}
	seq = next_seq();
	dump_load(seq, entry, nr, segs, flags);
	inject = fail ? parse_errno(fail) : 0;
	err = entry_checks(nr, flags);
	if (!err && inject && before_free(inject))
		err = inject;
	if (!err) {
		/* Here a crash load has freed the old crash image. */
		if ((flags & ON_CRASH) && nr)
			set_slot(true, 0);
		err = inject ? inject : segment_checks(nr, segs);
	}
	record("kexec_load load-%d entry=0x%lx nr_segments=%lu flags=0x%lx result=%s",
	       seq, entry, nr, flags, err ? errno_name(err) : "OK");
	if (err) {
		errno = err;
		return -1;
	}
	set_slot(flags & ON_CRASH, nr ? seq : 0);
	return 0;
}

/* ----------------------------------------------------- kexec_file_load */

#ifdef SYS_kexec_file_load
#define FILE_UNLOAD		0x1ul
#define FILE_ON_CRASH		0x2ul
#define FILE_NO_INITRAMFS	0x4ul

/* The file behind descriptor fd, or "-" for none. */
static void fd_name(long fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(buf, size, "-");
	if (fd < 0)
		return;
	snprintf(link, sizeof(link), "/proc/self/fd/%ld", fd);
	n = readlink(link, buf, size - 1);
	if (n < 0) {
		snprintf(buf, size, "bad-fd");
		return;
	}
	buf[n] = '\0';
}

/*
 * As 6.1 kernel/kexec_file.c: EPERM, bad flags and EBUSY change nothing;
 * after them a crash load frees the loaded crash image, then reads the
 * files and the command line (which must end in its NUL).
 */
static int file_load_checks(long kfd, long ifd, unsigned long len,
			    const char *cmdline, unsigned long flags,
			    int inject)
{
	if (root_flag("proc/sys/kernel/kexec_load_disabled") ||
	    cap_sys_boot_missing())
		return EPERM;
	if (flags & ~(FILE_UNLOAD | FILE_ON_CRASH | FILE_NO_INITRAMFS))
		return EINVAL;
	if (inject && before_free(inject))
		return inject;
	if (flags & FILE_UNLOAD)
		return 0;
	if (flags & FILE_ON_CRASH)
		set_slot(true, 0);
	if (inject)
		return inject;
	if (kfd < 0 || (!(flags & FILE_NO_INITRAMFS) && ifd < 0))
		return EBADF;
	if (len && (!cmdline || cmdline[len - 1]))
		return EINVAL;
	return 0;
}

static long fake_kexec_file_load(long kfd, long ifd, unsigned long len,
				 const char *cmdline, unsigned long flags)
{
	const char *fail = env("KJUMP_FAKE_FILE_ERRNO");
	char kname[1024], iname[1024];
	int seq, err;

	if (!env("KJUMP_FAKE_OUT")) {
		errno = EPERM;
		return -1;
	}
	seq = next_seq();
	fd_name(kfd, kname, sizeof(kname));
	fd_name(flags & FILE_NO_INITRAMFS ? -1 : ifd, iname, sizeof(iname));
	err = file_load_checks(kfd, ifd, len, cmdline, flags,
			       fail ? parse_errno(fail) : 0);
	record("kexec_file_load load-%d kernel=%s initrd=%s flags=0x%lx cmdline=\"%.*s\" result=%s",
	       seq, kname, iname, flags, len ? (int)len - 1 : 0,
	       len && cmdline ? cmdline : "", err ? errno_name(err) : "OK");
	if (err) {
		errno = err;
		return -1;
	}
	set_slot(flags & FILE_ON_CRASH, flags & FILE_UNLOAD ? 0 : seq);
	return 0;
}
#endif

EXPORT long syscall(long nr, ...)
{
	unsigned long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, unsigned long);
	va_end(ap);
	if (nr == SYS_kexec_load)
		return fake_kexec_load(a[0], a[1],
				       (const struct fake_segment *)a[2], a[3]);
#ifdef SYS_kexec_file_load
	if (nr == SYS_kexec_file_load)
		/* the kernel's fds are ints: the upper halves are junk */
		return fake_kexec_file_load((int)a[0], (int)a[1], a[2],
					    (const char *)a[3], a[4]);
#endif
	return REAL(syscall)(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* ------------------------------------------------- reboot, sync, exec */

EXPORT int reboot(int cmd)
{
	const char *fail = env("KJUMP_FAKE_REBOOT_ERRNO");
	int err = 0;

	if (!env("KJUMP_FAKE_OUT") || cap_sys_boot_missing())
		err = EPERM;
	else if (fail)
		err = parse_errno(fail);
	else if ((unsigned int)cmd == CMD_KEXEC && !is_loaded(false))
		err = EINVAL;
	record("reboot cmd=0x%08x result=%s", (unsigned int)cmd,
	       err ? errno_name(err) : "OK");
	if (err) {
		errno = err;
		return -1;
	}
	return 0;	/* as if a preserve-context image came back */
}

EXPORT void sync(void)
{
	record("sync");
}

static int refuse_exec(const char *path, char *const argv[])
{
	char line[1024];
	size_t n;
	int i;

	n = (size_t)snprintf(line, sizeof(line), "exec %s", path);
	for (i = 1; argv && argv[i] && n < sizeof(line); i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %s",
				      argv[i]);
	record("%s", line);
	errno = ENOENT;
	return -1;
}

EXPORT int execv(const char *path, char *const argv[])
{
	return refuse_exec(path, argv);
}

EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
	(void)envp;
	return refuse_exec(path, argv);
}

EXPORT int execvp(const char *file, char *const argv[])
{
	return refuse_exec(file, argv);
}

/* -------------------------------------------------- network interfaces */

EXPORT struct if_nameindex *if_nameindex(void)
{
	static const char *const names[] = { "lo", "eth0" };
	struct if_nameindex *ifs = calloc(3, sizeof(*ifs));
	unsigned int i;

	if (!ifs)
		return NULL;
	for (i = 0; i < 2; i++) {
		ifs[i].if_index = i + 1;
		ifs[i].if_name = strdup(names[i]);
	}
	return ifs;
}

EXPORT void if_freenameindex(struct if_nameindex *ifs)
{
	struct if_nameindex *i;

	for (i = ifs; i && i->if_index; i++)
		free(i->if_name);
	free(ifs);
}

EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
	if (fd >= 0 && fd == request_fd &&
	    !(n == 1 && !*(const char *)buf)) {
		errno = parse_errno(env("KJUMP_FAKE_REQUEST_ERRNO"));
		return -1;
	}
	return REAL(write)(fd, buf, n);
}

EXPORT int close(int fd)
{
	if (fd >= 0 && fd == request_fd)
		request_fd = -1;
	return REAL(close)(fd);
}

/* Interface flags never reach the real kernel. */
EXPORT int ioctl(int fd, unsigned long req, ...)
{
	struct ifreq *ifr;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req != SIOCGIFFLAGS && req != SIOCSIFFLAGS)
		return REAL(ioctl)(fd, req, arg);
	ifr = arg;
	if (req == SIOCGIFFLAGS) {
		ifr->ifr_flags = IFF_UP | IFF_RUNNING;
		if (!strcmp(ifr->ifr_name, "lo"))
			ifr->ifr_flags |= IFF_LOOPBACK;
		return 0;
	}
	if (!(ifr->ifr_flags & IFF_UP))
		record("ifdown %s", ifr->ifr_name);
	return 0;
}

/* A sandbox without sockets still gets a descriptor for the ioctls. */
EXPORT int socket(int domain, int type, int protocol)
{
	int fd = REAL(socket)(domain, type, protocol);

	if (fd < 0 && domain == AF_INET)
		fd = raw_open("/dev/null", O_RDONLY | O_CLOEXEC, 0);
	return fd;
}

__attribute__((constructor))
static void fake_start(void)
{
	char path[4096], text[32];
	int n;

	if (!env("KJUMP_FAKE_OUT"))
		return;
	out_path(path, sizeof(path), "preload");
	n = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	write_file(path, text, (size_t)n, false);
}
