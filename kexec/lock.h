/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One kexec at a time: an advisory lock on /run/kexec-tools-kjump.lock,
 * taken by the actions that change the kernel's kexec state (load,
 * unload, exec, jump).  The holder writes its pid into the file so a
 * second kexec can say who it is waiting for.
 */
#ifndef KJUMP_LOCK_H
#define KJUMP_LOCK_H

#define KEXEC_LOCK_FILE		"/run/kexec-tools-kjump.lock"

struct kexec_lock {
	int fd;			/* -1: not held */
};

/*
 * Take the lock at ROOT/run/kexec-tools-kjump.lock without waiting.
 * Returns 0 when held, or when the file cannot be opened for writing
 * (no writable /run, not root): then there is nothing to hold and the
 * kernel's own checks decide.  Returns -EBUSY, after printing
 * "kexec: WHAT: another kexec is running (pid N)", when another process
 * holds it.
 */
int kexec_lock_take(struct kexec_lock *l, const char *root, const char *what);

/* Release the lock (closing the file is enough; the file stays). */
void kexec_lock_release(struct kexec_lock *l);

#endif
