// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Lock files (flock), their holders, --wait parsing, and the ownership
 * checks of files and directories cpm replaces (lock.h).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/err.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/path.h"
#include "base/timeutil.h"

static void
sleep_ms(unsigned int ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * The process holding a flock on the file open as fd, from /proc/locks
 * (the kernel's word, not a file another process could have written).
 */
static pid_t
flock_holder(int fd)
{
	unsigned long long ino;
	unsigned int maj, min;
	char line[256], kind[16];
	struct stat st;
	pid_t found = 0;
	long pid;
	FILE *f;

	if (fstat(fd, &st) < 0 || (f = fopen("/proc/locks", "re")) == NULL)
		return 0;
	while (found == 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%llu", kind, &pid,
			   &maj, &min, &ino) != 5 || strcmp(kind, "FLOCK") != 0)
			continue;
		if (ino == (unsigned long long)st.st_ino &&
		    maj == major(st.st_dev) && min == minor(st.st_dev) &&
		    pid > 0 && pid != getpid())
			found = (pid_t)pid;
	}
	fclose(f);
	return found;
}

pid_t
lock_holder(const char *lockpath)
{
	pid_t pid;
	int fd;

	fd = open_regular_at(AT_FDCWD, lockpath, NULL, 0);
	if (fd < 0)
		return 0;
	pid = flock_holder(fd);
	close(fd);
	return pid;
}

/* Who hears that a lock is being waited for (lock_wait_notice()). */
static void (*lock_waiting)(const char *lockpath, pid_t holder);

void
lock_wait_notice(void (*fn)(const char *lockpath, pid_t holder))
{
	lock_waiting = fn;
}

/*
 * Whether a file of st may be trusted to be ours: a regular file of root
 * or ours that no one else can write (a group's write bit counts only
 * for a group other than root's and ours).  NULL when it may, else what
 * it is, for a message.
 */
static const char *
file_untrusted(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return S_ISDIR(st->st_mode) ? "a directory" :
		       "not a regular file";
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return "owned by another user";
	if ((st->st_mode & S_IWOTH) ||
	    ((st->st_mode & S_IWGRP) && st->st_gid != 0 &&
	     st->st_gid != getegid()))
		return "writable by other users";
	return NULL;
}

/* The same for a directory a file is trusted in: root's or ours, and
 * open to no one else's writes, or sticky (no one else may then remove
 * or replace what is ours in it). */
static const char *
dir_untrusted(const struct stat *st)
{
	if (st->st_uid != 0 && st->st_uid != geteuid())
		return "owned by another user";
	if (!(st->st_mode & S_ISVTX) &&
	    ((st->st_mode & S_IWOTH) ||
	     ((st->st_mode & S_IWGRP) && st->st_gid != 0 &&
	      st->st_gid != getegid())))
		return "writable by other users";
	return NULL;
}

int
own_file_check(const char *path, const char *what, const char *magic,
	       unsigned int flags, char *err, size_t errlen)
{
	char head[64];
	const char *base, *why;
	struct stat st, ds;
	ssize_t n;
	int dfd, fd, r;

	dfd = open_parent_at(AT_FDCWD, path, DIR_PATH, 0, &base);
	if (dfd < 0)
		return dfd == -ENOENT ? 0 :
		       err_ret(err, errlen, dfd == -ELOOP ? -EFTYPE_CPM : dfd,
			       "cannot open the directory of %s '%s': %s",
			       what, path, dfd == -ELOOP ?
			       "a symbolic link on the way" : strerror(-dfd));
	if ((flags & OWN_PRIVATE_DIR) && fstat(dfd, &ds) == 0 &&
	    (why = dir_untrusted(&ds)) != NULL) {
		close(dfd);
		return err_ret(err, errlen, -EFTYPE_CPM, "%s '%s' is not "
			       "trusted: its directory is %s", what, path, why);
	}
	fd = openat(dfd, base, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
		    O_NOFOLLOW);
	r = fd < 0 ? -errno : 0;
	if (r == -ELOOP && path_link_trusted(dfd, base)) {
		fd = openat(dfd, base, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			    O_NOCTTY);
		r = fd < 0 ? -errno : 0;
	}
	if (fd < 0 && r == -ENXIO) {
		/* a socket, or a FIFO with no writer */
		if (fstatat(dfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0)
			r = -EFTYPE_CPM;
	}
	close(dfd);
	if (r == -ENOENT)
		return 0;
	if (r == -ELOOP)
		return err_ret(err, errlen, -EFTYPE_CPM, "%s '%s' is a symbolic "
			       "link another user could have planted", what,
			       path);
	if (r == -EFTYPE_CPM)
		return err_ret(err, errlen, r, "%s '%s' is not a regular file",
			       what, path);
	if (r < 0)
		return err_ret(err, errlen, r, "cannot open %s '%s': %s", what,
			       path, strerror(-r));
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return err_ret(err, errlen, r, "cannot open %s '%s': %s", what,
			       path, strerror(-r));
	}
	if ((why = file_untrusted(&st)) != NULL) {
		close(fd);
		return err_ret(err, errlen, S_ISDIR(st.st_mode) ? -EISDIR :
			       -EFTYPE_CPM, "%s '%s' is %s", what, path, why);
	}
	do
		n = pread(fd, head, sizeof(head) - 1, 0);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return err_ret(err, errlen, -errno, "cannot read %s '%s': %s",
			       what, path, strerror(errno));
	head[n] = '\0';
	/* Empty is nothing to lose; anything else must be cpm's. */
	if (n > 0 && magic && strncmp(head, magic, strlen(magic)) != 0)
		return err_ret(err, errlen, -EFTYPE_CPM, "'%s' is not a cpm "
			       "%s file (it does not begin with '%s')", path, what,
			       magic);
	return 0;
}

int
own_dir_check(const char *path, const char *what, char *err, size_t errlen)
{
	const char *base, *why;
	struct stat ds;
	int dfd;

	dfd = open_parent_at(AT_FDCWD, path, DIR_PATH, 0, &base);
	if (dfd < 0)
		return 0;	/* the opener words that */
	why = fstat(dfd, &ds) == 0 ? dir_untrusted(&ds) : NULL;
	close(dfd);
	return why ? err_ret(err, errlen, -EFTYPE_CPM, "%s '%s' is not "
			     "trusted: its directory is %s", what, path, why) :
		     0;
}

int
lock_file(const char *lockpath, int64_t wait_ms, char *err, size_t errlen)
{
	struct stat st;
	const char *base, *why;
	uint64_t start, deadline = 0;
	unsigned int nap = 1;
	bool told = false;
	int dfd, fd, r;

	/* No link followed on the way that another user could have
	 * planted; none at all at the lock file itself. */
	dfd = open_parent_at(AT_FDCWD, lockpath, DIR_PATH, 0, &base);
	if (dfd < 0) {
		err_set(err, errlen, "cannot open lock file '%s': %s", lockpath,
			dfd == -ELOOP ? "a symbolic link on the way" :
			strerror(-dfd));
		return dfd == -ELOOP ? -EFTYPE_CPM : dfd;
	}
	/* 0600: a lock others can open, they can hold. */
	fd = openat(dfd, base, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
		    O_NONBLOCK | O_NOCTTY, 0600);
	r = -errno;
	close(dfd);
	if (fd < 0) {
		err_set(err, errlen, "cannot open lock file '%s': %s", lockpath,
			r == -ELOOP ? "a symbolic link" : strerror(-r));
		return r == -ELOOP || r == -ENXIO ? -EFTYPE_CPM : r;
	}
	/*
	 * A lock file someone else owns or may write (or a FIFO or device
	 * in its place) is theirs to hold or feed forever: refuse it rather
	 * than wait on it.
	 */
	if (fstat(fd, &st) < 0)
		st.st_mode = 0;
	if ((why = file_untrusted(&st)) != NULL) {
		err_set(err, errlen, "lock file '%s' is %s", lockpath, why);
		close(fd);
		return -EFTYPE_CPM;
	}
	/* One an older cpm made 0644: closed to new readers from now on. */
	if ((st.st_mode & 077) && st.st_uid == geteuid())
		(void)fchmod(fd, 0600);
	start = now_us();
	if (wait_ms > 0)
		deadline = start + (uint64_t)wait_ms * 1000;
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			r = -errno;
			err_set(err, errlen, "cannot lock '%s': %s", lockpath,
				strerror(errno));
			close(fd);
			return r;
		}
		if (wait_ms == 0 || (wait_ms > 0 && now_us() >= deadline)) {
			pid_t holder = flock_holder(fd);

			if (holder > 0)
				err_set(err, errlen, "'%s' is locked by process %ld; gave up waiting",
					lockpath, (long)holder);
			else
				err_set(err, errlen, "'%s' is locked by another process; gave up waiting",
					lockpath);
			close(fd);
			return -ETIMEDOUT;
		}
		/* After a second, whoever waits is told for whom. */
		if (!told && lock_waiting && now_us() - start >= 1000000) {
			lock_waiting(lockpath, flock_holder(fd));
			told = true;
		}
		sleep_ms(nap);
		if (nap < 100)
			nap *= 2;
	}
	return fd;
}

void
unlock_file(int fd)
{
	if (fd >= 0)
		close(fd);	/* releases the flock */
}

int
parse_wait(const char *s, int64_t *ms)
{
	uint64_t us;
	int r;

	if (strcmp(s, "forever") == 0) {
		*ms = -1;
		return 0;
	}
	r = parse_duration_us(s, &us);
	if (r == -EINVAL) {
		uint64_t secs;

		r = parse_u64(s, 100000000, &secs);
		us = secs * 1000000;
	}
	if (r < 0)
		return r;
	if (us / 1000 > INT64_MAX / 2)
		return -ERANGE;
	*ms = (int64_t)((us + 999) / 1000);
	return 0;
}
