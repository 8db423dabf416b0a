// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every cache level from sysfs: see cache.h.
 *
 * The kernel writes cpuN/cache/index0..K-1 for each CPU, one directory per
 * cache the CPU uses.  A CPU's index K is read only when the CPU is not
 * yet in an instance of the kind index K had on the CPU before it (the
 * same on every CPU of a machine): a core's second thread, and every
 * CPU of an L3 after its first, opens nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "machine/cache.h"

#define CPU_DIR "sys/devices/system/cpu"
#define MAX_INDEX 32

struct reader {
	const struct sysroot *root;
	char *err;
	size_t errlen;
	char path[256];
	char buf[8192];
};

/* CPU_DIR/cpuN/cache/indexK/file into rd->path. */
static const char *
index_path(struct reader *rd, int cpu, int idx, const char *file)
{
	snprintf(rd->path, sizeof(rd->path), CPU_DIR "/cpu%d/cache/index%d/%s",
		 cpu, idx, file);
	return rd->path;
}

/* The file's text, stripped, in rd->buf; -ENOENT when missing. */
static int
read_text(struct reader *rd, const char *path, char **text)
{
	ssize_t n = sysroot_read(rd->root, path, rd->buf, sizeof(rd->buf));

	if (n < 0)
		return n == -ENOENT ? -ENOENT :
		       err_ret(rd->err, rd->errlen, -EINVAL, "cannot read %s: %s",
			       path, strerror((int)-n));
	rd->buf[n < (ssize_t)sizeof(rd->buf) ? n : (ssize_t)sizeof(rd->buf) - 1] = '\0';
	*text = strstrip(rd->buf);
	return 0;
}

/* A decimal file into *out; missing leaves -1 there. */
static int
read_num(struct reader *rd, int cpu, int idx, const char *file, int64_t max,
	 int64_t *out)
{
	const char *path = index_path(rd, cpu, idx, file);
	char *text;
	int r = read_text(rd, path, &text);

	*out = -1;
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (parse_i64(text, 0, max, out) < 0)
		return err_ret(rd->err, rd->errlen, -EINVAL, "malformed %s", path);
	return 0;
}

/* "32768K" -> bytes; "8M", "1G", a bare number of KiB as well. */
static int
parse_size(const char *s, int64_t *out)
{
	char *end;
	long long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || v > (1LL << 40))
		return -EINVAL;
	switch (*end) {
	case '\0': case 'K': v <<= 10; break;
	case 'M': v <<= 20; break;
	case 'G': v <<= 30; break;
	default: return -EINVAL;
	}
	if (*end && end[1] != '\0')
		return -EINVAL;
	*out = v;
	return 0;
}

static int
kind_cmp(int level, enum cache_type type, const struct cache_kind *k)
{
	if (level != k->level)
		return level < k->level ? -1 : 1;
	return (int)type - (int)k->type;
}

/* The kind of (level, type), added in order when new; -1 on ENOMEM. */
static int
kind_find_add(struct topo_caches *c, int level, enum cache_type type)
{
	struct cache_kind *nk;
	int i, j;

	for (i = 0; i < c->nkinds; i++) {
		int d = kind_cmp(level, type, &c->kinds[i]);

		if (d == 0)
			return i;
		if (d < 0)
			break;
	}
	nk = realloc(c->kinds, ((size_t)c->nkinds + 1) * sizeof(*nk));
	if (nk == NULL)
		return -1;
	c->kinds = nk;
	memmove(&nk[i + 1], &nk[i], (size_t)(c->nkinds - i) * sizeof(*nk));
	memset(&nk[i], 0, sizeof(*nk));
	nk[i].level = level;
	nk[i].type = type;
	nk[i].size = -1;
	nk[i].ways = nk[i].line_size = nk[i].sets = nk[i].phys_line = -1;
	snprintf(nk[i].name, sizeof(nk[i].name), "L%d%s", level,
		 type == CACHE_DATA ? "d" : type == CACHE_INSTRUCTION ? "i" : "");
	c->nkinds++;
	/* Per-CPU instance indices follow their kinds. */
	if (c->of) {
		int *of = malloc((size_t)c->ncpus * (size_t)c->nkinds * sizeof(int));

		if (of == NULL)
			return -1;
		for (j = 0; j < c->ncpus; j++) {
			int k, o = 0;

			for (k = 0; k < c->nkinds; k++)
				of[j * c->nkinds + k] = k == i ? -1 :
					c->of[j * (c->nkinds - 1) + o++];
		}
		free(c->of);
		c->of = of;
	}
	return i;
}

static int
parse_type(const char *s, enum cache_type *type)
{
	if (strcmp(s, "Data") == 0)
		*type = CACHE_DATA;
	else if (strcmp(s, "Instruction") == 0)
		*type = CACHE_INSTRUCTION;
	else if (strcmp(s, "Unified") == 0)
		*type = CACHE_UNIFIED;
	else
		return -EINVAL;
	return 0;
}

/*
 * Read index idx of cpu: its kind into *kind (-1: the index does not
 * exist; -2: a kind lscpu does not show), and, when cpu is in no
 * instance of it yet, the instance.
 */
static int
read_index(struct reader *rd, struct topo_caches *c, const struct topo *t,
	   int cpu, int idx, int *kind, int *inst)
{
	struct cache_kind *k;
	struct cache_instance *in;
	enum cache_type type;
	int64_t level, v;
	char *text;
	int r, ki, i;

	*kind = -1;
	*inst = -1;
	r = read_num(rd, cpu, idx, "level", 16, &level);
	if (r < 0)
		return r;
	if (level < 0)
		return 0;
	r = read_text(rd, index_path(rd, cpu, idx, "type"), &text);
	*kind = -2;
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	if (parse_type(text, &type) < 0)
		return 0;	/* "Trace" and the like: not a cache lscpu shows */
	ki = kind_find_add(c, (int)level, type);
	if (ki < 0)
		return -ENOMEM;
	*kind = ki;
	if (c->of[cpu * c->nkinds + ki] >= 0)
		return 0;
	k = &c->kinds[ki];
	in = realloc(k->inst, ((size_t)k->ninst + 1) * sizeof(*in));
	if (in == NULL)
		return -ENOMEM;
	k->inst = in;
	in = &k->inst[k->ninst++];
	cpuset_init(&in->cpus);
	in->id = -1;
	in->size = -1;
	/*
	 * The mask first, as lscpu and hwloc read it: the kernel writes
	 * both from one mask, and where a hand-edited tree has them differ,
	 * the oracles agree with the mask.
	 */
	r = read_text(rd, index_path(rd, cpu, idx, "shared_cpu_map"), &text);
	if (r == 0 && cpuset_parse_mask(text, &in->cpus) < 0)
		return err_ret(rd->err, rd->errlen, -EINVAL, "malformed %s",
			       rd->path);
	if (r == -ENOENT) {
		char perr[128];

		r = read_text(rd, index_path(rd, cpu, idx, "shared_cpu_list"), &text);
		if (r == 0)
			r = cpuset_parse_list(text, &in->cpus, perr, sizeof(perr));
		if (r == -EINVAL)
			return err_ret(rd->err, rd->errlen, r, "malformed %s: %s",
				       rd->path, perr);
		if (r == -ENOENT)
			r = 0;
	}
	if (r < 0)
		return r;
	cpuset_and(&in->cpus, &t->possible);
	if (cpuset_set(&in->cpus, (unsigned int)cpu) < 0)
		return -ENOMEM;
	if ((r = read_num(rd, cpu, idx, "id", 1 << 30, &v)) < 0)
		return r;
	in->id = (int)v;
	*inst = k->ninst - 1;
	/* One cache seen from CPUs that list only themselves (offline
	 * ones do): the same id is the same instance, as for lscpu. */
	for (i = 0; in->id >= 0 && i < k->ninst - 1; i++)
		if (k->inst[i].id == in->id) {
			r = cpuset_or(&k->inst[i].cpus, &in->cpus);
			cpuset_free(&in->cpus);
			k->ninst--;
			*inst = i;
			return r < 0 ? -ENOMEM : 0;
		}
	r = read_text(rd, index_path(rd, cpu, idx, "size"), &text);
	if (r == 0) {
		if (parse_size(text, &in->size) < 0)
			return err_ret(rd->err, rd->errlen, -EINVAL,
				       "malformed %s", rd->path);
	} else if (r != -ENOENT) {
		return r;
	}
	/* The geometry of a kind is its first instance's, as in lscpu:
	 * on a hybrid machine the lowest CPU's. */
	if (k->ninst > 1)
		return 0;
	k->size = in->size;
	if ((r = read_num(rd, cpu, idx, "ways_of_associativity", 1 << 20, &v)) < 0)
		return r;
	k->ways = (int)v;
	if ((r = read_num(rd, cpu, idx, "coherency_line_size", 1 << 20, &v)) < 0)
		return r;
	k->line_size = (int)v;
	if ((r = read_num(rd, cpu, idx, "number_of_sets", 1 << 30, &v)) < 0)
		return r;
	k->sets = (int)v;
	if ((r = read_num(rd, cpu, idx, "physical_line_partition", 1 << 20, &v)) < 0)
		return r;
	k->phys_line = (int)v;
	return 0;
}

static int
inst_cmp(const void *a, const void *b)
{
	return cpuset_first(&((const struct cache_instance *)a)->cpus) -
	       cpuset_first(&((const struct cache_instance *)b)->cpus);
}

/* Sort each kind's instances, name them, and map every CPU to them. */
static int
finish(struct topo_caches *c)
{
	int ki, i, j, cpu;

	for (ki = 0; ki < c->nkinds; ki++) {
		struct cache_kind *k = &c->kinds[ki];
		bool unique = true;

		if (k->ninst > 1)
			qsort(k->inst, (size_t)k->ninst, sizeof(*k->inst), inst_cmp);
		for (i = 0; i < k->ninst && unique; i++) {
			if (k->inst[i].id < 0)
				unique = false;
			for (j = 0; j < i && unique; j++)
				if (k->inst[j].id == k->inst[i].id)
					unique = false;
		}
		for (i = 0; i < k->ninst; i++) {
			if (!unique)
				k->inst[i].id = cpuset_first(&k->inst[i].cpus);
			cpuset_for_each(cpu, &k->inst[i].cpus)
				if (cpu < c->ncpus)
					c->of[cpu * c->nkinds + ki] = i;
		}
	}
	return 0;
}

int
cache_load(struct topo_caches *c, const struct sysroot *root,
	   const struct topo *t, char *err, size_t errlen)
{
	struct reader *rd;
	int *kind_of_index;	/* [MAX_INDEX] the kind index K had */
	int cpu, idx, i, nkinds, covered, nindex = 0, r = 0;

	memset(c, 0, sizeof(*c));
	c->ncpus = t->ncpus;
	rd = calloc(1, sizeof(*rd));
	kind_of_index = malloc(MAX_INDEX * sizeof(int));
	c->of = malloc(((size_t)t->ncpus + 1) * sizeof(int));
	if (rd == NULL || kind_of_index == NULL || c->of == NULL) {
		r = -ENOMEM;
		goto out;
	}
	rd->root = root;
	rd->err = err;
	rd->errlen = errlen;
	for (i = 0; i < MAX_INDEX; i++)
		kind_of_index[i] = -2;	/* not seen */
	/* Offline CPUs keep their cache directories on some kernels, and
	 * lscpu counts their caches: so does cpm. */
	cpuset_for_each(cpu, &t->possible) {
		if (cpu >= t->ncpus)
			break;
		covered = 0;
		for (idx = 0; idx < MAX_INDEX; idx++) {
			int ki = kind_of_index[idx], s, in;
			struct cache_kind *k;

			/* Known kind, and this CPU already in an instance. */
			if (ki >= 0 && c->of[cpu * c->nkinds + ki] >= 0) {
				covered++;
				continue;
			}
			/*
			 * A CPU that shares each of its caches with CPUs
			 * read before has their list of indices: the one
			 * past it is not looked for.
			 */
			if (ki == -2 && nindex > 0 && covered == idx &&
			    idx == nindex)
				break;
			/* An index no CPU had before ends this CPU's list
			 * only when it is missing here too. */
			nkinds = c->nkinds;
			r = read_index(rd, c, t, cpu, idx, &ki, &in);
			if (r < 0)
				goto out;
			if (ki == -1)
				break;		/* no indexK: the last was K-1 */
			if (ki < 0)
				continue;
			/* A new kind moved those after it up by one. */
			if (c->nkinds != nkinds)
				for (i = 0; i < MAX_INDEX; i++)
					if (kind_of_index[i] >= ki)
						kind_of_index[i]++;
			kind_of_index[idx] = ki;
			if (idx >= nindex)
				nindex = idx + 1;
			if (in < 0)
				continue;
			k = &c->kinds[ki];
			cpuset_for_each(s, &k->inst[in].cpus)
				if (s < c->ncpus && c->of[s * c->nkinds + ki] < 0)
					c->of[s * c->nkinds + ki] = in;
		}
	}
	r = finish(c);
out:
	free(rd);
	free(kind_of_index);
	if (r == -ENOMEM && err && errlen)
		snprintf(err, errlen, "out of memory");
	if (r < 0)
		cache_free(c);
	return r;
}

void
cache_free(struct topo_caches *c)
{
	int k, i;

	for (k = 0; k < c->nkinds; k++) {
		for (i = 0; i < c->kinds[k].ninst; i++)
			cpuset_free(&c->kinds[k].inst[i].cpus);
		free(c->kinds[k].inst);
	}
	free(c->kinds);
	free(c->of);
	memset(c, 0, sizeof(*c));
}

const struct cache_kind *
cache_kind_by_name(const struct topo_caches *c, const char *name)
{
	int k;

	for (k = 0; k < c->nkinds; k++)
		if (strcasecmp(c->kinds[k].name, name) == 0)
			return &c->kinds[k];
	return NULL;
}

int
cache_id_of(const struct topo_caches *c, int k, int cpu)
{
	int i;

	if (cpu < 0 || cpu >= c->ncpus || k < 0 || k >= c->nkinds)
		return -1;
	i = c->of[cpu * c->nkinds + k];
	return i < 0 ? -1 : c->kinds[k].inst[i].id;
}

const char *
cache_type_name(enum cache_type type)
{
	return type == CACHE_DATA ? "Data" :
	       type == CACHE_INSTRUCTION ? "Instruction" : "Unified";
}

/* The sizes of all instances of k, -1 when one is unknown. */
static int64_t
kind_all_size(const struct cache_kind *k)
{
	int64_t sum = 0;
	int i;

	for (i = 0; i < k->ninst; i++) {
		if (k->inst[i].size < 0)
			return -1;
		sum += k->inst[i].size;
	}
	return sum;
}

/* The most CPUs one instance of k serves. */
static unsigned int
kind_sharing(const struct cache_kind *k)
{
	unsigned int n, most = 0;
	int i;

	for (i = 0; i < k->ninst; i++)
		if ((n = cpuset_count(&k->inst[i].cpus)) > most)
			most = n;
	return most;
}

/*
 * bytes as lscpu prints a size: the largest binary unit it reaches, with
 * one decimal when not whole ("48K", "1.5M", "512B").
 */
static void
human_size(int64_t bytes, char *buf, size_t size)
{
	static const char units[] = "BKMGTPE";
	uint64_t v = (uint64_t)bytes, dec, frac;
	int exp = 0;

	while (exp < 60 && v >= (1ULL << (exp + 10)))
		exp += 10;
	dec = exp ? v >> exp : v;
	frac = exp ? v & ((1ULL << exp) - 1) : 0;
	if (frac) {
		frac = (frac / (1ULL << (exp - 10)) + 50) / 100;
		if (frac >= 10) {
			dec++;
			frac = 0;
		}
	}
	if (frac)
		snprintf(buf, size, "%llu.%llu%c", (unsigned long long)dec,
			 (unsigned long long)frac, units[exp / 10]);
	else
		snprintf(buf, size, "%llu%c", (unsigned long long)dec,
			 units[exp / 10]);
}

enum { K_NAME, K_ONE, K_ALL, K_WAYS, K_TYPE, K_LEVEL, K_SETS, K_PHY,
       K_COHERENCY, K_INSTANCES, K_SHARED, K_NCOLS };

static const struct table_column cache_columns[] = {
	[K_NAME] = { "NAME", "name", 0, 0 },
	[K_ONE] = { "ONE-SIZE", "one_size", TABLE_RIGHT, 0 },
	[K_ALL] = { "ALL-SIZE", "all_size", TABLE_RIGHT, 0 },
	[K_WAYS] = { "WAYS", "ways", TABLE_RIGHT, 0 },
	[K_TYPE] = { "TYPE", "type", 0, 0 },
	[K_LEVEL] = { "LEVEL", "level", TABLE_RIGHT, 0 },
	[K_SETS] = { "SETS", "sets", TABLE_RIGHT, 0 },
	[K_PHY] = { "PHY-LINE", "phy_line", TABLE_RIGHT, 0 },
	[K_COHERENCY] = { "COHERENCY-SIZE", "coherency_size", TABLE_RIGHT, 0 },
	[K_INSTANCES] = { "INSTANCES", "instances", TABLE_RIGHT, 0 },
	[K_SHARED] = { "SHARED", "shared", TABLE_RIGHT, 0 },
};

static void
set_size(struct table *tab, size_t row, size_t col, int64_t bytes)
{
	char text[32], json[32];

	if (bytes < 0) {
		table_set(tab, row, col, NULL, NULL);
		return;
	}
	human_size(bytes, text, sizeof(text));
	snprintf(json, sizeof(json), "%lld", (long long)bytes);
	table_set(tab, row, col, text, json);
}

int
cache_table(const struct topo_caches *c, struct table *tab)
{
	int k, r;

	table_init(tab, cache_columns, K_NCOLS, " ");
	for (k = 0; k < c->nkinds; k++) {
		const struct cache_kind *ck = &c->kinds[k];
		size_t row;

		if ((r = table_add_row(tab)) < 0) {
			table_free(tab);
			return r;
		}
		row = (size_t)r;
		table_set_str(tab, row, K_NAME, ck->name);
		set_size(tab, row, K_ONE, ck->size);
		set_size(tab, row, K_ALL, kind_all_size(ck));
		table_set_id(tab, row, K_WAYS, ck->ways);
		table_set_str(tab, row, K_TYPE, cache_type_name(ck->type));
		table_set_int(tab, row, K_LEVEL, ck->level);
		table_set_id(tab, row, K_SETS, ck->sets);
		table_set_id(tab, row, K_PHY, ck->phys_line);
		table_set_id(tab, row, K_COHERENCY, ck->line_size);
		table_set_int(tab, row, K_INSTANCES, ck->ninst);
		table_set_uint(tab, row, K_SHARED, kind_sharing(ck));
	}
	if (tab->oom) {
		table_free(tab);
		return -ENOMEM;
	}
	return 0;
}

void
cache_json(const struct topo_caches *c, struct json *j)
{
	int k, i;

	json_key(j, "caches");
	json_arr_begin(j);
	for (k = 0; k < c->nkinds; k++) {
		const struct cache_kind *ck = &c->kinds[k];
		struct { const char *key; int64_t v; } nums[] = {
			{ "level", ck->level },
			{ "size", ck->size },
			{ "all_size", kind_all_size(ck) },
			{ "ways", ck->ways },
			{ "sets", ck->sets },
			{ "phy_line", ck->phys_line },
			{ "coherency_size", ck->line_size },
			{ "shared", kind_sharing(ck) },
		};
		size_t n;

		json_obj_begin(j);
		json_key(j, "name");
		json_str(j, ck->name);
		json_key(j, "type");
		json_str(j, cache_type_name(ck->type));
		for (n = 0; n < sizeof(nums) / sizeof(nums[0]); n++) {
			json_key(j, nums[n].key);
			if (nums[n].v < 0)
				json_null(j);
			else
				json_int(j, nums[n].v);
		}
		json_key(j, "instances");
		json_arr_begin(j);
		for (i = 0; i < ck->ninst; i++) {
			json_obj_begin(j);
			json_key(j, "id");
			json_int(j, ck->inst[i].id);
			json_key(j, "cpus");
			json_cpulist(j, &ck->inst[i].cpus);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void
cache_cpu_cells(const struct topo_caches *c, const struct topo *t,
		struct table *tab)
{
	static const char *const names[] = { "L1d", "L1i", "L2" };
	int cols[3], all = table_column(tab, "CACHE"), kinds[3], cpu, i, k;
	size_t row = 0;
	struct strbuf sb;

	for (i = 0; i < 3; i++) {
		const struct cache_kind *ck = cache_kind_by_name(c, names[i]);

		cols[i] = table_column(tab, names[i]);
		kinds[i] = ck ? (int)(ck - c->kinds) : -1;
	}
	strbuf_init(&sb);
	cpuset_for_each(cpu, &t->possible) {
		for (i = 0; i < 3; i++)
			if (cols[i] >= 0)
				table_set_id(tab, row, (size_t)cols[i],
					     cache_id_of(c, kinds[i], cpu));
		if (all >= 0 && cache_id_of(c, 0, cpu) >= 0) {
			sb.len = 0;
			for (k = 0; k < c->nkinds; k++) {
				int id = cache_id_of(c, k, cpu);

				if (k)
					strbuf_add(&sb, ":", 1);
				if (id >= 0)
					strbuf_putint(&sb, id);
			}
			strbuf_add(&sb, "", 0);
			table_set_str(tab, row, (size_t)all, sb.oom ? NULL : sb.buf);
		}
		row++;
	}
	if (sb.oom)
		tab->oom = true;
	strbuf_free(&sb);
}

bool
cache_is_selector(const char *sel)
{
	return strncasecmp(sel, "l1d:", 4) == 0 ||
	       strncasecmp(sel, "l1i:", 4) == 0 ||
	       strncasecmp(sel, "l2:", 3) == 0;
}

int
cache_select(const struct topo_caches *c, const char *sel, struct cpuset *out,
	     char *err, size_t errlen)
{
	const char *colon = strchr(sel, ':');
	const struct cache_kind *ck;
	char name[8];
	unsigned int id;
	int i;

	cpuset_zero(out);
	if (colon == NULL || (size_t)(colon - sel) >= sizeof(name))
		return err_ret(err, errlen, -EINVAL, "invalid selector '%s'", sel);
	memcpy(name, sel, (size_t)(colon - sel));
	name[colon - sel] = '\0';
	if (parse_uint(colon + 1, 1u << 30, &id) < 0)
		return err_ret(err, errlen, -EINVAL, "invalid selector '%s': "
			       "expected %s:ID", sel, name);
	ck = cache_kind_by_name(c, name);
	for (i = 0; ck && i < ck->ninst; i++)
		if (ck->inst[i].id == (int)id)
			return cpuset_copy(out, &ck->inst[i].cpus) < 0 ? -ENOMEM : 0;
	return err_ret(err, errlen, -EINVAL, "invalid selector '%s': no %s "
		       "cache %u", sel, ck ? ck->name : name, id);
}
