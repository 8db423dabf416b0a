// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "inroot.h"

/* The kernel's MAXSYMLINKS. */
#define INROOT_LINKS 40

/* Set once openat2 has failed as a missing or forbidden call would. */
static int no_openat2;

int
open_in_root(int rootfd, const char *path, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(unsigned int)flags,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (!__atomic_load_n(&no_openat2, __ATOMIC_RELAXED)) {
		fd = syscall(SYS_openat2, rootfd, path, &how, sizeof(how));
		if (fd >= 0)
			return (int)fd;
		/* EAGAIN: a rename in the tree raced with ".."; the
		 * walk, which takes ".." from the root down, does not
		 * need to retry. */
		if (errno != ENOSYS && errno != EPERM && errno != EAGAIN)
			return -errno;
		if (errno != EAGAIN)
			__atomic_store_n(&no_openat2, 1, __ATOMIC_RELAXED);
	}
	return open_in_root_walk(rootfd, path, flags);
}

/* The directory done ("a/b/c": components that were directories, no
 * link, no "." or "..") below rootfd, walked down again from the root
 * without following any link. */
static int
walk_down(int rootfd, const char *done)
{
	char comp[NAME_MAX + 1];
	const char *p = done;
	int fd;

	fd = openat(rootfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (*p != '\0') {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int nfd;

		memcpy(comp, p, n);	/* n <= NAME_MAX: it was opened */
		comp[n] = '\0';
		nfd = openat(fd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC);
		close(fd);
		if (nfd < 0)
			return -errno;
		fd = nfd;
		p += n;
		if (*p == '/')
			p++;
	}
	return fd;
}

int
open_in_root_walk(int rootfd, const char *path, int flags)
{
	char rest[PATH_MAX], done[PATH_MAX], link[PATH_MAX];
	char comp[NAME_MAX + 1];
	size_t donelen = 0;
	const char *p;
	int cur, links = 0, r;

	if (path[0] == '\0')
		return -ENOENT;		/* as openat() says */
	if (strlen(path) >= sizeof(rest))
		return -ENAMETOOLONG;
	strcpy(rest, path);
	done[0] = '\0';
	cur = walk_down(rootfd, "");
	if (cur < 0)
		return cur;
	for (p = rest;;) {
		struct stat ls;
		ssize_t tn;
		size_t n;
		bool last;
		int nfd;

		while (*p == '/')
			p++;
		if (*p == '\0') {
			/* A directory (the root itself for "/"). */
			nfd = openat(cur, ".", flags);
			r = nfd < 0 ? -errno : nfd;
			close(cur);
			return r;
		}
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			r = -ENAMETOOLONG;
			break;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		last = *p == '\0';
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			char *s = strrchr(done, '/');

			if (donelen == 0)
				continue;	/* ".." of the root: the root */
			donelen = s ? (size_t)(s - done) : 0;
			done[donelen] = '\0';
			close(cur);
			cur = walk_down(rootfd, done);
			if (cur < 0)
				return cur;
			continue;
		}
		tn = readlinkat(cur, comp, link, sizeof(link));
		if (tn >= 0) {
			size_t left = strlen(p);

			if (++links > INROOT_LINKS) {
				r = -ELOOP;
				break;
			}
			if ((size_t)tn + left >= sizeof(link)) {
				r = -ENAMETOOLONG;
				break;
			}
			/* What is left to walk: the link's text, then the
			 * rest of the path ("" or "/..."). */
			memcpy(link + tn, p, left + 1);
			memcpy(rest, link, (size_t)tn + left + 1);
			p = rest;
			if (rest[0] == '/') {
				donelen = 0;
				done[0] = '\0';
				close(cur);
				cur = walk_down(rootfd, "");
				if (cur < 0)
					return cur;
			}
			continue;
		}
		if (errno != EINVAL) {
			r = -errno;	/* missing, unsearchable, ... */
			break;
		}
		nfd = openat(cur, comp, last ? flags | O_NOFOLLOW :
			     O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			r = -errno;
			/* Made a link since readlinkat(): read it. */
			if ((r == -ELOOP || r == -ENOTDIR) &&
			    fstatat(cur, comp, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(ls.st_mode) && ++links <= INROOT_LINKS) {
				p -= n;
				continue;
			}
			break;
		}
		close(cur);
		if (last)
			return nfd;
		if (donelen + 1 + n >= sizeof(done)) {
			close(nfd);
			return -ENAMETOOLONG;
		}
		if (donelen > 0)
			done[donelen++] = '/';
		memcpy(done + donelen, comp, n + 1);
		donelen += n;
		cur = nfd;
	}
	close(cur);
	return r;
}
