// SPDX-License-Identifier: GPL-2.0-or-later
/* A group's cpuset lists: see cgcpuset.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/strutils.h"
#include "cgroup/cgcpuset.h"

int
cgcpuset_read_list(const struct cg_hier *h, const char *group,
		   const char *file, struct cpuset *out, char *err,
		   size_t errlen)
{
	char buf[65536];
	ssize_t n;

	n = cg_read(h, CG_CPUSET, group, file, buf, sizeof(buf), err, errlen);
	if (n < 0)
		return (int)n;
	if (cpuset_parse_list(buf, out, NULL, 0) < 0)
		return err_ret(err, errlen, -EBADMSG, "%s of cgroup '%s' holds "
			    "'%.100s', not a list", file, cg_display(group),
			    buf);
	return 0;
}

struct pinned_walk {
	bool below;		/* past group itself (the walk's first) */
	const struct cpuset *all;
	struct cpuset *out;
	struct cpuset s;
};

static int
pinned_one(const char *group, const struct cg_at *at, const struct stat *st,
	   void *arg)
{
	struct pinned_walk *w = arg;
	char path[NAME_MAX + 32], buf[4096];
	const char *file = "cpuset.cpus";
	unsigned int how = READ_KERNFS | READ_NO_LINK;

	(void)group;
	(void)st;
	if (!w->below) {
		w->below = true;
		return 0;
	}
	if (at->sub != NULL) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", at->sub,
				     file) >= sizeof(path))
			return 0;
		file = path;
		how |= READ_NO_LINKS;
	}
	/* No file (v2 without the controller), an odd one: not pinned. */
	if (read_buf_at(at->fd, file, how, buf, sizeof(buf), NULL) < 0 ||
	    cpuset_parse_list(strstrip(buf), &w->s, NULL, 0) < 0)
		return 0;
	if (!cpuset_empty(&w->s) && !cpuset_subset(w->all, &w->s) &&
	    cpuset_or(w->out, &w->s) < 0)
		return -ENOMEM;
	return 0;
}

int
cgcpuset_pinned_below(const struct cg_hier *h, const char *group,
		      const struct cpuset *all, struct cpuset *out, char *err,
		      size_t errlen)
{
	struct pinned_walk w = { false, all, out, CPUSET_INIT };
	int r;

	cpuset_zero(out);
	r = cg_walk(h, CG_CPUSET, group, pinned_one, &w, err, errlen);
	cpuset_free(&w.s);
	if (r == -ENOENT)
		return 0;
	if (r == -ENOMEM)
		return err_ret(err, errlen, r, "out of memory");
	return r;
}
