// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File writing (filewrite.h): write_all(), the atomic writer with its
 * temporary names, stale temporary cleanup and mkdir_p().
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "base/filewrite.h"
#include "base/path.h"
#include "base/timeutil.h"

int
write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* 16 hex digits from the kernel's random pool (the clock when it fails). */
static void
random_suffix(char *out)
{
	uint64_t v = 0;

	if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v))
		v = now_us() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)out;
	snprintf(out, 17, "%016llx", (unsigned long long)v);
}

/*
 * ".BASE.tmp." + suffix (NULL: 16 random hex digits), with BASE cut short
 * so the whole name fits NAME_MAX: a long final name must not make the
 * file unwritable.
 */
static void
temp_name(const char *base, const char *suffix, char *out, size_t size)
{
	char rnd[17];
	size_t room = NAME_MAX - strlen(".") - strlen(".tmp.") - 16;

	if (!suffix) {
		random_suffix(rnd);
		suffix = rnd;
	}
	snprintf(out, size, ".%.*s.tmp.%s", (int)room, base, suffix);
}

void
remove_stale_temps_at(int dfd, const char *base, unsigned int min_age_s)
{
	char prefix[NAME_MAX + 8];
	struct dirent *de;
	size_t plen, room = NAME_MAX - strlen(".") - strlen(".tmp.") - 16;
	time_t now = time(NULL);
	uid_t me = geteuid();
	int fd;
	DIR *d;

	plen = (size_t)snprintf(prefix, sizeof(prefix), ".%.*s.tmp.",
				(int)room, base);
	if (plen >= sizeof(prefix))
		return;
	fd = dup(dfd);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return;
	}
	rewinddir(d);
	while ((de = readdir(d))) {
		struct stat st;

		if (strncmp(de->d_name, prefix, plen) != 0 ||
		    fstatat(dfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/* Only our own files: never someone else's, never a link. */
		if (!S_ISREG(st.st_mode) || st.st_uid != me)
			continue;
		if (min_age_s > 0 && st.st_mtime + (time_t)min_age_s > now)
			continue;
		unlinkat(dfd, de->d_name, 0);
	}
	closedir(d);
}

/*
 * Give the unnamed file fd the name 'name' in dfd.  AT_EMPTY_PATH needs
 * CAP_DAC_READ_SEARCH; /proc/self/fd works for everyone else.
 */
static int
link_tmpfile(int fd, int dfd, const char *name)
{
	char proc[64];

	if (linkat(fd, "", dfd, name, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno != ENOENT && errno != EPERM)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (linkat(AT_FDCWD, proc, dfd, name, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	return -errno;
}

/*
 * Make room at the locked writer's name: what a killed lock holder left
 * there (a regular file of ours) is removed.  1 when the name is free,
 * 0 when something else is there (a file another user planted: left
 * alone, a random name is used instead).
 */
static int
clear_locked_name(int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return 0;
	return unlinkat(dfd, name, 0) == 0 || errno == ENOENT;
}

struct bytes {
	const void *data;
	size_t len;
};

static int
fill_bytes(int fd, void *arg)
{
	const struct bytes *b = arg;

	return write_all(fd, b->data, b->len);
}

int
write_file_atomic(const char *path, const void *data, size_t len,
		  const struct write_opts *o)
{
	static const struct write_opts dflt = { .mode = 0644 };
	struct bytes b = { data, len };
	char tmp[NAME_MAX + 1];
	const char *base;
	bool named = false, left = false, locked;
	int (*fill)(int fd, void *arg) = fill_bytes;
	void *arg = &b;
	unsigned int mode;
	int fd = -1, dfd, r, tries;

	if (o == NULL)
		o = &dflt;
	mode = o->mode;
	locked = (o->flags & WRITE_LOCKED) != 0;
	if (o->fill) {
		fill = o->fill;
		arg = o->arg;
	}

	dfd = open_parent_at(AT_FDCWD, path, 0, 0, &base);
	if (dfd < 0)
		return dfd;
	if (strlen(base) > NAME_MAX) {
		close(dfd);
		return -ENAMETOOLONG;
	}
	/*
	 * An unnamed file first: nobody can open it, plant anything in
	 * its place or find it left behind when we are killed.  Where the
	 * file system cannot, a name nobody can guess, created exclusively
	 * (O_EXCL also refuses a symlink or a FIFO already there).
	 */
	fd = openat(dfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
	/* Without unnamed files a killed writer may leave any name. */
	left = fd < 0;
	for (tries = 0; fd < 0 && tries < 100; tries++) {
		temp_name(base, NULL, tmp, sizeof(tmp));
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, mode);
		if (fd >= 0)
			named = true;
		else if (errno != EEXIST)
			break;
	}
	if (fd < 0) {
		r = -errno;
		close(dfd);
		return r;
	}
	r = fill(fd, arg);
	/* The mode meant, whatever the umask. */
	if (r == 0 && fchmod(fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (r == 0 && !named && locked) {
		int lr;

		/* The lock holder's own name: the one a killed holder
		 * left is its to replace. */
		temp_name(base, "locked", tmp, sizeof(tmp));
		lr = link_tmpfile(fd, dfd, tmp);
		if (lr == -EEXIST) {
			left = true;
			if (clear_locked_name(dfd, tmp) == 1)
				lr = link_tmpfile(fd, dfd, tmp);
		}
		if (lr == 0)
			named = true;
		else if (lr != -EEXIST)
			r = lr;
	}
	for (tries = 0; r == 0 && !named && tries < 100; tries++) {
		temp_name(base, NULL, tmp, sizeof(tmp));
		r = link_tmpfile(fd, dfd, tmp);
		if (r == 0)
			named = true;
		else if (r == -EEXIST)
			r = 0;
	}
	if (r == 0 && !named)
		r = -EEXIST;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, base) < 0)
		r = -errno;
	if (r < 0) {
		if (named)
			unlinkat(dfd, tmp, 0);
		close(dfd);
		return r;
	}
	fsync(dfd);
	/*
	 * Temporaries a killed writer left behind: without the lock, once
	 * surely abandoned; under it, all of them, but only when one may
	 * have been left (the holder's name was taken, or the file system
	 * has no unnamed files), so that a locked write does not read the
	 * directory every time.
	 */
	if (!locked || left)
		remove_stale_temps_at(dfd, base, locked ? 0 : STALE_TEMP_AGE);
	close(dfd);
	return 0;
}

int
mkdir_p(const char *dir, unsigned int mode)
{
	int fd = open_dir_at(AT_FDCWD, dir, DIR_CREATE, mode);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
