// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The topology kept in a state: for real trees (tests/topologies, the VM
 * fixtures, offline CPUs, a machine without NUMA nodes), the layout read
 * back gives exactly what topo_load() reads; a change of what can change
 * (online CPUs, isolated CPUs, nodes, another tree) is noticed; memory
 * sizes are read live; the core types kept are what coretype_load()
 * finds; the kubelet's view made from the layout is the one made from a
 * full read; damaged layouts are refused, not trusted.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/state.h"
#include "alloc/statetopo.h"
#include "base/strbuf.h"
#include "kube/kubelet.h"
#include "machine/coretype.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-test-statetopo-XXXXXX";

static bool
same_set(const struct cpuset *a, const struct cpuset *b)
{
	return cpuset_equal(a, b);
}

/* Every field topo_load() without flags fills, compared. */
static bool
same_topo(const struct topo *a, const struct topo *b, char *why, size_t len)
{
	int i, k;

#define DIFF(...) do { snprintf(why, len, __VA_ARGS__); return false; } while (0)
	if (a->ncpus != b->ncpus)
		DIFF("ncpus %d %d", a->ncpus, b->ncpus);
	if (memcmp(a->cpus, b->cpus, (size_t)a->ncpus * sizeof(*a->cpus)))
		DIFF("per-CPU fields");
	if (!same_set(&a->possible, &b->possible) ||
	    !same_set(&a->present, &b->present) ||
	    !same_set(&a->online, &b->online) ||
	    !same_set(&a->offline, &b->offline) ||
	    !same_set(&a->isolated, &b->isolated) ||
	    !same_set(&a->allowed, &b->allowed) ||
	    a->allowed_known != b->allowed_known)
		DIFF("CPU lists");
	if (a->nnodes != b->nnodes)
		DIFF("nnodes %d %d", a->nnodes, b->nnodes);
	for (i = 0; i < a->nnodes; i++) {
		const struct topo_node *x = &a->nodes[i], *y = &b->nodes[i];

		if (x->id != y->id || !same_set(&x->cpus, &y->cpus) ||
		    x->mem_total_kb != y->mem_total_kb ||
		    x->mem_free_kb != y->mem_free_kb ||
		    !x->distance != !y->distance)
			DIFF("node %d", x->id);
		for (k = 0; x->distance && k < a->nnodes; k++)
			if (x->distance[k] != y->distance[k])
				DIFF("node %d distances", x->id);
	}
	if (a->nl3 != b->nl3)
		DIFF("nl3 %d %d", a->nl3, b->nl3);
	for (i = 0; i < a->nl3; i++)
		if (a->l3s[i].id != b->l3s[i].id ||
		    a->l3s[i].level != b->l3s[i].level ||
		    a->l3s[i].size_kb != b->l3s[i].size_kb ||
		    !same_set(&a->l3s[i].cpus, &b->l3s[i].cpus))
			DIFF("L3 %d", i);
	if (a->nsockets != b->nsockets)
		DIFF("nsockets %d %d", a->nsockets, b->nsockets);
	for (i = 0; i < a->nsockets; i++)
		if (a->sockets[i].id != b->sockets[i].id ||
		    !same_set(&a->sockets[i].cpus, &b->sockets[i].cpus))
			DIFF("socket %d", i);
	if (a->threads_per_core != b->threads_per_core ||
	    a->cpu_limit != b->cpu_limit ||
	    a->part_cpus_known != b->part_cpus_known ||
	    a->part_isolated_known != b->part_isolated_known)
		DIFF("scalars");
#undef DIFF
	return true;
}

/* Every field coretype_load() fills, compared. */
static bool
same_types(const struct coretypes *a, const struct coretypes *b, char *why,
	   size_t len)
{
	int i;

#define DIFF(...) do { snprintf(why, len, __VA_ARGS__); return false; } while (0)
	if (a->ncpus != b->ncpus || a->ntypes != b->ntypes)
		DIFF("ncpus or ntypes");
	if ((a->source || b->source) &&
	    (!a->source || !b->source || strcmp(a->source, b->source) != 0))
		DIFF("source");
	if (memcmp(a->type, b->type, (size_t)a->ncpus * sizeof(int)) ||
	    memcmp(a->capacity, b->capacity, (size_t)a->ncpus * sizeof(int)))
		DIFF("per-CPU types or capacities");
	for (i = 0; i < a->ntypes; i++)
		if (strcmp(a->types[i].name, b->types[i].name) != 0 ||
		    !cpuset_equal(&a->types[i].cpus, &b->types[i].cpus) ||
		    a->types[i].capacity != b->types[i].capacity ||
		    a->types[i].cores != b->types[i].cores)
			DIFF("type %d", i);
#undef DIFF
	return true;
}

/* Layout text of the tree at dir, and the tree's key. */
static int
layout_of(const char *dir, struct topo *t, struct strbuf *text, char **key)
{
	struct coretypes ct;
	struct sysroot root;
	char err[256];
	int r;

	if (sysroot_open(&root, dir) < 0)
		return -ENOENT;
	r = topo_load(t, &root, 0, err, sizeof(err));
	if (r == 0)
		r = statetopo_key(&root, key);
	if (r == 0)
		r = coretype_load(&ct, &root, t, err, sizeof(err));
	if (r == 0) {
		strbuf_init(text);
		statetopo_format(t, &ct, *key, text);
		coretype_free(&ct);
	}
	sysroot_close(&root);
	return r;
}

/*
 * Load dir through the layout text, memory sizes too; 0, 1 or -errno as
 * statetopo_load().  With kt, instead: the kubelet's view into kt, made
 * with no per-CPU topology expanded (as a take makes it), and t freed.
 */
static int
load_via_kt(const char *dir, const char *text, struct topo *t,
	    struct ktopo *kt)
{
	struct statetopo s;
	struct sysroot root;
	char err[256], *key;
	int r;

	r = statetopo_parse(text, &s, err, sizeof(err));
	if (r != 0) {
		printf("# parse: %d %s\n", r, err);
		return -EINVAL;
	}
	if (sysroot_open(&root, dir) < 0) {
		statetopo_free(&s);
		return -ENOENT;
	}
	r = statetopo_key(&root, &key);
	if (r == 0) {
		r = statetopo_load(t, &root, key, &s, !kt);
		if (r == 0 && kt) {
			r = t->cpus ? -EINVAL : statetopo_ktopo(&s, t, kt);
			topo_free(t);
		} else if (r == 0 && topo_load_meminfo(t, &root) < 0) {
			topo_free(t);
			r = -ENOMEM;
		}
		free(key);
	}
	sysroot_close(&root);
	statetopo_free(&s);
	return r;
}

static int
load_via(const char *dir, const char *text, struct topo *t)
{
	return load_via_kt(dir, text, t, NULL);
}

/* The kubelet's views a and b the same, or why not into why. */
static bool
same_ktopo(const struct ktopo *a, struct ktopo *b, char *why, size_t len)
{
	int c, k;

	/* b made from the runs may have left its per-CPU array. */
	if (ktopo_cpus(b) < 0) {
		snprintf(why, len, "out of memory");
		return false;
	}
	if (a->ncpus != b->ncpus || !cpuset_equal(&a->all, &b->all) ||
	    a->num_cpus != b->num_cpus || a->num_cores != b->num_cores ||
	    a->num_sockets != b->num_sockets || a->num_numa != b->num_numa ||
	    a->num_uncore != b->num_uncore) {
		snprintf(why, len, "CPUs or counts");
		return false;
	}
	for (c = 0; c < a->ncpus; c++)
		if (memcmp(&a->cpu[c], &b->cpu[c], sizeof(a->cpu[c])) != 0) {
			snprintf(why, len, "CPU %d: %d %d %d %d, not %d %d %d %d",
				 c, b->cpu[c].core, b->cpu[c].socket,
				 b->cpu[c].numa, b->cpu[c].uncore,
				 a->cpu[c].core, a->cpu[c].socket,
				 a->cpu[c].numa, a->cpu[c].uncore);
			return false;
		}
	for (k = 0; k < 4; k++)
		if (a->nids[k] != b->nids[k] || !a->ids[k] || !b->ids[k] ||
		    memcmp(a->ids[k], b->ids[k],
			   (size_t)a->nids[k] * sizeof(int)) != 0) {
			snprintf(why, len, "ids of attribute %d", k);
			return false;
		}
	return true;
}

/* The round trip on the tree at dir. */
static void
round_trip(const char *name, const char *dir)
{
	struct topo full, cached;
	struct strbuf text;
	char *key = NULL, why[128] = "", msg[256];
	int r;

	r = layout_of(dir, &full, &text, &key);
	snprintf(msg, sizeof(msg), "%s: the tree loads", name);
	CHECK(msg, r == 0);
	if (r != 0)
		return;
	r = load_via(dir, text.buf, &cached);
	snprintf(msg, sizeof(msg), "%s: the layout is used", name);
	CHECK(msg, r == 0);
	if (r == 0) {
		bool same = same_topo(&full, &cached, why, sizeof(why));
		struct coretypes want, got;
		struct statetopo s;
		struct sysroot root;
		char err[256];

		snprintf(msg, sizeof(msg), "%s: it gives what topo_load() "
			 "reads (%s)", name, why);
		CHECK(msg, same);
		why[0] = '\0';
		same = sysroot_open(&root, dir) == 0 &&
		       coretype_load(&want, &root, &full, err,
				     sizeof(err)) == 0;
		if (same) {
			same = statetopo_parse(text.buf, &s, err,
					       sizeof(err)) == 0 &&
			       statetopo_types(&got, &s, true) == 0;
			if (same) {
				struct coretypes bare;
				struct strbuf re;

				same = same_types(&want, &got, why,
						  sizeof(why));
				coretype_free(&got);
				/* Without the per-CPU arrays: the same
				 * types; a layout formatted with them
				 * leaves them out; expanded, the same. */
				if (same && statetopo_types(&bare, &s,
							    false) == 0) {
					strbuf_init(&re);
					statetopo_format(&full, &bare, "k",
							 &re);
					same = !bare.type && !bare.capacity &&
					       re.buf &&
					       !strstr(re.buf, " types=");
					if (!same)
						snprintf(why, sizeof(why),
							 "types without arrays");
					strbuf_free(&re);
					if (same &&
					    statetopo_types_expand(&bare, &s) == 0)
						same = same_types(&want, &bare,
								  why,
								  sizeof(why));
					coretype_free(&bare);
				}
				statetopo_free(&s);
			}
			coretype_free(&want);
			sysroot_close(&root);
		}
		snprintf(msg, sizeof(msg), "%s: the core types are what "
			 "coretype_load() finds (%s)", name, why);
		CHECK(msg, same);
		topo_free(&cached);
	}
	if (r == 0) {
		struct ktopo want, got;
		bool same = false;

		why[0] = '\0';
		if (ktopo_from_topo(&want, &full) == 0) {
			struct topo t;

			if (load_via_kt(dir, text.buf, &t, &got) == 0) {
				same = same_ktopo(&want, &got, why,
						  sizeof(why));
				ktopo_free(&got);
			} else {
				snprintf(why, sizeof(why), "not made");
			}
			ktopo_free(&want);
		}
		if (!same)
			printf("# %s\n", why);
		snprintf(msg, sizeof(msg), "%s: the kubelet's view from the "
			 "layout is the one from a full read", name);
		CHECK(msg, same);
	}
	strbuf_free(&text);
	free(key);
	topo_free(&full);
}

/* Generate the tree of a spec file (or spec text) into tmp/name. */
static void
gen(const char *name, const char *spec_path, const char *spec_text)
{
	char cmd[1400], spec[512];
	const char *top = getenv("CPM_TOP");

	if (spec_text) {
		FILE *f;

		snprintf(spec, sizeof(spec), "%s/%s.spec", tmp, name);
		f = fopen(spec, "w");
		if (!f || fputs(spec_text, f) < 0 || fclose(f) != 0)
			exit(1);
		spec_path = spec;
	}
	snprintf(cmd, sizeof(cmd), "python3 '%s/tests/gen-sysfs' '%s' "
		 "'%s/%s'", top ? top : ".", spec_path, tmp, name);
	if (system(cmd) != 0) {
		printf("not ok - gen-sysfs %s\n", name);
		exit(1);
	}
}

static void
write_file(const char *dir, const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		printf("# cannot write %s\n", path);
}

/* Changes of what can change: each makes the layout unusable. */
static void
changes(void)
{
	struct topo full, t;
	struct strbuf text;
	char dir[256], other[300], *key = NULL, cmd[700];
	int r;

	snprintf(dir, sizeof(dir), "%s/m16", tmp);
	if (layout_of(dir, &full, &text, &key) != 0) {
		CHECK("m16 loads", false);
		return;
	}
	/* Memory sizes are read live, not kept. */
	write_file(dir, "sys/devices/system/node/node1/meminfo",
		   "Node 1 MemTotal:       1234 kB\nNode 1 MemFree:    99 kB\n");
	r = load_via(dir, text.buf, &t);
	CHECK("a changed meminfo is read live", r == 0 &&
	      topo_node_by_id(&t, 1)->mem_total_kb == 1234 &&
	      topo_node_by_id(&t, 1)->mem_free_kb == 99 &&
	      topo_node_by_id(&t, 0)->mem_total_kb ==
	      topo_node_by_id(&full, 0)->mem_total_kb);
	if (r == 0)
		topo_free(&t);

	/* A copy of the tree elsewhere is another tree. */
	snprintf(other, sizeof(other), "%s/copy", tmp);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", dir, other);
	CHECK("copy the tree", system(cmd) == 0);
	CHECK("another sysroot does not use the layout",
	      load_via(other, text.buf, &t) == 1);

	write_file(dir, "sys/devices/system/cpu/online", "0-14\n");
	CHECK("a CPU gone offline: the layout is not used",
	      load_via(dir, text.buf, &t) == 1);
	write_file(dir, "sys/devices/system/cpu/online", "0-15\n");
	CHECK("back online: used again", load_via(dir, text.buf, &t) == 0);
	topo_free(&t);
	write_file(dir, "sys/devices/system/cpu/isolated", "3\n");
	CHECK("isolated CPUs changed: not used",
	      load_via(dir, text.buf, &t) == 1);
	write_file(dir, "sys/devices/system/cpu/isolated", "");
	CHECK("none isolated again: used", load_via(dir, text.buf, &t) == 0);
	topo_free(&t);
	/*
	 * A node that appears shows in node/online (the kernel sets it
	 * there as it makes the node's directory): one read tells.  A
	 * tree without that file has its node directories listed.
	 */
	write_file(dir, "sys/devices/system/node/online", "0-1,7\n");
	CHECK("a new NUMA node in node/online: not used",
	      load_via(dir, text.buf, &t) == 1);
	write_file(dir, "sys/devices/system/node/online", "0\n");
	CHECK("a NUMA node gone from node/online: not used",
	      load_via(dir, text.buf, &t) == 1);
	write_file(dir, "sys/devices/system/node/online", "0-1\n");
	CHECK("the nodes back in node/online: used",
	      load_via(dir, text.buf, &t) == 0);
	topo_free(&t);
	snprintf(cmd, sizeof(cmd), "cd '%s/sys/devices/system/node' && "
		 "mv online online.was && mkdir node7", dir);
	CHECK("node7 appears in a tree without node/online",
	      system(cmd) == 0);
	CHECK("a new NUMA node directory: not used",
	      load_via(dir, text.buf, &t) == 1);
	snprintf(cmd, sizeof(cmd), "rmdir '%s/sys/devices/system/node/node7'",
		 dir);
	CHECK("rmdir node7", system(cmd) == 0);
	CHECK("the node directories as they were: used",
	      load_via(dir, text.buf, &t) == 0);
	topo_free(&t);
	/* node/online padded with NULs, as hwloc saves trees: listed. */
	snprintf(cmd, sizeof(cmd), "printf '0-1\\n\\0\\0' >"
		 "'%s/sys/devices/system/node/online'", dir);
	CHECK("node/online padded with NULs", system(cmd) == 0);
	CHECK("the node directories listed instead: used",
	      load_via(dir, text.buf, &t) == 0);
	topo_free(&t);
	snprintf(cmd, sizeof(cmd), "mv '%s/sys/devices/system/node/online.was' "
		 "'%s/sys/devices/system/node/online'", dir, dir);
	CHECK("node/online back", system(cmd) == 0);
	/* A file added to or removed from the CPU directory changes the
	 * tree's key: the layout is not trusted. */
	write_file(dir, "sys/devices/system/cpu/extra", "");
	CHECK("a new file in the CPU directory: not used",
	      load_via(dir, text.buf, &t) == 1);
	write_file(dir, "sys/devices/system/cpu/present", "0-7\n");
	CHECK("present CPUs changed: not used",
	      load_via(dir, text.buf, &t) == 1);
	strbuf_free(&text);
	free(key);
	topo_free(&full);
}

/* Damaged layouts: refused (or, for another version, ignored), never
 * trusted, never a crash. */
static void
hostile(void)
{
	struct topo full;
	struct statetopo s;
	struct strbuf text;
	char dir[256], err[200], *key = NULL;
	size_t i;
	int r, accepted_bad = 0, wrong = 0;
	static const char *const bad[] = {
		"",
		"v=1",
		"v=x key=a",
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3 "
		"extra=1",
		/* core index beyond the CPUs */
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:9:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3",
		/* a thread chain going down (a loop) */
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=2 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:0:4 l3=-1:0:4 "
		"threads=2:0:4 next=1:-1:4 nodes=0@0-3@10 l3s= sockets=0@0-3",
		/* an L3 index without its group */
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=0:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3",
		/* too few values */
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:3 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3",
		/* node CPUs not online, distances short */
		"v=1 key=a possible=0-3 present=0-3 online=0-2 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3",
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-1@10/1@2-3@10 l3s= "
		"sockets=0@0-3",
		/* core types: a type index without its type, half a group,
		 * an unknown source, a name out of the charset */
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3 "
		"types=capacity/performance@1024@4 ctype=0:1:4 ccap=1024:0:4",
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3 "
		"types=- ctype=-1:0:4",
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3 "
		"types=magic ctype=-1:0:4 ccap=-1:0:4",
		"v=1 key=a possible=0-3 present=0-3 online=0-3 isolated= tpc=1 "
		"node=0:0:4 socket=0:0:4 die=0:0:4 core=0:1:4 l3=-1:0:4 "
		"threads=1:0:4 next=-1:0:4 nodes=0@0-3@10 l3s= sockets=0@0-3 "
		"types=pmu/Big%20One@1@1 ctype=0:0:4 ccap=-1:0:4",
	};

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r = statetopo_parse(bad[i], &s, err, sizeof(err));
		if (r == 0) {
			printf("# accepted: %s\n", bad[i]);
			accepted_bad++;
			statetopo_free(&s);
		} else if (r != -EINVAL || !err[0]) {
			wrong++;
		}
	}
	CHECK("damaged layouts are refused with a reason",
	      accepted_bad == 0 && wrong == 0);
	r = statetopo_parse("v=3 whatever other=x", &s, err, sizeof(err));
	CHECK("a layout of a later version is ignored, not refused",
	      r == 1 && s.key == NULL);

	/* Every truncation and flipped bit of a real layout. */
	snprintf(dir, sizeof(dir), "%s/2s4n-smt", tmp);
	if (layout_of(dir, &full, &text, &key) != 0)
		return;
	wrong = 0;
	for (i = 0; i < text.len; i++) {
		char *copy = strdup(text.buf);

		copy[i] ^= 0x04;
		r = statetopo_parse(copy, &s, err, sizeof(err));
		if (r == 0)
			statetopo_free(&s);
		else if (r != -EINVAL && r != 1)
			wrong++;
		copy[i] = '\0';
		r = statetopo_parse(copy, &s, err, sizeof(err));
		if (r == 0)
			statetopo_free(&s);
		else if (r != -EINVAL && r != 1)
			wrong++;
		free(copy);
	}
	CHECK("flipped bits and truncations never crash", wrong == 0);
	strbuf_free(&text);
	free(key);
	topo_free(&full);
}

/* Replace the first " NAME=VALUE" field of text (a copy, malloc'ed) by
 * with (NULL or "": the field is dropped). */
static char *
edit_field(const char *text, const char *name, const char *with)
{
	char pat[32], *out = malloc(strlen(text) + 64);
	const char *at, *end;

	snprintf(pat, sizeof(pat), " %s=", name);
	at = strstr(text, pat);
	if (!out || !at) {
		free(out);
		return strdup(text);
	}
	end = strchr(at + 1, ' ');
	if (!end)
		end = at + strlen(at);
	sprintf(out, "%.*s%s%s%s", (int)(at - text), text,
		with && *with ? " " : "", with ? with : "", end);
	return out;
}

/* The fingerprint kept in the layout: what topo_print_make() computes,
 * taken from the layout instead of computed; version 1 layouts, which
 * have none, are still used. */
static void
fingerprint(const char *dir)
{
	struct topo full, t;
	struct topo_print want, got;
	struct statetopo s;
	struct strbuf text;
	char err[256], *key = NULL, *v1, *tmp1, *bad;
	uint64_t h = FNV64_INIT;
	int cpu, cores = 0, n, r;

	if (layout_of(dir, &full, &text, &key) != 0) {
		CHECK("fingerprint: the tree loads", false);
		return;
	}
	/* The value every state holds: FNV-1a over id, node, socket, core
	 * of each online CPU, exactly as cpm-alloc has always hashed. */
	cpuset_for_each(cpu, &full.online) {
		const struct topo_cpu *c = &full.cpus[cpu];
		int32_t rec[4] = { cpu, c->node, c->socket, c->core };

		h = fnv1a64(h, rec, sizeof(rec));
		cores += c->core == cpu;
	}
	CHECK("fingerprint: the hash every state holds",
	      statetopo_print_hash(&full, &n) == h && n == cores);
	CHECK("fingerprint: topo_print_make() gives it",
	      topo_print_make(&want, &full) == 0 && want.hash == h &&
	      want.cores == cores);
	r = statetopo_parse(text.buf, &s, err, sizeof(err));
	CHECK("fingerprint: a version 2 layout keeps it",
	      r == 0 && strncmp(text.buf, "v=2 ", 4) == 0 && s.have_print &&
	      s.hash == h && s.cores == cores);
	if (r == 0) {
		CHECK("fingerprint: taken from the layout",
		      topo_print_make_layout(&got, &full, &s) == 0 &&
		      got.hash == h && got.cores == cores &&
		      got.sockets == want.sockets &&
		      got.threads == want.threads &&
		      cpuset_equal(&got.online, &want.online) &&
		      cpuset_equal(&got.possible, &want.possible) &&
		      cpuset_equal(&got.nodes, &want.nodes));
		topo_print_free(&got);
		/* Proof that it is taken, not computed: a kept value that
		 * is not the real one comes back. */
		s.hash = 42;
		s.cores = 7;
		CHECK("fingerprint: not hashed again",
		      topo_print_make_layout(&got, &full, &s) == 0 &&
		      got.hash == 42 && got.cores == 7);
		topo_print_free(&got);
		/* For other online CPUs it is computed. */
		cpuset_clear(&s.t.online, (unsigned int)cpuset_last(&s.t.online));
		CHECK("fingerprint: computed for other online CPUs",
		      topo_print_make_layout(&got, &full, &s) == 0 &&
		      got.hash == h && got.cores == cores);
		topo_print_free(&got);
		s.have_print = false;
		cpuset_copy(&s.t.online, &full.online);
		CHECK("fingerprint: computed when the layout has none",
		      topo_print_make_layout(&got, &full, &s) == 0 &&
		      got.hash == h);
		topo_print_free(&got);
		statetopo_free(&s);
	}
	topo_print_free(&want);

	/* The same layout as version 1 wrote it: used, without a print. */
	tmp1 = edit_field(text.buf, "hash", NULL);
	v1 = edit_field(tmp1, "cores", NULL);
	free(tmp1);
	v1[2] = '1';
	r = statetopo_parse(v1, &s, err, sizeof(err));
	CHECK("fingerprint: a version 1 layout is read, without one",
	      r == 0 && !s.have_print);
	if (r == 0)
		statetopo_free(&s);
	r = load_via(dir, v1, &t);
	CHECK("fingerprint: a version 1 layout is used", r == 0 &&
	      same_topo(&full, &t, err, sizeof(err)));
	if (r == 0)
		topo_free(&t);
	free(v1);

	/* Version 1 with a print, version 2 without or with a bad one. */
	bad = strdup(text.buf);
	bad[2] = '1';
	CHECK("fingerprint: version 1 has no hash",
	      statetopo_parse(bad, &s, err, sizeof(err)) == -EINVAL);
	free(bad);
	bad = edit_field(text.buf, "cores", NULL);
	CHECK("fingerprint: version 2 needs the core count",
	      statetopo_parse(bad, &s, err, sizeof(err)) == -EINVAL);
	free(bad);
	bad = edit_field(text.buf, "hash", NULL);
	CHECK("fingerprint: version 2 needs the hash",
	      statetopo_parse(bad, &s, err, sizeof(err)) == -EINVAL);
	free(bad);
	bad = edit_field(text.buf, "hash", "hash=0123456789abcdeg");
	CHECK("fingerprint: a hash not in hex is refused",
	      statetopo_parse(bad, &s, err, sizeof(err)) == -EINVAL);
	free(bad);
	bad = edit_field(text.buf, "hash", "hash=0123456789abcde");
	CHECK("fingerprint: a short hash is refused",
	      statetopo_parse(bad, &s, err, sizeof(err)) == -EINVAL);
	free(bad);
	bad = edit_field(text.buf, "cores", "cores=-1");
	CHECK("fingerprint: a negative core count is refused",
	      statetopo_parse(bad, &s, err, sizeof(err)) == -EINVAL);
	free(bad);
	strbuf_free(&text);
	free(key);
	topo_free(&full);
}

/* A hand-written layout parsed: each CPU's flags from the lists and its
 * values from the runs, and values out of range anywhere in a run. */
static void
parse_values(void)
{
	static const char *const good =
		"v=2 key=a possible=0-5 present=0-4 online=0-3 isolated=1,3 "
		"tpc=2 node=0:0:3,1:0:3 socket=-1:0:6 die=7:0:6 core=0:0:2,2:0:2,4:0:2 "
		"l3=0:0:6 threads=2:0:6 next=1:0:1,-1:0:1,3:0:1,-1:0:1,5:0:1,-1:0:1 "
		"nodes=0@0-1@10.20/1@2-3@20.10 l3s=5@3@1024@0-3 sockets=-1@0-5 "
		"hash=00000000000000ff cores=2";
	static const struct { const char *from, *to; } bad[] = {
		/* the last of a run beyond the limit, its first within */
		{ "die=7:0:6", "die=7:1000000000:6" },
		{ "die=7:0:6", "die=7:-3:6" },
		/* numbers too long for any field */
		{ "die=7:0:6", "die=99999999999999999999999:0:6" },
		{ "tpc=2", "tpc=99999999999999999999999" },
		{ "die=7:0:6", "die=-:0:6" },
		{ "die=7:0:6", "die=7:0:6,1:0:1" },
		{ "die=7:0:6", "die=7:0:5" },
		{ "cores=2", "cores=2x" },
	};
	struct statetopo s;
	const struct topo_cpu *c;
	char err[200], text[1024];
	size_t i;
	int r, wrong = 0;

	r = statetopo_parse(good, &s, err, sizeof(err));
	CHECK("values: a hand-written layout parses", r == 0);
	if (r != 0) {
		printf("# %s\n", err);
		return;
	}
	CHECK("values: nothing per CPU is stored unasked", s.t.cpus == NULL);
	CHECK("values: statetopo_cpus() stores it",
	      statetopo_cpus(&s) == 0 && s.t.cpus != NULL);
	c = s.t.cpus;
	CHECK("values: one slot per possible CPU", s.t.ncpus == 6);
	CHECK("values: possible flags", c[0].possible && c[5].possible);
	CHECK("values: present flags", c[4].present && !c[5].present);
	CHECK("values: online flags", c[0].online && c[3].online &&
	      !c[4].online && !c[5].online);
	CHECK("values: isolated flags", !c[0].isolated && c[1].isolated &&
	      !c[2].isolated && c[3].isolated && !c[4].isolated);
	CHECK("values: runs", c[2].node == 0 && c[3].node == 1 &&
	      c[5].node == 1 && c[0].socket == -1 && c[5].die == 7 &&
	      c[1].core == 0 && c[3].core == 2 && c[5].core == 4 &&
	      c[0].next_thread == 1 && c[1].next_thread == -1 &&
	      c[4].next_thread == 5 && c[4].nthreads == 2 && c[5].l3 == 0);
	CHECK("values: the fingerprint", s.have_print && s.hash == 0xff &&
	      s.cores == 2);
	statetopo_free(&s);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *at = strstr(good, bad[i].from);

		snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - good),
			 good, bad[i].to, at + strlen(bad[i].from));
		r = statetopo_parse(text, &s, err, sizeof(err));
		if (r == 0) {
			printf("# accepted: %s\n", bad[i].to);
			statetopo_free(&s);
		}
		if (r != -EINVAL || !err[0])
			wrong++;
	}
	CHECK("values: bad runs and numbers are refused", wrong == 0);

	/* Lists whole 64-CPU words long, and not. */
	r = statetopo_parse("v=2 key=a possible=0-129 present=0-127 "
			    "online=0-63,65-129 isolated=0-63 tpc=1 "
			    "node=0:0:130 socket=0:0:130 die=0:0:130 "
			    "core=0:1:130 l3=-1:0:130 threads=1:0:130 "
			    "next=-1:0:130 nodes=0@0-63,65-129@10 l3s= "
			    "sockets=0@0-129 hash=0000000000000001 cores=129",
			    &s, err, sizeof(err));
	CHECK("values: a 130-CPU layout parses", r == 0 &&
	      statetopo_cpus(&s) == 0);
	if (r != 0)
		return;
	c = s.t.cpus;
	wrong = 0;
	for (i = 0; i < 130; i++)
		if (!c[i].possible || c[i].present != (i < 128) ||
		    c[i].online != (i != 64) || c[i].isolated != (i < 64))
			wrong++;
	CHECK("values: flags of whole words and parts of words", wrong == 0);
	statetopo_free(&s);
}

/*
 * Runs are checked whole, without their values stored: a core names a
 * CPU at or below its own, next one above, both below the CPU count.
 * Random runs over 6 CPUs, each judged here value by value.
 */
static void
run_checks(void)
{
	static const char *const fmt =
		"v=2 key=a possible=0-5 present=0-5 online=0-5 isolated= tpc=2 "
		"node=0:0:6 socket=0:0:6 die=0:0:6 core=%s l3=0:0:6 "
		"threads=2:0:6 next=%s nodes=0@0-5@10 l3s=5@3@1024@0-5 "
		"sockets=0@0-5 hash=00000000000000ff cores=3";
	static const struct { const char *core, *next; bool ok; } cases[] = {
		{ "0:1:6", "1:1:5,-1:0:1", true },
		{ "-1:1:6", "3:-4:2,-1:0:4", true },	/* 3, then none */
		{ "0:0:2,2:0:2,4:0:2", "2:-3:2,-1:0:4", true },
		{ "1:0:2,2:0:4", "-1:0:6", false },	/* CPU 0's core 1 */
		{ "0:2:3,3:0:3", "-1:0:6", false },	/* CPU 1's core 2 */
		{ "0:1:6", "-1:2:3,-1:0:3", false },	/* CPU 1's next 1 */
		{ "0:1:6", "1:1:6", false },		/* next 6 of 6 CPUs */
		{ "0:1:5,6:0:1", "-1:0:6", false },	/* core 6 of 6 CPUs */
	};
	unsigned int seed = 7;
	int trial, wrong = 0, bad_seen = 0, good_seen = 0;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512], err[200], msg[160];
		struct statetopo s;
		int r;

		snprintf(text, sizeof(text), fmt, cases[i].core, cases[i].next);
		r = statetopo_parse(text, &s, err, sizeof(err));
		if (r == 0)
			statetopo_free(&s);
		snprintf(msg, sizeof(msg), "runs: core=%s next=%s %s",
			 cases[i].core, cases[i].next,
			 cases[i].ok ? "accepted" : "refused");
		CHECK(msg, (r == 0) == cases[i].ok);
	}
	for (trial = 0; trial < 20000; trial++) {
		char runs[128], text[512], err[200];
		int f = trial % 2;	/* 0: core, 1: next */
		bool ok = true;
		struct statetopo s;
		size_t len = 0;
		int c = 0, r;

		/* Runs starting near their first CPU, or at -1. */
		while (c < 6) {
			int count = 1 + (int)(rand_r(&seed) % (6 - c));
			int start = rand_r(&seed) % 4 == 0 ? -1 :
				    c + (int)(rand_r(&seed) % 7) - 2;
			int step = (int)(rand_r(&seed) % 9) - 4;

			if (start == -1 && rand_r(&seed) % 2)
				step = 0;	/* none named: often */

			len += (size_t)snprintf(runs + len, sizeof(runs) - len,
						"%s%d:%d:%d", c ? "," : "",
						start, step, count);
			for (int k = 0; k < count; k++, c++) {
				int v = start + step * k;

				if (v < -1 || v > 5 ||
				    (v >= 0 && (f == 0 ? v > c : v <= c)))
					ok = false;
			}
		}
		snprintf(text, sizeof(text), fmt, f == 0 ? runs : "0:1:6",
			 f == 1 ? runs : "-1:0:6");
		r = statetopo_parse(text, &s, err, sizeof(err));
		if (r == 0)
			statetopo_free(&s);
		if ((r == 0) != ok && wrong++ < 3)
			printf("# %s: %s=%s (%s)\n", ok ? "refused" :
			       "accepted", f ? "next" : "core", runs, err);
		ok ? good_seen++ : bad_seen++;
	}
	CHECK("runs: checked whole as each CPU's value would be",
	      wrong == 0 && good_seen > 500 && bad_seen > 500);
}

/* The per-CPU array moves from the layout to the topology: once. */
static void
moved(const char *dir)
{
	struct topo full, t, t2;
	struct statetopo s;
	struct sysroot root;
	struct strbuf text;
	char err[256], *key = NULL, *k2 = NULL, cmd[600];
	int r;

	if (layout_of(dir, &full, &text, &key) != 0 ||
	    statetopo_parse(text.buf, &s, err, sizeof(err)) != 0 ||
	    sysroot_open(&root, dir) < 0 || statetopo_key(&root, &k2) < 0) {
		CHECK("moved: the tree loads", false);
		return;
	}
	/* A node appeared (a tree without node/online: its directory is
	 * seen): not used, and the layout can still give. */
	snprintf(cmd, sizeof(cmd), "cd '%s/sys/devices/system/node' && "
		 "mv online online.was && mkdir node9", dir);
	CHECK("moved: node9 appears", system(cmd) == 0);
	r = statetopo_load(&t, &root, k2, &s, true);
	CHECK("moved: a layout not used keeps its topology",
	      r == 1 && !s.given);
	snprintf(cmd, sizeof(cmd), "cd '%s/sys/devices/system/node' && "
		 "rmdir node9 && mv online.was online", dir);
	CHECK("moved: node9 goes", system(cmd) == 0);
	r = statetopo_load(&t, &root, k2, &s, true);
	if (r == 0) {
		/* Memory sizes are left unknown until asked for. */
		bool unknown = true;

		for (int i = 0; i < t.nnodes; i++)
			if (t.nodes[i].mem_total_kb != -1 ||
			    t.nodes[i].mem_free_kb != -1)
				unknown = false;
		CHECK("moved: no memory size is read unasked",
		      t.nnodes > 0 && unknown);
		CHECK("moved: topo_load_meminfo() reads them",
		      topo_load_meminfo(&t, &root) == 0);
	}
	CHECK("moved: then used, as topo_load() reads", r == 0 &&
	      same_topo(&full, &t, err, sizeof(err)));
	if (r == 0) {
		CHECK("moved: the layout gave its CPUs, kept its lists",
		      s.t.cpus == NULL && cpuset_equal(&s.t.online,
						       &full.online) &&
		      cpuset_equal(&s.t.possible, &full.possible) &&
		      s.have_print && s.key != NULL);
		CHECK("moved: it cannot give them twice",
		      statetopo_load(&t2, &root, k2, &s, true) == 1);
		topo_free(&t);
	}
	statetopo_free(&s);

	/* Without the per-CPU array: the rest as a full read has it. */
	if (statetopo_parse(text.buf, &s, err, sizeof(err)) == 0) {
		r = statetopo_load(&t, &root, k2, &s, false);
		CHECK("moved: without CPUs, no per-CPU array is made",
		      r == 0 && t.cpus == NULL && s.t.cpus == NULL);
		if (r == 0) {
			bool same = t.ncpus == full.ncpus &&
				    t.nnodes == full.nnodes &&
				    t.nl3 == full.nl3 &&
				    t.nsockets == full.nsockets &&
				    cpuset_equal(&t.online, &full.online) &&
				    cpuset_equal(&t.offline, &full.offline);

			for (int i = 0; same && i < t.nnodes; i++)
				same = t.nodes[i].id == full.nodes[i].id &&
				       cpuset_equal(&t.nodes[i].cpus,
						    &full.nodes[i].cpus);
			CHECK("moved: without CPUs, lists and nodes as read",
			      same);
			topo_free(&t);
		}
		statetopo_free(&s);
	}
	sysroot_close(&root);
	strbuf_free(&text);
	free(key);
	free(k2);
	topo_free(&full);
}

/*
 * A node's meminfo as every call reads it live: only MemTotal and MemFree,
 * converted as "%lld" converts them; a key missing or without a number
 * leaves the value as it was.
 */
static void
meminfo(void)
{
	static const struct {
		const char *name, *text;
		int64_t total, free;
	} cases[] = {
		{ "a kernel's meminfo",
		  "Node 0 MemTotal:       17655584 kB\n"
		  "Node 0 MemFree:        11642312 kB\n"
		  "Node 0 MemUsed:         6013272 kB\n"
		  "Node 0 SwapCached:            0 kB\n", 17655584, 11642312 },
		{ "free before total, last line unended",
		  "Node 3 MemFree: 7 kB\nNode 3 MemTotal: 9", 9, 7 },
		{ "neither key", "Node 0 MemUsed: 5 kB\nNode 0 Active: 6 kB\n",
		  -1, -1 },
		{ "a key without a number",
		  "Node 0 MemTotal: kB\nNode 0 MemFree:\nNode 0 Active: 4\n",
		  -1, -1 },
		{ "a longer key is another key",
		  "Node 0 MemTotalx: 5\nNode 0 MemFreeish: 6\n", -1, -1 },
		{ "a sign, and saturation",
		  "Node 0 MemTotal: -12 kB\n"
		  "Node 0 MemFree: 99999999999999999999999 kB\n",
		  -12, INT64_MAX },
		{ "the last of a repeated key",
		  "Node 0 MemTotal: 1\nNode 0 MemTotal: 2\n", 2, -1 },
		{ "no number across a line break",
		  "Node 0 MemTotal:\nNode 0 MemFree: 3\n", -1, 3 },
		{ "empty", "", -1, -1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct topo_node n = { .mem_total_kb = -1, .mem_free_kb = -1 };
		char name[128];

		topo_parse_meminfo(cases[i].text, &n);
		snprintf(name, sizeof(name), "meminfo: %s", cases[i].name);
		CHECK(name, n.mem_total_kb == cases[i].total &&
		      n.mem_free_kb == cases[i].free);
	}
}

int
main(void)
{
	static const char *const specs[] = {
		"1s-offline-cxl", "2s4n-smt", "hybrid-arm3", "hybrid-arm4",
		"hybrid-intel3",
	};
	static const char *const vms[] = { "dies4", "hmat", "numa4", "sparse" };
	const char *top = getenv("CPM_TOP");
	char path[512], cmd[700];
	size_t i;

	if (!mkdtemp(tmp)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		snprintf(path, sizeof(path), "%s/tests/topologies/%s.spec",
			 top ? top : ".", specs[i]);
		gen(specs[i], path, NULL);
		snprintf(path, sizeof(path), "%s/%s", tmp, specs[i]);
		round_trip(specs[i], path);
	}
	for (i = 0; i < sizeof(vms) / sizeof(vms[0]); i++) {
		snprintf(path, sizeof(path), "%s/tests/vm/fixtures/%s",
			 top ? top : ".", vms[i]);
		round_trip(vms[i], path);
	}
	/* 16 CPUs, SMT siblings side by side, two nodes, CPU 13 offline. */
	gen("m16", NULL,
	    "node 0 mem_kb=1000 distance=10,20\n"
	    "node 1 mem_kb=2000 distance=20,10\n"
	    "cpu 0 core=0 socket=0 node=0 l3=0\ncpu 1 core=0 socket=0 node=0 l3=0\n"
	    "cpu 2 core=1 socket=0 node=0 l3=0\ncpu 3 core=1 socket=0 node=0 l3=0\n"
	    "cpu 4 core=2 socket=0 node=0 l3=0\ncpu 5 core=2 socket=0 node=0 l3=0\n"
	    "cpu 6 core=3 socket=0 node=0 l3=0\ncpu 7 core=3 socket=0 node=0 l3=0\n"
	    "cpu 8 core=0 socket=1 node=1 l3=1\ncpu 9 core=0 socket=1 node=1 l3=1\n"
	    "cpu 10 core=1 socket=1 node=1 l3=1\ncpu 11 core=1 socket=1 node=1 l3=1\n"
	    "cpu 12 core=2 socket=1 node=1 l3=1\ncpu 13 core=2 socket=1 node=1 l3=1 online=0\n"
	    "cpu 14 core=3 socket=1 node=1 l3=1\ncpu 15 core=3 socket=1 node=1 l3=1\n");
	snprintf(path, sizeof(path), "%s/m16", tmp);
	round_trip("offline CPU 13", path);
	moved(path);
	write_file(path, "sys/devices/system/cpu/online", "0-15\n");
	round_trip("all online", path);
	/* Without NUMA information at all. */
	gen("flat", NULL, "node 0 mem_kb=1000 distance=10\n"
	    "cpu 0 core=0 socket=0 node=0\ncpu 1 core=1 socket=0 node=0\n");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/flat/sys/devices/system/node'",
		 tmp);
	CHECK("remove the node directory", system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/flat", tmp);
	round_trip("no NUMA nodes", path);
	/*
	 * L3 groups whose ids are not their indexes, CPUs in a row in
	 * different groups, sockets that are not the nodes; then CPUs
	 * without an L3 group among CPUs with one.
	 */
	gen("l3ids", NULL,
	    "node 0 mem_kb=1000 distance=10,20\n"
	    "node 1 mem_kb=1000 distance=20,10\n"
	    "cpu 0 core=0 socket=0 node=0 l3=9\ncpu 1 core=1 socket=0 node=0 l3=4\n"
	    "cpu 2 core=2 socket=0 node=1 l3=9\ncpu 3 core=3 socket=0 node=1 l3=4\n"
	    "cpu 4 core=0 socket=1 node=1 l3=7\ncpu 5 core=1 socket=1 node=1 l3=7\n"
	    "cpu 6 core=2 socket=1 node=1 l3=7\ncpu 7 core=3 socket=1 node=1 l3=7\n");
	snprintf(path, sizeof(path), "%s/l3ids", tmp);
	round_trip("L3 ids that are not indexes", path);
	gen("somel3", NULL,
	    "node 0 mem_kb=1000 distance=10\n"
	    "cpu 0 core=0 socket=0 node=0 l3=3\ncpu 1 core=1 socket=0 node=0 l3=3\n"
	    "cpu 2 core=0 socket=1 node=0\ncpu 3 core=1 socket=1 node=0\n");
	snprintf(path, sizeof(path), "%s/somel3", tmp);
	round_trip("CPUs without an L3 group", path);
	gen("nol3", NULL,
	    "node 0 mem_kb=1000 distance=10,20\n"
	    "node 1 mem_kb=1000 distance=20,10\n"
	    "cpu 0 core=0 socket=0 node=0\ncpu 1 core=0 socket=0 node=0\n"
	    "cpu 2 core=1 socket=0 node=1\ncpu 3 core=1 socket=0 node=1\n"
	    "cpu 4 core=0 socket=1 node=1\ncpu 5 core=0 socket=1 node=1\n");
	snprintf(path, sizeof(path), "%s/nol3", tmp);
	round_trip("no L3 groups, sockets not nodes", path);
	changes();
	hostile();
	snprintf(path, sizeof(path), "%s/2s4n-smt", tmp);
	fingerprint(path);
	parse_values();
	run_checks();
	meminfo();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmp);
	return unit_failed;
}
