// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Core types and capacities from sysfs and procfs below a sysroot.
 *
 * The types are the classes the kernel's scheduler tells apart: the
 * hybrid PMU devices name the CPUs of each Intel core type outright;
 * elsewhere capacities (else frequencies) are grouped with a 10%
 * tolerance, because Turbo Boost Max 3.0 gives some P-cores a higher
 * maximum frequency than their siblings and a Cortex-X925 cluster at 997
 * is one type with one at 1024.  Classes of equal capacity are one type.
 * ARM's MIDR part number is kept per CPU as an attribute, never a rank:
 * a Cortex-A715 and an A710 of one capacity are one type, as they are to
 * the scheduler and to hwloc.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/err.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "machine/coretype.h"

#define CPU_DIR "sys/devices/system/cpu"

/* Values within this fraction of a group's top belong to the group. */
#define TOLERANCE_PCT 10

static const char *const pmu_names[] = { "cpu_core", "cpu_atom",
					 "cpu_lowpower" };

struct loader {
	const struct sysroot *root;
	const struct topo *t;
	int n;			/* ncpus */
	int64_t *capacity;	/* kernel cpu_capacity, -1 unknown */
	int64_t *basefreq;	/* kHz, -1 unknown */
	int64_t *maxfreq;	/* kHz, -1 unknown */
	int *group;		/* grouping under construction, -1 none */
	int ngroups;
	int64_t *rank;		/* [ngroups] larger is faster */
	char buf[8192];
	char path[256];
};

static int
read_num(struct loader *ld, const char *path, int64_t *out)
{
	ssize_t n = sysroot_read(ld->root, path, ld->buf, sizeof(ld->buf));
	int64_t v;

	*out = -1;
	if (n < 0)
		return (int)n;
	if (parse_i64(strstrip(ld->buf), 0, INT64_MAX / 1024, &v) < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Per-CPU numbers from CPU_DIR/cpuN/file, for every possible CPU. */
static void
read_per_cpu(struct loader *ld, const char *file, int64_t *out)
{
	static const char dir[] = CPU_DIR "/cpu";
	int cpu, first = cpuset_first(&ld->t->online);
	size_t flen = strlen(file);

	if (sizeof(dir) + 12 + flen > sizeof(ld->path))
		return;
	memcpy(ld->path, dir, sizeof(dir) - 1);
	cpuset_for_each(cpu, &ld->t->possible) {
		/* The path by hand: one file per CPU, thousands of CPUs. */
		char *p = ld->path + sizeof(dir) - 1;

		p += fmt_int(p, cpu);
		*p++ = '/';
		memcpy(p, file, flen + 1);
		if (read_num(ld, ld->path, &out[cpu]) == -ENOENT && cpu == first)
			return;	/* the kernel has no such file here */
	}
}

static int
cmp_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * Group CPUs by value with the tolerance: sorted from the highest, a value
 * starts a new group when it is below the current group's top by more
 * than TOLERANCE_PCT.  Returns the number of groups (0 when no value is
 * known), -ENOMEM.
 */
static int
group_by_value(struct loader *ld, const int64_t *val)
{
	int64_t *sorted = malloc(sizeof(*sorted) * (size_t)(ld->n + 1));
	int64_t *tops;
	int i, m = 0, g = 0;

	if (sorted == NULL)
		return -ENOMEM;
	for (i = 0; i < ld->n; i++)
		if (val[i] >= 0)
			sorted[m++] = val[i];
	if (m == 0) {
		free(sorted);
		return 0;
	}
	qsort(sorted, (size_t)m, sizeof(*sorted), cmp_desc);
	tops = malloc(sizeof(*tops) * (size_t)m);
	if (tops == NULL) {
		free(sorted);
		return -ENOMEM;
	}
	for (i = 0; i < m; i++)
		if (g == 0 || sorted[i] * 100 < tops[g - 1] * (100 - TOLERANCE_PCT))
			tops[g++] = sorted[i];
	for (i = 0; i < ld->n; i++) {
		int k;

		ld->group[i] = -1;
		if (val[i] < 0)
			continue;
		/* the first group whose lower bound val reaches */
		for (k = 0; k < g - 1; k++)
			if (val[i] * 100 >= tops[k] * (100 - TOLERANCE_PCT))
				break;
		ld->group[i] = k;
	}
	free(ld->rank);
	ld->rank = tops;
	ld->ngroups = g;
	free(sorted);
	return g;
}

/* Intel hybrid: one group per PMU device that lists CPUs. */
static int
group_by_pmu(struct loader *ld)
{
	struct cpuset s = CPUSET_INIT;
	size_t k;
	int cpu, g = 0;

	for (k = 0; k < sizeof(pmu_names) / sizeof(pmu_names[0]); k++) {
		char perr[64];

		snprintf(ld->path, sizeof(ld->path), "sys/devices/%s/cpus",
			 pmu_names[k]);
		if (sysroot_read(ld->root, ld->path, ld->buf, sizeof(ld->buf)) < 0)
			continue;
		if (cpuset_parse_list(strstrip(ld->buf), &s, perr, sizeof(perr)) < 0 ||
		    cpuset_empty(&s))
			continue;
		cpuset_for_each(cpu, &s)
			if (cpu < ld->n && ld->group[cpu] < 0)
				ld->group[cpu] = g;
		ld->rank[g] = (int64_t)(sizeof(pmu_names) / sizeof(pmu_names[0]) - k);
		g++;
	}
	cpuset_free(&s);
	ld->ngroups = g;
	return g;
}

/*
 * ARM: the MIDR implementer and part number of every CPU, from
 * /proc/cpuinfo, into ct->part (allocated here; left NULL on a machine
 * whose cpuinfo names no part).  The part is an attribute of a CPU, not
 * its type: the scheduler knows capacities, and two parts of one
 * capacity (a Cortex-A715 and an A710 at 855) are one class to it.
 * Returns 0 or -ENOMEM.
 */
static int
read_parts(struct loader *ld, struct coretypes *ct)
{
	char head[4096], *text, *line, *next, *end;
	unsigned int impl = 0;
	int cpu = -1, i;
	bool whole;
	ssize_t n;
	int r;

	/*
	 * An ARM kernel gives every CPU's record a "CPU part" line, within
	 * its first few hundred bytes; x86 gives none.  The first record
	 * tells which this is, and a machine of thousands of x86 CPUs is
	 * spared the reading (and its kernel the writing) of megabytes of
	 * flags.  Only a first record longer than the head leaves it open.
	 */
	n = sysroot_read_head(ld->root, "proc/cpuinfo", head, sizeof(head),
			      &whole);
	if (n < 0)
		return 0;
	end = strstr(head, "\n\n");
	if ((end != NULL || whole) &&
	    memmem(head, end ? (size_t)(end - head) : (size_t)n, "CPU part",
		   8) == NULL)
		return 0;	/* not an ARM machine */
	/* A file that fit in the head is not read again. */
	if (whole) {
		text = head;
	} else {
		r = sysroot_read_file(ld->root, "proc/cpuinfo", &text, NULL);
		if (r < 0)
			return r == -ENOMEM ? r : 0;
	}
	if (strstr(text, "CPU part") == NULL) {
		if (text != head)
			free(text);
		return 0;
	}
	ct->part = malloc(sizeof(int) * (size_t)(ld->n + 1));
	if (ct->part == NULL) {
		if (text != head)
			free(text);
		return -ENOMEM;
	}
	for (i = 0; i < ld->n; i++)
		ct->part[i] = -1;
	/* Only "processor", "CPU implementer" and "CPU part" lines matter:
	 * the others (some twenty per CPU, thousands of CPUs) are passed
	 * over at their first character. */
	for (line = text; *line; line = next) {
		char *colon, *k = line;
		unsigned int v;
		long long part;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		while (*k == ' ' || *k == '\t')
			k++;
		if (*k != 'p' && *k != 'C')
			continue;
		colon = strchr(line, ':');
		if (colon == NULL)
			continue;
		*colon = '\0';
		strstrip(line);
		if (strcmp(line, "processor") == 0) {
			cpu = parse_uint(strstrip(colon + 1), CPUSET_MAX_CPUS - 1,
					 &v) < 0 ? -1 : (int)v;
			impl = 0;
			continue;
		}
		if (strcmp(line, "CPU implementer") == 0) {
			impl = (unsigned int)strtoul(strstrip(colon + 1), NULL, 0) &
			       0xff;
			continue;
		}
		if (strcmp(line, "CPU part") != 0 || cpu < 0 || cpu >= ld->n)
			continue;
		part = strtoll(strstrip(colon + 1), NULL, 0);
		if (part < 0 || part > 0xfff)
			continue;
		ct->part[cpu] = (int)(impl << 12 | (unsigned int)part);
	}
	if (text != head)
		free(text);
	return 0;
}

/*
 * Two groups of one capacity are one class to the scheduler: the later
 * (by rank, slower or equal) joins the earlier.  Returns the number of
 * groups left.
 */
static int
merge_equal(struct loader *ld, const int *capacity)
{
	int64_t top[16];
	int map[16], g, h, k = 0, cpu;

	if (ld->ngroups > 16)
		return ld->ngroups;
	for (g = 0; g < ld->ngroups; g++)
		top[g] = -1;
	for (cpu = 0; cpu < ld->n; cpu++)
		if (ld->group[cpu] >= 0 && capacity[cpu] > top[ld->group[cpu]])
			top[ld->group[cpu]] = capacity[cpu];
	for (g = 0; g < ld->ngroups; g++) {
		map[g] = -1;
		for (h = 0; h < g && map[g] < 0; h++)
			if (top[g] >= 0 && top[h] == top[g])
				map[g] = map[h];
		if (map[g] < 0) {
			ld->rank[k] = ld->rank[g];
			map[g] = k++;
		} else if (ld->rank[g] > ld->rank[map[g]]) {
			ld->rank[map[g]] = ld->rank[g];
		}
	}
	for (cpu = 0; cpu < ld->n; cpu++)
		if (ld->group[cpu] >= 0)
			ld->group[cpu] = map[ld->group[cpu]];
	ld->ngroups = k;
	return k;
}

static const char *
type_name(int rank, int n, char *buf, size_t len)
{
	if (rank == n - 1)
		return "efficiency";
	if (n <= 3)
		return rank == 0 ? "performance" : "mid";
	if (rank == 0)
		return "prime";
	if (rank == 1)
		return "performance";
	if (n == 4)
		return "mid";
	snprintf(buf, len, "mid%d", rank - 1);
	return buf;
}

static void
reset_groups(struct loader *ld)
{
	int i;

	for (i = 0; i < ld->n; i++)
		ld->group[i] = -1;
	ld->ngroups = 0;
}

int
coretype_load(struct coretypes *ct, const struct sysroot *root,
	      const struct topo *t, char *err, size_t errlen)
{
	struct loader ld = { .root = root, .t = t, .n = t->ncpus };
	int64_t fastest = -1;
	int *order = NULL;
	int i, cpu, r = -ENOMEM;

	memset(ct, 0, sizeof(*ct));
	ct->ncpus = t->ncpus;
	ld.capacity = malloc(sizeof(int64_t) * (size_t)(ld.n + 1));
	ld.basefreq = malloc(sizeof(int64_t) * (size_t)(ld.n + 1));
	ld.maxfreq = malloc(sizeof(int64_t) * (size_t)(ld.n + 1));
	ld.group = malloc(sizeof(int) * (size_t)(ld.n + 1));
	ld.rank = malloc(sizeof(int64_t) * 16);
	ct->type = malloc(sizeof(int) * (size_t)(ld.n + 1));
	ct->capacity = malloc(sizeof(int) * (size_t)(ld.n + 1));
	if (!ld.capacity || !ld.basefreq || !ld.maxfreq || !ld.group ||
	    !ld.rank || !ct->type || !ct->capacity)
		goto out;
	for (i = 0; i < ld.n; i++) {
		ld.capacity[i] = ld.basefreq[i] = ld.maxfreq[i] = -1;
		ld.group[i] = ct->type[i] = ct->capacity[i] = -1;
	}
	read_per_cpu(&ld, "cpu_capacity", ld.capacity);
	for (i = 0; i < ld.n && ld.capacity[i] < 0; i++)
		;
	if (i == ld.n) {
		/* No capacity from the kernel: frequencies rank and scale. */
		read_per_cpu(&ld, "cpufreq/cpuinfo_max_freq", ld.maxfreq);
		read_per_cpu(&ld, "cpufreq/base_frequency", ld.basefreq);
		for (i = 0; i < ld.n; i++)
			if (ld.maxfreq[i] > fastest)
				fastest = ld.maxfreq[i];
	}
	for (i = 0; i < ld.n; i++) {
		if (ld.capacity[i] >= 0)
			ct->capacity[i] = ld.capacity[i] > 1 << 20 ? 1 << 20 :
					  (int)ld.capacity[i];
		else if (ld.maxfreq[i] > 0 && fastest > 0)
			ct->capacity[i] = (int)((ld.maxfreq[i] * 1024 + fastest / 2) /
						fastest);
	}

	if ((r = read_parts(&ld, ct)) < 0)
		goto out;
	if ((r = group_by_pmu(&ld)) > 0) {
		ct->source = "pmu";
	} else {
		reset_groups(&ld);
		if ((r = group_by_value(&ld, ld.capacity)) < 0)
			goto out;
		if (r > 0) {
			ct->source = "capacity";
		} else {
			const int64_t *f = ld.basefreq;

			cpuset_for_each(cpu, &t->online)
				if (ld.basefreq[cpu] < 0)
					f = ld.maxfreq;
			if ((r = group_by_value(&ld, f)) < 0)
				goto out;
			if (r > 0)
				ct->source = "cpufreq";
		}
	}
	merge_equal(&ld, ct->capacity);
	r = -ENOMEM;
	ct->ntypes = ld.ngroups;
	if (ct->ntypes == 0) {
		r = 0;
		goto out;
	}
	/* Order the groups fastest first. */
	order = malloc(sizeof(int) * (size_t)ct->ntypes);
	ct->types = calloc((size_t)ct->ntypes, sizeof(*ct->types));
	if (order == NULL || ct->types == NULL)
		goto out;
	for (i = 0; i < ct->ntypes; i++)
		order[i] = i;
	for (i = 1; i < ct->ntypes; i++) {
		int k, x = order[i];

		for (k = i; k > 0 && ld.rank[order[k - 1]] < ld.rank[x]; k--)
			order[k] = order[k - 1];
		order[k] = x;
	}
	for (i = 0; i < ct->ntypes; i++) {
		struct coretype *ty = &ct->types[i];
		char nb[16];

		snprintf(ty->name, sizeof(ty->name), "%s",
			 type_name(i, ct->ntypes, nb, sizeof(nb)));
		cpuset_init(&ty->cpus);
		ty->capacity = -1;
	}
	for (cpu = 0; cpu < ld.n; cpu++) {
		struct coretype *ty;

		if (ld.group[cpu] < 0 || !t->cpus[cpu].possible)
			continue;
		for (i = 0; order[i] != ld.group[cpu]; i++)
			;
		ct->type[cpu] = i;
		ty = &ct->types[i];
		if (cpuset_set(&ty->cpus, (unsigned int)cpu) < 0)
			goto out;
		if (ct->capacity[cpu] > ty->capacity)
			ty->capacity = ct->capacity[cpu];
		if (t->cpus[cpu].online &&
		    (t->cpus[cpu].core == cpu || t->cpus[cpu].core < 0))
			ty->cores++;
	}
	r = 0;
out:
	if (r == -ENOMEM) {
		err_set(err, errlen, "out of memory");
		coretype_free(ct);
	}
	free(order);
	free(ld.capacity);
	free(ld.basefreq);
	free(ld.maxfreq);
	free(ld.group);
	free(ld.rank);
	return r;
}

void
coretype_free(struct coretypes *ct)
{
	int i;

	for (i = 0; ct->types && i < ct->ntypes; i++)
		cpuset_free(&ct->types[i].cpus);
	free(ct->types);
	free(ct->type);
	free(ct->capacity);
	free(ct->part);
	memset(ct, 0, sizeof(*ct));
}

/* The canonical name an alias stands for, or name itself. */
static const char *
unalias(const char *name)
{
	if (strcasecmp(name, "big") == 0 || strcasecmp(name, "p") == 0)
		return "performance";
	if (strcasecmp(name, "little") == 0 || strcasecmp(name, "e") == 0)
		return "efficiency";
	return name;
}

int
coretype_find(const struct coretypes *ct, const char *name)
{
	int i;

	if (ct->ntypes < 2)
		return -1;
	name = unalias(name);
	for (i = 0; i < ct->ntypes; i++)
		if (strcasecmp(ct->types[i].name, name) == 0)
			return i;
	return -1;
}

void
coretype_list_names(const struct coretypes *ct, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < ct->ntypes && used < len; i++) {
		const char *sep = i == 0 ? "" : i == ct->ntypes - 1 ? " or " : ", ";
		int w = snprintf(buf + used, len - used, "%s%s", sep,
				 ct->types[i].name);

		if (w < 0)
			break;
		used += (size_t)w;
	}
}

/* "A-B", "A-", "-B" or "N" into lo..hi. */
static int
parse_range(const char *s, unsigned int *lo, unsigned int *hi)
{
	const char *dash = strchr(s, '-');
	char a[32];
	size_t al;

	*lo = 0;
	*hi = 1u << 30;
	if (dash == NULL)
		return parse_uint(s, 1u << 30, lo) < 0 ? -EINVAL :
		       (*hi = *lo, 0);
	al = (size_t)(dash - s);
	if (al >= sizeof(a) || (al == 0 && dash[1] == '\0'))
		return -EINVAL;
	memcpy(a, s, al);
	a[al] = '\0';
	if (al && parse_uint(a, 1u << 30, lo) < 0)
		return -EINVAL;
	if (dash[1] && parse_uint(dash + 1, 1u << 30, hi) < 0)
		return -EINVAL;
	return *lo <= *hi ? 0 : -EINVAL;
}

/* ARM Ltd's (implementer 0x41) parts, named as lscpu names them. */
static const struct {
	unsigned short part;
	const char *name;
} arm_parts[] = {
	{ 0xd03, "Cortex-A53" }, { 0xd04, "Cortex-A35" },
	{ 0xd05, "Cortex-A55" }, { 0xd07, "Cortex-A57" },
	{ 0xd08, "Cortex-A72" }, { 0xd09, "Cortex-A73" },
	{ 0xd0a, "Cortex-A75" }, { 0xd0b, "Cortex-A76" },
	{ 0xd0c, "Neoverse-N1" }, { 0xd0d, "Cortex-A77" },
	{ 0xd40, "Neoverse-V1" }, { 0xd41, "Cortex-A78" },
	{ 0xd44, "Cortex-X1" }, { 0xd46, "Cortex-A510" },
	{ 0xd47, "Cortex-A710" }, { 0xd48, "Cortex-X2" },
	{ 0xd49, "Neoverse-N2" }, { 0xd4a, "Neoverse-E1" },
	{ 0xd4b, "Cortex-A78C" }, { 0xd4d, "Cortex-A715" },
	{ 0xd4e, "Cortex-X3" }, { 0xd4f, "Neoverse-V2" },
	{ 0xd80, "Cortex-A520" }, { 0xd81, "Cortex-A720" },
	{ 0xd82, "Cortex-X4" }, { 0xd84, "Neoverse-V3" },
	{ 0xd85, "Cortex-X925" }, { 0xd87, "Cortex-A725" },
	{ 0xd8e, "Neoverse-N3" },
};

const char *
coretype_part_name(int part)
{
	size_t i;

	if (part < 0 || part >> 12 != 0x41)
		return NULL;
	for (i = 0; i < sizeof(arm_parts) / sizeof(arm_parts[0]); i++)
		if (arm_parts[i].part == (part & 0xfff))
			return arm_parts[i].name;
	return NULL;
}

/* "part:0xd47", "part:cortex-a710" or "part:a710" into the CPUs. */
static int
select_part(const struct coretypes *ct, const struct topo *t,
	    const char *sel, struct cpuset *out, char *err, size_t errlen)
{
	const char *arg = sel + 5;
	int want = -1, cpu;
	bool byname = false, known = false;

	if (*arg == '\0') {
		err_set(err, errlen, "invalid selector '%s': name a CPU part "
			"(part:0xNNN or its name)", sel);
		return -EINVAL;
	}
	if (strncasecmp(arg, "0x", 2) == 0) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(arg + 2, &end, 16);
		if (errno || *end || end == arg + 2 || v > 0xfff) {
			err_set(err, errlen, "invalid selector '%s': use "
				"part:0xNNN or a part's name", sel);
			return -EINVAL;
		}
		want = (int)v;
	} else {
		size_t i;

		/* Its full name or, for a Cortex part, without "Cortex-". */
		for (i = 0; i < sizeof(arm_parts) / sizeof(arm_parts[0]); i++) {
			const char *n = arm_parts[i].name;

			if (strcasecmp(n, arg) == 0 ||
			    (strncmp(n, "Cortex-", 7) == 0 &&
			     strcasecmp(n + 7, arg) == 0))
				break;
		}
		if (i == sizeof(arm_parts) / sizeof(arm_parts[0])) {
			err_set(err, errlen, "invalid selector '%s': no CPU part "
				"called '%s'", sel, arg);
			return -EINVAL;
		}
		want = 0x41 << 12 | arm_parts[i].part;
		byname = true;
	}
	if (ct->part == NULL) {
		err_set(err, errlen, "invalid selector '%s': /proc/cpuinfo "
			"names no CPU part here", sel);
		return -EINVAL;
	}
	cpuset_for_each(cpu, &t->possible) {
		int p = cpu < ct->ncpus ? ct->part[cpu] : -1;

		if (p < 0 || (byname ? p != want : (p & 0xfff) != want))
			continue;
		known = true;
		if (cpuset_isset(&t->online, (unsigned int)cpu) &&
		    cpuset_set(out, (unsigned int)cpu) < 0)
			return -ENOMEM;
	}
	if (!known) {
		err_set(err, errlen, "invalid selector '%s': no CPU of that "
			"part here", sel);
		return -EINVAL;
	}
	return 0;
}

int
coretype_select(const struct coretypes *ct, const struct topo *t,
		const char *sel, struct cpuset *out, char *err, size_t errlen)
{
	int cpu;

	cpuset_zero(out);
	if (strncmp(sel, "type:", 5) == 0) {
		const char *name = sel + 5;
		char names[160];
		int k;

		if (*name == '\0') {
			err_set(err, errlen, "invalid selector '%s': name a core type",
				sel);
			return -EINVAL;
		}
		if (!coretype_hybrid(ct)) {
			const char *canon = unalias(name);

			if (strcasecmp(canon, "performance") != 0 &&
			    strcasecmp(canon, "efficiency") != 0) {
				err_set(err, errlen,
					"invalid selector '%s': this machine has one core type",
					sel);
				return -EINVAL;
			}
			return cpuset_copy(out, &t->online) < 0 ? -ENOMEM : 0;
		}
		k = coretype_find(ct, name);
		if (k < 0) {
			coretype_list_names(ct, names, sizeof(names));
			err_set(err, errlen,
				"invalid selector '%s': no core type '%s' (%s)",
				sel, name, names);
			return -EINVAL;
		}
		if (cpuset_copy(out, &ct->types[k].cpus) < 0)
			return -ENOMEM;
		cpuset_and(out, &t->online);
		return 0;
	}
	if (strncmp(sel, "part:", 5) == 0)
		return select_part(ct, t, sel, out, err, errlen);
	if (strncmp(sel, "capacity:", 9) == 0) {
		unsigned int lo, hi;
		bool known = false;

		if (parse_range(sel + 9, &lo, &hi) < 0) {
			err_set(err, errlen,
				"invalid selector '%s': use capacity:MIN-MAX", sel);
			return -EINVAL;
		}
		cpuset_for_each(cpu, &t->online) {
			int c = cpu < ct->ncpus ? ct->capacity[cpu] : -1;

			if (c < 0)
				continue;
			known = true;
			if ((unsigned int)c >= lo && (unsigned int)c <= hi &&
			    cpuset_set(out, (unsigned int)cpu) < 0)
				return -ENOMEM;
		}
		if (!known) {
			err_set(err, errlen,
				"invalid selector '%s': the kernel tells no CPU capacity here",
				sel);
			return -EINVAL;
		}
		return 0;
	}
	return -ENOENT;
}

int
coretype_types_of(const struct coretypes *ct, const struct cpuset *s,
		  struct cpuset *types)
{
	int k;

	/* A CPU is of type k when it is one of types[k].cpus (ct->type[] may
	 * be absent). */
	cpuset_zero(types);
	for (k = 0; k < ct->ntypes; k++)
		if (cpuset_intersects(s, &ct->types[k].cpus) &&
		    cpuset_set(types, (unsigned int)k) < 0)
			return -ENOMEM;
	return 0;
}

int
coretype_check(const struct coretypes *ct, const struct topo *t,
	       const struct cpuset *cpus, struct strbuf *out)
{
	struct cpuset types = CPUSET_INIT, part = CPUSET_INIT;
	unsigned int n = cpuset_count(cpus);
	int k, holder = -1, r = 0;

	if (!coretype_hybrid(ct))
		return 0;
	if (coretype_types_of(ct, cpus, &types) < 0)
		return -ENOMEM;
	if (cpuset_count(&types) < 2)
		goto out;
	strbuf_puts(out, "warning: CPUs mix core types:");
	cpuset_for_each(k, &types) {
		if (cpuset_copy(&part, cpus) < 0) {
			r = -ENOMEM;
			goto out;
		}
		cpuset_and(&part, &ct->types[k].cpus);
		strbuf_printf(out, "%s %s ", k == cpuset_first(&types) ? "" : ",",
			      ct->types[k].name);
		cpuset_format(&part, out);
	}
	for (k = 0; k < ct->ntypes && holder < 0; k++)
		if (cpuset_count_and(&ct->types[k].cpus, &t->online) >= n)
			holder = k;
	if (holder >= 0)
		strbuf_printf(out, "; the %s cores alone would hold them",
			      ct->types[holder].name);
	strbuf_puts(out, "\n");
	r = out->oom ? -ENOMEM : 1;
out:
	cpuset_free(&types);
	cpuset_free(&part);
	return r;
}

int
coretype_arg(const struct coretypes *ct, const struct topo *t,
	     const char *name, char *err, size_t errlen)
{
	char names[160];
	int k;

	if (!coretype_hybrid(ct)) {
		struct cpuset s = CPUSET_INIT;
		char sel[96];
		int r;

		snprintf(sel, sizeof(sel), "type:%s", name);
		r = coretype_select(ct, t, sel, &s, err, errlen);
		cpuset_free(&s);
		if (r < 0) {
			snprintf(err, errlen, "invalid --core-type '%s': this "
				 "machine has one core type", name);
			return -EINVAL;
		}
		return -1;
	}
	k = coretype_find(ct, name);
	if (k < 0) {
		coretype_list_names(ct, names, sizeof(names));
		snprintf(err, errlen, "invalid --core-type '%s' (%s)", name,
			 names);
		return -EINVAL;
	}
	return k;
}
