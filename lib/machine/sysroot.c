// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/treefile.h"
#include "machine/sysroot.h"

/* linux/magic.h's SYSFS_MAGIC, without the kernel headers. */
#define SYSFS_MAGIC_CPM 0x62656572UL

int
sysroot_open(struct sysroot *r, const char *dir)
{
	struct stat st;

	if (dir == NULL)
		dir = "/";
	if (strlen(dir) >= sizeof(r->path))
		return -ENAMETOOLONG;
	r->fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	if (fstat(r->fd, &st) < 0) {
		int e = -errno;

		close(r->fd);
		return e;
	}
	strcpy(r->path, dir);
	r->record = NULL;
	{
		struct stat rootst;

		r->live = stat("/", &rootst) == 0 && rootst.st_dev == st.st_dev &&
			  rootst.st_ino == st.st_ino;
	}
	r->sysfs = false;
	if (r->live) {
		/* The root is "/": its sys is "/sys", one call away. */
		struct statfs sf;

		r->sysfs = statfs("/sys", &sf) == 0 &&
			   (unsigned long)sf.f_type == SYSFS_MAGIC_CPM;
	}
	return 0;
}

void
sysroot_close(struct sysroot *r)
{
	if (r->fd >= 0) {
		open_in_root_forget(r->fd);
		close(r->fd);
	}
	r->fd = -1;
}

static void
record(const struct sysroot *r, const char *path)
{
	if (r->record) {
		strbuf_puts(r->record, path);
		strbuf_add(r->record, "\n", 1);
	}
}

/* How a reader opens a file below r: a replayed tree is a root. */
static unsigned int
read_how(const struct sysroot *r)
{
	return r->live ? 0 : READ_IN_ROOT;
}

ssize_t
sysroot_read(const struct sysroot *r, const char *path, char *buf, size_t size)
{
	/* sys/devices/: sysfs itself, not a file system mounted below it
	 * (as cgroup file systems are, at sys/fs/cgroup). */
	ssize_t n = r->sysfs && strncmp(path, "sys/devices/", 12) == 0 ?
		    read_buf_at(r->fd, path, READ_KERNFS, buf, size, NULL) :
		    read_buf_at(r->fd, path, read_how(r), buf, size, NULL);

	if (n >= 0 || n == -EFBIG)
		record(r, path);
	return n;
}

ssize_t
sysroot_read_head(const struct sysroot *r, const char *path, char *buf,
		  size_t size, bool *whole)
{
	ssize_t n = read_buf_at(r->fd, path, READ_HEAD | read_how(r), buf,
				size, whole);

	if (n >= 0)
		record(r, path);
	return n;
}

int
sysroot_read_file(const struct sysroot *r, const char *path, char **bufp,
		  size_t *lenp)
{
	static const struct read_opts in_root = { .flags = READ_IN_ROOT };
	int n = read_file_at(r->fd, path, r->live ? NULL : &in_root, bufp,
			     lenp);

	if (n >= 0)
		record(r, path);
	return n;
}

int
sysroot_read_lines(const struct sysroot *r, const char *path,
		   read_line_fn *fn, void *arg)
{
	int n = read_lines_at(r->fd, path, r->live ? 0 : READ_IN_ROOT, fn,
			      arg);

	if (n >= 0)
		record(r, path);
	return n;
}

int
sysroot_open_dir(const struct sysroot *r, const char *path)
{
	const int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
	int fd;

	if (!r->live)
		return open_in_root(r->fd, path, flags);
	fd = openat(r->fd, path, flags);
	return fd < 0 ? -errno : fd;
}

int
sysroot_stat(const struct sysroot *r, const char *path, struct stat *st)
{
	int fd, e = 0;

	if (r->live)
		return fstatat(r->fd, path, st, 0) < 0 ? -errno : 0;
	fd = open_in_root(r->fd, path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0)
		e = -errno;
	close(fd);
	return e;
}

bool
sysroot_exists(const struct sysroot *r, const char *path)
{
	struct stat st;

	if (r->live)
		return faccessat(r->fd, path, F_OK, 0) == 0;
	return sysroot_stat(r, path, &st) == 0;
}

ssize_t
sysroot_readlink(const struct sysroot *r, const char *path, char *buf,
		 size_t size)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	ssize_t n;
	int fd;

	if (size == 0)
		return -ENAMETOOLONG;
	if (slash == NULL || slash == path || (size_t)(slash - path) >= sizeof(dir))
		return -EINVAL;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (r->live)
		fd = openat(r->fd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	else
		fd = open_in_root(r->fd, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return r->live ? -errno : fd;
	n = readlinkat(fd, slash + 1, buf, size);
	if (n < 0)
		n = -errno;
	else if ((size_t)n >= size)
		n = -ENAMETOOLONG;
	else
		buf[n] = '\0';
	close(fd);
	if (n >= 0 && r->record) {
		strbuf_add(r->record, "@", 1);
		record(r, path);
	}
	return n;
}

/*
 * A file of a replayed tree, open for writing over: through no link
 * another user could have planted (open_parent_at()), an ordinary file
 * both before the open (a device may act on an open) and after (the
 * same file), the tree's own (tree_file_check()), then emptied.
 */
static int
open_tree_file(const struct sysroot *r, const char *path)
{
	struct stat before, st;
	const char *base;
	int pfd, fd, e;

	pfd = open_parent_at(r->fd, path, 0, 0, &base);
	if (pfd < 0)
		return pfd;
	e = fstatat(pfd, base, &before, AT_SYMLINK_NOFOLLOW) < 0 ? -errno :
	    S_ISLNK(before.st_mode) ? -ELOOP :
	    !S_ISREG(before.st_mode) ? -EFTYPE_CPM :
	    tree_file_check(pfd, &before);
	fd = e < 0 ? e : openat(pfd, base, O_WRONLY | O_CLOEXEC | O_NOCTTY |
				O_NOFOLLOW | O_NONBLOCK);
	if (e == 0 && fd < 0)
		e = -errno;
	if (e == 0 && (fstat(fd, &st) < 0 || st.st_dev != before.st_dev ||
		       st.st_ino != before.st_ino))
		e = -EFTYPE_CPM;
	if (e == 0 && ((e = tree_file_check(pfd, &st)) == 0) &&
	    ftruncate(fd, 0) < 0)
		e = -errno;
	close(pfd);
	if (e < 0) {
		if (fd >= 0)
			close(fd);
		return e;
	}
	return fd;
}

int
sysroot_write(const struct sysroot *r, const char *path, const char *text)
{
	int fd, e;

	if (r->live)
		fd = openat(r->fd, path, O_WRONLY | O_TRUNC | O_CLOEXEC |
			    O_NOCTTY);
	else
		fd = open_tree_file(r, path);
	if (fd < 0)
		return r->live ? -errno : fd;
	e = write_all(fd, text, strlen(text));
	if (close(fd) < 0 && e == 0)
		e = -errno;
	return e;
}
