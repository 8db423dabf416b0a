/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The file-system root that /sys and /proc are read below: "/" on a live
 * machine, or a directory given with --sysroot (env CPM_SYSROOT) holding a
 * dumped or generated tree.  Every read of sysfs or procfs in cpm goes
 * through a struct sysroot, with paths relative to it ("sys/devices/...").
 */
#ifndef CPM_SYSROOT_H
#define CPM_SYSROOT_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "base/fileread.h"
#include "base/strbuf.h"

struct sysroot {
	int fd;			/* O_PATH directory fd of the root */
	bool live;		/* the real "/", not a replayed tree */
	bool sysfs;		/* live, and its sys/ the kernel's sysfs: files
				 * in sys/devices/ are read without the fstat()
				 * that refuses a planted FIFO or device,
				 * which sysfs cannot hold (READ_KERNFS) */
	char path[4096];	/* as given, for messages */
	struct strbuf *record;	/* when set, every path read successfully
				 * is appended, one per line (for dumps) */
};

/*
 * Open dir (NULL: "/", the live machine).
 * Returns 0, or -errno when dir is not a readable directory.
 */
int sysroot_open(struct sysroot *r, const char *dir);
void sysroot_close(struct sysroot *r);

/*
 * Below a replayed tree (not live), every open resolves path with the
 * tree as its root (open_in_root()): a link planted in a tree another
 * user can write, absolute or full of "..", never leads outside it.
 */

/* read_buf_at() below the root; path is relative ("sys/...").  On
 * the live sysfs, with READ_KERNFS. */
ssize_t sysroot_read(const struct sysroot *r, const char *path, char *buf,
		     size_t size);
/* read_buf_at() with READ_HEAD below the root. */
ssize_t sysroot_read_head(const struct sysroot *r, const char *path,
			  char *buf, size_t size, bool *whole);
/* read_file_at() below the root. */
int sysroot_read_file(const struct sysroot *r, const char *path, char **bufp,
		      size_t *lenp);
/* read_lines_at() below the root. */
int sysroot_read_lines(const struct sysroot *r, const char *path,
		       read_line_fn *fn, void *arg);
/* The directory path below the root, open for reading (fdopendir()):
 * its descriptor or -errno. */
int sysroot_open_dir(const struct sysroot *r, const char *path);
/* stat(2) of path below the root: 0 or -errno. */
int sysroot_stat(const struct sysroot *r, const char *path, struct stat *st);
/* True when path exists below the root. */
bool sysroot_exists(const struct sysroot *r, const char *path);
/*
 * The text of the symbolic link path below the root (its directory
 * resolved in the root, the link itself not followed), NUL-terminated
 * in buf.  Returns its length, or -errno: -EINVAL when path is not a
 * link, -ENAMETOOLONG when the text does not fit.  A recording root
 * records it as "@path", so that a dump makes the link again.
 */
ssize_t sysroot_readlink(const struct sysroot *r, const char *path, char *buf,
			 size_t size);

/*
 * Write text over the file path below the root (a sysfs or procfs
 * attribute: one write(2), as the kernel wants it).  Below a replayed
 * tree only a file of the tree's own, reached through no link, is
 * written (-ELOOP, -EFTYPE_CPM, -EXDEV otherwise).  Returns 0 or -errno.
 */
int sysroot_write(const struct sysroot *r, const char *path, const char *text);

#endif
