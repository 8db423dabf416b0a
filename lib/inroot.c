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
#include "util.h"

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

/*
 * The directories of the last path the walk resolved as it was spelled
 * (no link, ".", ".." or "//" on the way), one for each of its leading
 * components, kept open (O_PATH): the next path that begins the same
 * way (cpu/cpu11/topology/... after cpu/cpu10/...) starts where the two
 * part, not at the root: one open for each component left.  (The first
 * walk of a path opens each component, and reads each link it meets.)
 * A kept directory was below the root when it
 * was reached, and a component is never opened through a link from it;
 * if it is moved out of the tree since, what it holds is what the tree
 * held, never a file the root keeps out.  open_in_root_forget() drops
 * them when their root is closed.  One set for the process (cpm's tools
 * run one thread), in zeroed memory that a process which never walks
 * never touches: thread-local storage is copied into every process as
 * it starts.
 */
#define KEPT_LEVELS 16
static struct {
	int rootfd1;			/* the root's descriptor + 1; 0: none */
	int n;				/* levels kept */
	int fd[KEPT_LEVELS];		/* the first i + 1 components */
	size_t end[KEPT_LEVELS];	/* where they end in path */
	char path[PATH_MAX];		/* as spelled; no NUL */
} kept;

static void
kept_truncate(int n)
{
	while (kept.n > n)
		close(kept.fd[--kept.n]);
}

void
open_in_root_forget(int rootfd)
{
	if (kept.rootfd1 != 0 && kept.rootfd1 == rootfd + 1) {
		kept_truncate(0);
		kept.rootfd1 = 0;
	}
}

/* The deepest kept directory that path begins with: its level, or -1. */
static int
kept_prefix(int rootfd, const char *path)
{
	int i;

	if (kept.rootfd1 != rootfd + 1) {
		open_in_root_forget(kept.rootfd1 - 1);
		kept.rootfd1 = rootfd + 1;
	}
	for (i = kept.n - 1; i >= 0; i--)
		if (strncmp(path, kept.path, kept.end[i]) == 0 &&
		    path[kept.end[i]] == '/')
			break;
	return i;
}

int
open_in_root_walk(int rootfd, const char *path, int flags)
{
	char rest[PATH_MAX], done[PATH_MAX], link[PATH_MAX];
	char comp[NAME_MAX + 1];
	size_t donelen = 0;
	const char *p;
	int cur = rootfd, links = 0, level = 0, r;
	/* own: cur is the walk's to close (not the root, not kept);
	 * keep: the path so far is as spelled, its directories kept */
	bool own = false, keep;

	if (path[0] == '\0')
		return -ENOENT;		/* as openat() says */
	if (strlen(path) >= sizeof(rest))
		return -ENAMETOOLONG;
	strcpy(rest, path);
	done[0] = '\0';
	p = rest;
	keep = path[0] != '/';
	if (keep) {
		int i = kept_prefix(rootfd, path);

		kept_truncate(i + 1);
		if (i >= 0) {
			cur = kept.fd[i];
			level = i + 1;
			donelen = kept.end[i];
			memcpy(done, path, donelen);
			done[donelen] = '\0';
			p = rest + donelen;
		}
	}
	for (;;) {
		ssize_t tn;
		size_t n;
		bool last;
		int nfd, e;

		if (*p == '/' && p[1] == '/')
			keep = false;
		while (*p == '/')
			p++;
		if (*p == '\0') {
			/* A directory (the root itself for "/"). */
			nfd = openat(cur, ".", flags);
			r = nfd < 0 ? -errno : nfd;
			break;
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
		if (strcmp(comp, ".") == 0) {
			keep = false;
			continue;
		}
		if (strcmp(comp, "..") == 0) {
			char *sl = strrchr(done, '/');

			keep = false;
			if (donelen == 0)
				continue;	/* ".." of the root: the root */
			donelen = sl ? (size_t)(sl - done) : 0;
			done[donelen] = '\0';
			/* done ("a/b/c") holds directories, no link, "."
			 * or "..": walked down again from the root, no link
			 * followed. */
			nfd = open_dir_at(rootfd, done[0] ? done : ".",
					  DIR_NO_LINKS | DIR_PATH, 0);
			if (own)
				close(cur);
			if (nfd < 0)
				return nfd;
			cur = nfd;
			own = true;
			continue;
		}
		/*
		 * Open first: a link is refused (O_NOFOLLOW) and then read.
		 * Not so the last component opened O_PATH, which would be
		 * the link itself: that one is read first.
		 */
		nfd = -1;
		e = 0;
		if (!last || !(flags & O_PATH)) {
			nfd = openat(cur, comp, last ? flags | O_NOFOLLOW :
				     O_PATH | O_DIRECTORY | O_NOFOLLOW |
				     O_CLOEXEC);
			e = nfd < 0 ? errno : 0;
			if (nfd < 0 && e != ELOOP && e != ENOTDIR) {
				r = -e;		/* missing, unsearchable, ... */
				break;
			}
		}
		if (nfd < 0) {
			tn = readlinkat(cur, comp, link, sizeof(link));
			if (tn >= 0) {
				size_t left = strlen(p);

				keep = false;
				if (++links > INROOT_LINKS) {
					r = -ELOOP;
					break;
				}
				if ((size_t)tn + left >= sizeof(link)) {
					r = -ENAMETOOLONG;
					break;
				}
				/* What is left to walk: the link's text,
				 * then the rest of the path ("" or
				 * "/..."). */
				memcpy(link + tn, p, left + 1);
				memcpy(rest, link, (size_t)tn + left + 1);
				p = rest;
				if (rest[0] == '/') {
					donelen = 0;
					done[0] = '\0';
					if (own)
						close(cur);
					cur = rootfd;
					own = false;
				}
				continue;
			}
			if (errno != EINVAL || e != 0) {
				/* not a link: the open's own answer (a file
				 * where a directory belongs) */
				r = errno != EINVAL ? -errno : -e;
				break;
			}
			nfd = openat(cur, comp, flags | O_NOFOLLOW);
			if (nfd < 0) {
				r = -errno;
				break;
			}
		}
		if (last) {
			r = nfd;
			break;
		}
		if (donelen + 1 + n >= sizeof(done)) {
			close(nfd);
			r = -ENAMETOOLONG;
			break;
		}
		if (donelen > 0)
			done[donelen++] = '/';
		memcpy(done + donelen, comp, n + 1);
		donelen += n;
		if (own)
			close(cur);
		if (keep && level < KEPT_LEVELS) {
			/* path, as spelled, up to here: donelen bytes */
			memcpy(kept.path, path, donelen);
			kept.fd[level] = nfd;
			kept.end[level] = donelen;
			kept.n = ++level;
			own = false;
		} else {
			own = true;
		}
		cur = nfd;
	}
	if (own)
		close(cur);
	return r;
}
