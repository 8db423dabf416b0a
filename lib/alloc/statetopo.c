// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The topology kept in a cpm-alloc state: encoding, parsing, and loading
 * a machine from it after checking what can change (see statetopo.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc/statetopo.h"
#include "base/hash.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "kube/kubelet.h"
#include "machine/coretype.h"

#define CPU_DIR  "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"
#define ID_MAX   (1 << 30)

/* The per-CPU fields, in record order. */
enum { F_NODE, F_SOCKET, F_DIE, F_CORE, F_L3, F_THREADS, F_NEXT, F_N };
static const char *const field_names[F_N] = {
	"node", "socket", "die", "core", "l3", "threads", "next",
};

_Static_assert(F_N == sizeof(((struct statetopo *)0)->runs) /
	       sizeof(((struct statetopo *)0)->runs[0]), "one run per field");

static const size_t field_offsets[F_N] = {
	offsetof(struct topo_cpu, node), offsetof(struct topo_cpu, socket),
	offsetof(struct topo_cpu, die), offsetof(struct topo_cpu, core),
	offsetof(struct topo_cpu, l3), offsetof(struct topo_cpu, nthreads),
	offsetof(struct topo_cpu, next_thread),
};

static int *
cpu_field(struct topo_cpu *c, int f)
{
	return (int *)((char *)c + field_offsets[f]);
}

/* ---- key ---- */

/*
 * The identity of the CPU directory (device, inode, change time) and the
 * boot id would be enough to tell trees apart; the sysroot's path is kept
 * in the key as given, on purpose.  Without --sysroot it is always "/",
 * so it costs nothing where cpm-alloc runs for real; with --sysroot it
 * gives a way to have a tree read in full without changing it: name it
 * another way ("DIR/." for DIR), which the tests use to check that the
 * layout and a full read agree.  The price is that two spellings of one
 * tree do not share a layout, and a read-only command through the other
 * spelling reads the topology in full every time.
 */
int
statetopo_key(const struct sysroot *root, char **key)
{
	struct strbuf sb;
	struct stat st;
	char boot[64];
	ssize_t n;

	strbuf_init(&sb);
	strbuf_puts(&sb, root->path);
	if (sysroot_stat(root, CPU_DIR, &st) == 0)
		strbuf_printf(&sb, "|%llx:%llx:%lld.%09ld",
			      (unsigned long long)st.st_dev,
			      (unsigned long long)st.st_ino,
			      (long long)st.st_ctim.tv_sec,
			      (long)st.st_ctim.tv_nsec);
	n = sysroot_read(root, "proc/sys/kernel/random/boot_id", boot,
			 sizeof(boot));
	if (n > 0)
		strbuf_printf(&sb, "|%s", strstrip(boot));
	if (sb.oom || !sb.buf) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	*key = sb.buf;
	return 0;
}

/* ---- fingerprint ---- */

uint64_t
statetopo_print_hash(const struct topo *t, int *cores)
{
	uint64_t h = FNV64_INIT;
	int cpu, n = 0;

	cpuset_for_each(cpu, &t->online) {
		const struct topo_cpu *c = &t->cpus[cpu];
		int32_t rec[4] = { cpu, c->node, c->socket, c->core };

		h = fnv1a64(h, rec, sizeof(rec));
		if (c->core == cpu)
			n++;
	}
	*cores = n;
	return h;
}

/* ---- format ---- */

static void
put_list(struct strbuf *sb, const char *key, const struct cpuset *s)
{
	strbuf_printf(sb, " %s=", key);
	cpuset_format(s, sb);
}

/* Values v[0..n) as START:STEP:COUNT runs. */
static void
put_array(struct strbuf *sb, const char *name, const int *v, int n)
{
	int i = 0;

	strbuf_printf(sb, " %s=", name);
	while (i < n) {
		int step = 0, j = i + 1;

		if (j < n) {
			step = v[j] - v[i];
			while (j < n && v[j] - v[j - 1] == step)
				j++;
		}
		strbuf_printf(sb, "%s%d:%d:%d", i ? "," : "", v[i], step,
			      j - i);
		i = j;
	}
}

/* One per-CPU field as runs. */
static void
put_runs(struct strbuf *sb, const struct topo *t, int f)
{
	int *v = malloc(((size_t)t->ncpus + 1) * sizeof(int)), i;

	if (!v) {
		sb->oom = true;
		return;
	}
	for (i = 0; i < t->ncpus; i++)
		v[i] = *cpu_field(&t->cpus[i], f);
	put_array(sb, field_names[f], v, t->ncpus);
	free(v);
}

static void
put_types(struct strbuf *sb, const struct coretypes *ct)
{
	int i;

	strbuf_printf(sb, " types=%s", ct->source ? ct->source : "-");
	for (i = 0; i < ct->ntypes; i++)
		strbuf_printf(sb, "/%s@%d@%u", ct->types[i].name,
			      ct->types[i].capacity, ct->types[i].cores);
	put_array(sb, "ctype", ct->type, ct->ncpus);
	put_array(sb, "ccap", ct->capacity, ct->ncpus);
}

void
statetopo_format(const struct topo *t, const struct coretypes *ct,
		 const char *key, struct strbuf *sb)
{
	uint64_t hash;
	int i, k, f, cores;

	strbuf_printf(sb, "v=%d key=", STATETOPO_VERSION);
	str_escape(sb, key);
	put_list(sb, "possible", &t->possible);
	put_list(sb, "present", &t->present);
	put_list(sb, "online", &t->online);
	put_list(sb, "isolated", &t->isolated);
	strbuf_printf(sb, " tpc=%d", t->threads_per_core);
	for (f = 0; f < F_N; f++)
		put_runs(sb, t, f);
	strbuf_puts(sb, " nodes=");
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		strbuf_printf(sb, "%s%d@", i ? "/" : "", n->id);
		cpuset_format(&n->cpus, sb);
		strbuf_puts(sb, "@");
		if (!n->distance)
			strbuf_puts(sb, "x");
		for (k = 0; n->distance && k < t->nnodes; k++)
			strbuf_printf(sb, "%s%d", k ? "." : "", n->distance[k]);
	}
	strbuf_puts(sb, " l3s=");
	for (i = 0; i < t->nl3; i++) {
		const struct topo_l3 *g = &t->l3s[i];

		strbuf_printf(sb, "%s%d@%d@%lld@", i ? "/" : "", g->id,
			      g->level, (long long)g->size_kb);
		cpuset_format(&g->cpus, sb);
	}
	strbuf_puts(sb, " sockets=");
	for (i = 0; i < t->nsockets; i++) {
		strbuf_printf(sb, "%s%d@", i ? "/" : "", t->sockets[i].id);
		cpuset_format(&t->sockets[i].cpus, sb);
	}
	hash = statetopo_print_hash(t, &cores);
	strbuf_printf(sb, " hash=%016llx cores=%d", (unsigned long long)hash,
		      cores);
	/* Core types without their per-CPU arrays are left out: the next
	 * call reads them again. */
	if (ct && ct->ncpus == t->ncpus && ct->type)
		put_types(sb, ct);
}

/* ---- parse ---- */

struct tparser {
	char *err;
	size_t errlen;
	/* The last set parse_set() checked against, when it is one run
	 * of CPUs (lo <= hi), for a test of bounds instead of words. */
	const struct cpuset *in;
	long in_lo, in_hi;
};

static int __attribute__((format(printf, 2, 3)))
tbad(struct tparser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/*
 * A decimal number ("-" and digits) in [min, max]; *sp moves past it.
 * Limits stay within +-(LLONG_MAX / 2): digits beyond that are refused.
 */
static int
parse_num(const char **sp, long long min, long long max, long long *out)
{
	const char *s = *sp;
	bool neg = *s == '-';
	long long v = 0;

	s += neg;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	do {
		if (v > LLONG_MAX / 20)
			return -EINVAL;
		v = v * 10 + (*s++ - '0');
	} while (*s >= '0' && *s <= '9');
	if (neg)
		v = -v;
	if (v < min || v > max)
		return -EINVAL;
	*out = v;
	*sp = s;
	return 0;
}

struct set_walk {
	struct cpuset *s;
	unsigned int lo, hi;
};

static int
walk_range(void *arg, unsigned int first, unsigned int last)
{
	struct set_walk *w = arg;

	if (first < w->lo)
		w->lo = first;
	if (last > w->hi)
		w->hi = last;
	return cpuset_set_range(w->s, first, last);
}

/* A cpulist that is a subset of possible (possible NULL: any). */
static int
parse_set(struct tparser *p, const char *what, char *text,
	  const struct cpuset *possible, struct cpuset *s)
{
	struct set_walk w = { s, UINT_MAX, 0 };
	const char *end = text + strlen(text);
	unsigned int last = 0, mult = 1;
	char e[160];
	int r;

	/* Sized once, for the number at its end (the last CPU of a list
	 * as cpm writes it). */
	while (end > text && end[-1] >= '0' && end[-1] <= '9' &&
	       mult <= CPUSET_MAX_CPUS) {
		last += (unsigned int)(*--end - '0') * mult;
		mult *= 10;
	}
	cpuset_zero(s);
	if (last < CPUSET_MAX_CPUS && cpuset_reserve(s, last + 1) < 0)
		return -ENOMEM;
	r = cpuset_walk_list(text, walk_range, &w, e, sizeof(e));
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return tbad(p, "bad layout %s list: %s", what, e);
	if (!possible || w.lo > w.hi)
		return 0;
	if (p->in != possible) {
		int lo = cpuset_first(possible), hi = cpuset_last(possible);

		p->in = possible;
		p->in_lo = lo;
		p->in_hi = hi;
		if (lo < 0 || cpuset_count(possible) != (unsigned int)(hi - lo + 1))
			p->in_lo = 1, p->in_hi = 0;	/* not one run */
	}
	if (p->in_lo <= p->in_hi ? (long)w.lo < p->in_lo || (long)w.hi > p->in_hi :
	    !cpuset_subset(s, possible))
		return tbad(p, "layout %s CPUs are not possible", what);
	return 0;
}

/* Split "a/b/c" items in place: the next item, or NULL at the end. */
static char *
next_item(char **rest)
{
	char *s = *rest, *slash;

	if (!s || !*s)
		return NULL;
	slash = strchr(s, '/');
	if (slash) {
		*slash = '\0';
		*rest = slash + 1;
	} else {
		*rest = NULL;
	}
	return s;
}

/*
 * The run "START:STEP:COUNT" at *vp, after a ',' unless it is the first:
 * START in [-1, max], STEP within twice the largest id either way, COUNT
 * in [1, left]; *vp moves past it.  Returns 0 or -EINVAL.
 */
static inline int
next_run(const char **vp, bool first, long long max, long long left,
	 long long *start, long long *step, long long *count)
{
	const char *v = *vp;

	if (!first && *v++ != ',')
		return -EINVAL;
	if (parse_num(&v, -1, max, start) < 0 || *v++ != ':' ||
	    parse_num(&v, -2LL * ID_MAX, 2LL * ID_MAX, step) < 0 ||
	    *v++ != ':' || parse_num(&v, 1, left, count) < 0)
		return -EINVAL;
	*vp = v;
	return 0;
}

/*
 * Runs of n values in [-1, max] into the ints at out, out + stride, ...
 * (stride in bytes; out NULL: only checked).  A run's values go in a
 * straight line, so they are in range when its first and last are.
 */
static int
parse_strided(struct tparser *p, const char *name, const char *v, int n,
	      long long max, void *out, size_t stride)
{
	char *o = out;
	int i = 0;

	while (*v) {
		long long start, step, count, last, x;
		char *end;

		if (next_run(&v, i == 0, max, n - i, &start, &step, &count) < 0)
			return tbad(p, "bad layout %s runs", name);
		last = start + step * (count - 1);
		if (last < -1 || last > max)
			return tbad(p, "bad layout %s value", name);
		if (o) {
			end = o + (size_t)count * stride;
			for (x = start; o < end; o += stride, x += step)
				*(int *)o = (int)x;
		}
		i += (int)count;
	}
	if (i != n)
		return tbad(p, "layout %s lists %d CPUs, not %d", name, i, n);
	return 0;
}

/* Runs of n values in [-1, max] into out[0..n). */
static int
parse_array(struct tparser *p, const char *name, const char *v, int n,
	    long long max, int *out)
{
	return parse_strided(p, name, v, n, max, out, sizeof(*out));
}

static const char *const type_sources[] = {
	"pmu", "midr", "capacity", "cpufreq",
};
#define TYPES_MAX 64

/*
 * The CPUs of each core type from the (checked) runs v of their types:
 * a run's CPUs of one type (a step of 0) go in as a range.  Every CPU
 * with a type must be possible.
 */
static int
type_cpus(struct tparser *p, struct coretypes *ct, const struct topo *t,
	  const char *v)
{
	long long i = 0;

	while (*v) {
		long long start, step, count, k;

		/* Checked by parse_strided() already. */
		if (next_run(&v, i == 0, ct->ntypes - 1, t->ncpus - i, &start,
			     &step, &count) < 0)
			return tbad(p, "bad layout ctype runs");
		for (k = 0; k < count; k++) {
			long long ty = start + step * k, c0 = i + k, c1 = c0;

			if (step == 0) {
				c1 = i + count - 1;
				k = count;
			}
			if (ty < 0)
				continue;
			for (long long c = c0; c <= c1; c++)
				if (!cpuset_isset(&t->possible, (unsigned int)c))
					return tbad(p, "layout core type of CPU %lld",
						    c);
			if (cpuset_set_range(&ct->types[ty].cpus,
					     (unsigned int)c0,
					     (unsigned int)c1) < 0)
				return -ENOMEM;
		}
		i += count;
	}
	return 0;
}

/* types=SOURCE/NAME@CAP@CORES/... with ctype and ccap, into s->ct. */
static int
parse_types(struct tparser *p, struct statetopo *s, char *types,
	    const char *ctype, const char *ccap)
{
	const struct topo *t = &s->t;
	struct coretypes *ct;
	char *rest = types, *item;
	size_t k;
	int n = 0, r;

	for (item = types; *item; item++)
		n += *item == '/';
	if (n > TYPES_MAX)
		return tbad(p, "bad layout core types");
	ct = s->ct = calloc(1, sizeof(*ct));
	if (!ct)
		return -ENOMEM;
	ct->ncpus = t->ncpus;
	ct->types = n ? calloc((size_t)n, sizeof(*ct->types)) : NULL;
	if (n && !ct->types)
		return -ENOMEM;
	item = next_item(&rest);
	if (!item)
		return tbad(p, "bad layout core types");
	for (k = 0; k < sizeof(type_sources) / sizeof(type_sources[0]); k++)
		if (strcmp(item, type_sources[k]) == 0)
			ct->source = type_sources[k];
	if (!ct->source && strcmp(item, "-") != 0)
		return tbad(p, "bad layout core type source");
	while ((item = next_item(&rest))) {
		struct coretype *ty = &ct->types[ct->ntypes];
		char *at = strchr(item, '@');
		const char *v;
		long long cap, cores;
		size_t len = at ? (size_t)(at - item) : 0, i;

		if (ct->ntypes >= n || len == 0 || len >= sizeof(ty->name))
			return tbad(p, "bad layout core type");
		for (i = 0; i < len; i++)
			if (!((item[i] >= 'a' && item[i] <= 'z') ||
			      (item[i] >= '0' && item[i] <= '9')))
				return tbad(p, "bad layout core type name");
		memcpy(ty->name, item, len);
		v = at + 1;
		if (parse_num(&v, -1, 1 << 20, &cap) < 0 || *v++ != '@' ||
		    parse_num(&v, 0, CPUSET_MAX_CPUS, &cores) < 0 || *v)
			return tbad(p, "bad layout core type");
		ty->capacity = (int)cap;
		ty->cores = (unsigned int)cores;
		ct->ntypes++;
	}
	/*
	 * The runs are checked here, each type's CPUs taken from them a
	 * run at a time; the per-CPU arrays wait for statetopo_types().
	 */
	if (parse_strided(p, "ctype", ctype, t->ncpus, ct->ntypes - 1, NULL,
			  0) < 0 ||
	    parse_strided(p, "ccap", ccap, t->ncpus, 1 << 20, NULL, 0) < 0)
		return -EINVAL;
	if (ct->ntypes > 0 && (r = type_cpus(p, ct, t, ctype)) < 0)
		return r;
	s->ctype_runs = ctype;
	s->ccap_runs = ccap;
	return 0;
}

/* "ID@" at the start of item: the id, and the rest after '@'. */
static int
item_id(char **item, long long min, long long *id)
{
	const char *s = *item;

	if (parse_num(&s, min, ID_MAX, id) < 0 || *s != '@')
		return -EINVAL;
	*item = (char *)s + 1;
	return 0;
}

static int
parse_nodes(struct tparser *p, struct topo *t, char *v)
{
	char *rest = v, *item;
	int n = 0, r;

	for (item = v; *item; item++)
		n += *item == '/';
	t->nodes = calloc((size_t)n + 2, sizeof(*t->nodes));
	if (!t->nodes)
		return -ENOMEM;
	while ((item = next_item(&rest))) {
		struct topo_node *nd = &t->nodes[t->nnodes];
		char *at, *d;
		long long id;

		if (t->nnodes > n || item_id(&item, 0, &id) < 0 ||
		    id >= CPUSET_MAX_CPUS ||
		    (t->nnodes && id <= t->nodes[t->nnodes - 1].id) ||
		    !(at = strchr(item, '@')))
			return tbad(p, "bad layout node");
		t->nnodes++;
		nd->id = (int)id;
		nd->mem_total_kb = nd->mem_free_kb = -1;
		*at = '\0';
		r = parse_set(p, "node", item, &t->online, &nd->cpus);
		if (r < 0)
			return r;
		d = at + 1;
		if (strcmp(d, "x") == 0)
			continue;
		nd->distance = calloc((size_t)n + 1, sizeof(int));
		if (!nd->distance)
			return -ENOMEM;
		for (r = 0; r <= n; r++) {
			const char *s = d;
			long long x;

			if ((r && *s++ != '.') || parse_num(&s, 0, 100000, &x) < 0)
				return tbad(p, "bad layout node distances");
			nd->distance[r] = (int)x;
			d = (char *)s;
		}
		if (*d)
			return tbad(p, "bad layout node distances");
	}
	if (t->nnodes != (*v ? n + 1 : 0))
		return tbad(p, "bad layout nodes");
	return 0;
}

static int
parse_l3s(struct tparser *p, struct topo *t, char *v)
{
	char *rest = v, *item;
	int n = 1, r;

	for (item = v; *item; item++)
		n += *item == '/';
	t->l3s = calloc((size_t)n + 1, sizeof(*t->l3s));
	if (!t->l3s)
		return -ENOMEM;
	while ((item = next_item(&rest))) {
		struct topo_l3 *g = &t->l3s[t->nl3];
		long long id, level, size;
		const char *s;

		if (t->nl3 >= n || item_id(&item, 0, &id) < 0)
			return tbad(p, "bad layout L3 group");
		s = item;
		if (parse_num(&s, 0, 64, &level) < 0 || *s++ != '@' ||
		    parse_num(&s, -1, LLONG_MAX / 2, &size) < 0 || *s++ != '@')
			return tbad(p, "bad layout L3 group");
		t->nl3++;
		g->id = (int)id;
		g->level = (int)level;
		g->size_kb = size;
		r = parse_set(p, "L3", (char *)s, &t->online, &g->cpus);
		if (r < 0)
			return r;
		if (cpuset_empty(&g->cpus))
			return tbad(p, "empty layout L3 group");
	}
	return 0;
}

static int
parse_sockets(struct tparser *p, struct topo *t, char *v)
{
	char *rest = v, *item;
	int n = 1, r;

	for (item = v; *item; item++)
		n += *item == '/';
	t->sockets = calloc((size_t)n + 1, sizeof(*t->sockets));
	if (!t->sockets)
		return -ENOMEM;
	while ((item = next_item(&rest))) {
		struct topo_socket *s = &t->sockets[t->nsockets];
		long long id;

		if (t->nsockets >= n || item_id(&item, -1, &id) < 0 ||
		    (t->nsockets && id <= t->sockets[t->nsockets - 1].id))
			return tbad(p, "bad layout socket");
		t->nsockets++;
		s->id = (int)id;
		r = parse_set(p, "socket", item, &t->possible, &s->cpus);
		if (r < 0)
			return r;
	}
	return 0;
}

/* hash=HEX16 cores=N */
static int
parse_print(struct tparser *p, struct statetopo *s, const char *hash,
	    const char *cores)
{
	uint64_t h = 0;
	long long n;
	int i;

	for (i = 0; i < 16; i++) {
		char c = hash[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;

		if (d < 0)
			return tbad(p, "bad layout hash");
		h = h << 4 | (uint64_t)d;
	}
	if (hash[16] || parse_num(&cores, 0, CPUSET_MAX_CPUS, &n) < 0 ||
	    *cores)
		return tbad(p, "bad layout core count");
	s->have_print = true;
	s->hash = h;
	s->cores = (int)n;
	return 0;
}

/*
 * One field's runs checked as parse_strided() will read them, with no
 * value stored: what the rest of cpm relies on is that indexes stay
 * inside their arrays and a core's thread chain only goes up.  A run's
 * values lie on a line, and so do their distances from their CPUs: a
 * condition holds for a whole run when it holds at the ends of the part
 * it applies to.
 */
static int
check_runs(struct tparser *p, int f, const char *v, int n, int nl3)
{
	long long lo = -1, hi = ID_MAX;
	int i = 0;

	if (f == F_CORE || f == F_NEXT)
		hi = n - 1;
	else if (f == F_L3)
		hi = nl3 - 1;
	else if (f == F_THREADS)
		lo = 0, hi = n;
	while (*v) {
		long long start, step, count, k0, k1, k;

		if (next_run(&v, i == 0, ID_MAX, n - i, &start, &step,
			     &count) < 0)
			return tbad(p, "bad layout %s runs", field_names[f]);
		k1 = start + step * (count - 1);
		if (start < lo || start > hi || k1 < lo || k1 > hi)
			return tbad(p, "bad layout %s value", field_names[f]);
		if (f == F_CORE || f == F_NEXT) {
			/* The part of the run naming a CPU (value >= 0). */
			k0 = 0;
			k1 = count - 1;
			if (step == 0 && start < 0)
				k1 = -1;
			else if (step > 0 && start < 0)
				k0 = (-start + step - 1) / step;
			else if (step < 0 && start < 0)
				k1 = -1;
			else if (step < 0 && start / -step < k1)
				k1 = start / -step;
			/* core: value <= its CPU; next: value > its CPU */
			for (k = k0; k0 <= k1; k = k1) {
				long long d = start + step * k - (i + k);

				if (f == F_CORE ? d > 0 : d <= 0)
					return tbad(p, "bad layout for CPU %lld",
						    i + k);
				if (k == k1)
					break;
			}
		}
		i += (int)count;
	}
	if (i != n)
		return tbad(p, "layout %s lists %d CPUs, not %d",
			    field_names[f], i, n);
	return 0;
}

/* Set the flag at offset off in the slot of each CPU of s, a word of s
 * at a time. */
static void
mark_cpus(struct topo *t, const struct cpuset *s, size_t off)
{
	unsigned int w;

	for (w = 0; w < s->nwords; w++) {
		uint64_t b = s->bits[w];

		if (b == ~0ULL && (size_t)w * 64 + 64 <= (size_t)t->ncpus) {
			/* 64 CPUs in a row: no bit to look for. */
			char *p = (char *)&t->cpus[w * 64] + off;
			char *end = p + 64 * sizeof(*t->cpus);

			for (; p < end; p += sizeof(*t->cpus))
				*(bool *)p = true;
			continue;
		}
		while (b) {
			unsigned int c = w * 64 + (unsigned int)__builtin_ctzll(b);

			if (c < (unsigned int)t->ncpus)
				*(bool *)((char *)&t->cpus[c] + off) = true;
			b &= b - 1;
		}
	}
}

enum { K_V, K_KEY, K_POSSIBLE, K_PRESENT, K_ONLINE, K_ISOLATED, K_TPC,
       K_RUNS, K_NODES = K_RUNS + F_N, K_L3S, K_SOCKETS,
       K_REQUIRED,		/* the fields below are optional */
       K_HASH = K_REQUIRED, K_CORES,	/* required from version 2 */
       K_TYPES, K_CTYPE, K_CCAP, K_N };

static int
key_index(const char *k)
{
	static const char *const names[] = { "v", "key", "possible",
		"present", "online", "isolated", "tpc" };
	int i;

	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(k, names[i]) == 0)
			return i;
	for (i = 0; i < F_N; i++)
		if (strcmp(k, field_names[i]) == 0)
			return K_RUNS + i;
	if (strcmp(k, "nodes") == 0)
		return K_NODES;
	if (strcmp(k, "l3s") == 0)
		return K_L3S;
	if (strcmp(k, "sockets") == 0)
		return K_SOCKETS;
	if (strcmp(k, "hash") == 0)
		return K_HASH;
	if (strcmp(k, "cores") == 0)
		return K_CORES;
	if (strcmp(k, "types") == 0)
		return K_TYPES;
	if (strcmp(k, "ctype") == 0)
		return K_CTYPE;
	if (strcmp(k, "ccap") == 0)
		return K_CCAP;
	return -1;
}

/* statetopo_parse() of copy, cut in place; freed with out when own. */
static int
parse_record(char *copy, bool own, struct statetopo *out, char *err,
	     size_t errlen)
{
	struct tparser p = { err, errlen, NULL, 0, 0 };
	struct topo *t = &out->t;
	char *val[K_N] = { NULL }, *tok, *save = NULL;
	long long x;
	const char *s;
	int i, r;

	memset(out, 0, sizeof(*out));
	t->cpu_limit = -1;
	if (errlen)
		err[0] = '\0';
	/* Fields are checked once the version is known: another version
	 * may have others. */
	r = 0;
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq = '\0';
		i = eq ? key_index(tok) : -1;
		if ((i < 0 || val[i]) && r == 0)
			r = tbad(&p, "unknown or repeated layout field '%s'",
				 tok);
		if (i >= 0 && !val[i])
			val[i] = eq + 1;
	}
	s = val[K_V];
	if (!s || parse_num(&s, 0, INT_MAX, &x) < 0 || *s) {
		r = tbad(&p, "layout without a version");
		goto fail;
	}
	if (x < 1 || x > STATETOPO_VERSION) {
		if (own)
			free(copy);
		statetopo_free(out);
		if (errlen)
			err[0] = '\0';
		return 1;
	}
	if (r < 0)
		goto fail;
	for (i = 0; i < K_REQUIRED; i++)
		if (!val[i]) {
			r = tbad(&p, "incomplete layout record");
			goto fail;
		}
	/* Version 1 has no fingerprint, version 2 always has one. */
	if (x == 1 && (val[K_HASH] || val[K_CORES])) {
		r = tbad(&p, "unknown layout field '%s'",
			 val[K_HASH] ? "hash" : "cores");
		goto fail;
	}
	if (x > 1 && (!val[K_HASH] || !val[K_CORES])) {
		r = tbad(&p, "incomplete layout record");
		goto fail;
	}
	if (x > 1 && (r = parse_print(&p, out, val[K_HASH],
				      val[K_CORES])) < 0)
		goto fail;
	if (!val[K_TYPES] != !val[K_CTYPE] || !val[K_TYPES] != !val[K_CCAP]) {
		r = tbad(&p, "incomplete layout core types");
		goto fail;
	}
	if (str_unescape(val[K_KEY]) < 0) {
		r = tbad(&p, "bad layout key");
		goto fail;
	}
	out->key = strdup(val[K_KEY]);
	if (!out->key) {
		r = -ENOMEM;
		goto fail;
	}
	if ((r = parse_set(&p, "possible", val[K_POSSIBLE], NULL,
			   &t->possible)) < 0 ||
	    (r = parse_set(&p, "present", val[K_PRESENT], &t->possible,
			   &t->present)) < 0 ||
	    (r = parse_set(&p, "online", val[K_ONLINE], &t->possible,
			   &t->online)) < 0 ||
	    (r = parse_set(&p, "isolated", val[K_ISOLATED], &t->possible,
			   &t->isolated)) < 0)
		goto fail;
	if (cpuset_empty(&t->possible)) {
		r = tbad(&p, "layout without CPUs");
		goto fail;
	}
	s = val[K_TPC];
	if (parse_num(&s, 0, CPUSET_MAX_CPUS, &x) < 0 || *s) {
		r = tbad(&p, "bad layout tpc");
		goto fail;
	}
	t->threads_per_core = (int)x;
	t->ncpus = cpuset_last(&t->possible) + 1;
	if (cpuset_copy(&t->offline, &t->possible) < 0) {
		r = -ENOMEM;
		goto fail;
	}
	cpuset_andnot(&t->offline, &t->online);
	if ((r = parse_nodes(&p, t, val[K_NODES])) < 0 ||
	    (r = parse_l3s(&p, t, val[K_L3S])) < 0 ||
	    (r = parse_sockets(&p, t, val[K_SOCKETS])) < 0)
		goto fail;
	/* The per-CPU values are checked here and stored only when a
	 * caller needs them (statetopo_cpus()). */
	for (i = 0; i < F_N; i++) {
		if ((r = check_runs(&p, i, val[K_RUNS + i], t->ncpus,
				    t->nl3)) < 0)
			goto fail;
		out->runs[i] = val[K_RUNS + i];
	}
	if (val[K_TYPES] && (r = parse_types(&p, out, val[K_TYPES],
					     val[K_CTYPE], val[K_CCAP])) < 0)
		goto fail;
	out->text = copy;
	out->text_own = own;
	return 0;
fail:
	if (r == -ENOMEM && errlen)
		snprintf(err, errlen, "out of memory");
	if (own)
		free(copy);
	statetopo_free(out);
	return r;
}

int
statetopo_parse(const char *text, struct statetopo *out, char *err,
		size_t errlen)
{
	char *copy = strdup(text);

	if (!copy) {
		memset(out, 0, sizeof(*out));
		return -ENOMEM;
	}
	return parse_record(copy, true, out, err, errlen);
}

int
statetopo_parse_in_place(char *text, struct statetopo *out, char *err,
			 size_t errlen)
{
	return parse_record(text, false, out, err, errlen);
}

/* t's per-CPU array from the runs of s (checked when parsed). */
static int
expand_cpus(const struct statetopo *s, struct topo *t)
{
	struct tparser p = { NULL, 0, NULL, 0, 0 };
	int f;

	t->cpus = calloc((size_t)t->ncpus, sizeof(*t->cpus));
	if (!t->cpus)
		return -ENOMEM;
	mark_cpus(t, &t->possible, offsetof(struct topo_cpu, possible));
	mark_cpus(t, &t->present, offsetof(struct topo_cpu, present));
	mark_cpus(t, &t->online, offsetof(struct topo_cpu, online));
	mark_cpus(t, &t->isolated, offsetof(struct topo_cpu, isolated));
	for (f = 0; f < F_N; f++)
		if (parse_strided(&p, field_names[f], s->runs[f], t->ncpus,
				  ID_MAX, cpu_field(&t->cpus[0], f),
				  sizeof(*t->cpus)) < 0)
			return -EINVAL;	/* checked when parsed: not here */
	return 0;
}

int
statetopo_cpus(struct statetopo *s)
{
	if (s->t.cpus || s->given)
		return 0;
	return expand_cpus(s, &s->t);
}

int
statetopo_expand(const struct statetopo *s, struct topo *t)
{
	if (t->cpus)
		return 0;
	if (!s->given || t->ncpus != s->t.ncpus)
		return -EINVAL;
	return expand_cpus(s, t);
}

/*
 * The runs of field f (checked when parsed) as the kubelet's values
 * into *out (malloc'ed), their number into *n.  The L3 field's indexes
 * become their groups' ids.  Returns 0, 1 when a value is one the
 * kubelet's view replaces CPU by CPU (-1, an L3 index out of the
 * layout's), or -ENOMEM.
 */
static int
kubelet_runs(const char *v, int f, const struct topo *t, struct krun **out,
	     int *n)
{
	struct krun *r;
	size_t cap = 1, i = 0;
	const char *q;

	for (q = v; *q; q++)
		cap += *q == ',';
	*out = r = malloc(cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	while (*v) {
		long long start, step, count, last, j;

		if (next_run(&v, i == 0, ID_MAX, t->ncpus, &start, &step,
			     &count) < 0)
			return 1;	/* checked when parsed: not here */
		if (count == 1)
			step = 0;	/* unused, and maybe beyond an int */
		last = start + step * (count - 1);
		if (start < 0 || last < 0)
			return 1;
		if (f != F_L3 || step == 0) {
			if (f == F_L3 && start >= t->nl3)
				return 1;
			r[i].first = f == F_L3 ? t->l3s[start].id : (int)start;
			r[i].step = f == F_L3 ? 0 : (int)step;
			r[i++].count = (int)count;
			continue;
		}
		/* CPUs in a row in different L3 groups: a run each. */
		if (start >= t->nl3 || last >= t->nl3)
			return 1;
		cap += (size_t)count - 1;
		r = realloc(*out, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		*out = r;
		for (j = 0; j < count; j++, i++) {
			r[i].first = t->l3s[start + j * step].id;
			r[i].step = 0;
			r[i].count = 1;
		}
	}
	*n = (int)i;
	return 0;
}

/*
 * statetopo_ktopo() a run at a time, when every CPU slot is online and
 * each value is one the kubelet's view takes as it is: the values of
 * the CPUs of a run go in without a test per CPU, and their ids are
 * marked once per run.  Returns 1 when the layout is not such (a CPU
 * offline, a -1, CPUs without an L3 group among CPUs with one).
 */
static int
ktopo_by_runs(const struct statetopo *s, const struct topo *t,
	      struct ktopo *kt)
{
	static const int fields[4] = { F_CORE, F_SOCKET, F_NODE, F_L3 };
	struct krun *runs[4] = { NULL };
	int nruns[4] = { 0 }, k, r = 0;

	if (t->ncpus < 1 ||
	    cpuset_count(&t->online) != (unsigned int)t->ncpus)
		return 1;	/* online within 0..ncpus - 1: all of it */
	for (k = 0; k < 4 && r == 0; k++) {
		/* No L3 group anywhere: each CPU's uncore is its socket. */
		if (k == 3 && t->nl3 == 0)
			break;
		r = kubelet_runs(s->runs[fields[k]], fields[k], t, &runs[k],
				 &nruns[k]);
	}
	if (r == 0) {
		const struct krun *const kr[4] = { runs[0], runs[1], runs[2],
			runs[3] ? runs[3] : runs[1] };
		const int kn[4] = { nruns[0], nruns[1], nruns[2],
			runs[3] ? nruns[3] : nruns[1] };

		r = ktopo_from_runs(kt, t->ncpus, kr, kn);
		if (r == -EINVAL)
			r = 1;
	}
	for (k = 0; k < 4; k++)
		free(runs[k]);
	return r;
}

int
statetopo_ktopo(const struct statetopo *s, const struct topo *t,
		struct ktopo *kt)
{
	struct tparser p = { NULL, 0, NULL, 0, 0 };
	struct ktopo_cpu *k;
	int c, r, i, n = 0, lo[4], hi[4];

	if (!s->given || t->ncpus != s->t.ncpus)
		return -EINVAL;
	if ((r = ktopo_by_runs(s, t, kt)) <= 0)
		return r;
	/* Every slot is written below: not cleared first. */
	memset(kt, 0, sizeof(*kt));
	kt->ncpus = t->ncpus;
	kt->cpu = malloc((t->ncpus > 0 ? (size_t)t->ncpus : 1) * sizeof(*k));
	if (!kt->cpu)
		return -ENOMEM;
	k = kt->cpu;
	if (parse_strided(&p, "core", s->runs[F_CORE], t->ncpus, ID_MAX,
			  &k->core, sizeof(*k)) < 0 ||
	    parse_strided(&p, "socket", s->runs[F_SOCKET], t->ncpus, ID_MAX,
			  &k->socket, sizeof(*k)) < 0 ||
	    parse_strided(&p, "node", s->runs[F_NODE], t->ncpus, ID_MAX,
			  &k->numa, sizeof(*k)) < 0 ||
	    parse_strided(&p, "l3", s->runs[F_L3], t->ncpus, ID_MAX,
			  &k->uncore, sizeof(*k)) < 0) {
		ktopo_free(kt);
		return -EINVAL;	/* checked when parsed: not here */
	}
	/*
	 * What ktopo_from_topo() makes of each CPU's values, and what
	 * ktopo_count() would find of them: every online CPU has all four.
	 */
	for (i = 0; i < 4; i++) {
		lo[i] = INT_MAX;
		hi[i] = -1;
	}
	for (c = 0; c < t->ncpus; c++, k++) {
		if (!cpuset_isset(&t->online, (unsigned int)c)) {
			k->core = k->socket = k->numa = k->uncore = -1;
			continue;
		}
		if (k->core < 0)
			k->core = c;
		if (k->socket < 0)
			k->socket = 0;
		if (k->numa < 0)
			k->numa = 0;
		k->uncore = k->uncore >= 0 && k->uncore < t->nl3 ?
			    t->l3s[k->uncore].id : k->socket;
		n++;
		ktopo_bound(lo, hi, k);
	}
	/* The online CPUs are all below ncpus: they are the topology's. */
	r = ktopo_count_known(kt, &t->online, n, lo, hi);
	if (r < 0)
		ktopo_free(kt);
	return r;
}

void
statetopo_free(struct statetopo *s)
{
	if (s->ct) {
		coretype_free(s->ct);
		free(s->ct);
	}
	free(s->key);
	if (s->text_own)
		free(s->text);
	topo_free(&s->t);
	memset(s, 0, sizeof(*s));
}

/* ---- load ---- */

/* A live CPU list equal to want?  Missing or unreadable files: no. */
static bool
same_list(const struct sysroot *root, const char *path,
	  const struct cpuset *want, bool missing_empty)
{
	struct cpuset s = CPUSET_INIT;
	char buf[8192], e[8];
	ssize_t n = sysroot_read(root, path, buf, sizeof(buf));
	bool same;

	if (n == -ENOENT && missing_empty)
		return cpuset_empty(want);
	if (n < 0 || memchr(buf, '\0', (size_t)n))
		return false;
	same = cpuset_parse_list(buf, &s, e, sizeof(e)) == 0 &&
	       cpuset_equal(&s, want);
	cpuset_free(&s);
	return same;
}

/*
 * The machine's nodes now are the layout's nodes?  0 yes, 1 no.  The
 * kernel makes and removes a node's directory as it sets and clears the
 * node in node/online, so that file, one read, answers for them; a tree
 * without it (or with it unreadable, as some saved trees have it) is
 * listed.
 */
static int
live_nodes(const struct sysroot *root, const struct topo *t)
{
	struct cpuset on = CPUSET_INIT;
	struct dirent *de;
	char buf[4096], e[8];
	ssize_t n;
	DIR *d;
	int fd, i, seen = 0, r = 0;

	n = sysroot_read(root, NODE_DIR "/online", buf, sizeof(buf));
	if (n >= 0 && !memchr(buf, '\0', (size_t)n) &&
	    cpuset_parse_list(buf, &on, e, sizeof(e)) == 0) {
		r = cpuset_count(&on) != (unsigned int)t->nnodes;
		for (i = 0; !r && i < t->nnodes; i++)
			r = t->nodes[i].id < 0 ||
			    !cpuset_isset(&on, (unsigned int)t->nodes[i].id);
		cpuset_free(&on);
		return r;
	}
	cpuset_free(&on);
	fd = sysroot_open_dir(root, NODE_DIR);
	if (fd < 0)
		return (fd == -ENOENT || fd == -ENOTDIR) && !t->nnodes ?
		       0 : 1;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		unsigned int id;

		if (strncmp(de->d_name, "node", 4) != 0 ||
		    parse_uint(de->d_name + 4, CPUSET_MAX_CPUS - 1, &id) < 0)
			continue;
		if (!topo_node_by_id(t, (int)id)) {
			r = 1;
			break;
		}
		seen++;
	}
	closedir(d);
	return r || seen != t->nnodes;
}

/*
 * s into t: its per-CPU array, nodes, L3 groups and sockets moved (s is
 * given once), its CPU lists copied (the caller compares them with the
 * machine's when it writes the state).
 */
static int
move_topo(struct topo *t, struct topo *s)
{
	memset(t, 0, sizeof(*t));
	t->ncpus = s->ncpus;
	t->cpu_limit = -1;
	t->threads_per_core = s->threads_per_core;
	if (cpuset_copy(&t->possible, &s->possible) < 0 ||
	    cpuset_copy(&t->present, &s->present) < 0 ||
	    cpuset_copy(&t->online, &s->online) < 0 ||
	    cpuset_copy(&t->offline, &s->offline) < 0 ||
	    cpuset_copy(&t->isolated, &s->isolated) < 0) {
		topo_free(t);
		return -ENOMEM;
	}
	t->nodes = s->nodes;
	t->nnodes = s->nnodes;
	t->l3s = s->l3s;
	t->nl3 = s->nl3;
	t->sockets = s->sockets;
	t->nsockets = s->nsockets;
	t->cpus = s->cpus;
	s->nodes = NULL;
	s->l3s = NULL;
	s->sockets = NULL;
	s->nnodes = s->nl3 = s->nsockets = 0;
	s->cpus = NULL;
	return 0;
}

int
statetopo_load(struct topo *t, const struct sysroot *root, const char *key,
	       struct statetopo *s, bool cpus)
{
	int r;

	if (!s->key || s->given || strcmp(key, s->key) != 0 ||
	    !same_list(root, CPU_DIR "/possible", &s->t.possible, false) ||
	    !same_list(root, CPU_DIR "/present", &s->t.present, false) ||
	    !same_list(root, CPU_DIR "/online", &s->t.online, false) ||
	    !same_list(root, CPU_DIR "/isolated", &s->t.isolated, true) ||
	    live_nodes(root, &s->t))
		return 1;
	if (cpus && (r = statetopo_cpus(s)) < 0)
		return r;
	r = move_topo(t, &s->t);
	if (r == 0)
		s->given = true;
	return r;
}

int
statetopo_types_expand(struct coretypes *ct, const struct statetopo *s)
{
	struct tparser p = { NULL, 0, NULL, 0, 0 };
	size_t n = ((size_t)ct->ncpus + 1) * sizeof(int);

	if (ct->type)
		return 0;
	ct->type = malloc(n);
	ct->capacity = malloc(n);
	if (!ct->type || !ct->capacity) {
		free(ct->type);
		free(ct->capacity);
		ct->type = ct->capacity = NULL;
		return -ENOMEM;
	}
	/* Checked when the layout was read: they cannot fail here. */
	if (parse_array(&p, "ctype", s->ctype_runs, ct->ncpus,
			ct->ntypes - 1, ct->type) < 0 ||
	    parse_array(&p, "ccap", s->ccap_runs, ct->ncpus, 1 << 20,
			ct->capacity) < 0)
		return -ENOMEM;
	return 0;
}

int
statetopo_types(struct coretypes *ct, const struct statetopo *s,
		bool per_cpu)
{
	const struct coretypes *from = s->ct;
	int i;

	if (!from)
		return 1;
	memset(ct, 0, sizeof(*ct));
	ct->ncpus = from->ncpus;
	ct->ntypes = from->ntypes;
	ct->source = from->source;
	ct->types = from->ntypes ? calloc((size_t)from->ntypes,
					  sizeof(*ct->types)) : NULL;
	if (from->ntypes && !ct->types)
		goto oom;
	for (i = 0; i < from->ntypes; i++) {
		ct->types[i] = from->types[i];
		cpuset_init(&ct->types[i].cpus);
		if (cpuset_copy(&ct->types[i].cpus, &from->types[i].cpus) < 0)
			goto oom;
	}
	if (per_cpu && statetopo_types_expand(ct, s) < 0)
		goto oom;
	return 0;
oom:
	coretype_free(ct);
	return -ENOMEM;
}
