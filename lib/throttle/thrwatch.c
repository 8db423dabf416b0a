// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "throttle/thrwatch.h"

/* One kept group. */
struct tw_group {
	char *path;
	int dirfd;
	struct cg_cpu_fds fds;
	struct stat st;		/* of the directory, when walked */
};

struct thr_watch {
	const struct cg_hier *h;
	const struct thr_select *sel;
	struct tw_group *g;	/* sorted by path */
	size_t n, cap;
	size_t budget;		/* descriptors still free to keep */
	unsigned int rewalk_every, round;
	unsigned long walks;
	bool built;		/* g holds the last walk's groups */
	bool too_many;		/* more groups than descriptors: walk always */
};

/* A walk in progress: the new list, and the old one to take fds from. */
struct rebuild {
	struct thr_watch *w;
	struct tw_group *old;
	size_t nold;
	bool *taken;		/* old[i] was carried over */
	int err;
};

struct thr_watch *
thr_watch_new(const struct cg_hier *h, const struct thr_select *sel,
	      size_t fd_budget, unsigned int rewalk_every)
{
	struct thr_watch *w = calloc(1, sizeof(*w));

	if (w == NULL)
		return NULL;
	w->h = h;
	w->sel = sel;
	w->budget = fd_budget;
	w->rewalk_every = rewalk_every ? rewalk_every : 10;
	return w;
}

static void
group_close(struct thr_watch *w, struct tw_group *g)
{
	cg_cpu_fds_close(&g->fds);
	if (g->dirfd >= 0) {
		close(g->dirfd);
		w->budget++;
	}
	g->dirfd = -1;
	free(g->path);
	g->path = NULL;
}

static void
drop_all(struct thr_watch *w)
{
	for (size_t i = 0; i < w->n; i++)
		group_close(w, &w->g[i]);
	free(w->g);
	w->g = NULL;
	w->n = w->cap = 0;
	w->built = false;
}

void
thr_watch_free(struct thr_watch *w)
{
	if (w == NULL)
		return;
	drop_all(w);
	free(w);
}

unsigned long
thr_watch_walks(const struct thr_watch *w)
{
	return w->walks;
}

static int
cmp_group(const void *a, const void *b)
{
	return strcmp(((const struct tw_group *)a)->path,
		      ((const struct tw_group *)b)->path);
}

static struct tw_group *
find_old(struct rebuild *rb, const char *path)
{
	size_t lo = 0, hi = rb->nold;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(path, rb->old[mid].path);

		if (c == 0)
			return rb->taken[mid] ? NULL : &rb->old[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

static bool
same_dir(const struct stat *a, const struct stat *b)
{
	return a->st_ino == b->st_ino && a->st_dev == b->st_dev &&
	       a->st_nlink == b->st_nlink &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * Out of descriptors for a new group's directory: close kept control
 * files (a mere saving) of the groups not yet carried over, then of the
 * last ones added, until one is free.
 */
static void
steal(struct rebuild *rb)
{
	struct thr_watch *w = rb->w;

	for (size_t i = rb->nold; i-- > 0 && w->budget == 0;)
		if (!rb->taken[i])
			cg_cpu_fds_close(&rb->old[i].fds);
	for (size_t i = w->n; i-- > 0 && w->budget == 0;)
		cg_cpu_fds_close(&w->g[i].fds);
}

/*
 * A descriptor of the group's directory at names, to keep (>= 3), and
 * that is the directory the walk saw as st: -ESTALE when not, -errno.
 */
static int
keep_dir(const struct cg_at *at, const struct stat *st)
{
	struct stat now;
	int fd;

	if (at->sub == NULL) {
		fd = fcntl(at->fd, F_DUPFD_CLOEXEC, 3);
		return fd < 0 ? -errno : fd;
	}
	fd = openat(at->fd, at->sub,
		    O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno == ENOENT || errno == ELOOP || errno == ENOTDIR
			       ? -ESTALE : -errno;
	if (fd < 3) {
		int kept = fcntl(fd, F_DUPFD_CLOEXEC, 3);

		close(fd);
		if (kept < 0)
			return -errno;
		fd = kept;
	}
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* cg_walk() callback: add group, carrying over what can be kept. */
static int
walk_one(const char *group, const struct cg_at *at, const struct stat *wst,
	 void *arg)
{
	struct rebuild *rb = arg;
	struct thr_watch *w = rb->w;
	struct tw_group *g, *o;
	struct stat st;

	if (wst != NULL)
		st = *wst;
	else if (fstat(at->fd, &st) < 0)	/* at->sub is NULL here */
		return 0;	/* vanished meanwhile */
	if (w->n == w->cap) {
		size_t ncap = w->cap ? 2 * w->cap : 64;
		struct tw_group *nv = realloc(w->g, ncap * sizeof(*nv));

		if (nv == NULL)
			return -ENOMEM;
		w->g = nv;
		w->cap = ncap;
	}
	g = &w->g[w->n];
	memset(g, 0, sizeof(*g));
	g->dirfd = -1;
	cg_cpu_fds_init(&g->fds, &w->budget);
	o = find_old(rb, group);
	if (o != NULL && o->st.st_ino == st.st_ino &&
	    o->st.st_dev == st.st_dev) {
		/* The same directory: keep its descriptor, and its files
		 * too unless something in it changed (a file replaced). */
		rb->taken[o - rb->old] = true;	/* its path stays for find_old() */
		g->path = o->path;
		g->dirfd = o->dirfd;
		o->dirfd = -1;
		if (same_dir(&o->st, &st))
			g->fds = o->fds;
		else
			cg_cpu_fds_close(&o->fds);
		/* a walk looks again for a cpuacct group not there before */
		if (g->fds.usage == CG_FD_ABSENT)
			g->fds.usage = -1;
		cg_cpu_fds_init(&o->fds, &w->budget);
	} else {
		g->path = strdup(group);
		if (g->path == NULL)
			return -ENOMEM;
		if (w->budget == 0)
			steal(rb);
		if (w->budget == 0) {
			free(g->path);
			w->too_many = true;
			return -ENFILE;
		}
		g->dirfd = keep_dir(at, &st);
		if (g->dirfd < 0) {
			free(g->path);
			/* a leaf replaced since the walk saw it: it is
			 * seen again by the next walk */
			return g->dirfd == -ESTALE ? 0 : g->dirfd;
		}
		w->budget--;
	}
	g->st = st;
	w->n++;
	return 0;
}

/* Walk the hierarchy again; the groups' open files carry over. */
static int
rebuild(struct thr_watch *w, char *err, size_t errlen)
{
	struct rebuild rb = { w, w->g, w->n, NULL, 0 };
	size_t k;
	int r;

	rb.taken = calloc(w->n ? w->n : 1, sizeof(*rb.taken));
	if (rb.taken == NULL)
		return -ENOMEM;
	w->g = NULL;
	w->n = w->cap = 0;
	w->walks++;
	r = thr_walk(w->h, w->sel, walk_one, &rb, err, errlen);
	for (size_t i = 0; i < rb.nold; i++)
		if (!rb.taken[i])
			group_close(w, &rb.old[i]);
	free(rb.old);
	free(rb.taken);
	if (r < 0) {
		drop_all(w);
		return r;
	}
	/* Sorted, without the duplicates of overlapping GROUPs. */
	for (k = 1; k < w->n && strcmp(w->g[k - 1].path, w->g[k].path) < 0; k++)
		;
	if (k < w->n) {
		size_t out = 0;

		qsort(w->g, w->n, sizeof(*w->g), cmp_group);
		for (size_t i = 0; i < w->n; i++) {
			if (out > 0 && strcmp(w->g[out - 1].path, w->g[i].path) == 0) {
				group_close(w, &w->g[i]);
				continue;
			}
			w->g[out++] = w->g[i];
		}
		w->n = out;
	}
	w->built = true;
	return 0;
}

/* Whether any kept directory changed since it was walked. */
static bool
changed(struct thr_watch *w)
{
	struct stat st;

	for (size_t i = 0; i < w->n; i++)
		if (fstat(w->g[i].dirfd, &st) < 0 || !same_dir(&w->g[i].st, &st))
			return true;
	return false;
}

static int
sample_all(struct thr_watch *w, struct thr_snap *s, char *err, size_t errlen)
{
	int r0;

	thr_snap_start(w->h, s);
	r0 = thr_snap_node(w->sel, s, err, errlen);
	if (r0 < 0)
		return r0;
	for (size_t i = 0; i < w->n; i++) {
		struct tw_group *g = &w->g[i];
		struct cg_at at = { g->dirfd, NULL };
		int r = thr_sample(w->h, w->sel, s, g->path, &at,
				   (uint64_t)g->st.st_ino, &g->fds, err, errlen);

		if (r < 0)
			return r;
	}
	thr_snap_finish(s);
	return 0;
}

int
thr_watch_collect(struct thr_watch *w, struct thr_snap *s, char *err,
		  size_t errlen)
{
	int r;

	if (w->too_many)
		return thr_collect(w->h, w->sel, s, err, errlen);
	if (!w->built || ++w->round % w->rewalk_every == 0 || changed(w)) {
		r = rebuild(w, err, errlen);
		if (r == -ENFILE && w->too_many) {
			drop_all(w);
			return thr_collect(w->h, w->sel, s, err, errlen);
		}
		if (r < 0)
			return r;
	}
	r = sample_all(w, s, err, errlen);
	if (r == -ESTALE) {
		/* A group went away under a kept file: walk, then read
		 * again (the walk reopens what failed). */
		r = rebuild(w, err, errlen);
		if (r == 0)
			r = sample_all(w, s, err, errlen);
		if (r == -ESTALE) {
			drop_all(w);
			r = thr_collect(w->h, w->sel, s, err, errlen);
		}
	}
	return r;
}
