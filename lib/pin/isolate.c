// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Isolating CPUs with a journal of every original value.
 *
 * As for interrupts (machine/irq.c), what a value should be is a
 * function of its original and of the holders in the journal, so that a
 * run cut short at any instant, run again or undone, converges on the
 * same state, and originals are never overwritten by moved values.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/filewrite.h"
#include "base/hash.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "cgroup/cgcpuset.h"
#include "cgroup/cgroup.h"
#include "cgroup/sdbus.h"
#include "cgroup/sdprop.h"
#include "machine/irqbalance.h"
#include "machine/tasks.h"
#include "pin/isolate.h"
#include "pin/repin.h"

#define MAGIC "cpm-isolate-journal 1"
#define WQ_DIR "sys/devices/virtual/workqueue"
#define CPU_DIR "sys/devices/system/cpu"
#define UNIT_PREFIX "unit:"

/* ---- the journal ---- */

struct holder {
	char *name;
	struct cpuset cpus;
	pid_t scope;
};

struct jtask {
	pid_t tid;
	uint64_t start;
	struct cpuset orig, now, was;
	bool has_now, has_was;
	bool seen;		/* found in this run's scan */
};

struct jfile {
	char *path, *orig, *now, *was;	/* now, was: NULL for none */
};

struct journal {
	const char *path;
	int lockfd;
	bool exists;
	struct holder *h;
	size_t nh;
	struct jtask *t;
	size_t nt;
	struct jfile *f;
	size_t nf;
};

static void
journal_close(struct journal *j)
{
	size_t i;

	for (i = 0; i < j->nh; i++) {
		free(j->h[i].name);
		cpuset_free(&j->h[i].cpus);
	}
	for (i = 0; i < j->nt; i++) {
		cpuset_free(&j->t[i].orig);
		cpuset_free(&j->t[i].now);
		cpuset_free(&j->t[i].was);
	}
	for (i = 0; i < j->nf; i++) {
		free(j->f[i].path);
		free(j->f[i].orig);
		free(j->f[i].now);
		free(j->f[i].was);
	}
	free(j->h);
	free(j->t);
	free(j->f);
	if (j->lockfd >= 0)
		close(j->lockfd);
	memset(j, 0, sizeof(*j));
	j->lockfd = -1;
}

static int
grow(void **v, size_t n, size_t size)
{
	void *nv = realloc(*v, (n + 1) * size);

	if (nv == NULL)
		return -ENOMEM;
	*v = nv;
	memset((char *)nv + n * size, 0, size);
	return 0;
}

static struct holder *
add_holder(struct journal *j, const char *name, const struct cpuset *cpus,
	   pid_t scope)
{
	struct holder *h;

	if (grow((void **)&j->h, j->nh, sizeof(*j->h)) < 0)
		return NULL;
	h = &j->h[j->nh];
	cpuset_init(&h->cpus);
	h->scope = scope;
	if ((h->name = strdup(name)) == NULL ||
	    cpuset_copy(&h->cpus, cpus) < 0) {
		free(h->name);
		cpuset_free(&h->cpus);
		return NULL;
	}
	j->nh++;
	return h;
}

static struct jtask *
add_task(struct journal *j, pid_t tid, uint64_t start,
	 const struct cpuset *orig)
{
	struct jtask *t;

	if (grow((void **)&j->t, j->nt, sizeof(*j->t)) < 0)
		return NULL;
	t = &j->t[j->nt];
	t->tid = tid;
	t->start = start;
	cpuset_init(&t->orig);
	cpuset_init(&t->now);
	cpuset_init(&t->was);
	if (cpuset_copy(&t->orig, orig) < 0)
		return NULL;
	j->nt++;
	return t;
}

static struct jtask *
find_task(struct journal *j, pid_t tid, uint64_t start)
{
	size_t i;

	for (i = 0; i < j->nt; i++)
		if (j->t[i].tid == tid && j->t[i].start == start)
			return &j->t[i];
	return NULL;
}

static struct jfile *
find_file(struct journal *j, const char *path)
{
	size_t i;

	for (i = 0; i < j->nf; i++)
		if (strcmp(j->f[i].path, path) == 0)
			return &j->f[i];
	return NULL;
}

static struct jfile *
add_file(struct journal *j, const char *path, const char *orig)
{
	struct jfile *f;

	if (grow((void **)&j->f, j->nf, sizeof(*j->f)) < 0)
		return NULL;
	f = &j->f[j->nf];
	f->path = strdup(path);
	f->orig = strdup(orig);
	if (f->path == NULL || f->orig == NULL) {
		free(f->path);
		free(f->orig);
		return NULL;
	}
	j->nf++;
	return f;
}

static int
damaged(const struct journal *j, char *err, size_t errlen)
{
	err_set(err, errlen, "journal '%s' is damaged: a line is not valid",
		j->path);
	return -EBADMSG;
}

/* A cpulist word: "-" empty, "~" none (*has false). */
static int
parse_set(const char *w, struct cpuset *s, bool *has)
{
	char perr[64];

	if (has)
		*has = strcmp(w, "~") != 0;
	if (strcmp(w, "~") == 0)
		return has ? 0 : -EBADMSG;
	return cpuset_parse_list(strcmp(w, "-") ? w : "", s, perr,
				 sizeof(perr)) < 0 ? -EBADMSG : 0;
}

/* A value word: "=" and the escaped value, or "~" for none (NULL). */
static int
parse_value(char *w, char **out, bool may_be_none)
{
	*out = NULL;
	if (strcmp(w, "~") == 0)
		return may_be_none ? 0 : -EBADMSG;
	if (w[0] != '=' || str_unescape(w + 1) < 0)
		return -EBADMSG;
	return (*out = strdup(w + 1)) ? 0 : -ENOMEM;
}

/* A top-level slice or scope's name, as systemd spells them. */
static bool
unit_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n < 7 || n > 200 || (strcmp(name + n - 6, ".slice") != 0 &&
				 strcmp(name + n - 6, ".scope") != 0))
		return false;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789:_.-@\\") == n;
}

static int
parse_line(struct journal *j, char *line)
{
	char *w[7], *save = NULL;
	uint64_t start;
	unsigned int tid, scope;
	struct cpuset s = CPUSET_INIT;
	int n = 0, r = -EBADMSG;

	for (char *p = strtok_r(line, " ", &save); p && n < 7;
	     p = strtok_r(NULL, " ", &save))
		w[n++] = p;
	if (n == 4 && strcmp(w[0], "holder") == 0) {
		if (str_unescape(w[1]) == 0 && parse_set(w[2], &s, NULL) == 0 &&
		    parse_uint(w[3], INT_MAX, &scope) == 0)
			r = add_holder(j, w[1], &s, (pid_t)scope) ? 0 : -ENOMEM;
	} else if (n == 6 && strcmp(w[0], "task") == 0) {
		struct jtask *t;

		if (parse_uint(w[1], INT_MAX, &tid) == 0 &&
		    parse_u64(w[2], UINT64_MAX, &start) == 0 &&
		    parse_set(w[3], &s, NULL) == 0) {
			t = add_task(j, (pid_t)tid, start, &s);
			r = t == NULL ? -ENOMEM :
			    parse_set(w[4], &t->now, &t->has_now) < 0 ||
			    parse_set(w[5], &t->was, &t->has_was) < 0 ?
			    -EBADMSG : 0;
		}
	} else if (n == 5 && (strcmp(w[0], "file") == 0 ||
			      strcmp(w[0], "unit") == 0) &&
		   str_unescape(w[1]) == 0) {
		char *orig, path[256];

		/* A unit stands as a file named "unit:NAME". */
		snprintf(path, sizeof(path), "%s%s",
			 w[0][0] == 'u' ? UNIT_PREFIX : "", w[1]);
		if (find_file(j, path) != NULL ||
		    (w[0][0] == 'u' && !unit_name_ok(w[1])))
			goto out;
		w[1] = path;

		r = parse_value(w[2], &orig, false);
		if (r == 0) {
			struct jfile *f = add_file(j, w[1], orig);

			free(orig);
			r = f == NULL ? -ENOMEM :
			    parse_value(w[3], &f->now, true) < 0 ||
			    parse_value(w[4], &f->was, true) < 0 ? -EBADMSG : 0;
		}
	}
out:
	cpuset_free(&s);
	return r;
}

static int
journal_parse(struct journal *j, char *text, size_t len, char *err,
	      size_t errlen)
{
	unsigned long long sum;
	char *line, *next, *body;

	if (len < sizeof(MAGIC) || strncmp(text, MAGIC "\n", sizeof(MAGIC)))
		return damaged(j, err, errlen);
	line = text + sizeof(MAGIC);
	next = memchr(line, '\n', len - (size_t)(line - text));
	if (next == NULL || sscanf(line, "checksum fnv1a64:%16llx\n", &sum) != 1)
		return damaged(j, err, errlen);
	body = next + 1;
	if (fnv1a64(FNV64_INIT, body, len - (size_t)(body - text)) != sum) {
		err_set(err, errlen, "journal '%s' is damaged: checksum "
			"mismatch", j->path);
		return -EBADMSG;
	}
	for (line = body; *line; line = next) {
		int r;

		next = strchr(line, '\n');
		if (next == NULL)
			return damaged(j, err, errlen);
		*next++ = '\0';
		r = parse_line(j, line);
		if (r == -EBADMSG)
			return damaged(j, err, errlen);
		if (r < 0)
			return r;
	}
	return 0;
}

/* Open (and, unless readonly, lock) the journal and read it. */
static int
journal_open(struct journal *j, const char *path, bool readonly, char *err,
	     size_t errlen)
{
	char lockpath[PATH_MAX], dir[PATH_MAX], *slash, *text = NULL;
	size_t len;
	int r;

	memset(j, 0, sizeof(*j));
	j->lockfd = -1;
	j->path = path;
	if (snprintf(lockpath, sizeof(lockpath), "%s.lock", path) >=
	    (int)sizeof(lockpath)) {
		err_set(err, errlen, "journal path '%s' is too long", path);
		return -ENAMETOOLONG;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!readonly && slash && slash != dir) {
		*slash = '\0';
		r = mkdir_p(dir, 0755);
		if (r < 0) {
			err_set(err, errlen, "cannot create '%s': %s", dir,
				strerror(-r));
			return r;
		}
	}
	r = own_file_check(path, "isolation journal", MAGIC, OWN_PRIVATE_DIR,
			   err, errlen);
	if (r < 0)
		return r == -EISDIR ? -EFTYPE_CPM : r;
	if (!readonly) {
		r = lock_file(lockpath, -1, err, errlen);
		if (r < 0)
			return r;
		j->lockfd = r;
	}
	r = read_file_at(AT_FDCWD, path,
			 &(struct read_opts){ .flags = READ_NO_LINK }, &text,
			 &len);
	if (r == -ENOENT)
		return 0;
	if (r < 0) {
		err_set(err, errlen, "cannot read journal '%s': %s", path,
			strerror(-r));
		return r;
	}
	j->exists = true;
	r = journal_parse(j, text, len, err, errlen);
	free(text);
	return r;
}

static void
put_set(struct strbuf *sb, const struct cpuset *s, bool has)
{
	strbuf_puts(sb, " ");
	if (!has)
		strbuf_puts(sb, "~");
	else if (cpuset_empty(s))
		strbuf_puts(sb, "-");
	else
		cpuset_format(s, sb);
}

static void
put_value(struct strbuf *sb, const char *v)
{
	strbuf_puts(sb, v ? " =" : " ~");
	if (v)
		str_escape(sb, v);
}

static int
journal_commit(struct journal *j, char *err, size_t errlen)
{
	struct strbuf body, sb;
	size_t i;
	int r;

	strbuf_init(&body);
	strbuf_init(&sb);
	for (i = 0; i < j->nh; i++) {
		strbuf_puts(&body, "holder ");
		str_escape(&body, j->h[i].name);
		put_set(&body, &j->h[i].cpus, true);
		strbuf_printf(&body, " %d\n", (int)j->h[i].scope);
	}
	for (i = 0; i < j->nt; i++) {
		const struct jtask *t = &j->t[i];

		strbuf_printf(&body, "task %d %llu", (int)t->tid,
			      (unsigned long long)t->start);
		put_set(&body, &t->orig, true);
		put_set(&body, &t->now, t->has_now);
		put_set(&body, &t->was, t->has_was);
		strbuf_puts(&body, "\n");
	}
	for (i = 0; i < j->nf; i++) {
		const char *path = j->f[i].path;

		if (startswith(path, UNIT_PREFIX)) {
			strbuf_puts(&body, "unit ");
			path += sizeof(UNIT_PREFIX) - 1;
		} else {
			strbuf_puts(&body, "file ");
		}
		str_escape(&body, path);
		put_value(&body, j->f[i].orig);
		put_value(&body, j->f[i].now);
		put_value(&body, j->f[i].was);
		strbuf_puts(&body, "\n");
	}
	strbuf_printf(&sb, MAGIC "\nchecksum fnv1a64:%016llx\n",
		      (unsigned long long)fnv1a64(FNV64_INIT,
						  body.buf ? body.buf : "",
						  body.len));
	if (body.len)
		strbuf_add(&sb, body.buf, body.len);
	r = sb.oom || body.oom ? -ENOMEM :
	    write_file_atomic(j->path, sb.buf, sb.len,
			      &(struct write_opts){ .mode = 0600 });
	strbuf_free(&body);
	strbuf_free(&sb);
	if (r < 0) {
		err_set(err, errlen, "cannot write journal '%s': %s", j->path,
			strerror(-r));
		return r;
	}
	j->exists = true;
	return 0;
}

int
isolate_held(const char *journal, struct cpuset *cpus, char *err,
	     size_t errlen)
{
	struct journal j;
	size_t i;
	int r = journal_open(&j, journal, true, err, errlen);

	cpuset_zero(cpus);
	for (i = 0; r == 0 && i < j.nh; i++)
		r = cpuset_or(cpus, &j.h[i].cpus);
	journal_close(&j);
	return r;
}

/* ---- the report ---- */

void
iso_report_free(struct iso_report *rep)
{
	free(rep->v);
	irq_report_free(&rep->irq);
	memset(rep, 0, sizeof(*rep));
}

static void
fmt_set(char *buf, size_t size, const struct cpuset *s)
{
	struct strbuf sb;

	strbuf_init(&sb);
	cpuset_format(s, &sb);
	snprintf(buf, size, "%s", sb.buf && sb.len ? sb.buf : "-");
	strbuf_free(&sb);
}

static struct iso_change *
report_add(struct iso_report *rep, pid_t tid, const char *name,
	   const char *from, const char *to, int error)
{
	struct iso_change *c;

	if (grow((void **)&rep->v, rep->n, sizeof(*rep->v)) < 0)
		return NULL;
	c = &rep->v[rep->n++];
	c->tid = tid;
	c->error = error;
	snprintf(c->name, sizeof(c->name), "%s", name);
	snprintf(c->from, sizeof(c->from), "%s", from);
	snprintf(c->to, sizeof(c->to), "%s", to);
	if (error == ISO_CHANGED)
		rep->changed++;
	else if (error < 0)
		rep->refused++;
	return c;
}

/* ---- files: workqueue cpumasks, per-CPU knobs, irqbalance ---- */

/*
 * irqbalance's banned CPUs stand as a file: its socket's path, with the
 * banned cpulist as the value, read and set over the socket.
 */
enum fkind { F_MASK, F_QOS, F_GOV, F_IRQB, F_UNIT };

static enum fkind
file_kind(const char *path)
{
	size_t n = strlen(path);

	if (startswith(path, UNIT_PREFIX))
		return F_UNIT;
	if (irqb_sock_pid(path))
		return F_IRQB;
	if (n >= 7 && strcmp(path + n - 7, "cpumask") == 0)
		return F_MASK;
	return strstr(path, "pm_qos") ? F_QOS : F_GOV;
}

/* The CPU of a "sys/devices/system/cpu/cpuN/..." path, or -1. */
static int
file_cpu(const char *path)
{
	unsigned int cpu;
	char word[16];
	const char *p = path + sizeof(CPU_DIR "/cpu") - 1;
	size_t n;

	if (strncmp(path, CPU_DIR "/cpu", sizeof(CPU_DIR "/cpu") - 1) != 0)
		return -1;
	n = strcspn(p, "/");
	if (n == 0 || n >= sizeof(word))
		return -1;
	memcpy(word, p, n);
	word[n] = '\0';
	return parse_uint(word, INT_MAX, &cpu) < 0 ? -1 : (int)cpu;
}

/* The kernel's %*pb form: 32-bit hex words, high first. */
static void
format_mask(const struct cpuset *s, struct strbuf *sb)
{
	int words = (cpuset_last(s) + 32) / 32, w;

	if (words < 1)
		words = 1;
	for (w = words - 1; w >= 0; w--) {
		uint32_t v = 0;
		int b;

		for (b = 0; b < 32; b++)
			if (cpuset_isset(s, (unsigned int)(w * 32 + b)))
				v |= (uint32_t)1 << b;
		strbuf_printf(sb, w == words - 1 ? "%08x" : ",%08x", v);
	}
}

int
isolate_unit_target(const char *orig, const struct cpuset *away,
		    const struct cpuset *online, struct cpuset *want)
{
	struct cpuset left = CPUSET_INIT;
	int r;

	if (cpuset_parse_list(orig, want, NULL, 0) < 0)
		return -EINVAL;
	if (cpuset_empty(want) && online == NULL)
		return 0;
	r = cpuset_copy(&left, cpuset_empty(want) ? online : want);
	if (r == 0 && cpuset_intersects(&left, away)) {
		cpuset_andnot(&left, away);
		if (!cpuset_empty(&left))
			r = cpuset_copy(want, &left);
	}
	cpuset_free(&left);
	return r;
}

/* What file f should hold under away: malloc'ed, or NULL (memory). */
static char *
file_target(const struct jfile *f, const struct cpuset *away,
	    const struct cpuset *online)
{
	struct cpuset s = CPUSET_INIT;
	struct strbuf sb;
	int cpu;

	switch (file_kind(f->path)) {
	case F_UNIT:
		if (isolate_unit_target(f->orig, away, online, &s) < 0) {
			cpuset_free(&s);
			return strdup(f->orig);
		}
		strbuf_init(&sb);
		cpuset_format(&s, &sb);
		cpuset_free(&s);
		return sb.oom ? NULL : sb.buf ? sb.buf : strdup("");
	case F_MASK:
		if (cpuset_parse_mask(f->orig, &s) < 0)
			return strdup(f->orig);
		if (!cpuset_intersects(&s, away) || cpuset_subset(&s, away)) {
			cpuset_free(&s);
			return strdup(f->orig);
		}
		cpuset_andnot(&s, away);
		strbuf_init(&sb);
		format_mask(&s, &sb);
		cpuset_free(&s);
		return sb.oom ? NULL : sb.buf;
	case F_QOS:
	case F_GOV:
		cpu = file_cpu(f->path);
		if (cpu < 0 || !cpuset_isset(away, (unsigned int)cpu))
			return strdup(f->orig);
		return strdup(file_kind(f->path) == F_QOS ? "n/a" :
			      "performance");
	case F_IRQB:
		/* Banned: what it banned, and the CPUs away. */
		if (cpuset_empty(away) ||
		    cpuset_parse_list(f->orig, &s, NULL, 0) < 0)
			return strdup(f->orig);
		if (cpuset_or(&s, away) < 0) {
			cpuset_free(&s);
			return NULL;
		}
		strbuf_init(&sb);
		cpuset_format(&s, &sb);
		cpuset_free(&s);
		return sb.oom ? NULL : sb.buf ? sb.buf : strdup("");
	}
	return NULL;
}

static bool
value_eq(const char *path, const char *a, const char *b)
{
	struct cpuset x = CPUSET_INIT, y = CPUSET_INIT;
	bool eq;

	if (a == NULL || b == NULL)
		return false;
	if (file_kind(path) == F_IRQB || file_kind(path) == F_UNIT)
		eq = cpuset_parse_list(a, &x, NULL, 0) == 0 &&
		     cpuset_parse_list(b, &y, NULL, 0) == 0 &&
		     cpuset_equal(&x, &y);
	else if (file_kind(path) != F_MASK || cpuset_parse_mask(a, &x) < 0 ||
		 cpuset_parse_mask(b, &y) < 0)
		eq = strcmp(a, b) == 0;
	else
		eq = cpuset_equal(&x, &y);
	cpuset_free(&x);
	cpuset_free(&y);
	return eq;
}

/*
 * systemd is PID 1 (its own test, sd_booted()): only then, and live, are
 * units asked about; a replayed tree has no systemd behind it.
 */
static bool
systemd_host(const struct sysroot *root)
{
	return root->live && access("/run/systemd/system", F_OK) == 0;
}

/* s as a cpulist into buf ("" when empty); 0 or -ENOMEM. */
static int
list_to_buf(const struct cpuset *s, char *buf, size_t size)
{
	struct strbuf sb;
	int r;

	strbuf_init(&sb);
	cpuset_format(s, &sb);
	r = sb.oom ? -ENOMEM : 0;
	if (r == 0)
		snprintf(buf, size, "%s", sb.buf ? sb.buf : "");
	strbuf_free(&sb);
	return r;
}

/* A unit's AllowedCPUs over D-Bus as a cpulist, "" for every CPU. */
static int
unit_read(const struct sysroot *root, const char *unit, char *buf,
	  size_t size)
{
	struct cpuset s = CPUSET_INIT;
	struct sdbus *b = NULL;
	int r = systemd_host(root) ? sdbus_open(&b, NULL, 0) : -ENOENT;

	if (r == 0)
		r = sdbus_get_set(b, unit, "AllowedCPUs", &s, NULL, 0);
	if (r == 0)
		r = list_to_buf(&s, buf, size);
	cpuset_free(&s);
	sdbus_close(b);
	return r;
}

/*
 * An empty AllowedCPUs takes the cpuset controller off systemd's list
 * for the unit, so it no longer writes the group's cpuset.cpus: the
 * last list stays in force (seen with systemd 252) while systemctl shows
 * none.  Empty it here, as systemd would have; the kernel refuses to
 * empty a group with tasks (ENOSPC), and then the group gets what empty
 * stands for, its parent's CPUs (the root's: units here are top-level).
 */
static int
unit_cpus_reset(const struct sysroot *root, const char *unit)
{
	char path[320], buf[4096];
	int r;

	if (snprintf(path, sizeof(path), "sys/fs/cgroup/%s/cpuset.cpus",
		     unit) >= (int)sizeof(path) ||
	    sysroot_read(root, path, buf, sizeof(buf)) < 0 ||
	    *strstrip(buf) == '\0')
		return 0;
	r = sysroot_write(root, path, "\n");
	if (r == -ENOSPC) {
		r = sysroot_read(root, "sys/fs/cgroup/cpuset.cpus.effective",
				 buf, sizeof(buf));
		if (r >= 0)
			r = sysroot_write(root, path, buf);
	}
	return r < 0 ? r : 0;
}

/* Set a unit's AllowedCPUs, runtime only ("": every CPU). */
static int
unit_write(const struct sysroot *root, const char *unit, const char *value)
{
	struct cpuset s = CPUSET_INIT;
	struct sdprops props;
	struct sdbus *b = NULL;
	int r = cpuset_parse_list(value, &s, NULL, 0) < 0 ? -EINVAL : 0;

	sdprops_init(&props);
	if (r == 0)
		r = sdprops_add_set(&props, "AllowedCPUs", &s);
	if (r == 0)
		r = systemd_host(root) ? sdbus_open(&b, NULL, 0) : -ENOENT;
	if (r == 0)
		r = sdbus_set_properties(b, unit, true, &props, NULL, 0);
	sdbus_close(b);
	sdprops_free(&props);
	cpuset_free(&s);
	if (r == 0 && *value == '\0')
		r = unit_cpus_reset(root, unit);
	return r;
}

/* The stripped text of path below root into buf; 0 or -errno. */
static int
read_value(const struct sysroot *root, const char *path, char *buf,
	   size_t size)
{
	char tmp[4096];
	ssize_t n;

	if (file_kind(path) == F_UNIT)
		return unit_read(root, path + sizeof(UNIT_PREFIX) - 1, buf,
				 size);
	if (file_kind(path) == F_IRQB) {
		struct cpuset s = CPUSET_INIT;
		int r = root->live ? irqb_banned(irqb_sock_pid(path), &s) :
			-ENOENT;

		if (r == 0)
			r = list_to_buf(&s, buf, size);
		cpuset_free(&s);
		return r;
	}
	n = sysroot_read(root, path, tmp, sizeof(tmp));
	if (n < 0)
		return (int)n;
	snprintf(buf, size, "%s", strstrip(tmp));
	return 0;
}

/* Journal path's current value as its original, unless journaled. */
static int
note_file(const struct sysroot *root, struct journal *j, const char *path)
{
	char buf[4096];

	if (find_file(j, path) || read_value(root, path, buf, sizeof(buf)) < 0)
		return 0;
	return add_file(j, path, buf) ? 0 : -ENOMEM;
}

/*
 * systemd's top-level slices and scopes (the groups right below the
 * cgroup v2 root, -.slice's), journaled, so that new services stay off
 * the CPUs: nothing without systemd, or when D-Bus does not answer.
 */
static int
note_units(const struct sysroot *root, struct journal *j)
{
	static const char *const always[] = { "init.scope", "system.slice",
					      "user.slice" };
	struct dirent *de;
	char path[320];
	DIR *d = NULL;
	size_t i;
	int fd, r = 0;

	if (!systemd_host(root))
		return 0;
	/* These three even before they have a group (user.slice before
	 * the first login): systemd loads a unit to set it. */
	for (i = 0; r == 0 && i < sizeof(always) / sizeof(always[0]); i++) {
		snprintf(path, sizeof(path), UNIT_PREFIX "%s", always[i]);
		r = note_file(root, j, path);
	}
	if (r < 0)
		return r;
	if (sysroot_read(root, "sys/fs/cgroup/cgroup.controllers", path,
			 sizeof(path)) >= 0)
		fd = sysroot_open_dir(root, "sys/fs/cgroup");
	else
		fd = sysroot_open_dir(root, "sys/fs/cgroup/unified");
	d = fd < 0 ? NULL : fdopendir(fd);
	if (fd >= 0 && d == NULL)
		close(fd);
	while (d && r == 0 && (de = readdir(d)) != NULL) {
		if (de->d_type != DT_DIR || !unit_name_ok(de->d_name))
			continue;
		snprintf(path, sizeof(path), UNIT_PREFIX "%s", de->d_name);
		r = note_file(root, j, path);
	}
	if (d)
		closedir(d);
	return r;
}

/* Every file an isolation of away touches, journaled. */
static int
note_files(const struct sysroot *root, struct journal *j,
	   const struct cpuset *away)
{
	struct dirent *de;
	char path[512], gov[512];
	pid_t irqb[8];
	size_t i, n = irqb_find(root, irqb, 8);
	DIR *d;
	int fd, cpu, r = note_file(root, j, WQ_DIR "/cpumask");

	for (i = 0; r == 0 && i < n; i++) {
		irqb_sock_path(irqb[i], path, sizeof(path));
		r = note_file(root, j, path + 1);
	}

	fd = sysroot_open_dir(root, WQ_DIR);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (fd >= 0 && d == NULL)
		close(fd);
	while (d && r == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), WQ_DIR "/%s/cpumask", de->d_name);
		r = note_file(root, j, path);
	}
	if (d)
		closedir(d);
	if (r == 0)
		r = note_units(root, j);
	cpuset_for_each(cpu, away) {
		if (r < 0)
			break;
		snprintf(path, sizeof(path), CPU_DIR
			 "/cpu%d/power/pm_qos_resume_latency_us", cpu);
		r = note_file(root, j, path);
		snprintf(path, sizeof(path), CPU_DIR
			 "/cpu%d/cpufreq/scaling_available_governors", cpu);
		if (r == 0 && read_value(root, path, gov, sizeof(gov)) == 0 &&
		    strstr(gov, "performance")) {
			snprintf(path, sizeof(path), CPU_DIR
				 "/cpu%d/cpufreq/scaling_governor", cpu);
			r = note_file(root, j, path);
		}
	}
	return r;
}

/*
 * Into out, the CPUs of the threads placed on away (their affinity lies
 * inside it: the work isolated there, kernel threads apart) that run in
 * unit's cgroup v2 subtree (proc/PID/task/TID/cgroup "0::/UNIT/...").
 */
static int
unit_threads_inside(const struct sysroot *root, const char *unit,
		    const struct task_table *tab, const struct cpuset *away,
		    struct cpuset *out)
{
	size_t i, n = strlen(unit);
	char path[96], buf[4096];

	for (i = 0; tab && i < tab->n; i++) {
		const struct task_info *t = &tab->v[i];
		const char *p;

		if (t->kthread || cpuset_empty(&t->allowed) ||
		    !cpuset_subset(&t->allowed, away))
			continue;
		snprintf(path, sizeof(path), "proc/%d/task/%d/cgroup",
			 (int)t->pid, (int)t->tid);
		if (sysroot_read(root, path, buf, sizeof(buf)) < 0)
			continue;
		p = startswith(buf, "0::/") ? buf : strstr(buf, "\n0::/");
		if (p == NULL)
			continue;
		p += *p == '\n' ? 5 : 4;
		if (strncmp(p, unit, n) == 0 && strchr("/\n", p[n]) &&
		    cpuset_or(out, &t->allowed) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * What a top-level unit is kept off, into out: away less the CPUs of the
 * work placed there below it, groups with a cpuset of their own (a
 * service's AllowedCPUs, a container's cpuset) and threads whose
 * affinity lies on them (taskset, cpm-pin).  A slice holding such work
 * must keep its CPUs, or cgroup v2 would move it off them (a child's
 * CPUs are cut to its parent's, and a thread's affinity to its group's);
 * the CPUs it keeps go to rep as ISO_PINNED.
 */
static int
unit_away(const struct sysroot *root, const char *path,
	  const struct task_table *tab, const struct cpuset *away,
	  const struct cpuset *online, struct cpuset *out,
	  struct iso_report *rep)
{
	struct cpuset pinned = CPUSET_INIT;
	struct strbuf sb;
	struct cg_hier h;
	char dir[sizeof(root->path) + 16];
	int r = cpuset_copy(out, away);

	if (r < 0 || online == NULL)
		return r;
	snprintf(dir, sizeof(dir), "%s/sys/fs/cgroup", root->path);
	if (cg_open(&h, root->live ? NULL : dir, NULL, 0) == 0) {
		r = cgcpuset_pinned_below(&h, path + sizeof(UNIT_PREFIX) - 1,
					  online, &pinned, NULL, 0);
		cg_close(&h);
	}
	if (r != -ENOMEM)
		r = unit_threads_inside(root, path + sizeof(UNIT_PREFIX) - 1,
					tab, away, &pinned);
	if (r == 0 && cpuset_intersects(&pinned, away)) {
		cpuset_and(&pinned, away);
		cpuset_andnot(out, &pinned);
		strbuf_init(&sb);
		cpuset_format(&pinned, &sb);
		if (sb.oom || !report_add(rep, 0, path + sizeof(UNIT_PREFIX) -
					  1, "", sb.buf ? sb.buf : "",
					  ISO_PINNED))
			r = -ENOMEM;
		strbuf_free(&sb);
	}
	cpuset_free(&pinned);
	return r == -ENOMEM ? r : 0;
}

/*
 * Bring every journaled file towards its target under away: the ones
 * to write get pending[i] and their NOW (journal them before writing).
 */
static int
plan_files(const struct sysroot *root, struct journal *j,
	   const struct task_table *tab, const struct cpuset *away,
	   const struct cpuset *online, bool *pending,
	   struct iso_report *rep)
{
	struct cpuset ua = CPUSET_INIT;
	size_t i;
	int r;

	for (i = 0; i < j->nf; i++) {
		struct jfile *f = &j->f[i];
		char cur[4096], *want;

		pending[i] = false;
		r = read_value(root, f->path, cur, sizeof(cur));
		/* A unit does not go; systemd not answering is a value
		 * not put back, which the journal keeps. */
		if (r < 0 && file_kind(f->path) == F_UNIT &&
		    systemd_host(root)) {
			if (!report_add(rep, 0, f->path, "?", f->orig, r))
				goto oom;
			continue;
		}
		if (r < 0)
			continue;	/* gone (a CPU offline, a workqueue) */
		if (file_kind(f->path) == F_UNIT) {
			r = unit_away(root, f->path, tab, away, online, &ua,
				      rep);
			want = r < 0 ? NULL : file_target(f, &ua, online);
		} else {
			want = file_target(f, away, online);
		}
		if (want == NULL)
			goto oom;
		/* irqbalance answers what it was told only from its next
		 * rescan on: a setting sent may still be on its way. */
		if (value_eq(f->path, cur, want) &&
		    (file_kind(f->path) != F_IRQB || f->now == NULL ||
		     value_eq(f->path, f->now, want))) {
			free(want);
			continue;
		}
		if (!value_eq(f->path, cur, f->orig) &&
		    !value_eq(f->path, cur, f->now) &&
		    !value_eq(f->path, cur, f->was)) {
			free(want);
			if (!report_add(rep, 0, f->path, cur, f->orig,
					ISO_CHANGED))
				goto oom;
			continue;
		}
		free(f->was);
		f->was = f->now;
		f->now = want;
		pending[i] = true;
	}
	cpuset_free(&ua);
	return 0;
oom:
	cpuset_free(&ua);
	return -ENOMEM;
}

/* Ban value's CPUs; what irqbalance bans of its own accord as NULL. */
static int
ban(const struct sysroot *root, const char *path, const char *value)
{
	struct cpuset s = CPUSET_INIT, own = CPUSET_INIT;
	pid_t pid = irqb_sock_pid(path);
	int r;

	if (!root->live)
		return -ENOENT;
	r = cpuset_parse_list(value, &s, NULL, 0);
	if (r == 0)
		r = irqb_ban(pid, irqb_own(root, pid, &own) == 0 &&
			     cpuset_equal(&own, &s) ? NULL : &s);
	cpuset_free(&s);
	cpuset_free(&own);
	return r;
}

/* value and a newline, as echo(1) writes it. */
static int
write_line(const struct sysroot *root, const char *path, const char *value)
{
	struct strbuf sb;
	int r;

	if (file_kind(path) == F_IRQB)
		return ban(root, path, value);
	if (file_kind(path) == F_UNIT)
		return unit_write(root, path + sizeof(UNIT_PREFIX) - 1, value);
	strbuf_init(&sb);
	strbuf_printf(&sb, "%s\n", value);
	r = sb.oom ? -ENOMEM : sysroot_write(root, path, sb.buf);
	strbuf_free(&sb);
	return r;
}

static int
write_files(const struct iso_opts *o, struct journal *j,
	    const bool *pending, struct iso_report *rep)
{
	size_t i;

	for (i = 0; i < j->nf; i++) {
		struct jfile *f = &j->f[i];
		char cur[64] = "";
		int e = 0;

		if (!pending[i])
			continue;
		read_value(o->root, f->path, cur, sizeof(cur));
		if (!o->dry_run) {
			if (o->before_change)
				o->before_change(o->arg);
			e = write_line(o->root, f->path, f->now);
		}
		if (!report_add(rep, 0, f->path, cur, f->now, e))
			return -ENOMEM;
		if (e == 0)
			rep->files++;
	}
	return 0;
}

/* ---- threads ---- */

/* Whether process pid lies in scope's tree, by the parents in tab. */
static bool
in_tree(const struct task_table *tab, pid_t pid, pid_t scope)
{
	int depth;

	for (depth = 0; depth < 4096 && pid > 0; depth++) {
		const struct task_info *x;

		if (pid == scope)
			return true;
		if ((x = task_find(tab, pid)) == NULL)
			return false;
		pid = x->ppid;
	}
	return false;
}

/* The away set of thread x: the holders whose scope covers it. */
static int
away_of(const struct journal *j, const struct task_table *tab,
	const struct task_info *x, struct cpuset *away)
{
	size_t i;

	cpuset_zero(away);
	for (i = 0; i < j->nh; i++)
		if ((j->h[i].scope == 0 || in_tree(tab, x->pid, j->h[i].scope)) &&
		    cpuset_or(away, &j->h[i].cpus) < 0)
			return -ENOMEM;
	return 0;
}

/* The machine's away set: the holders of scope 0. */
static int
away_machine(const struct journal *j, struct cpuset *away)
{
	size_t i;

	cpuset_zero(away);
	for (i = 0; i < j->nh; i++)
		if (j->h[i].scope == 0 && cpuset_or(away, &j->h[i].cpus) < 0)
			return -ENOMEM;
	return 0;
}

/* A thread's affinity: sched_setaffinity(2) live; below a replayed
 * tree, its status file's Cpus_allowed_list, which stands for it. */
static int
set_affinity(const struct sysroot *root, const struct task_info *x,
	     const struct cpuset *s)
{
	char path[96], *text = NULL, *line, *eol;
	struct strbuf sb;
	int r;

	if (root->live) {
		size_t n = (size_t)cpuset_last(s) + 1;
		cpu_set_t *m = CPU_ALLOC(n);

		if (m == NULL)
			return -ENOMEM;
		r = cpuset_to_mask(s, m, CPU_ALLOC_SIZE(n));
		if (r == 0 && sched_setaffinity(x->tid, CPU_ALLOC_SIZE(n), m) < 0)
			r = -errno;
		CPU_FREE(m);
		return r;
	}
	snprintf(path, sizeof(path), "proc/%d/task/%d/status", (int)x->pid,
		 (int)x->tid);
	r = sysroot_read_file(root, path, &text, NULL);
	if (r < 0)
		return r;
	line = strstr(text, "Cpus_allowed_list:");
	if (line == NULL) {
		free(text);
		return -ENOENT;
	}
	eol = strchrnul(line, '\n');
	strbuf_init(&sb);
	strbuf_add(&sb, text, (size_t)(line - text));
	strbuf_puts(&sb, "Cpus_allowed_list:\t");
	cpuset_format(s, &sb);
	strbuf_puts(&sb, eol);
	r = sb.oom ? -ENOMEM : sysroot_write(root, path, sb.buf);
	strbuf_free(&sb);
	free(text);
	return r;
}

/* target = orig less away, or orig when nothing is left. */
static int
task_target(const struct cpuset *orig, const struct cpuset *away,
	    struct cpuset *want)
{
	if (cpuset_copy(want, orig) < 0)
		return -ENOMEM;
	cpuset_andnot(want, away);
	return cpuset_empty(want) ? cpuset_copy(want, orig) : 0;
}

static bool
task_ours(const struct jtask *t, const struct cpuset *cur)
{
	return cpuset_equal(cur, &t->orig) ||
	       (t->has_now && cpuset_equal(cur, &t->now)) ||
	       (t->has_was && cpuset_equal(cur, &t->was));
}

/* Threads journaled but gone are forgotten. */
static void
prune_tasks(struct journal *j, const struct task_table *tab)
{
	size_t i, k;

	for (i = k = 0; i < j->nt; i++) {
		const struct task_info *x = task_find(tab, j->t[i].tid);

		if (x == NULL || x->start != j->t[i].start) {
			cpuset_free(&j->t[i].orig);
			cpuset_free(&j->t[i].now);
			cpuset_free(&j->t[i].was);
			continue;
		}
		j->t[k++] = j->t[i];
	}
	j->nt = k;
}

/*
 * A thread the journal does not know, made after the isolation by a
 * journaled one (a thread of its process, or a child process), inherits
 * what the maker was moved to: it gets the maker's original back.  Not
 * a kernel thread: the kernel gives those their affinity (per-CPU ones,
 * an interrupt's thread its interrupt's), whatever kthreadd's is.
 */
static struct jtask *
maker(struct journal *j, const struct task_table *tab,
      const struct task_info *x)
{
	pid_t cand[2] = { x->pid, x->ppid };
	int i;

	if (x->kthread)
		return NULL;
	for (i = 0; i < 2; i++) {
		const struct task_info *m = task_find(tab, cand[i]);
		struct jtask *t = m ? find_task(j, m->tid, m->start) : NULL;

		/* Its maker may have been given its original back in
		 * this very pass: then what it was moved to is WAS. */
		if (t && ((t->has_now && cpuset_equal(&x->allowed, &t->now) &&
			   !cpuset_equal(&t->now, &t->orig)) ||
			  (t->has_was && cpuset_equal(&x->allowed, &t->was) &&
			   !cpuset_equal(&t->was, &t->orig))))
			return t;
	}
	return NULL;
}

struct pass {
	size_t *pending;	/* journal indexes to set */
	const struct task_info **who;
	size_t n;
	bool new_threads;
};

/* What one thread needs; adds it to p (journaled first). */
static int
plan_task(struct journal *j, const struct task_table *tab,
	  const struct task_info *x, bool restore, bool first,
	  struct pass *p, struct iso_report *rep, struct cpuset *away,
	  struct cpuset *want)
{
	struct jtask *t = find_task(j, x->tid, x->start);
	int r = away_of(j, tab, x, away);

	if (r < 0)
		return r;
	if (t == NULL && restore && (t = maker(j, tab, x)) != NULL) {
		/* add_task() may move the journal's array: copy first. */
		if (cpuset_copy(want, &t->orig) < 0 ||
		    (t = add_task(j, x->tid, x->start, want)) == NULL ||
		    cpuset_copy(&t->now, &x->allowed) < 0)
			return -ENOMEM;
		t->has_now = true;
	} else if (t == NULL) {
		if (cpuset_empty(away) || !cpuset_intersects(&x->allowed, away))
			return 0;
		if (x->percpu || cpuset_subset(&x->allowed, away)) {
			if (first)
				x->percpu ? rep->percpu++ : rep->inside++;
			return 0;
		}
		if ((t = add_task(j, x->tid, x->start, &x->allowed)) == NULL)
			return -ENOMEM;
		p->new_threads = true;
	}
	if (task_target(&t->orig, away, want) < 0)
		return -ENOMEM;
	if (cpuset_equal(&x->allowed, want))
		return 0;
	if (!task_ours(t, &x->allowed)) {
		char from[64], to[64];

		if (!first)
			return 0;	/* said once */
		fmt_set(from, sizeof(from), &x->allowed);
		fmt_set(to, sizeof(to), want);
		return report_add(rep, x->tid, x->comm, from, to,
				  ISO_CHANGED) ? 0 : -ENOMEM;
	}
	if (cpuset_copy(&t->was, &t->now) < 0 || cpuset_copy(&t->now, want) < 0)
		return -ENOMEM;
	t->has_was = t->has_now;
	t->has_now = true;
	p->pending[p->n] = (size_t)(t - j->t);
	p->who[p->n++] = x;
	return 0;
}

static int
set_tasks(const struct iso_opts *o, struct journal *j, const struct pass *p,
	  struct iso_report *rep)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		const struct task_info *x = p->who[i];
		const struct jtask *t = &j->t[p->pending[i]];
		struct iso_change *c;
		char from[64], to[64];
		int e = 0;

		if (!o->dry_run) {
			if (o->before_change)
				o->before_change(o->arg);
			e = set_affinity(o->root, x, &t->now);
			if (e == -ESRCH)
				continue;	/* gone meanwhile */
		}
		fmt_set(from, sizeof(from), &x->allowed);
		fmt_set(to, sizeof(to), &t->now);
		if ((c = report_add(rep, x->tid, x->comm, from, to, e)) == NULL)
			return -ENOMEM;
		c->kthread = x->kthread;
		if (e == 0) {
			rep->moved++;
			rep->kmoved += x->kthread;
		}
	}
	return 0;
}

/*
 * One pass over every thread: journal what changes (and, on the first
 * pass, the files), commit, then change.  *set gets the count set.
 */
static int
pass_once(const struct iso_opts *o, struct journal *j, bool restore,
	  bool first, struct repin_pass *rp, struct iso_report *rep,
	  char *err, size_t errlen)
{
	struct cpuset away = CPUSET_INIT, want = CPUSET_INIT;
	struct task_table tab;
	struct pass p = { 0 };
	bool *fpending = NULL;
	size_t i, nt0;
	int r;

	r = task_scan(o->root, 0, &tab, err, errlen);
	if (r < 0)
		return r;
	nt0 = tab.n + j->nt;
	p.pending = calloc(nt0 + 1, sizeof(*p.pending));
	p.who = calloc(nt0 + 1, sizeof(*p.who));
	fpending = calloc(j->nf + 1, sizeof(*fpending));
	if (p.pending == NULL || p.who == NULL || fpending == NULL)
		r = -ENOMEM;
	if (r == 0 && !o->dry_run)
		prune_tasks(j, &tab);
	for (i = 0; r == 0 && i < tab.n; i++)
		r = plan_task(j, &tab, &tab.v[i], restore, first, &p, rep,
			      &away, &want);
	if (r == 0 && first) {
		r = away_machine(j, &away);
		if (r == 0)
			r = plan_files(o->root, j, &tab, &away, o->online,
				       fpending, rep);
	}
	if (r == 0 && !o->dry_run && (p.n || first))
		r = journal_commit(j, err, errlen);
	if (r == 0 && first)
		r = write_files(o, j, fpending, rep);
	if (r == 0)
		r = set_tasks(o, j, &p, rep);
	rp->set = (unsigned int)p.n;
	rp->unsure = 0;
	rp->new_threads = p.new_threads;
	if (r == -ENOMEM)
		err_set(err, errlen, "out of memory");
	free(p.pending);
	free(p.who);
	free(fpending);
	cpuset_free(&away);
	cpuset_free(&want);
	task_table_free(&tab);
	return r;
}

/* Passes until one is quiet (repin_next()); one pass for a dry run. */
static int
passes(const struct iso_opts *o, struct journal *j, bool restore,
       struct iso_report *rep, char *err, size_t errlen)
{
	struct repin_state st = { 0 };
	struct repin_pass rp;

	for (;;) {
		enum repin_action a;
		long pause_ms;
		int r = pass_once(o, j, restore, st.passes == 0, &rp, rep, err,
				  errlen);

		if (r < 0)
			return r;
		rep->passes++;
		if (o->dry_run)
			return 0;
		a = repin_next(&st, &rp, &pause_ms);
		if (a == REPIN_DONE)
			return 0;
		if (a != REPIN_AGAIN) {
			err_set(err, errlen, "threads kept changing through %u "
				"passes", st.passes);
			return -EAGAIN;
		}
		if (pause_ms)
			nanosleep(&(struct timespec){ .tv_nsec = pause_ms *
						      1000000L }, NULL);
	}
}

/* ---- isolating and releasing ---- */

static int
hold(const struct iso_opts *o, struct journal *j, const struct cpuset *cpus,
     char *err, size_t errlen)
{
	struct cpuset left = CPUSET_INIT;
	size_t i;
	int r = 0;

	for (i = 0; i < j->nh; i++)
		if (strcmp(j->h[i].name, o->holder) == 0)
			break;
	if (i < j->nh) {
		j->h[i].scope = o->scope;
		r = cpuset_copy(&j->h[i].cpus, cpus);
	} else if (add_holder(j, o->holder, cpus, o->scope) == NULL) {
		r = -ENOMEM;
	}
	if (r == 0)
		r = away_machine(j, &left);
	if (r == 0 && o->scope == 0)
		r = cpuset_or(&left, cpus);
	if (r == 0 && o->online) {
		struct cpuset on = CPUSET_INIT;

		r = cpuset_copy(&on, o->online);
		cpuset_andnot(&on, &left);
		if (r == 0 && cpuset_empty(&on)) {
			err_set(err, errlen, "isolating every online CPU "
				"leaves none for the rest of the system");
			r = -EINVAL;
		}
		cpuset_free(&on);
	}
	if (r == 0 && o->scope == 0)
		r = note_files(o->root, j, &left);
	cpuset_free(&left);
	if (r == -ENOMEM)
		err_set(err, errlen, "out of memory");
	return r;
}

static void
irq_holder(char *buf, size_t size, const char *holder)
{
	snprintf(buf, size, "isolate:%s", holder);
}

static void
irqs_away(const struct iso_opts *o,
	  const struct cpuset *cpus, struct iso_report *rep)
{
	char name[256];

	if (o->scope != 0 || o->irq_journal == NULL || o->dry_run)
		return;
	irq_holder(name, sizeof(name), o->holder);
	rep->irq_error = irq_isolate(o->root, o->irq_journal, name, cpus,
				     o->online, &rep->irq, rep->irq_err,
				     sizeof(rep->irq_err));
	rep->irqs = rep->irq_error == 0;
}

int
isolate_apply(const struct iso_opts *o, const struct cpuset *cpus,
	      struct iso_report *rep, char *err, size_t errlen)
{
	struct journal j;
	int r;

	memset(rep, 0, sizeof(*rep));
	r = journal_open(&j, o->journal, o->dry_run, err, errlen);
	if (r == 0)
		r = hold(o, &j, cpus, err, errlen);
	if (r == 0)
		r = passes(o, &j, false, rep, err, errlen);
	if (r == 0)
		irqs_away(o, cpus, rep);
	journal_close(&j);
	return r;
}

/* Drop the holders named (NULL: all), their interrupts first. */
static bool
drop_holders(const struct iso_opts *o, struct journal *j,
	     struct iso_report *rep)
{
	bool found = false;
	size_t i, k;

	for (i = k = 0; i < j->nh; i++) {
		struct holder *h = &j->h[i];

		if (o->holder && strcmp(h->name, o->holder) != 0) {
			j->h[k++] = *h;
			continue;
		}
		found = true;
		if (h->scope == 0 && o->irq_journal && !o->dry_run) {
			char name[256];
			bool had;

			irq_holder(name, sizeof(name), h->name);
			irq_report_free(&rep->irq);
			rep->irq_error = irq_release(o->root, o->irq_journal,
						     name, o->online, &had,
						     &rep->irq, rep->irq_err,
						     sizeof(rep->irq_err));
			rep->irqs |= had && rep->irq_error == 0;
		}
		free(h->name);
		cpuset_free(&h->cpus);
	}
	j->nh = k;
	return found || o->holder == NULL;
}

int
isolate_release(const struct iso_opts *o, bool *found,
		struct iso_report *rep, char *err, size_t errlen)
{
	struct journal j;
	int r;

	memset(rep, 0, sizeof(*rep));
	*found = false;
	if (access(o->journal, F_OK) < 0 && errno == ENOENT)
		return 0;	/* nothing was ever isolated */
	r = journal_open(&j, o->journal, o->dry_run, err, errlen);
	if (r < 0 || !j.exists)
		goto out;
	*found = drop_holders(o, &j, rep);
	if (!*found)
		goto out;
	r = passes(o, &j, true, rep, err, errlen);
	if (r < 0 || o->dry_run || j.nh)
		goto out;
	if (rep->refused) {
		err_set(err, errlen, "%u value%s could not be put back; the "
			"journal '%s' keeps %s", rep->refused,
			rep->refused == 1 ? "" : "s", o->journal,
			rep->refused == 1 ? "it" : "them");
		r = -EIO;
	} else if (unlink(o->journal) < 0 && errno != ENOENT) {
		r = -errno;
		err_set(err, errlen, "cannot remove journal '%s': %s",
			o->journal, strerror(errno));
	}
out:
	journal_close(&j);
	return r;
}
