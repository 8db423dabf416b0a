/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lock files and ownership checks: the one locking mechanism of every
 * cpm tool, and the checks that a file or directory beside a lock is
 * cpm's to replace.
 */
#ifndef CPM_LOCK_H
#define CPM_LOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Lock files: the one mechanism every tool uses.  lock_file() opens (or
 * creates) lockpath, a regular file that must belong to us or root, and
 * takes an exclusive flock on it, waiting wait_ms milliseconds at most
 * (negative: forever, 0: not at all).  A lock file is created 0600 (one
 * others can open, they can hold) and refused (-EFTYPE_CPM) when it is
 * another user's, writable by others, not a regular file or reached
 * through a link another user could have planted.  A waiter that gives
 * up names the holder from /proc/locks.  Returns the fd to pass to
 * unlock_file() or -errno with err set; -ETIMEDOUT when the wait ran
 * out.
 */
int lock_file(const char *lockpath, int64_t wait_ms, char *err,
	      size_t errlen);
/*
 * fn(lockpath, holder) is called once by a lock_file() that has waited a
 * second, holder the PID holding the lock (0: unknown): the tool tells
 * its user whom it waits for and how to bound the wait.
 */
void lock_wait_notice(void (*fn)(const char *lockpath, pid_t holder));
/*
 * Before anything is locked, created or written beside path: the file
 * there, if any, must be cpm's to replace.  It is opened without
 * following a symbolic link another user could have planted (as the
 * kernel's protected_symlinks rule, applied whatever the sysctl says) and
 * without blocking, and must be a regular file of root's or ours that no
 * one else can write, and be empty or begin with magic (NULL: any text).
 * OWN_PRIVATE_DIR: its directory, too, must be root's or ours and
 * writable by no one else (or sticky), as for a journal whose word is
 * acted on.  what names the file in err ("state", "journal").  Returns
 * 0 (also when there is no such file), -EFTYPE_CPM or -EISDIR with err
 * saying why, or another -errno.
 */
#define OWN_PRIVATE_DIR 1u
int own_file_check(const char *path, const char *what, const char *magic,
		   unsigned int flags, char *err, size_t errlen);
/* own_file_check()'s OWN_PRIVATE_DIR test alone: 0 or -EFTYPE_CPM. */
int own_dir_check(const char *path, const char *what, char *err,
		  size_t errlen);
void unlock_file(int fd);
/* The PID holding a flock on lockpath (from /proc/locks), or 0. */
pid_t lock_holder(const char *lockpath);
/*
 * Parse a --wait argument: whole seconds, a duration with a unit ("500ms",
 * "2s") or "forever" (-1).  Result in milliseconds.  0, -EINVAL or
 * -ERANGE.
 */
int parse_wait(const char *s, int64_t *ms);

#endif
