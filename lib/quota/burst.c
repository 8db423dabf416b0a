// SPDX-License-Identifier: GPL-2.0-or-later
/* The burst journal; the format and the locking rules are in burst.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/hash.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "cgroup/cgroup.h"
#include "kube/quantity.h"
#include "machine/proc.h"
#include "machine/sysroot.h"
#include "quota/burst.h"

#define JOURNAL_MAGIC "cpm-burst-journal 2"
#define JOURNAL_MAGIC_V3 "cpm-burst-journal 3"	/* with budget lines */
#define JOURNAL_MAGIC_V1 "cpm-burst-journal 1"
#define JOURNAL_SUM "checksum fnv1a64:"

static void
entry_free(struct burst_entry *e)
{
	free(e->root);
	free(e->group);
	e->root = e->group = NULL;
}

static void
budget_free(struct burst_budget *w)
{
	free(w->root);
	free(w->group);
	w->root = w->group = NULL;
}

/* A "budget ROOT GROUP BEGAN WINDOW USED" line, after "budget ". */
static int
parse_budget(char *line, struct burst_budget *w)
{
	char *f[5], *save = NULL, *tok;
	uint64_t u;
	int n = 0;

	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (n == 5)
			return -EBADMSG;
		f[n++] = tok;
	}
	if (n != 5 || str_unescape(f[0]) < 0 || str_unescape(f[1]) < 0 ||
	    f[1][0] == '\0')
		return -EBADMSG;
	if (parse_i64(f[2], 0, INT64_MAX, &w->began) < 0 ||
	    parse_u64(f[3], UINT64_MAX, &w->window) < 0 || w->window == 0 ||
	    parse_u64(f[4], UINT64_MAX, &u) < 0)
		return -EBADMSG;
	w->used = u;
	w->root = strdup(f[0]);
	w->group = strdup(f[1]);
	if (w->root == NULL || w->group == NULL) {
		budget_free(w);
		return -ENOMEM;
	}
	return 0;
}

static int parse_line(char *line, struct burst_entry *e);

/* One line of a journal of version 3 when v3: an entry or a budget. */
static int
parse_any(struct burst_journal *j, char *line, bool v3)
{
	struct burst_entry e;
	struct burst_budget w;
	int r;

	if (v3 && strncmp(line, "budget ", 7) == 0) {
		memset(&w, 0, sizeof(w));
		r = parse_budget(line + 7, &w);
		if (r == 0 && burst_budget_find(j, w.root, w.group) >= 0)
			r = -EBADMSG;
		if (r == 0)
			r = burst_budget_put(j, &w);
		budget_free(&w);
		return r;
	}
	memset(&e, 0, sizeof(e));
	r = parse_line(line, &e);
	if (r == 0 && burst_journal_find(j, e.root, e.group) >= 0)
		r = -EBADMSG;
	if (r == 0)
		r = burst_journal_put(j, &e);
	entry_free(&e);
	return r;
}

static int
parse_line(char *line, struct burst_entry *e)
{
	char *f[8], *save = NULL, *tok;
	uint64_t u;
	int64_t i64;
	int n = 0;

	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (n == 8)
			return -EBADMSG;
		f[n++] = tok;
	}
	if (n != 8)
		return -EBADMSG;
	if (parse_u64(f[0], INT_MAX, &u) < 0 || u == 0)
		return -EBADMSG;
	e->pid = (pid_t)u;
	if (parse_u64(f[1], UINT64_MAX, &e->start) < 0)
		return -EBADMSG;
	if (str_unescape(f[2]) < 0 || str_unescape(f[3]) < 0 || f[3][0] == '\0')
		return -EBADMSG;
	if (parse_i64(f[4], 1, INT64_MAX, &e->orig_quota) < 0 ||
	    parse_u64(f[5], UINT64_MAX, &e->period) < 0 || e->period == 0 ||
	    parse_i64(f[6], 1, INT64_MAX, &e->boost_quota) < 0 ||
	    parse_i64(f[7], 0, INT64_MAX, &i64) < 0)
		return -EBADMSG;
	e->since = i64;
	/*
	 * Bound what restore may write by what the kernel accepts, and to
	 * a lowering: the original was below the raised value.
	 */
	if (e->orig_quota < CFS_QUOTA_MIN_US ||
	    e->orig_quota > CFS_QUOTA_MAX_US ||
	    e->boost_quota <= e->orig_quota ||
	    e->boost_quota > CFS_QUOTA_MAX_US ||
	    e->period < CFS_PERIOD_MIN_US || e->period > CFS_PERIOD_MAX_US)
		return -EBADMSG;
	e->root = strdup(f[2]);
	e->group = strdup(f[3]);
	if (e->root == NULL || e->group == NULL) {
		entry_free(e);
		return -ENOMEM;
	}
	return 0;
}

int
burst_journal_parse(struct burst_journal *j, char *text, size_t len,
		    char *err, size_t errlen)
{
	char *line, *next, *body;
	const char *name = j->path ? j->path : "-";
	size_t lineno = 2, mlen = strlen(JOURNAL_MAGIC);
	uint64_t want, got;
	bool v3;
	int r;

	if (len == 0)		/* created but never written: empty */
		return 0;
	if (memchr(text, '\0', len) != NULL) {
		err_set(err, errlen, "journal '%s' is damaged: it holds a NUL byte",
			name);
		return -EBADMSG;
	}
	next = strchr(text, '\n');
	if (next != NULL && (size_t)(next - text) == strlen(JOURNAL_MAGIC_V1) &&
	    strncmp(text, JOURNAL_MAGIC_V1, strlen(JOURNAL_MAGIC_V1)) == 0) {
		err_set(err, errlen, "journal '%s' is of version 1, without a "
			"checksum: restore it with the cpm-quota that wrote it",
			name);
		return -EBADMSG;
	}
	v3 = next != NULL && (size_t)(next - text) == mlen &&
	     strncmp(text, JOURNAL_MAGIC_V3, mlen) == 0;
	if (next == NULL || (size_t)(next - text) != mlen ||
	    (!v3 && strncmp(text, JOURNAL_MAGIC, mlen) != 0)) {
		err_set(err, errlen, "'%s' is not a cpm burst journal (first "
			"line is not '%s')", name, JOURNAL_MAGIC);
		return -EBADMSG;
	}
	line = next + 1;
	next = strchr(line, '\n');
	if (next == NULL || strncmp(line, JOURNAL_SUM, strlen(JOURNAL_SUM)) != 0 ||
	    next - line != (ptrdiff_t)(strlen(JOURNAL_SUM) + 16)) {
		err_set(err, errlen, "journal '%s' is damaged: line 2 is not "
			"its checksum", name);
		return -EBADMSG;
	}
	*next = '\0';
	{
		char *end;

		errno = 0;
		want = strtoull(line + strlen(JOURNAL_SUM), &end, 16);
		if (*end != '\0' || errno != 0 ||
		    line[strlen(JOURNAL_SUM)] == '-' ||
		    line[strlen(JOURNAL_SUM)] == '+') {
			err_set(err, errlen, "journal '%s' is damaged: line 2 "
				"is not its checksum", name);
			return -EBADMSG;
		}
	}
	body = next + 1;
	got = fnv1a64(FNV64_INIT, body, len - (size_t)(body - text));
	if (got != want) {
		err_set(err, errlen, "journal '%s' is damaged: its checksum "
			"does not match (edited or cut short)", name);
		return -EBADMSG;
	}
	for (line = body; *line; line = next) {
		lineno++;
		next = strchr(line, '\n');
		if (next == NULL) {
			err_set(err, errlen, "journal '%s' is damaged: line %zu "
				"is not terminated", name, lineno);
			return -EBADMSG;
		}
		*next++ = '\0';
		r = parse_any(j, line, v3);
		if (r < 0) {
			if (r == -EBADMSG)
				err_set(err, errlen, "journal '%s' is damaged: "
					"line %zu is not a valid entry",
					name, lineno);
			return r;
		}
	}
	j->dirty = false;
	return 0;
}

static int
journal_load(struct burst_journal *j, char *err, size_t errlen)
{
	char *text;
	size_t len;
	int r;

	r = read_file_at(AT_FDCWD, j->path,
			 &(struct read_opts){ .max = BURST_JOURNAL_MAX }, &text,
			 &len);
	if (r == -ENOENT)
		return 0;
	if (r == -EFBIG || r == -EFTYPE_CPM) {
		err_set(err, errlen, "journal '%s' is damaged: %s", j->path,
			read_strerror(r));
		return -EBADMSG;
	}
	if (r < 0) {
		err_set(err, errlen, "cannot read journal '%s': %s", j->path,
			strerror(-r));
		return r;
	}
	r = burst_journal_parse(j, text, len, err, errlen);
	free(text);
	return r;
}

/* mkdir -p of path's directory (0755). */
static int
make_parent_dirs(const char *path)
{
	char buf[PATH_MAX];
	char *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	p = strrchr(buf, '/');
	if (p == NULL || p == buf)
		return 0;
	*p = '\0';
	return mkdir_p(buf, 0755);
}

int
burst_journal_open_wait(struct burst_journal *j, const char *path,
			int64_t wait_ms, char *err, size_t errlen)
{
	char lockpath[PATH_MAX];
	int r;

	memset(j, 0, sizeof(*j));
	j->lockfd = -1;
	if (snprintf(lockpath, sizeof(lockpath), "%s.lock", path) >=
	    (int)sizeof(lockpath)) {
		err_set(err, errlen, "journal path '%s' is too long", path);
		return -ENAMETOOLONG;
	}
	j->path = strdup(path);
	if (j->path == NULL)
		return -ENOMEM;
	r = make_parent_dirs(path);
	if (r < 0) {
		err_set(err, errlen, "cannot create the directory of journal "
			"'%s': %s", path, r == -ELOOP ?
			"a symbolic link on the way" : strerror(-r));
		burst_journal_close(j);
		return r;
	}
	/* Trusted only when no one else could have written it, and locked
	 * (BASE.lock created) only when it is a journal. */
	r = own_file_check(path, "burst journal", "cpm-burst-journal ",
			   OWN_PRIVATE_DIR, err, errlen);
	if (r >= 0)
		r = lock_file(lockpath, wait_ms, err, errlen);
	if (r == -EFTYPE_CPM || r == -EISDIR)
		r = -EBADMSG;	/* refused as bad input */
	if (r < 0) {
		burst_journal_close(j);
		return r;
	}
	j->lockfd = r;
	r = journal_load(j, err, errlen);
	if (r < 0) {
		burst_journal_close(j);
		return r;
	}
	return 0;
}

int
burst_register_open(struct burst_journal *m, const struct burst_journal *j,
		    const char *path, int64_t wait_ms, char *err, size_t errlen)
{
	char lockpath[PATH_MAX];
	struct stat a, b;

	memset(m, 0, sizeof(*m));
	m->lockfd = -1;
	if (snprintf(lockpath, sizeof(lockpath), "%s.lock", path) <
	    (int)sizeof(lockpath) && j->lockfd >= 0 &&
	    stat(lockpath, &a) == 0 && fstat(j->lockfd, &b) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
		err_set(err, errlen, "journal '%s' is the register of raised "
			"groups: give the burst another journal", j->path);
		return -EBADMSG;
	}
	return burst_journal_open_wait(m, path, wait_ms, err, errlen);
}

int
burst_journal_open(struct burst_journal *j, const char *path, char *err,
		   size_t errlen)
{
	return burst_journal_open_wait(j, path, -1, err, errlen);
}

int
burst_journal_commit(struct burst_journal *j, char *err, size_t errlen)
{
	struct strbuf sb;
	int r;

	if (!j->dirty)
		return 0;
	strbuf_init(&sb);
	burst_journal_format(j, &sb);
	if (sb.oom) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	r = write_file_atomic(j->path, sb.buf, sb.len,
			      &(struct write_opts){ .mode = 0600 });
	strbuf_free(&sb);
	if (r < 0) {
		err_set(err, errlen, "cannot write journal '%s': %s", j->path,
			strerror(-r));
		return r;
	}
	j->dirty = false;
	return 0;
}

void
burst_journal_format(const struct burst_journal *j, struct strbuf *out)
{
	struct strbuf sb;
	bool v3 = false;
	size_t i;

	strbuf_init(&sb);
	for (i = 0; i < j->n; i++) {
		const struct burst_entry *e = &j->v[i];

		if (e->deleted)
			continue;
		strbuf_printf(&sb, "%ld %llu ", (long)e->pid,
			      (unsigned long long)e->start);
		str_escape(&sb, e->root);
		strbuf_puts(&sb, " ");
		str_escape(&sb, e->group);
		strbuf_printf(&sb, " %lld %llu %lld %lld\n",
			      (long long)e->orig_quota,
			      (unsigned long long)e->period,
			      (long long)e->boost_quota, (long long)e->since);
	}
	for (i = 0; i < j->bn; i++) {
		const struct burst_budget *w = &j->bv[i];

		if (w->deleted)
			continue;
		v3 = true;
		strbuf_puts(&sb, "budget ");
		str_escape(&sb, w->root);
		strbuf_puts(&sb, " ");
		str_escape(&sb, w->group);
		strbuf_printf(&sb, " %lld %llu %llu\n", (long long)w->began,
			      (unsigned long long)w->window,
			      (unsigned long long)w->used);
	}
	/* version 2 while there is no budget line: older readers read it */
	strbuf_printf(out, "%s\n" JOURNAL_SUM "%016llx\n",
		      v3 ? JOURNAL_MAGIC_V3 : JOURNAL_MAGIC,
		      (unsigned long long)fnv1a64(FNV64_INIT, sb.buf ? sb.buf : "",
						  sb.len));
	if (sb.oom)
		out->oom = true;
	else if (sb.len)
		strbuf_add(out, sb.buf, sb.len);
	strbuf_free(&sb);
}

void
burst_journal_close(struct burst_journal *j)
{
	size_t i;

	for (i = 0; i < j->n; i++)
		entry_free(&j->v[i]);
	for (i = 0; i < j->bn; i++)
		budget_free(&j->bv[i]);
	free(j->v);
	free(j->hash);
	free(j->bv);
	free(j->bhash);
	free(j->path);
	if (j->lockfd >= 0)
		close(j->lockfd);	/* releases the flock */
	memset(j, 0, sizeof(*j));
	j->lockfd = -1;
}

static uint64_t
key_hash(const char *root, const char *group)
{
	uint64_t h = fnv1a64(FNV64_INIT, root, strlen(root));

	h = fnv1a64(h, "\xff", 1);	/* separator */
	return fnv1a64(h, group, strlen(group));
}

/*
 * The two indexes (entries, budget windows) are one kind: open addressing
 * over a power-of-two array of index + 1, 0 empty.
 */
struct index {
	uint32_t **slot;
	size_t *cap;
	size_t n;
};

static struct index
index_of(struct burst_journal *j, bool budget)
{
	return budget ? (struct index){ &j->bhash, &j->bhcap, j->bn } :
			(struct index){ &j->hash, &j->hcap, j->n };
}

/* The key of item i of an index, false for a hole. */
static bool
key_at(const struct burst_journal *j, bool budget, size_t i,
       const char **root, const char **group)
{
	if (budget) {
		*root = j->bv[i].root;
		*group = j->bv[i].group;
		return !j->bv[i].deleted;
	}
	*root = j->v[i].root;
	*group = j->v[i].group;
	return !j->v[i].deleted;
}

static void
hash_insert(struct burst_journal *j, bool budget, size_t i)
{
	struct index x = index_of(j, budget);
	size_t mask = *x.cap - 1, h;
	const char *root, *group;

	key_at(j, budget, i, &root, &group);
	for (h = (size_t)key_hash(root, group) & mask; (*x.slot)[h];
	     h = (h + 1) & mask)
		;
	(*x.slot)[h] = (uint32_t)(i + 1);
}

/* Make room for one more item in an index. */
static int
hash_reserve(struct burst_journal *j, bool budget)
{
	struct index x = index_of(j, budget);
	size_t ncap = *x.cap ? *x.cap : 64, i;
	const char *root, *group;
	uint32_t *nh;

	if ((x.n + 1) * 2 <= *x.cap)
		return 0;
	if (x.n + 1 >= UINT32_MAX / 4)
		return -ENOMEM;
	while ((x.n + 1) * 2 > ncap)
		ncap *= 2;
	nh = calloc(ncap, sizeof(*nh));
	if (nh == NULL)
		return -ENOMEM;
	free(*x.slot);
	*x.slot = nh;
	*x.cap = ncap;
	for (i = 0; i < x.n; i++)
		if (key_at(j, budget, i, &root, &group))
			hash_insert(j, budget, i);
	return 0;
}

static ssize_t
hash_find(const struct burst_journal *j, bool budget, const char *root,
	  const char *group)
{
	const uint32_t *slot = budget ? j->bhash : j->hash;
	size_t cap = budget ? j->bhcap : j->hcap, mask, h;
	const char *r, *g;

	if (cap == 0)
		return -1;
	mask = cap - 1;
	for (h = (size_t)key_hash(root, group) & mask; slot[h];
	     h = (h + 1) & mask) {
		size_t i = slot[h] - 1;

		if (key_at(j, budget, i, &r, &g) && strcmp(g, group) == 0 &&
		    strcmp(r, root) == 0)
			return (ssize_t)i;
	}
	return -1;
}

ssize_t
burst_journal_find(const struct burst_journal *j, const char *root,
		   const char *group)
{
	return hash_find(j, false, root, group);
}

ssize_t
burst_budget_find(const struct burst_journal *j, const char *root,
		  const char *group)
{
	return hash_find(j, true, root, group);
}

int
burst_budget_put(struct burst_journal *j, const struct burst_budget *w)
{
	struct burst_budget c = *w;
	ssize_t i;

	c.deleted = false;
	c.root = strdup(w->root);
	c.group = strdup(w->group);
	if (c.root == NULL || c.group == NULL) {
		budget_free(&c);
		return -ENOMEM;
	}
	i = burst_budget_find(j, w->root, w->group);
	if (i >= 0) {
		budget_free(&j->bv[i]);
		j->bv[i] = c;
		j->dirty = true;
		return 0;
	}
	if (hash_reserve(j, true) < 0) {
		budget_free(&c);
		return -ENOMEM;
	}
	if (j->bn == j->bcap) {
		size_t ncap = j->bcap ? j->bcap * 2 : 16;
		struct burst_budget *nv;

		nv = realloc(j->bv, ncap * sizeof(*nv));
		if (nv == NULL) {
			budget_free(&c);
			return -ENOMEM;
		}
		j->bv = nv;
		j->bcap = ncap;
	}
	j->bv[j->bn] = c;
	hash_insert(j, true, j->bn);
	j->bn++;
	j->dirty = true;
	return 0;
}

void
burst_budget_del(struct burst_journal *j, size_t i)
{
	if (i >= j->bn || j->bv[i].deleted)
		return;
	budget_free(&j->bv[i]);
	j->bv[i].deleted = true;
	j->dirty = true;
}

int
burst_journal_put(struct burst_journal *j, const struct burst_entry *e)
{
	struct burst_entry c = *e;
	ssize_t i;

	c.deleted = false;
	c.root = strdup(e->root);
	c.group = strdup(e->group);
	if (c.root == NULL || c.group == NULL) {
		entry_free(&c);
		return -ENOMEM;
	}
	i = burst_journal_find(j, e->root, e->group);
	if (i >= 0) {
		entry_free(&j->v[i]);
		j->v[i] = c;
		j->dirty = true;
		return 0;
	}
	if (hash_reserve(j, false) < 0) {
		entry_free(&c);
		return -ENOMEM;
	}
	if (j->n == j->cap) {
		size_t ncap = j->cap ? j->cap * 2 : 16;
		struct burst_entry *nv;

		nv = realloc(j->v, ncap * sizeof(*nv));
		if (nv == NULL) {
			entry_free(&c);
			return -ENOMEM;
		}
		j->v = nv;
		j->cap = ncap;
	}
	j->v[j->n] = c;
	hash_insert(j, false, j->n);
	j->n++;
	j->dirty = true;
	return 0;
}

void
burst_journal_del(struct burst_journal *j, size_t i)
{
	if (i >= j->n || j->v[i].deleted)
		return;
	entry_free(&j->v[i]);
	j->v[i].deleted = true;
	j->dirty = true;
}

int
burst_proc_start(pid_t pid, uint64_t *start)
{
	struct sysroot root;
	int r;

	if (sysroot_open(&root, "/") < 0)
		return -EBADMSG;
	r = proc_start_time(&root, pid, start);
	sysroot_close(&root);
	return r;
}

bool
burst_owner_alive(const struct burst_entry *e)
{
	uint64_t start;

	if (burst_proc_start(e->pid, &start) < 0)
		return false;
	return start == e->start;
}

int
burst_root_key(const struct cg_hier *h, char **out)
{
	struct cg_hier live;
	char err[256];
	bool same = false;

	*out = NULL;
	if (!h->live && cg_has(h, CG_CPU) &&
	    cg_open(&live, NULL, err, sizeof(err)) == 0) {
		same = cg_has(&live, CG_CPU) &&
		       live.ctrl[CG_CPU].dev == h->ctrl[CG_CPU].dev &&
		       live.ctrl[CG_CPU].ino == h->ctrl[CG_CPU].ino;
		cg_close(&live);
	}
	if (h->live || same) {
		*out = strdup("-");
		return *out ? 0 : -ENOMEM;
	}
	*out = realpath(h->root, NULL);
	return *out ? 0 : -errno;
}
