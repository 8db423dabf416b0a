// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/treefile.h"
#include "machine/cache.h"
#include "machine/coretype.h"
#include "machine/device.h"
#include "machine/memtier.h"
#include "machine/topo.h"
#include "view/dumpstd.h"
#include "view/topodump.h"

/*
 * Read the file path of root to copy it, and the mode of the copy: the
 * source's permission bits within 0644, so that a copy is never readable
 * by anyone its source is not.  A tree that is not the kernel's may be
 * another user's: a file in it of more than one link or of another owner
 * than the tree (linked in from outside it, root's own 0600 file perhaps)
 * is not copied (-EXDEV), and the text and mode are taken from the one
 * open file.  0, or -errno: the file is not copied.
 */
static int
read_for_copy(const struct sysroot *root, const char *path, char **bufp,
	      size_t *lenp, mode_t *modep)
{
	struct read_opts o = { .max = (size_t)64 << 20 };
	struct stat st;
	int fd, r;

	fd = open_regular_at(root->fd, path, &st,
			     root->live ? 0 : READ_IN_ROOT);
	if (fd < 0)
		return fd;
	/* The kernel's own files are one name each, root's. */
	r = root->live ? 0 : tree_file_check(root->fd, &st);
	if (r == 0)
		r = read_fd(fd, &st, &o, bufp, lenp);
	close(fd);
	*modep = st.st_mode & 0644;
	return r < 0 ? r : 0;
}

static int
dir_is_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int empty = 1;

	if (d == NULL)
		return errno == ENOENT ? 1 : -errno;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

int
topo_dump(const struct sysroot *root, const char *dir, char *err,
	  size_t errlen)
{
	struct sysroot rec = *root;
	struct strbuf paths;
	struct topo t;
	char *line, *save = NULL;
	int r, outfd;

	r = dir_is_empty(dir);
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", dir, strerror(-r));
		return r;
	}
	if (r == 0) {
		snprintf(err, errlen, "'%s' exists and is not empty", dir);
		return -EEXIST;
	}
	strbuf_init(&paths);
	rec.record = &paths;
	r = topo_load(&t, &rec, TOPO_PROCESS, err, errlen);
	if (r < 0)
		return r == -ENOMEM ? r : -EINVAL;
	{
		/* Core types read files of their own. */
		struct coretypes ct;

		r = coretype_load(&ct, &rec, &t, err, errlen);
		coretype_free(&ct);
	}
	if (r == 0) {
		/* The caches of every level, which topo_load() leaves. */
		struct topo_caches caches;

		r = cache_load(&caches, &rec, &t, err, errlen);
		cache_free(&caches);
	}
	/* And what lscpu and hwloc read, to check the dump with them. */
	if (r == 0)
		r = dumpstd_paths(root, &t, &paths);
	if (r == 0) {
		/* And the devices theirs, links among them. */
		struct devices d;

		r = device_list(&d, &rec, err, errlen);
		devices_free(&d);
	}
	if (r == 0) {
		/* And the memory hierarchy (tiers, HMAT, weights). */
		struct memtier m;

		r = memtier_load(&m, &t, &rec);
		if (r == 0)
			memtier_free(&m);
		else
			snprintf(err, errlen, "out of memory");
	}
	topo_free(&t);
	if (r < 0) {
		strbuf_free(&paths);
		return r;
	}
	if (paths.oom) {
		strbuf_free(&paths);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/*
	 * DIR may sit in a directory others can write: create it and every
	 * directory below it one component at a time, relative to the
	 * descriptor of its parent, following no link another user could
	 * have swapped in, so nothing is ever written outside DIR.
	 */
	outfd = open_dir_at(AT_FDCWD, dir, DIR_CREATE, 0755);
	if (outfd < 0) {
		r = outfd;
		snprintf(err, errlen, "cannot create '%s': %s", dir,
			 r == -ELOOP ? "a symbolic link on the way" :
			 strerror(-r));
		strbuf_free(&paths);
		return r;
	}
	for (line = paths.buf ? strtok_r(paths.buf, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct stat st;
		char *data;
		size_t len;
		mode_t mode = 0;
		int fd;

		const char *base;
		int pfd;

		if (line[0] == '@') {
			/* A link the devices were named through. */
			char target[4096];

			if (sysroot_readlink(root, line + 1, target,
					     sizeof(target)) < 0)
				continue;
			pfd = open_parent_at(outfd, line + 1, DIR_CREATE |
					     DIR_NO_LINKS, 0755, &base);
			r = pfd;
			if (pfd >= 0) {
				r = symlinkat(target, pfd, base) < 0 &&
				    errno != EEXIST ? -errno : 0;
				close(pfd);
			}
			if (r < 0) {
				snprintf(err, errlen, "cannot write '%s/%s': %s",
					 dir, line + 1, strerror(-r));
				break;
			}
			continue;
		}
		r = read_for_copy(root, line, &data, &len, &mode);
		if (r < 0) {
			r = 0;
			continue;	/* vanished since, or not the tree's */
		}
		pfd = open_parent_at(outfd, line, DIR_CREATE | DIR_NO_LINKS,
				     0755, &base);
		r = pfd;
		if (pfd >= 0) {
			/* O_EXCL: never through a link, never twice. */
			fd = openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL |
				    O_NOFOLLOW | O_CLOEXEC, mode);
			if (fd < 0)
				r = errno == EEXIST &&
				    fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISREG(st.st_mode) && st.st_uid == geteuid() ?
				    0 : -errno;	/* a file read twice is copied once */
			else {
				r = write_all(fd, data, len);
				close(fd);
			}
			close(pfd);
		}
		free(data);
		if (r < 0) {
			snprintf(err, errlen, "cannot write '%s/%s': %s", dir, line,
				 strerror(-r));
			break;
		}
	}
	close(outfd);
	strbuf_free(&paths);
	return r < 0 ? r : 0;
}
