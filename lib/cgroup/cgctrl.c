// SPDX-License-Identifier: GPL-2.0-or-later
/* Controller helpers of the cgroup layer: see cgctrl.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/num.h"
#include "base/path.h"
#include "base/strutils.h"
#include "base/treefile.h"
#include "cgroup/cgctrl.h"
#include "machine/cgfiles.h"

/* ---- CPU helpers ---- */

/*
 * Where group's cpu files are: at, or (at NULL) its directory opened here
 * (*owned: close use->fd after).  0 or -errno.
 */
static int
cpu_dir(const struct cg_hier *h, const char *group, const struct cg_at *at,
	struct cg_at *use, bool *owned, char *err, size_t errlen)
{
	*owned = false;
	if (at != NULL) {
		*use = *at;
		return 0;
	}
	use->sub = NULL;
	use->fd = cg_open_group(h, CG_CPU, group, err, errlen);
	if (use->fd < 0)
		return use->fd;
	*owned = true;
	return 0;
}

/* cpu_dir() for the callers that name the directory by its fd. */
static int
cpu_dir_fd(const struct cg_hier *h, const char *group, int dirfd,
	   bool *owned, char *err, size_t errlen)
{
	struct cg_at at = { dirfd, NULL }, use;
	int r = cpu_dir(h, group, dirfd >= 0 ? &at : NULL, &use, owned, err,
			errlen);

	return r < 0 ? r : use.fd;
}

void
cg_cpu_fds_init(struct cg_cpu_fds *f, size_t *budget)
{
	f->quota = f->period = f->stat = f->usage = -1;
	f->budget = budget;
}

static void
drop_fd(struct cg_cpu_fds *f, int *slot)
{
	if (*slot >= 0) {
		close(*slot);
		if (f->budget)
			(*f->budget)++;
	}
	*slot = -1;
}

void
cg_cpu_fds_close(struct cg_cpu_fds *f)
{
	drop_fd(f, &f->quota);
	drop_fd(f, &f->period);
	drop_fd(f, &f->stat);
	drop_fd(f, &f->usage);
}

/*
 * read_buf_at(READ_KERNFS) through the kept descriptor *slot (f may be NULL: nothing
 * kept).  A kept file is read again with pread at offset 0, which makes
 * cgroupfs print it afresh; one not open yet is opened and, while the
 * budget lasts, kept.  A kept descriptor that fails (ENODEV: its group
 * was removed) is closed and the answer is -ESTALE.
 */
static ssize_t
read_kept(const struct cg_at *at, const char *file, struct cg_cpu_fds *f,
	  int *slot, char *buf, size_t size)
{
	char sub[NAME_MAX + 32];
	const char *path = file;
	unsigned int how = READ_NO_LINK;
	ssize_t n;
	int fd;

	if (at->sub != NULL) {
		/* a leaf not opened: its file, and no link on the way */
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", at->sub,
				     file) >= sizeof(sub))
			return -ENAMETOOLONG;
		path = sub;
		how |= READ_NO_LINKS;
	}
	if (f == NULL)
		return read_buf_at(at->fd, path, READ_KERNFS | how, buf, size,
				   NULL);
	if (*slot >= 0) {
		n = pread(*slot, buf, size - 1, 0);
		if (n > 0 && (size_t)n < size - 1)
			goto done;
		drop_fd(f, slot);
		return -ESTALE;
	}
	if (f->budget == NULL || *f->budget == 0)
		return read_buf_at(at->fd, path, READ_KERNFS | how, buf, size,
				   NULL);
	fd = open_how_at(at->fd, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
			 O_NOCTTY, how);
	if (fd < 0)
		return fd;
	n = read(fd, buf, size - 1);
	if (n <= 0 || (size_t)n >= size - 1) {
		close(fd);
		return read_buf_at(at->fd, path, how, buf, size, NULL);
	}
	*slot = fd;
	(*f->budget)--;
done:
	buf[n] = '\0';
	if (buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

/*
 * A control file that could not be read: the message, and the answer.  A
 * link (read with READ_NO_LINK, it is the file itself) or a FIFO where a
 * control file belongs is no kernel's: a fake tree planted to make root
 * read another file, which is bad input (-EBADMSG), as a malformed file
 * is.
 */
static int
read_failed(const char *file, const char *group, ssize_t n, char *err,
	    size_t errlen)
{
	err_set(err, errlen, "cannot read %s of %s: %s", file,
		cg_display(group), n == -ELOOP ? "a symbolic link" :
		read_strerror((int)n));
	return n == -ELOOP || n == -EFTYPE_CPM || n == -EMLINK ? -EBADMSG :
	       (int)n;
}

/*
 * Whether file of the group at holds more than one hard link, as no
 * kernel file does, or belongs to another owner than the group's
 * directory: in a tree another user made, root's own file linked in,
 * whose text must not be quoted.  Asked only before a text is
 * quoted in a message, not on every read (a walk reads thousands).
 */
static bool
linked_in(const struct cg_at *at, const char *file)
{
	char sub[NAME_MAX + 32];
	struct stat st;

	if (at->sub != NULL) {
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", at->sub,
				     file) >= sizeof(sub))
			return true;
		file = sub;
	}
	if (fstatat(at->fd, file, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return true;
	/* More than one link, or another owner than the group's directory
	 * (the last name of a file linked in, its other names removed). */
	if (at->sub == NULL)
		return tree_file_check(at->fd, &st) < 0;
	{
		int dfd = openat(at->fd, at->sub, O_PATH | O_DIRECTORY |
				 O_NOFOLLOW | O_CLOEXEC);
		bool r = dfd < 0 || tree_file_check(dfd, &st) < 0;

		if (dfd >= 0)
			close(dfd);
		return r;
	}
}

static int
read_num_kept(const struct cg_at *at, const char *group, const char *file,
	      struct cg_cpu_fds *f, int *slot, bool sign, int64_t *iv,
	      uint64_t *uv, char *err, size_t errlen)
{
	char buf[64];
	ssize_t n = read_kept(at, file, f, slot, buf, sizeof(buf));
	int r;

	if (n < 0)
		return read_failed(file, group, n, err, errlen);
	r = sign ? parse_i64(buf, INT64_MIN, INT64_MAX, iv)
		 : parse_u64(buf, UINT64_MAX, uv);
	if (r < 0 && linked_in(at, file))
		return read_failed(file, group, -EMLINK, err, errlen);
	if (r < 0) {
		err_set(err, errlen, "%s of %s: not a number: '%s'", file,
		       cg_display(group), buf);
		return -EBADMSG;
	}
	return 0;
}

static int
read_num(int fd, const char *group, const char *file, bool sign,
	 int64_t *iv, uint64_t *uv, char *err, size_t errlen)
{
	struct cg_at at = { fd, NULL };

	return read_num_kept(&at, group, file, NULL, NULL, sign, iv, uv, err,
			     errlen);
}

int
cg_cpu_quota_read(const struct cg_hier *h, const char *group, int dirfd,
		  int64_t *quota_us, uint64_t *period_us, char *err,
		  size_t errlen)
{
	struct cg_at at = { dirfd, NULL };

	return cg_cpu_quota_read_fds(h, group, dirfd >= 0 ? &at : NULL, NULL,
				     quota_us, period_us, err, errlen);
}

int
cg_cpu_quota_read_fds(const struct cg_hier *h, const char *group,
		      const struct cg_at *at, struct cg_cpu_fds *f,
		      int64_t *quota_us, uint64_t *period_us, char *err,
		      size_t errlen)
{
	struct cg_at use;
	bool owned;
	int r = 0;

	*quota_us = -1;
	*period_us = 100000;
	r = cpu_dir(h, group, at, &use, &owned, err, errlen);
	if (r < 0)
		return r;
	if (cg_version(h, CG_CPU) == 2) {
		char buf[128];
		ssize_t n = read_kept(&use, "cpu.max", f, f ? &f->quota : NULL,
				      buf, sizeof(buf));

		if (n == -ENOENT && group[0] == '\0') {
			r = 0;
		} else if (n < 0) {
			r = read_failed("cpu.max", group, n, err, errlen);
		} else if (cpu_max_parse(buf, quota_us, period_us) < 0) {
			err_set(err, errlen, "cpu.max of %s: cannot parse '%s'",
			       cg_display(group), buf);
			r = -EBADMSG;
		}
	} else {
		r = read_num_kept(&use, group, "cpu.cfs_quota_us", f,
				  f ? &f->quota : NULL, true, quota_us, NULL,
				  err, errlen);
		if (r == 0 && *quota_us < 0)
			*quota_us = -1;
		if (r == 0 && *quota_us >= 0)
			r = read_num_kept(&use, group, "cpu.cfs_period_us", f,
					  f ? &f->period : NULL, false, NULL,
					  period_us, err, errlen);
		if (r == 0 && *period_us == 0) {
			err_set(err, errlen, "cpu.cfs_period_us of %s is 0",
			       cg_display(group));
			r = -EBADMSG;
		}
	}
	if (owned)
		close(use.fd);
	return r;
}

int
cg_cpu_limit_read(const struct cg_hier *h, const char *group, int dirfd,
		  struct cg_cpu_limit *lim, char *err, size_t errlen)
{
	bool owned;
	int fd, r = 0;

	memset(lim, 0, sizeof(*lim));
	lim->quota_us = -1;
	lim->period_us = 100000;
	fd = cpu_dir_fd(h, group, dirfd, &owned, err, errlen);
	if (fd < 0)
		return fd;
	if (cg_version(h, CG_CPU) == 2) {
		char buf[128];
		ssize_t n = read_buf_at(fd, "cpu.max", READ_NO_LINK, buf,
					sizeof(buf), NULL);

		if (n == -ENOENT && group[0] == '\0')
			goto out;
		if (n < 0) {
			r = read_failed("cpu.max", group, n, err, errlen);
			goto out;
		}
		if (cpu_max_parse(buf, &lim->quota_us, &lim->period_us) < 0) {
			err_set(err, errlen, "cpu.max of %s: cannot parse '%s'",
			       cg_display(group), buf);
			r = -EBADMSG;
			goto out;
		}
		if (read_num(fd, group, "cpu.max.burst", false, NULL,
			     &lim->burst_us, NULL, 0) == 0)
			lim->has_burst = true;
		read_num(fd, group, "cpu.weight", false, NULL, &lim->weight,
			 NULL, 0);
	} else {
		r = read_num(fd, group, "cpu.cfs_quota_us", true,
			     &lim->quota_us, NULL, err, errlen);
		if (r == 0)
			r = read_num(fd, group, "cpu.cfs_period_us", false,
				     NULL, &lim->period_us, err, errlen);
		if (r == 0 && lim->period_us == 0) {
			err_set(err, errlen, "cpu.cfs_period_us of %s is 0",
			       cg_display(group));
			r = -EBADMSG;
		}
		if (r < 0)
			goto out;
		if (lim->quota_us < 0)
			lim->quota_us = -1;
		if (read_num(fd, group, "cpu.cfs_burst_us", false, NULL,
			     &lim->burst_us, NULL, 0) == 0)
			lim->has_burst = true;
		read_num(fd, group, "cpu.shares", false, NULL, &lim->shares,
			 NULL, 0);
	}
out:
	if (owned)
		close(fd);
	return r;
}

double
cg_cpu_limit_cpus(const struct cg_cpu_limit *lim)
{
	if (lim->quota_us < 0 || lim->period_us == 0)
		return -1.0;
	return (double)lim->quota_us / (double)lim->period_us;
}

/* parse_u64() of the n bytes at s (not NUL-terminated). */
static int
num_u64(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (n == 0 || (s[0] == '0' && n > 1))
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned int d = (unsigned int)(unsigned char)s[i] - '0';

		if (d > 9)
			return -EINVAL;
		/* 19 digits cannot overflow: check only past them */
		if (i >= 19 && v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* parse_i64(s, INT64_MIN, INT64_MAX) of the n bytes at s. */
static int
num_i64(const char *s, size_t n, int64_t *out)
{
	bool neg = n > 0 && s[0] == '-';
	uint64_t v;
	int r;

	r = num_u64(s + neg, n - neg, (uint64_t)INT64_MAX + neg, &v);
	if (r < 0)
		return r;
	if (neg && v == 0)
		return -EINVAL;	/* "-0" */
	if (neg)
		*out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
	else
		*out = (int64_t)v;
	return 0;
}

/*
 * One pass over the text, no copies: a walk over 10,000 groups parses
 * 10,000 of these.  The rules are those of a line-by-line strcmp()
 * parse: lines of 256 bytes or more, or without a key before a space,
 * are malformed; a known key's value must be a number and nothing else.
 */
int
cg_cpu_stat_parse(const char *text, int version, struct cg_cpu_stat *st)
{
	const char *p = text;

	memset(st, 0, sizeof(*st));
	while (*p != '\0') {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p), k, vn;
		const char *sp, *val;
		uint64_t uv, m = 1, *u = NULL;
		int64_t *iv = NULL;
		bool *flag = NULL;

		if (n == 0) {
			p += 1;
			continue;
		}
		if (n >= 256)
			return -EBADMSG;
		sp = memchr(p, ' ', n);
		if (sp == NULL || sp == p)
			return -EBADMSG;
		k = (size_t)(sp - p);
		val = sp + 1;
		vn = n - k - 1;
#define KEY(name) (k == sizeof(name) - 1 && memcmp(p, name, k) == 0)
		if (KEY("nr_periods")) {
			iv = &st->nr_periods;
			flag = &st->has_bandwidth;
		} else if (KEY("nr_throttled")) {
			iv = &st->nr_throttled;
		} else if (KEY("nr_bursts")) {
			iv = &st->nr_bursts;
			flag = &st->has_burst;
		} else if (version == 2) {
			m = 1000;
			if (KEY("throttled_usec")) {
				u = &st->throttled_ns;
			} else if (KEY("burst_usec")) {
				u = &st->burst_ns;
			} else if (KEY("usage_usec")) {
				u = &st->usage_ns;
				flag = &st->has_usage;
			}
		} else if (KEY("throttled_time")) {
			u = &st->throttled_ns;
		} else if (KEY("burst_time")) {
			u = &st->burst_ns;
		}
#undef KEY
		p += n + (eol != NULL);
		if (iv != NULL && num_i64(val, vn, iv) < 0)
			return -EBADMSG;
		if (u != NULL) {
			if (num_u64(val, vn, UINT64_MAX / m, &uv) < 0)
				return -EBADMSG;
			*u = uv * m;
		}
		if (flag != NULL)
			*flag = true;
	}
	return 0;
}

int
cg_cpu_stat_read(const struct cg_hier *h, const char *group, int dirfd,
		 struct cg_cpu_stat *st, char *err, size_t errlen)
{
	return cg_cpu_stat_read_usage(h, group, dirfd, true, st, err, errlen);
}

int
cg_cpu_stat_read_usage(const struct cg_hier *h, const char *group, int dirfd,
		       bool usage, struct cg_cpu_stat *st, char *err,
		       size_t errlen)
{
	struct cg_at at = { dirfd, NULL };

	return cg_cpu_stat_read_fds(h, group, dirfd >= 0 ? &at : NULL, usage,
				    NULL, st, err, errlen);
}

int
cg_cpu_stat_read_fds(const struct cg_hier *h, const char *group,
		     const struct cg_at *at, bool usage, struct cg_cpu_fds *f,
		     struct cg_cpu_stat *st, char *err, size_t errlen)
{
	char buf[2048];
	struct cg_at use;
	bool owned;
	ssize_t n;
	int r;

	memset(st, 0, sizeof(*st));
	r = cpu_dir(h, group, at, &use, &owned, err, errlen);
	if (r < 0)
		return r;
	n = read_kept(&use, "cpu.stat", f, f ? &f->stat : NULL, buf,
		      sizeof(buf));
	if (n < 0) {
		r = read_failed("cpu.stat", group, n, err, errlen);
		goto out;
	}
	r = cg_cpu_stat_parse(buf, cg_version(h, CG_CPU), st);
	if (r < 0) {
		err_set(err, errlen, "cpu.stat of %s: unexpected content",
		       cg_display(group));
		goto out;
	}
	if (usage && cg_version(h, CG_CPU) == 1 && cg_has(h, CG_CPUACCT)) {
		struct cg_at acct = use;
		uint64_t u;

		/* a kept cpuacct.usage needs no cpuacct directory */
		if (f != NULL && f->usage == CG_FD_ABSENT)
			acct.fd = -ENOENT;
		else if (!cg_same_hier(h, CG_CPU, CG_CPUACCT) &&
			 (f == NULL || f->usage < 0)) {
			acct.fd = cg_open_group(h, CG_CPUACCT, group, NULL, 0);
			acct.sub = NULL;
		}
		r = acct.fd >= 0 ? read_num_kept(&acct, group, "cpuacct.usage",
						 f, f ? &f->usage : NULL, false,
						 NULL, &u, NULL, 0) : acct.fd;
		if (r == -ENOENT && f != NULL)
			f->usage = CG_FD_ABSENT;
		if (r == 0) {
			st->usage_ns = u;
			st->has_usage = true;
		}
		if (acct.fd >= 0 && acct.fd != use.fd)
			close(acct.fd);
		r = r == -ESTALE ? r : 0;
	}
out:
	if (owned)
		close(use.fd);
	return r;
}

int
cg_cpuset_exclusive(const struct cg_hier *h, const char *group)
{
	struct cgcpuset_files f;
	char buf[128];
	ssize_t n;

	if (!cg_has(h, CG_CPUSET) || group[0] == '\0' ||
	    (group[0] == '/' && group[1] == '\0'))
		return 0;
	cgcpuset_files(cg_version(h, CG_CPUSET), &f);
	n = cg_read_quiet(h, CG_CPUSET, group, f.exclusive, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	if (cg_version(h, CG_CPUSET) == 2)
		return n > 0 && (startswith(buf, "root") ||
				 startswith(buf, "isolated"));
	return n > 0 && strcmp(buf, f.exclusive_on) == 0;
}

bool
cg_cpuset_none_below(const struct cg_hier *h, const char *group)
{
	char buf[256];
	ssize_t n;

	if (!cg_has(h, CG_CPUSET))
		return true;
	if (cg_version(h, CG_CPUSET) != 2) {
		int fd = cg_open_group(h, CG_CPUSET, group, NULL, 0);

		if (fd >= 0)
			close(fd);
		return fd == -ENOENT;
	}
	n = cg_read_quiet(h, CG_CPUSET, group, "cgroup.subtree_control", buf,
			  sizeof(buf));
	return n >= 0 && !word_listed(buf, "cpuset");
}
