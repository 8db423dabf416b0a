// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Interrupt affinities below a sysroot, the journal of their originals,
 * and per-CPU interrupt counts.
 *
 * Every change follows one rule: the affinity an IRQ should have is a
 * function of its original affinity and the away set, so applying it again
 * after a crash, or for a second holder, converges on the same state, and
 * the originals in the journal are never overwritten by moved values.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "base/path.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "base/treefile.h"
#include "machine/irq.h"

#define IRQ_DIR "proc/irq"
#define JOURNAL_MAGIC "cpm-irq-journal 1"

/* ---- reading ---- */

static int
cmp_irq(const void *a, const void *b)
{
	return ((const struct irq_info *)a)->irq -
	       ((const struct irq_info *)b)->irq;
}

/* The action names of an IRQ: the subdirectories of proc/irq/N. */
static void
irq_name(const struct sysroot *root, int irq, char *name, size_t len)
{
	char path[64];
	struct dirent *de;
	size_t used = 0;
	DIR *d;
	int fd;

	name[0] = '\0';
	snprintf(path, sizeof(path), IRQ_DIR "/%d", irq);
	fd = sysroot_open_dir(root, path);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		int w;

		if (de->d_name[0] == '.' || de->d_type != DT_DIR)
			continue;
		w = snprintf(name + used, len - used, "%s%s",
			     used ? ", " : "", de->d_name);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
	}
	closedir(d);
}

/* One of an IRQ's CPU lists: smp_affinity_list, effective_affinity_list. */
static int
read_irq_list(const struct sysroot *root, int irq, const char *file,
	      struct cpuset *s)
{
	char path[96], buf[4096], perr[64];
	ssize_t n;

	snprintf(path, sizeof(path), IRQ_DIR "/%d/%s", irq, file);
	n = sysroot_read(root, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	return cpuset_parse_list(strstrip(buf), s, perr, sizeof(perr)) < 0 ?
	       -EINVAL : 0;
}

static int
read_affinity(const struct sysroot *root, int irq, struct cpuset *s)
{
	return read_irq_list(root, irq, "smp_affinity_list", s);
}

/* effective_affinity_list into s: true when the kernel gives one. */
static bool
read_effective(const struct sysroot *root, int irq, struct cpuset *s)
{
	return read_irq_list(root, irq, "effective_affinity_list", s) == 0;
}

int
irq_scan(const struct sysroot *root, struct irq_table *t, char *err,
	 size_t errlen)
{
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int fd;

	memset(t, 0, sizeof(*t));
	fd = sysroot_open_dir(root, IRQ_DIR);
	if (fd < 0) {
		err_set(err, errlen, "no %s/%s: interrupts cannot be seen",
			strcmp(root->path, "/") ? root->path : "", IRQ_DIR);
		return -ENOENT;
	}
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(d)) != NULL) {
		struct irq_info *x;
		unsigned int v;

		if (parse_uint(de->d_name, INT_MAX, &v) < 0)
			continue;
		if (t->n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct irq_info *nv = realloc(t->v, nc * sizeof(*nv));

			if (nv == NULL) {
				closedir(d);
				irq_table_free(t);
				err_set(err, errlen, "out of memory");
				return -ENOMEM;
			}
			t->v = nv;
			cap = nc;
		}
		x = &t->v[t->n++];
		memset(x, 0, sizeof(*x));
		x->irq = (int)v;
		cpuset_init(&x->affinity);
		cpuset_init(&x->effective);
	}
	closedir(d);
	if (t->n)
		qsort(t->v, t->n, sizeof(*t->v), cmp_irq);
	for (cap = 0; cap < t->n; cap++) {
		struct irq_info *x = &t->v[cap];
		int r = read_affinity(root, x->irq, &x->affinity);

		if (r == -ENOMEM) {
			irq_table_free(t);
			err_set(err, errlen, "out of memory");
			return r;
		}
		/* A file cut short by a crash mid-write still exists. */
		x->readable = r == 0 || r == -EINVAL;
		x->parsed = r == 0;
		x->effective_known = read_effective(root, x->irq,
						    &x->effective);
		irq_name(root, x->irq, x->name, sizeof(x->name));
	}
	return 0;
}

void
irq_table_free(struct irq_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		cpuset_free(&t->v[i].affinity);
		cpuset_free(&t->v[i].effective);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const struct irq_info *
irq_find(const struct irq_table *t, int irq)
{
	struct irq_info key = { .irq = irq };

	if (t->n == 0)
		return NULL;
	return bsearch(&key, t->v, t->n, sizeof(*t->v), cmp_irq);
}

/* ---- writing ---- */

/*
 * Open a file of a replayed tree (--sysroot), which others may be able
 * to write, for writing over: through no directory or file link another
 * user could have planted (open_parent_at()), and only an ordinary file,
 * checked before it is opened (a device may act on an open) and after
 * (the same file), then emptied.  A privileged cpm must not be led to
 * write over /etc/shadow by a proc/irq/N/smp_affinity_list that points
 * there, nor, through a hard link (protected_hardlinks off), by one that
 * is /etc/shadow: a file of more than one link or of another owner than
 * its directory is refused (tree_file_check()).  The fd, or -errno
 * (-ELOOP for a link, -EFTYPE_CPM for anything but an ordinary file,
 * -EXDEV for a file linked in from outside the tree).
 */
static int
open_tree_file(const struct sysroot *root, const char *path)
{
	struct stat before, st;
	const char *base;
	int pfd, fd, r;

	pfd = open_parent_at(root->fd, path, 0, 0, &base);
	if (pfd < 0)
		return pfd;
	if (fstatat(pfd, base, &before, AT_SYMLINK_NOFOLLOW) < 0) {
		r = -errno;
		close(pfd);
		return r;
	}
	if (!S_ISREG(before.st_mode)) {
		close(pfd);
		return S_ISLNK(before.st_mode) ? -ELOOP : -EFTYPE_CPM;
	}
	r = tree_file_check(pfd, &before);
	if (r < 0) {
		close(pfd);
		return r;
	}
	fd = openat(pfd, base, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW |
		    O_NONBLOCK);
	r = fd < 0 ? -errno : 0;
	if (fd < 0) {
		close(pfd);
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != before.st_dev || st.st_ino != before.st_ino)
		r = -EFTYPE_CPM;
	else if ((r = tree_file_check(pfd, &st)) < 0)
		;	/* linked in since it was looked at */
	else if (ftruncate(fd, 0) < 0)
		r = -errno;
	close(pfd);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

/*
 * In a replayed tree, every file a change may write (each IRQ's
 * smp_affinity_list and default_smp_affinity) must be the tree's own, or
 * nothing is written: -EFTYPE_CPM with err set.  open_tree_file() checks
 * again as it opens, for a file swapped since.
 */
static int
check_tree_files(const struct sysroot *root, const struct irq_table *tab,
		 char *err, size_t errlen)
{
	char path[64];
	size_t i;

	if (root->live)
		return 0;
	for (i = 0; i <= tab->n; i++) {
		struct stat st;
		const char *base;
		int pfd, r;

		if (i < tab->n)
			snprintf(path, sizeof(path),
				 IRQ_DIR "/%d/smp_affinity_list", tab->v[i].irq);
		else
			snprintf(path, sizeof(path),
				 IRQ_DIR "/default_smp_affinity");
		pfd = open_parent_at(root->fd, path, 0, 0, &base);
		if (pfd < 0)
			continue;	/* reported where it is read */
		r = fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0 ? 0 :
		    !S_ISREG(st.st_mode) ? 0 : tree_file_check(pfd, &st);
		close(pfd);
		if (r == -EXDEV) {
			err_set(err, errlen, "refusing to write '%s/%s': a file "
				"linked in from outside the tree (%lu links, "
				"owner %u)", root->path, path,
				(unsigned long)st.st_nlink, (unsigned)st.st_uid);
			return -EFTYPE_CPM;
		}
	}
	return 0;
}

/* Write text into a proc file below root.  0 or -errno. */
static int
proc_write(const struct sysroot *root, const char *path, const char *text)
{
	int fd = root->live ?
		 openat(root->fd, path, O_WRONLY | O_TRUNC | O_CLOEXEC |
			O_NOCTTY) : open_tree_file(root, path);
	int r;

	if (fd < 0)
		return root->live ? -errno : fd;
	r = write_all(fd, text, strlen(text));
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/* The kernel's %*pb form: 32-bit hex words, high first, comma-separated. */
static void
format_mask(const struct cpuset *s, int nbits, struct strbuf *sb)
{
	int words = (nbits + 31) / 32, w;

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

/* ---- the journal ---- */

struct holder {
	char *name;
	struct cpuset cpus;	/* away: the CPUs kept free; steer: the
				 * CPUs its IRQs go to */
	bool steer;
	struct cpuset irqs;	/* steer: the IRQs it moves */
};

struct saved {
	int irq;
	struct cpuset cpus;
};

struct journal {
	char *path;
	int lockfd;
	bool exists;
	char *default_mask;	/* original default_smp_affinity, or NULL */
	struct holder *h;
	size_t nh;
	struct saved *s;
	size_t ns;
};

static void
journal_close(struct journal *j)
{
	size_t i;

	for (i = 0; i < j->nh; i++) {
		free(j->h[i].name);
		cpuset_free(&j->h[i].cpus);
		cpuset_free(&j->h[i].irqs);
	}
	for (i = 0; i < j->ns; i++)
		cpuset_free(&j->s[i].cpus);
	free(j->h);
	free(j->s);
	free(j->default_mask);
	free(j->path);
	if (j->lockfd >= 0)
		close(j->lockfd);
	memset(j, 0, sizeof(*j));
	j->lockfd = -1;
}

/* A holder: away (irqs NULL) or steering the IRQs of irqs to cpus. */
static int
add_holder(struct journal *j, const char *name, const struct cpuset *cpus,
	   const struct cpuset *irqs)
{
	struct holder *nh = realloc(j->h, (j->nh + 1) * sizeof(*nh));

	if (nh == NULL)
		return -ENOMEM;
	j->h = nh;
	nh = &j->h[j->nh];
	cpuset_init(&nh->cpus);
	cpuset_init(&nh->irqs);
	nh->steer = irqs != NULL;
	nh->name = strdup(name);
	if (nh->name == NULL || cpuset_copy(&nh->cpus, cpus) < 0 ||
	    (irqs && cpuset_copy(&nh->irqs, irqs) < 0)) {
		free(nh->name);
		cpuset_free(&nh->cpus);
		cpuset_free(&nh->irqs);
		return -ENOMEM;
	}
	j->nh++;
	return 0;
}

static ssize_t
find_saved(const struct journal *j, int irq)
{
	size_t i;

	for (i = 0; i < j->ns; i++)
		if (j->s[i].irq == irq)
			return (ssize_t)i;
	return -1;
}

static int
add_saved(struct journal *j, int irq, const struct cpuset *cpus)
{
	struct saved *ns = realloc(j->s, (j->ns + 1) * sizeof(*ns));

	if (ns == NULL)
		return -ENOMEM;
	j->s = ns;
	ns = &j->s[j->ns];
	ns->irq = irq;
	cpuset_init(&ns->cpus);
	if (cpuset_copy(&ns->cpus, cpus) < 0)
		return -ENOMEM;
	j->ns++;
	return 0;
}

static int
damaged(struct journal *j, char *err, size_t errlen, const char *why)
{
	err_set(err, errlen, "journal '%s' is damaged: %s", j->path, why);
	return -EBADMSG;
}

static int
journal_parse(struct journal *j, char *text, size_t len, char *err,
	      size_t errlen)
{
	char *line, *next, *body;
	unsigned long long sum;

	if (len < sizeof(JOURNAL_MAGIC) ||
	    strncmp(text, JOURNAL_MAGIC "\n", sizeof(JOURNAL_MAGIC)) != 0)
		return damaged(j, err, errlen, "no cpm-irq-journal 1 line");
	line = text + sizeof(JOURNAL_MAGIC);
	next = memchr(line, '\n', len - (size_t)(line - text));
	if (next == NULL || sscanf(line, "checksum fnv1a64:%16llx\n", &sum) != 1)
		return damaged(j, err, errlen, "missing or bad checksum line");
	body = next + 1;
	if (fnv1a64(FNV64_INIT, body, len - (size_t)(body - text)) != sum)
		return damaged(j, err, errlen, "checksum mismatch");
	for (line = body; *line; line = next) {
		char *kw, *a, *b, *save = NULL, perr[64];
		struct cpuset s = CPUSET_INIT;
		unsigned int irq;
		int r = 0;

		next = strchr(line, '\n');
		if (next == NULL)
			return damaged(j, err, errlen, "a line is not terminated");
		*next++ = '\0';
		kw = strtok_r(line, " ", &save);
		a = strtok_r(NULL, " ", &save);
		b = strtok_r(NULL, " ", &save);
		if (kw == NULL || a == NULL)
			return damaged(j, err, errlen, "a line is short");
		if (strcmp(kw, "default") == 0 && b == NULL) {
			free(j->default_mask);
			if ((j->default_mask = strdup(a)) == NULL)
				return -ENOMEM;
			continue;
		}
		if (strcmp(kw, "steer") == 0 && b != NULL) {
			/* steer NAME CPULIST IRQLIST */
			char *c = strtok_r(NULL, " ", &save);
			struct cpuset irqs = CPUSET_INIT;

			if (c == NULL || strtok_r(NULL, " ", &save) != NULL ||
			    cpuset_parse_list(b, &s, perr, sizeof(perr)) < 0 ||
			    cpuset_parse_list(c, &irqs, perr, sizeof(perr)) < 0 ||
			    str_unescape(a) < 0)
				r = -EBADMSG;
			else
				r = add_holder(j, a, &s, &irqs);
			cpuset_free(&s);
			cpuset_free(&irqs);
			if (r == -EBADMSG)
				return damaged(j, err, errlen,
					       "a line is not valid");
			if (r < 0)
				return r;
			continue;
		}
		if (b == NULL || strtok_r(NULL, " ", &save) != NULL ||
		    cpuset_parse_list(strcmp(b, "-") ? b : "", &s, perr,
				      sizeof(perr)) < 0) {
			cpuset_free(&s);
			return damaged(j, err, errlen, "a line is not valid");
		}
		if (strcmp(kw, "holder") == 0) {
			if (str_unescape(a) < 0)
				r = -EBADMSG;
			else
				r = add_holder(j, a, &s, NULL);
		} else if (strcmp(kw, "irq") == 0 &&
			   parse_uint(a, INT_MAX, &irq) == 0 &&
			   find_saved(j, (int)irq) < 0) {
			r = add_saved(j, (int)irq, &s);
		} else {
			r = -EBADMSG;
		}
		cpuset_free(&s);
		if (r == -EBADMSG)
			return damaged(j, err, errlen, "a line is not valid");
		if (r < 0)
			return r;
	}
	return 0;
}

/* How long journal_open() waits for the lock; -1: forever. */
static int64_t journal_wait_ms = -1;
/* irq_dry_run(): compute and report, write nothing. */
static bool dry_run;

void
irq_dry_run(bool on)
{
	dry_run = on;
}

void
irq_journal_wait(int64_t wait_ms)
{
	journal_wait_ms = wait_ms;
}

static int
journal_open(struct journal *j, const char *path, char *err, size_t errlen)
{
	char lockpath[PATH_MAX], dir[PATH_MAX], *slash, *text = NULL;
	size_t len;
	int r;

	memset(j, 0, sizeof(*j));
	j->lockfd = -1;
	if (snprintf(lockpath, sizeof(lockpath), "%s.lock", path) >=
	    (int)sizeof(lockpath)) {
		err_set(err, errlen, "journal path '%s' is too long", path);
		return -ENAMETOOLONG;
	}
	if ((j->path = strdup(path)) == NULL)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir && !dry_run) {
		*slash = '\0';
		r = mkdir_p(dir, 0755);
		if (r < 0) {
			err_set(err, errlen, "cannot create '%s': %s", dir,
				strerror(-r));
			return r;
		}
	}
	/* A journal is acted on and deleted: trusted only when no one
	 * else could have written it, and locked only when it is one. */
	r = own_file_check(path, "IRQ journal", JOURNAL_MAGIC, OWN_PRIVATE_DIR,
			   err, errlen);
	if (r < 0)
		return r == -EISDIR ? -EFTYPE_CPM : r;
	if (!dry_run) {
		/* A dry run reads what is there, and creates nothing. */
		r = lock_file(lockpath, journal_wait_ms, err, errlen);
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

static int
journal_commit(struct journal *j, char *err, size_t errlen)
{
	struct strbuf body, sb;
	size_t i;
	int r;

	strbuf_init(&body);
	strbuf_init(&sb);
	if (j->default_mask)
		strbuf_printf(&body, "default %s\n", j->default_mask);
	for (i = 0; i < j->nh; i++) {
		strbuf_puts(&body, j->h[i].steer ? "steer " : "holder ");
		str_escape(&body, j->h[i].name);
		strbuf_puts(&body, " ");
		if (cpuset_empty(&j->h[i].cpus))
			strbuf_puts(&body, "-");
		else
			cpuset_format(&j->h[i].cpus, &body);
		if (j->h[i].steer) {
			strbuf_puts(&body, " ");
			cpuset_format(&j->h[i].irqs, &body);
		}
		strbuf_puts(&body, "\n");
	}
	for (i = 0; i < j->ns; i++) {
		strbuf_printf(&body, "irq %d ", j->s[i].irq);
		if (cpuset_empty(&j->s[i].cpus))
			strbuf_puts(&body, "-");
		else
			cpuset_format(&j->s[i].cpus, &body);
		strbuf_puts(&body, "\n");
	}
	strbuf_printf(&sb, JOURNAL_MAGIC "\nchecksum fnv1a64:%016llx\n",
		      (unsigned long long)fnv1a64(FNV64_INIT,
						  body.buf ? body.buf : "",
						  body.len));
	if (body.len)
		strbuf_add(&sb, body.buf, body.len);
	if (sb.oom || body.oom) {
		strbuf_free(&body);
		strbuf_free(&sb);
		return -ENOMEM;
	}
	r = write_file_atomic(j->path, sb.buf, sb.len,
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

/* ---- applying ---- */

void
irq_report_free(struct irq_report *rep)
{
	size_t i;

	for (i = 0; i < rep->n; i++) {
		cpuset_free(&rep->v[i].from);
		cpuset_free(&rep->v[i].to);
		cpuset_free(&rep->v[i].effective);
	}
	free(rep->v);
	cpuset_free(&rep->away);
	cpuset_free(&rep->kept);
	cpuset_free(&rep->unsteered);
	memset(rep, 0, sizeof(*rep));
}

static struct irq_outcome *
report_add(struct irq_report *rep, const struct irq_info *x)
{
	struct irq_outcome *nv = realloc(rep->v, (rep->n + 1) * sizeof(*nv));

	if (nv == NULL)
		return NULL;
	rep->v = nv;
	nv = &rep->v[rep->n++];
	memset(nv, 0, sizeof(*nv));
	nv->irq = x->irq;
	snprintf(nv->name, sizeof(nv->name), "%s", x->name);
	cpuset_init(&nv->from);
	cpuset_init(&nv->to);
	cpuset_init(&nv->effective);
	if (cpuset_copy(&nv->from, &x->affinity) < 0)
		return NULL;
	return nv;
}

/* want = orig - away, or online - away when nothing of orig is left. */
static int
target(const struct cpuset *orig, const struct cpuset *away,
       const struct cpuset *online, struct cpuset *want)
{
	if (cpuset_copy(want, orig) < 0)
		return -ENOMEM;
	cpuset_andnot(want, away);
	if (cpuset_empty(want)) {
		if (cpuset_copy(want, online) < 0)
			return -ENOMEM;
		cpuset_andnot(want, away);
	}
	return 0;
}

/* The CPUs the last steering holder of irq sends it to, or NULL. */
static const struct cpuset *
steered(const struct journal *j, int irq)
{
	const struct cpuset *to = NULL;
	size_t i;

	for (i = 0; i < j->nh; i++)
		if (j->h[i].steer &&
		    cpuset_isset(&j->h[i].irqs, (unsigned int)irq))
			to = &j->h[i].cpus;
	return to;
}

/*
 * Where a steered IRQ goes: the online CPUs it is steered to, whatever
 * the away set (steering wins over isolation), or, when none of them is
 * online any more, its target from orig under away.
 */
static int
steer_target(const struct cpuset *to, const struct cpuset *orig,
	     const struct cpuset *away, const struct cpuset *online,
	     struct cpuset *want)
{
	if (cpuset_copy(want, to) < 0)
		return -ENOMEM;
	cpuset_and(want, online);
	return cpuset_empty(want) ? target(orig, away, online, want) : 0;
}

/*
 * Write want to an IRQ (nothing in a dry run) and read it back into o:
 * the affinity, and the effective one where the kernel gives it.  strict:
 * the read-back must be want (else only clear of away).
 */
static void
write_irq(const struct sysroot *root, const struct irq_info *x,
	  const struct cpuset *want, const char *text,
	  const struct cpuset *away, bool strict, struct irq_outcome *o)
{
	char path[64];

	if (dry_run) {
		if (cpuset_copy(&o->to, want) < 0)
			o->error = -ENOMEM;
		return;
	}
	snprintf(path, sizeof(path), IRQ_DIR "/%d/smp_affinity_list", x->irq);
	o->error = proc_write(root, path, text);
	if (read_affinity(root, x->irq, &o->to) < 0)
		cpuset_zero(&o->to);
	if (o->error == 0 && !cpuset_equal(&o->to, want) &&
	    (strict || cpuset_intersects(&o->to, away)))
		o->error = -EAGAIN;
	o->effective_known = read_effective(root, x->irq, &o->effective);
	/* An empty effective list: an IRQ that has not fired yet. */
	o->effective_outside = o->error == 0 && o->effective_known &&
			       !cpuset_empty(&o->effective) &&
			       !cpuset_subset(&o->effective, &o->to);
}

/*
 * Bring every journaled IRQ to its target under away (restore: away empty
 * and targets are the originals).  An IRQ a holder steers goes where it
 * is steered (steer_target()).  Unjournaled IRQs are left alone.
 */
static int
apply(const struct sysroot *root, const struct journal *j,
      const struct irq_table *tab, const struct cpuset *away,
      const struct cpuset *online, bool restore,
      struct irq_report *rep)
{
	struct cpuset want = CPUSET_INIT;
	struct strbuf sb;
	size_t i;
	int r = 0;

	strbuf_init(&sb);
	for (i = 0; i < j->ns && r == 0; i++) {
		const struct irq_info *x = irq_find(tab, j->s[i].irq);
		const struct cpuset *to = restore ? NULL :
					  steered(j, j->s[i].irq);
		struct irq_outcome *o;

		if (x == NULL || !x->readable)
			continue;	/* gone since, or not ours to move */
		if (restore)
			r = cpuset_copy(&want, &j->s[i].cpus);
		else if (to)
			r = steer_target(to, &j->s[i].cpus, away, online,
					 &want);
		else
			r = target(&j->s[i].cpus, away, online, &want);
		if (r < 0)
			break;
		if (to && cpuset_intersects(&want, away) &&
		    cpuset_set(&rep->kept, (unsigned int)x->irq) < 0) {
			r = -ENOMEM;
			break;
		}
		if (x->parsed && cpuset_equal(&want, &x->affinity) &&
		    (restore || to || !cpuset_intersects(&x->affinity, away)))
			continue;	/* already where it belongs */
		if ((o = report_add(rep, x)) == NULL) {
			r = -ENOMEM;
			break;
		}
		sb.len = 0;
		if (sb.buf)
			sb.buf[0] = '\0';
		cpuset_format(&want, &sb);
		if (sb.oom) {
			r = -ENOMEM;
			break;
		}
		write_irq(root, x, &want, sb.buf ? sb.buf : "", away,
			  restore || to, o);
		if (o->error == -ENOMEM) {
			r = -ENOMEM;
			break;
		}
		/* A restore that could not write keeps the journal. */
		if (restore && o->error < 0 && !cpuset_equal(&o->from, &want))
			rep->failed++;
	}
	if (r == 0 && j->default_mask) {
		struct cpuset orig = CPUSET_INIT, now = CPUSET_INIT;
		bool known = false;
		char buf[4096];
		ssize_t n;

		/* The current value may be cut short by a crash mid-write:
		 * then it is written whatever it holds. */
		n = sysroot_read(root, IRQ_DIR "/default_smp_affinity", buf,
				 sizeof(buf));
		if (n >= 0)
			known = cpuset_parse_mask(strstrip(buf), &now) == 0;
		if (n >= 0 && cpuset_parse_mask(j->default_mask, &orig) == 0) {
			if (restore)
				r = cpuset_copy(&want, &orig);
			else
				r = target(&orig, away, online, &want);
			if (r == 0 && (!known || !cpuset_equal(&want, &now))) {
				sb.len = 0;
				if (sb.buf)
					sb.buf[0] = '\0';
				if (restore)
					strbuf_puts(&sb, j->default_mask);
				else
					format_mask(&want, cpuset_last(&want) + 1, &sb);
				rep->default_changed = true;
				rep->default_error = sb.oom ? -ENOMEM :
					dry_run ? 0 :
					proc_write(root, IRQ_DIR "/default_smp_affinity",
						   sb.buf);
				if (rep->default_error < 0)
					rep->failed++;
			}
		}
		cpuset_free(&orig);
		cpuset_free(&now);
	}
	strbuf_free(&sb);
	cpuset_free(&want);
	return r;
}

static int
away_union(const struct journal *j, struct cpuset *away)
{
	size_t i;

	cpuset_zero(away);
	for (i = 0; i < j->nh; i++)
		if (!j->h[i].steer && cpuset_or(away, &j->h[i].cpus) < 0)
			return -ENOMEM;
	return 0;
}

/*
 * The IRQs of irqs apply() did not bring where they are steered: refused
 * or read back otherwise, or left alone for an affinity that cannot be
 * read (those it found already there are not in rep).
 */
static int
unsteered(const struct irq_table *tab, const struct cpuset *irqs,
	  struct irq_report *rep)
{
	int irq;

	cpuset_for_each(irq, irqs) {
		const struct irq_info *x = irq_find(tab, irq);
		bool bad = x == NULL || !x->parsed;
		size_t i;

		for (i = 0; i < rep->n; i++)
			if (rep->v[i].irq == irq)
				bad = rep->v[i].error < 0;
		if (bad && cpuset_set(&rep->unsteered, (unsigned int)irq) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Add holder, away (irqs NULL: cpus are kept free of interrupts) or
 * steering (the IRQs of irqs go to cpus), journal the originals, and
 * apply every holder.
 */
static int
hold(const struct sysroot *root, const char *journal, const char *holder,
     const struct cpuset *cpus, const struct cpuset *irqs,
     const struct cpuset *online, struct irq_report *rep, char *err,
     size_t errlen)
{
	struct journal j;
	struct irq_table tab;
	struct cpuset left = CPUSET_INIT;
	size_t i;
	int r;

	memset(rep, 0, sizeof(*rep));
	cpuset_init(&rep->away);
	cpuset_init(&rep->kept);
	cpuset_init(&rep->unsteered);
	r = irq_scan(root, &tab, err, errlen);
	if (r < 0)
		return r;
	r = journal_open(&j, journal, err, errlen);
	if (r < 0)
		goto out;
	r = check_tree_files(root, &tab, err, errlen);
	if (r < 0)
		goto out;
	if (irqs) {
		/* Every IRQ must be there to be steered. */
		int irq;

		cpuset_for_each(irq, irqs)
			if (!irq_find(&tab, irq)) {
				err_set(err, errlen, "IRQ %d is not in /%s",
					irq, IRQ_DIR);
				r = -ENOENT;
				goto out;
			}
		if (cpuset_copy(&left, cpus) < 0) {
			r = -ENOMEM;
			goto out;
		}
		cpuset_and(&left, online);
		if (cpuset_empty(&left)) {
			err_set(err, errlen, "no CPU to steer interrupts to is "
				"online");
			r = -EINVAL;
			goto out;
		}
	}
	/* The new holder replaces one of the same name. */
	for (i = 0; i < j.nh; i++)
		if (strcmp(j.h[i].name, holder) == 0) {
			if (cpuset_copy(&j.h[i].cpus, cpus) < 0 ||
			    (irqs && cpuset_copy(&j.h[i].irqs, irqs) < 0))
				r = -ENOMEM;
			j.h[i].steer = irqs != NULL;
			break;
		}
	if (r == 0 && i == j.nh)
		r = add_holder(&j, holder, cpus, irqs);
	if (r == 0)
		r = away_union(&j, &rep->away);
	if (r < 0)
		goto out;
	if (cpuset_copy(&left, online) < 0) {
		r = -ENOMEM;
		goto out;
	}
	cpuset_andnot(&left, &rep->away);
	if (cpuset_empty(&left)) {
		err_set(err, errlen, "cannot move interrupts off every online CPU");
		r = -EINVAL;
		goto out;
	}
	/* Originals: what an IRQ has now, unless the journal knows better. */
	for (i = 0; i < tab.n && r == 0; i++)
		if (tab.v[i].parsed && find_saved(&j, tab.v[i].irq) < 0)
			r = add_saved(&j, tab.v[i].irq, &tab.v[i].affinity);
	if (r == 0 && j.default_mask == NULL) {
		char buf[4096];
		ssize_t n = sysroot_read(root, IRQ_DIR "/default_smp_affinity",
					 buf, sizeof(buf));

		if (n >= 0 && (j.default_mask = strdup(strstrip(buf))) == NULL)
			r = -ENOMEM;
	}
	if (r == 0 && !dry_run)
		r = journal_commit(&j, err, errlen);
	if (r == 0)
		r = apply(root, &j, &tab, &rep->away, online, false,
			  rep);
	if (r == 0 && irqs)
		r = unsteered(&tab, irqs, rep);
out:
	if (r == -ENOMEM)
		err_set(err, errlen, "out of memory");
	cpuset_free(&left);
	journal_close(&j);
	irq_table_free(&tab);
	return r;
}

int
irq_isolate(const struct sysroot *root, const char *journal,
	    const char *holder, const struct cpuset *away,
	    const struct cpuset *online, struct irq_report *rep, char *err,
	    size_t errlen)
{
	return hold(root, journal, holder, away, NULL, online, rep, err,
		    errlen);
}

int
irq_steer(const struct sysroot *root, const char *journal,
	  const char *holder, const struct cpuset *irqs,
	  const struct cpuset *to, const struct cpuset *online,
	  struct irq_report *rep, char *err, size_t errlen)
{
	return hold(root, journal, holder, to, irqs, online, rep, err,
		    errlen);
}

int
irq_release(const struct sysroot *root, const char *journal,
	    const char *holder, const struct cpuset *online, bool *found,
	    struct irq_report *rep, char *err, size_t errlen)
{
	struct journal j;
	struct irq_table tab = { 0 };
	size_t i, k;
	int r;

	memset(rep, 0, sizeof(*rep));
	cpuset_init(&rep->away);
	cpuset_init(&rep->kept);
	cpuset_init(&rep->unsteered);
	*found = false;
	if (access(journal, F_OK) < 0 && errno == ENOENT)
		return 0;	/* nothing was ever moved */
	r = journal_open(&j, journal, err, errlen);
	if (r < 0)
		goto out;
	if (!j.exists)
		goto out;
	for (i = k = 0; i < j.nh; i++) {
		if (holder == NULL || strcmp(j.h[i].name, holder) == 0) {
			*found = true;
			free(j.h[i].name);
			cpuset_free(&j.h[i].cpus);
			cpuset_free(&j.h[i].irqs);
			continue;
		}
		j.h[k++] = j.h[i];
	}
	j.nh = k;
	if (holder == NULL)
		*found = true;
	if (!*found)
		goto out;
	r = irq_scan(root, &tab, err, errlen);
	if (r == 0)
		r = check_tree_files(root, &tab, err, errlen);
	if (r < 0)
		goto out;
	r = away_union(&j, &rep->away);
	if (r < 0)
		goto out;
	if (j.nh) {
		/* Others still hold CPUs: journal first, then move. */
		r = dry_run ? 0 : journal_commit(&j, err, errlen);
		if (r == 0)
			r = apply(root, &j, &tab, &rep->away, online,
				  false, rep);
		goto out;
	}
	/* The last holder: put everything back, then forget. */
	r = apply(root, &j, &tab, &rep->away, online, true, rep);
	if (r == 0 && rep->failed) {
		err_set(err, errlen, "%zu affinit%s could not be put back; the "
			"journal '%s' keeps them", rep->failed,
			rep->failed == 1 ? "y" : "ies", journal);
		r = -EIO;
	} else if (r == 0 && !dry_run && unlink(journal) < 0 &&
		   errno != ENOENT) {
		r = -errno;
		err_set(err, errlen, "cannot remove journal '%s': %s", journal,
			strerror(errno));
	}
out:
	if (r == -ENOMEM)
		err_set(err, errlen, "out of memory");
	journal_close(&j);
	irq_table_free(&tab);
	return r;
}

/* ---- counts ---- */

/* irq_counts_parse(), leaving out the lines of the IRQs in skip. */
static int
counts_parse(const char *text, uint64_t *counts, int ncpus,
	     const struct cpuset *skip)
{
	int cols[4096], ncols = 0;
	const char *p = text, *eol;

	memset(counts, 0, sizeof(*counts) * (size_t)ncpus);
	/* Header: "CPU0 CPU1 ..." (offline CPUs have no column). */
	eol = strchr(p, '\n');
	if (eol == NULL)
		return -EINVAL;
	while (p < eol) {
		unsigned int v;
		char word[32];
		int w = 0;

		while (p < eol && *p == ' ')
			p++;
		while (p < eol && *p != ' ' && w < (int)sizeof(word) - 1)
			word[w++] = *p++;
		word[w] = '\0';
		if (w == 0)
			break;
		if (strncmp(word, "CPU", 3) != 0 ||
		    parse_uint(word + 3, INT_MAX, &v) < 0 ||
		    ncols == (int)(sizeof(cols) / sizeof(cols[0])))
			return -EINVAL;
		cols[ncols++] = (int)v;
	}
	if (ncols == 0)
		return -EINVAL;
	for (p = eol + 1; *p; p = eol + 1) {
		uint64_t vals[4096];
		const char *q;
		int k;

		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		q = memchr(p, ':', (size_t)(eol - p));
		if (q == NULL)
			break;
		if (skip && !cpuset_empty(skip)) {
			/* " 40:" is IRQ 40's line; "LOC:" the architecture's. */
			const char *d = p;
			long irq = 0;

			while (d < q && *d == ' ')
				d++;
			while (d < q && *d >= '0' && *d <= '9' && irq < INT_MAX)
				irq = irq * 10 + (*d++ - '0');
			if (d == q && d > p && q[-1] != ' ' &&
			    cpuset_isset(skip, (unsigned int)irq)) {
				if (*eol == '\0')
					break;
				continue;
			}
		}
		q++;
		/* Only lines with a number for every column count. */
		for (k = 0; k < ncols; k++) {
			char *end;

			while (q < eol && *q == ' ')
				q++;
			if (q >= eol || *q < '0' || *q > '9')
				break;
			vals[k] = strtoull(q, &end, 10);
			q = end;
		}
		if (k == ncols)
			for (k = 0; k < ncols; k++)
				if (cols[k] < ncpus)
					counts[cols[k]] += vals[k];
		if (*eol == '\0')
			break;
	}
	return 0;
}

int
irq_counts_parse(const char *text, uint64_t *counts, int ncpus)
{
	return counts_parse(text, counts, ncpus, NULL);
}

static int
counts_read(const struct sysroot *root, uint64_t *counts, int ncpus,
	    const struct cpuset *skip)
{
	char *text;
	int r = sysroot_read_file(root, "proc/interrupts", &text, NULL);

	if (r < 0)
		return r;
	r = counts_parse(text, counts, ncpus, skip);
	free(text);
	return r;
}

int
irq_counts(const struct sysroot *root, uint64_t *counts, int ncpus)
{
	return counts_read(root, counts, ncpus, NULL);
}

int
irq_load_findings(const uint64_t *before, const uint64_t *after, int ncpus,
		  const struct cpuset *cpus, uint64_t interval_us,
		  struct strbuf *out)
{
	double secs = (double)interval_us / 1e6;
	int cpu, n = 0;

	cpuset_for_each(cpu, cpus) {
		uint64_t d;

		if (cpu >= ncpus || after[cpu] <= before[cpu])
			continue;
		d = after[cpu] - before[cpu];
		strbuf_printf(out, "warning: CPU %d took %llu interrupt%s in %.1f s",
			      cpu, (unsigned long long)d, d == 1 ? "" : "s", secs);
		if (secs > 0)
			strbuf_printf(out, " (%.0f/s)", (double)d / secs);
		strbuf_puts(out, "\n");
		n++;
	}
	return out->oom ? -ENOMEM : n;
}

/* "40 (eth1-0)": an IRQ by number and name. */
static void
irq_label(const struct irq_info *x, struct strbuf *out)
{
	strbuf_printf(out, "%d%s%s%s", x->irq, x->name[0] ? " (" : "",
		      x->name, x->name[0] ? ")" : "");
}

/* The first owner whose IRQs hold irq, or NULL. */
static const struct irq_owner *
owner_of(const struct irq_owner *owners, size_t nowners, int irq)
{
	size_t k;

	for (k = 0; k < nowners; k++)
		if (cpuset_isset(owners[k].irqs, (unsigned int)irq))
			return &owners[k];
	return NULL;
}

/* Every IRQ not the owners' whose affinity reaches cpus: one warning. */
static int
check_foreign(const struct irq_table *tab, const struct cpuset *cpus,
	      const struct irq_owner *owners, size_t nowners,
	      struct strbuf *out)
{
	size_t i, nreach = 0;
	struct strbuf list;

	strbuf_init(&list);
	for (i = 0; i < tab->n; i++) {
		const struct irq_info *x = &tab->v[i];

		if (!x->parsed || !cpuset_intersects(&x->affinity, cpus) ||
		    owner_of(owners, nowners, x->irq))
			continue;
		if (nreach++)
			strbuf_puts(&list, ", ");
		irq_label(x, &list);
	}
	if (nreach) {
		strbuf_printf(out, "warning: %zu IRQ%s %smay be delivered to "
			      "CPUs ", nreach, nreach == 1 ? "" : "s",
			      nowners ? "of other devices " : "");
		cpuset_format(cpus, out);
		strbuf_printf(out, ": %s (cpm-pin --irqs-away moves them)\n",
			      list.buf ? list.buf : "");
	}
	strbuf_free(&list);
	return nreach ? 1 : 0;
}

/*
 * One owner's IRQs against cpus: a note when every one is there, else a
 * warning listing where the others may go; a warning for those the
 * kernel delivers elsewhere (effective_affinity_list).
 */
static int
check_owner(const struct irq_table *tab, const struct cpuset *cpus,
	    const struct irq_owner *ow, struct strbuf *out)
{
	struct strbuf away, eff;
	size_t nirq = 0, nout = 0, neff = 0;
	int irq, n = 0;

	strbuf_init(&away);
	strbuf_init(&eff);
	cpuset_for_each(irq, ow->irqs) {
		const struct irq_info *x = irq_find(tab, irq);

		if (x == NULL || !x->parsed)
			continue;
		nirq++;
		if (!cpuset_subset(&x->affinity, cpus)) {
			strbuf_puts(&away, nout++ ? ", " : "");
			irq_label(x, &away);
			strbuf_puts(&away, " on ");
			cpuset_format(&x->affinity, &away);
		} else if (x->effective_known && !cpuset_empty(&x->effective) &&
			   !cpuset_subset(&x->effective, cpus)) {
			strbuf_puts(&eff, neff++ ? ", " : "");
			irq_label(x, &eff);
			strbuf_puts(&eff, " on ");
			cpuset_format(&x->effective, &eff);
		}
	}
	if (nirq == 0) {
		strbuf_printf(out, "note: %s has no interrupt in /%s\n",
			      ow->name, IRQ_DIR);
	} else if (nout) {
		strbuf_printf(out, "warning: %zu of %s's %zu IRQ%s %s not only "
			      "on CPUs ", nout, ow->name, nirq,
			      nirq == 1 ? "" : "s", nout == 1 ? "is" : "are");
		cpuset_format(cpus, out);
		strbuf_printf(out, ": %s (cpm-pin --irqs-to %s CPULIST steers "
			      "them)\n", away.buf, ow->name);
		n++;
	} else if (neff == 0) {
		strbuf_printf(out, "note: %s's IRQ%s ", ow->name,
			      nirq == 1 ? "" : "s");
		cpuset_format(ow->irqs, out);
		strbuf_printf(out, " %s on CPUs ", nirq == 1 ? "is" : "are");
		cpuset_format(cpus, out);
		strbuf_puts(out, "\n");
	}
	if (neff) {
		strbuf_printf(out, "warning: the kernel delivers %zu of %s's "
			      "IRQs outside CPUs ", neff, ow->name);
		cpuset_format(cpus, out);
		strbuf_printf(out, " (effective_affinity_list): %s\n", eff.buf);
		n++;
	}
	strbuf_free(&away);
	strbuf_free(&eff);
	return n;
}

int
irq_check(const struct sysroot *root, const struct cpuset *cpus,
	  const struct irq_owner *owners, size_t nowners, int ncpus,
	  uint64_t interval_us, struct strbuf *out, char *err, size_t errlen)
{
	struct cpuset own = CPUSET_INIT;
	struct irq_table tab;
	uint64_t *a = NULL, *b = NULL;
	size_t k;
	int r, n;

	r = irq_scan(root, &tab, err, errlen);
	if (r < 0)
		return r;
	n = check_foreign(&tab, cpus, owners, nowners, out);
	for (k = 0; k < nowners; k++)
		n += check_owner(&tab, cpus, &owners[k], out);
	irq_table_free(&tab);
	/* The owners' own interrupts are the work of those CPUs. */
	for (k = 0; k < nowners; k++)
		if (cpuset_or(&own, owners[k].irqs) < 0)
			out->oom = true;
	a = calloc((size_t)ncpus + 1, sizeof(*a));
	b = calloc((size_t)ncpus + 1, sizeof(*b));
	if (a == NULL || b == NULL) {
		r = -ENOMEM;
		goto out;
	}
	r = counts_read(root, a, ncpus, &own);
	if (r == 0) {
		if (interval_us)
			usleep((useconds_t)interval_us);
		r = counts_read(root, b, ncpus, &own);
	}
	if (r < 0) {
		err_set(err, errlen, "cannot read proc/interrupts: %s",
			strerror(-r));
		goto out;
	}
	r = irq_load_findings(a, b, ncpus, cpus, interval_us, out);
	if (r >= 0)
		r += n;
out:
	cpuset_free(&own);
	free(a);
	free(b);
	return out->oom ? -ENOMEM : r;
}
