// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening paths (path.h): the confined open below a root
 * (open_in_root() and its walk), opens with no link followed
 * (open_how_at(), open_dir_at()), and the regular-file check after an
 * open (open_regular_at()).
 */

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

#include "base/err.h"
#include "base/path.h"

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

int
open_how_at(int dirfd, const char *path, int flags, unsigned int how)
{
	int fd;

	if (how & READ_NO_LINK)
		flags |= O_NOFOLLOW;
	if (how & READ_IN_ROOT)
		return open_in_root(dirfd, path, flags);
	if (how & READ_NO_LINKS) {
		struct open_how oh = {
			.flags = (unsigned int)flags,
			.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
				   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
		};

		fd = (int)syscall(SYS_openat2, dirfd, path, &oh, sizeof(oh));
	} else {
		fd = openat(dirfd, path, flags);
	}
	return fd < 0 ? -errno : fd;
}

bool
open_no_links_works(void)
{
	/* 0 not asked yet, 1 works, -1 not here (no call, or a filter) */
	static int works;
	int w = __atomic_load_n(&works, __ATOMIC_RELAXED);

	if (w == 0) {
		int fd = open_how_at(AT_FDCWD, ".", O_PATH | O_DIRECTORY |
				     O_CLOEXEC, READ_NO_LINKS);

		/* any other refusal comes from a kernel that has the call */
		w = fd >= 0 || (fd != -ENOSYS && fd != -EPERM && fd != -EINVAL)
			    ? 1 : -1;
		if (fd >= 0)
			close(fd);
		__atomic_store_n(&works, w, __ATOMIC_RELAXED);
	}
	return w > 0;
}

/*
 * Open path for reading without blocking on a FIFO, and refuse anything
 * but a regular file: a FIFO, a device or a socket planted where a file
 * is expected would hang the reader or feed it forever.  O_NONBLOCK stays
 * set: it changes nothing for a regular file, and clearing it would cost
 * two more system calls per file (thousands on a large machine's sysfs).
 */
int
open_regular_at(int dirfd, const char *path, struct stat *stp,
		unsigned int how)
{
	struct stat st;
	int fd;

	fd = open_how_at(dirfd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			 O_NOCTTY, how);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int r = -errno;

		close(fd);
		return r;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EFTYPE_CPM;
	}
	/* A tree another user may have made holds no hard link to a file
	 * outside it (with protected_hardlinks off, any file can be one):
	 * neither sysfs nor a cgroup file system has a file of two names. */
	if ((how & (READ_IN_ROOT | READ_NO_LINK)) && st.st_nlink > 1) {
		close(fd);
		return -EMLINK;
	}
	if (stp)
		*stp = st;
	return fd;
}

bool
path_link_trusted(int dfd, const char *name)
{
	struct stat ls, ds;
	uid_t me = geteuid();

	if (fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) < 0 ||
	    !S_ISLNK(ls.st_mode) || fstat(dfd, &ds) < 0)
		return false;
	if (ls.st_uid != 0 && ls.st_uid != me)
		return false;
	if ((ds.st_mode & S_ISVTX) || ds.st_uid == ls.st_uid)
		return true;
	return !(ds.st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * The whole path in one openat2 that follows no symbolic link at all: a
 * path with none resolves as the walk of open_dir_at() would, one
 * component at a time.  -1 when that cannot tell (a link on the way, a
 * missing component, no openat2): the walk decides.
 */
static int
open_dir_direct(int dirfd, const char *path, int oflags)
{
	struct open_how how = {
		.flags = (unsigned int)oflags,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	const char *p;
	int n = 0;

	/* The walk's limit of 256 components, kept. */
	for (p = path; *p; p++)
		n += *p == '/';
	if (n > 255)
		return -1;
	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

int
open_dir_at(int dirfd, const char *path, unsigned int flags,
	    unsigned int mode)
{
	char buf[PATH_MAX];
	char *comp, *next;
	int fd, depth = 0;
	int oflags = ((flags & DIR_PATH) ? O_PATH : O_RDONLY) | O_DIRECTORY |
		     O_CLOEXEC;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	fd = open_dir_direct(dirfd, path, oflags);
	if (fd >= 0)
		return fd;
	strcpy(buf, path);
	if (buf[0] == '/') {
		fd = open("/", oflags);
		comp = buf + 1;
	} else {
		fd = openat(dirfd, ".", oflags);
		comp = buf;
	}
	if (fd < 0)
		return -errno;
	for (; comp != NULL; comp = next) {
		int nfd;

		next = strchr(comp, '/');
		if (next)
			*next++ = '\0';
		if (*comp == '\0' || strcmp(comp, ".") == 0)
			continue;
		if (++depth > 256) {
			close(fd);
			return -ELOOP;
		}
		if ((flags & DIR_CREATE) && mkdirat(fd, comp, mode) < 0 &&
		    errno != EEXIST) {
			int r = -errno;

			close(fd);
			return r;
		}
		nfd = openat(fd, comp, oflags | O_NOFOLLOW);
		if (nfd < 0 && (errno == ELOOP || errno == ENOTDIR)) {
			struct stat ls;
			int e = errno;

			if (fstatat(fd, comp, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(ls.st_mode)) {
				e = ELOOP;
				if (!(flags & DIR_NO_LINKS) &&
				    path_link_trusted(fd, comp)) {
					nfd = openat(fd, comp, oflags);
					e = errno;
				}
			}
			errno = e;
		}
		if (nfd < 0) {
			int r = -errno;

			close(fd);
			return r;
		}
		close(fd);
		fd = nfd;
	}
	return fd;
}

int
open_parent_at(int dirfd, const char *path, unsigned int flags,
	       unsigned int mode, const char **basep)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');

	*basep = slash ? slash + 1 : path;
	if (**basep == '\0')
		return -EISDIR;
	if (slash == NULL)
		return open_dir_at(dirfd, ".", flags, mode);
	if ((size_t)(slash - path) + 2 > sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	if (slash == path)
		strcpy(dir, "/");
	return open_dir_at(dirfd, dir, flags, mode);
}
