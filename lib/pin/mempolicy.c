// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/macros.h"
#include "base/num.h"
#include "base/path.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "pin/mempolicy.h"

#define WI_DIR "sys/kernel/mm/mempolicy/weighted_interleave"
#define BITS_PER_UL (8 * sizeof(unsigned long))

const char *
mempolicy_needs(int mode)
{
	return mode == MEMPOLICY_WEIGHTED_INTERLEAVE ? "6.9" :
	       mode == MEMPOLICY_PREFERRED_MANY ? "5.15" : "2.6.7";
}

static const char *
mode_text(int mode)
{
	return mode == MEMPOLICY_WEIGHTED_INTERLEAVE ?
	       "weighted interleave (MPOL_WEIGHTED_INTERLEAVE)" :
	       "preferred-many (MPOL_PREFERRED_MANY)";
}

int
mempolicy_set(int mode, const struct cpuset *nodes, char *err, size_t errlen)
{
	int last = cpuset_last(nodes), r = 0;
	size_t words = last < 0 ? 1 : (size_t)last / BITS_PER_UL + 1;
	unsigned long *mask = calloc(words, sizeof(*mask));
	int n;

	if (mask == NULL)
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	cpuset_for_each(n, nodes)
		mask[(size_t)n / BITS_PER_UL] |= 1UL << ((size_t)n % BITS_PER_UL);
	/* The kernel reads maxnode - 1 bits. */
	if (syscall(SYS_set_mempolicy, mode, mask,
		    (unsigned long)(words * BITS_PER_UL + 1)) < 0)
		r = -errno;
	free(mask);
	if (r == -EINVAL) {
		/*
		 * The nodes were checked before (they exist, have memory and
		 * are allowed): a kernel that refuses them does not know the
		 * mode.
		 */
		struct utsname u;

		if (uname(&u) < 0)
			snprintf(u.release, sizeof(u.release), "?");
		return err_ret(err, errlen, -EOPNOTSUPP,
			       "this kernel (Linux %s) has no %s; it needs "
			       "Linux %s or later", u.release, mode_text(mode),
			       mempolicy_needs(mode));
	}
	if (r == -ENOSYS)
		return err_ret(err, errlen, -EOPNOTSUPP,
			       "this kernel has no NUMA memory policy support");
	if (r < 0)
		return err_ret(err, errlen, r, "cannot set memory policy %s: %s",
			       mode_text(mode), strerror(-r));
	return 0;
}

void
weights_init(struct weights *ws)
{
	memset(ws, 0, sizeof(*ws));
	cpuset_init(&ws->nodes);
}

void
weights_free(struct weights *ws)
{
	free(ws->w);
	cpuset_free(&ws->nodes);
	memset(ws, 0, sizeof(*ws));
}

static int
weights_put(struct weights *ws, int node, int w)
{
	if (node >= ws->n) {
		int n = node + 1;
		unsigned char *p = realloc(ws->w, (size_t)n);

		if (p == NULL)
			return -ENOMEM;
		memset(p + ws->n, 0, (size_t)(n - ws->n));
		ws->w = p;
		ws->n = n;
	}
	ws->w[node] = (unsigned char)w;
	return cpuset_set(&ws->nodes, (unsigned int)node);
}

int
weights_parse(const char *text, struct weights *ws, char *err, size_t errlen)
{
	char *copy = strdup(text), *rest = copy, *part;
	int r = 0;

	if (copy == NULL)
		return -ENOMEM;
	/* strsep(), not strtok(): an empty part is an error, not skipped. */
	while (r == 0 && (part = strsep(&rest, ",")) != NULL) {
		char *colon = strchr(part, ':');
		unsigned int node, w;

		if (colon == NULL) {
			r = err_ret(err, errlen, -EINVAL,
				    "invalid weight '%s' (NODE:WEIGHT)", part);
			break;
		}
		*colon = '\0';
		if (parse_uint(part, CPUSET_MAX_CPUS - 1, &node) < 0 ||
		    parse_uint(colon + 1, WEIGHT_MAX, &w) < 0 || w == 0) {
			*colon = ':';
			r = err_ret(err, errlen, -EINVAL,
				    "invalid weight '%s' (NODE:WEIGHT, weights "
				    "1-%d)", part, WEIGHT_MAX);
			break;
		}
		if (cpuset_isset(&ws->nodes, node)) {
			r = err_ret(err, errlen, -EINVAL,
				    "node %u is given two weights", node);
			break;
		}
		r = weights_put(ws, (int)node, (int)w);
	}
	if (r == 0 && cpuset_empty(&ws->nodes))
		r = err_ret(err, errlen, -EINVAL, "no weights in '%s'", text);
	free(copy);
	return r;
}

int
weights_read(const struct sysroot *root, const struct weights *ws,
	     struct weights *cur, char *err, size_t errlen)
{
	char path[128], buf[32];
	int n, r = 0;

	if (!sysroot_exists(root, WI_DIR))
		return err_ret(err, errlen, -ENOENT,
			       "this kernel has no weighted-interleave weights "
			       "(%s/); they need Linux %s or later", WI_DIR,
			       mempolicy_needs(MEMPOLICY_WEIGHTED_INTERLEAVE));
	cpuset_for_each(n, &ws->nodes) {
		ssize_t k;
		unsigned int w;

		snprintf(path, sizeof(path), WI_DIR "/node%d", n);
		k = sysroot_read(root, path, buf, sizeof(buf));
		if (k <= 0) {
			r = err_ret(err, errlen, -ERANGE,
				    "node %d has no interleave weight (no %s)",
				    n, path);
			break;
		}
		buf[k] = '\0';
		if (parse_uint(strstrip(buf), WEIGHT_MAX, &w) < 0) {
			r = err_ret(err, errlen, -EINVAL,
				    "%s holds '%s', not a weight", path, buf);
			break;
		}
		if ((r = weights_put(cur, n, (int)w)) < 0)
			break;
	}
	return r;
}

bool
weights_equal(const struct weights *want, const struct weights *cur)
{
	int n;

	cpuset_for_each(n, &want->nodes)
		if (n >= cur->n || cur->w[n] != want->w[n])
			return false;
	return true;
}

void
weights_format(const struct weights *ws, struct strbuf *sb)
{
	int n;
	bool first = true;

	cpuset_for_each(n, &ws->nodes) {
		strbuf_printf(sb, "%s%d:%d", first ? "" : ",", n, ws->w[n]);
		first = false;
	}
}

/* Write text into a file of the weights directory.  0 or -errno. */
static int
wi_write(const struct sysroot *root, const char *name, const char *text)
{
	char path[128];
	int fd, r;

	snprintf(path, sizeof(path), WI_DIR "/%s", name);
	fd = root->live ? openat(root->fd, path, O_WRONLY | O_CLOEXEC |
				 O_NOCTTY) :
	     open_in_root(root->fd, path, O_WRONLY | O_TRUNC | O_CLOEXEC |
			  O_NOCTTY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return root->live ? -errno : fd;
	r = write_all(fd, text, strlen(text));
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/* The auto file's value: 1, 0, or -1 without one. */
static int
read_auto(const struct sysroot *root, const char **name)
{
	static const char *const names[] = { "auto", "__auto_type" };
	char path[128], buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		ssize_t k;

		snprintf(path, sizeof(path), WI_DIR "/%s", names[i]);
		k = sysroot_read(root, path, buf, sizeof(buf));
		if (k <= 0)
			continue;
		buf[k] = '\0';
		strstrip(buf);
		*name = names[i];
		return strcmp(buf, "true") == 0 || strcmp(buf, "1") == 0 ? 1 :
		       0;
	}
	*name = NULL;
	return -1;
}

static int
write_journal(const struct sysroot *root, const char *journal,
	      const struct weights *old, char *err, size_t errlen)
{
	struct strbuf sb;
	const char *name;
	int a = read_auto(root, &name), n, r;
	char *slash, dir[4096];

	strbuf_init(&sb);
	strbuf_printf(&sb, "cpm-weight-journal 1\nauto %s\n",
		      a < 0 ? "-" : a ? "1" : "0");
	cpuset_for_each(n, &old->nodes)
		strbuf_printf(&sb, "node %d %d\n", n, old->w[n]);
	if (sb.oom) {
		strbuf_free(&sb);
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	}
	snprintf(dir, sizeof(dir), "%s", journal);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		(void)mkdir_p(dir, 0755);
	}
	r = write_file_atomic(journal, sb.buf, sb.len,
			      &(struct write_opts){ .mode = 0644 });
	strbuf_free(&sb);
	if (r < 0)
		return err_ret(err, errlen, r, "cannot write the journal %s: %s",
			       journal, strerror(-r));
	return 0;
}

int
weights_apply(const struct sysroot *root, const char *journal,
	      const struct weights *ws, char *err, size_t errlen)
{
	struct weights old, back;
	struct stat st;
	char name[32], text[16];
	int n, r;

	weights_init(&old);
	weights_init(&back);
	r = weights_read(root, ws, &old, err, errlen);
	if (r < 0)
		goto out;
	/* A journal in place holds the values from before the first
	 * change: keep it. */
	if (stat(journal, &st) < 0) {
		/* Every node's weight, not only those changed now, so that
		 * a later change of others is undone too. */
		struct weights all;

		weights_init(&all);
		for (n = 0; n < CPUSET_MAX_CPUS && r == 0; n++) {
			char path[128];

			snprintf(path, sizeof(path), WI_DIR "/node%d", n);
			if (n > ws->n + 1024)
				break;
			if (sysroot_exists(root, path))
				r = weights_put(&all, n, 0);
		}
		if (r == 0)
			r = weights_read(root, &all, &old, err, errlen);
		if (r == 0)
			r = write_journal(root, journal, &old, err, errlen);
		weights_free(&all);
		if (r < 0)
			goto out;
	}
	cpuset_for_each(n, &ws->nodes) {
		snprintf(name, sizeof(name), "node%d", n);
		snprintf(text, sizeof(text), "%d\n", ws->w[n]);
		r = wi_write(root, name, text);
		if (r < 0) {
			err_set(err, errlen, "cannot write %s/%s: %s%s", WI_DIR,
				name, strerror(-r),
				r == -EACCES || r == -EPERM ?
				" (the weights are system-wide: root only)" : "");
			goto out;
		}
	}
	r = weights_read(root, ws, &back, err, errlen);
	if (r == 0 && !weights_equal(ws, &back)) {
		struct strbuf a, b;

		strbuf_init(&a);
		strbuf_init(&b);
		weights_format(&back, &a);
		weights_format(ws, &b);
		err_set(err, errlen, "the weights are %s, not %s as asked",
			a.buf ? a.buf : "?", b.buf ? b.buf : "?");
		strbuf_free(&a);
		strbuf_free(&b);
		r = -EIO;
	}
out:
	weights_free(&old);
	weights_free(&back);
	return r;
}

int
weights_restore(const struct sysroot *root, const char *journal, char *err,
		size_t errlen)
{
	struct weights old;
	char *text, *line, *save = NULL;
	const char *aname;
	int r, n, lineno = 0, failed = 0, want_auto = -1;

	r = read_file_at(AT_FDCWD, journal,
			 &(struct read_opts){ .flags = READ_TEXT }, &text, NULL);
	if (r == -ENOENT)
		return 1;
	if (r < 0)
		return err_ret(err, errlen, r, "cannot read %s: %s", journal,
			       strerror(-r));
	/* The whole journal is checked before anything is written. */
	weights_init(&old);
	for (line = strtok_r(text, "\n", &save); line && r == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned int node, w;
		char tail;

		lineno++;
		if (lineno == 1) {
			if (strcmp(line, "cpm-weight-journal 1") != 0)
				r = -EBADMSG;
		} else if (strcmp(line, "auto -") == 0) {
			continue;
		} else if (strcmp(line, "auto 1") == 0 ||
			   strcmp(line, "auto 0") == 0) {
			want_auto = line[5] == '1';
		} else if (sscanf(line, "node %u %u%c", &node, &w, &tail) != 2 ||
			   w > WEIGHT_MAX || node >= CPUSET_MAX_CPUS) {
			r = -EBADMSG;
		} else {
			r = weights_put(&old, (int)node, (int)w);
		}
	}
	free(text);
	if (r == 0 && lineno == 0)
		r = -EBADMSG;
	if (r < 0) {
		weights_free(&old);
		if (r == -ENOMEM)
			return err_ret(err, errlen, r, "out of memory");
		return err_ret(err, errlen, r, "%s is not a weight journal "
			       "(line %d); nothing was changed", journal,
			       lineno);
	}
	cpuset_for_each(n, &old.nodes) {
		char name[32], val[16];

		snprintf(name, sizeof(name), "node%d", n);
		snprintf(val, sizeof(val), "%d\n", old.w[n]);
		if (wi_write(root, name, val) < 0)
			failed++;
	}
	weights_free(&old);
	/* Writing a weight turned auto off; writing auto back on makes
	 * the kernel compute every weight again. */
	if (want_auto == 1 && read_auto(root, &aname) == 0 &&
	    wi_write(root, aname, "true\n") < 0)
		failed++;
	if (failed)
		return err_ret(err, errlen, -EIO, "%d weight%s could not be "
			       "written back; the journal %s stays", failed,
			       failed == 1 ? "" : "s", journal);
	if (unlink(journal) < 0)
		return err_ret(err, errlen, -errno, "cannot remove %s: %s",
			       journal, strerror(errno));
	return 0;
}
