// SPDX-License-Identifier: GPL-2.0-or-later
/* Core types from generated sysfs trees whose types follow from their
 * description, and the type:/capacity: selector grammar. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/coretype.h"
#include "machine/select.h"
#include "unit.h"

static const char *top = ".";

/* Generate a tree from spec text, load topology and core types. */
static int
load(const char *tmp, const char *name, const char *spec, struct topo *t,
     struct coretypes *ct)
{
	char path[4096], cmd[12288], err[256];
	struct sysroot root;
	FILE *f;
	int r;

	snprintf(path, sizeof(path), "%s/%s.spec", tmp, name);
	f = fopen(path, "w");
	if (f == NULL)
		return -errno;
	fputs(spec, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "python3 '%s/tests/gen-sysfs' '%s' '%s/%s'",
		 top, path, tmp, name);
	if (system(cmd) != 0)
		return -EIO;
	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	r = sysroot_open(&root, path);
	if (r < 0)
		return r;
	r = topo_load(t, &root, 0, err, sizeof(err));
	if (r == 0)
		r = coretype_load(ct, &root, t, err, sizeof(err));
	sysroot_close(&root);
	if (r < 0)
		printf("# %s: %s\n", name, err);
	return r;
}

static char *
list(const struct cpuset *s)
{
	static char buf[256];
	char *l = cpuset_to_list(s);

	snprintf(buf, sizeof(buf), "%s", l ? l : "(oom)");
	free(l);
	return buf;
}

static const char *
sel(const struct coretypes *ct, const struct topo *t, const char *s)
{
	static char buf[320];
	struct cpuset out = CPUSET_INIT;
	char err[256];
	int r = coretype_select(ct, t, s, &out, err, sizeof(err));

	if (r == -ENOENT)
		snprintf(buf, sizeof(buf), "ENOENT");
	else if (r < 0)
		snprintf(buf, sizeof(buf), "error: %s", err);
	else
		snprintf(buf, sizeof(buf), "%s", list(&out));
	cpuset_free(&out);
	return buf;
}

int
main(void)
{
	char tmp[] = "/tmp/cpm-coretype.XXXXXX", cmd[64];
	const char *e = getenv("CPM_TOP");
	struct coretypes ct;
	struct topo t;

	if (e && *e)
		top = e;
	if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 1;
	}

	/* Only cpuinfo_max_freq: favoured P-cores turbo 4% higher than
	 * their siblings and stay one type; E-cores are 25% slower. */
	CHECK("max-frequency-only tree loads",
	      load(tmp, "freq", "node 0\n"
		   "cpu 0 core=0 socket=0 node=0 maxfreq=5200000\n"
		   "cpu 1 core=1 socket=0 node=0 maxfreq=5000000\n"
		   "cpu 2 core=2 socket=0 node=0 maxfreq=5000000\n"
		   "cpu 3 core=3 socket=0 node=0 maxfreq=3900000\n"
		   "cpu 4 core=4 socket=0 node=0 maxfreq=3900000\n", &t, &ct) == 0);
	CHECK("favoured cores are no type of their own",
	      ct.ntypes == 2 && strcmp(ct.source, "cpufreq") == 0);
	CHECK_STR("performance by frequency", list(&ct.types[0].cpus), "0-2");
	CHECK_STR("efficiency by frequency", list(&ct.types[1].cpus), "3-4");
	CHECK("capacity scales the maximum frequency to 1024",
	      ct.capacity[0] == 1024 && ct.capacity[1] == 985 &&
	      ct.capacity[3] == 768);
	CHECK("type capacity is its highest", ct.types[0].capacity == 1024);
	CHECK_STR("type:P", sel(&ct, &t, "type:P"), "0-2");
	CHECK_STR("capacity:-800", sel(&ct, &t, "capacity:-800"), "3-4");
	CHECK_STR("capacity:985-", sel(&ct, &t, "capacity:985-"), "0-2");
	CHECK_STR("capacity: alone is malformed", sel(&ct, &t, "capacity:-"),
		  "error: invalid selector 'capacity:-': use capacity:MIN-MAX");
	CHECK_STR("capacity:1-2-3 is malformed", sel(&ct, &t, "capacity:1-2-3"),
		  "error: invalid selector 'capacity:1-2-3': use capacity:MIN-MAX");
	CHECK_STR("other selectors are not ours", sel(&ct, &t, "node:0"), "ENOENT");
	CHECK("coretype_find knows aliases in any case",
	      coretype_find(&ct, "LITTLE") == 1 && coretype_find(&ct, "Big") == 0 &&
	      coretype_find(&ct, "mid") == -1);
	{
		char err[256] = "";

		CHECK("--core-type: a hybrid machine's type is its index",
		      coretype_arg(&ct, &t, "efficiency", err,
				   sizeof(err)) == 1 &&
		      coretype_arg(&ct, &t, "p", err, sizeof(err)) == 0);
		CHECK("--core-type: a type the machine lacks is refused",
		      coretype_arg(&ct, &t, "mid", err, sizeof(err)) == -EINVAL);
		CHECK_STR("--core-type: naming the machine's types", err,
			  "invalid --core-type 'mid' (performance or efficiency)");
	}
	coretype_free(&ct);
	topo_free(&t);

	/* Base frequencies apart, the same maximum: the scheduler's
	 * capacities are equal, so the two classes are one type. */
	CHECK("base-frequency tree loads",
	      load(tmp, "base", "node 0\n"
		   "cpu 0 core=0 socket=0 node=0 maxfreq=5000000 basefreq=3000000\n"
		   "cpu 1 core=1 socket=0 node=0 maxfreq=5000000 basefreq=3000000\n"
		   "cpu 2 core=2 socket=0 node=0 maxfreq=5000000 basefreq=2000000\n"
		   "cpu 3 core=3 socket=0 node=0 maxfreq=5000000 basefreq=2000000\n",
		   &t, &ct) == 0);
	CHECK("two classes of equal capacity are one type", ct.ntypes == 1);
	coretype_free(&ct);
	topo_free(&t);

	/* Two hybrid PMUs whose CPUs have the same capacity: one type. */
	CHECK("equal-capacity PMU tree loads",
	      load(tmp, "pmueq", "node 0\n"
		   "cpu 0 core=0 socket=0 node=0 maxfreq=4000000 pmu=core\n"
		   "cpu 1 core=1 socket=0 node=0 maxfreq=4000000 pmu=core\n"
		   "cpu 2 core=2 socket=0 node=0 maxfreq=4000000 pmu=atom\n"
		   "cpu 3 core=3 socket=0 node=0 maxfreq=2000000 pmu=lowpower\n",
		   &t, &ct) == 0);
	CHECK("PMU types of equal capacity are one type",
	      ct.ntypes == 2 && strcmp(ct.source, "pmu") == 0);
	CHECK_STR("cpu_core and cpu_atom at one capacity",
		  list(&ct.types[0].cpus), "0-2");
	CHECK_STR("cpu_lowpower apart", list(&ct.types[1].cpus), "3");
	coretype_free(&ct);
	topo_free(&t);

	/* Five types by capacity: prime, performance, mid1, mid2, efficiency. */
	CHECK("five-type tree loads",
	      load(tmp, "five", "node 0\n"
		   "cpu 0 core=0 socket=0 node=0 capacity=100\n"
		   "cpu 1 core=1 socket=0 node=0 capacity=300\n"
		   "cpu 2 core=2 socket=0 node=0 capacity=500\n"
		   "cpu 3 core=3 socket=0 node=0 capacity=700\n"
		   "cpu 4 core=4 socket=0 node=0 capacity=1024\n", &t, &ct) == 0);
	CHECK("five types, fastest first",
	      ct.ntypes == 5 && strcmp(ct.types[0].name, "prime") == 0 &&
	      strcmp(ct.types[1].name, "performance") == 0 &&
	      strcmp(ct.types[2].name, "mid1") == 0 &&
	      strcmp(ct.types[3].name, "mid2") == 0 &&
	      strcmp(ct.types[4].name, "efficiency") == 0);
	CHECK_STR("mid2 is the 300 CPU", sel(&ct, &t, "type:mid2"), "1");
	{
		struct cpuset out = CPUSET_INIT;
		char err[256];
		int r;

		r = select_resolve_all(&t, &ct, "type:mid2", &out, err,
				       sizeof(err));
		CHECK_STR("select_resolve_all: a core type selector",
			  r == 0 ? list(&out) : err, "1");
		r = select_resolve_all(&t, &ct, "node:0", &out, err,
				       sizeof(err));
		CHECK_STR("select_resolve_all: any other selector",
			  r == 0 ? list(&out) : err, "0-4");
		r = select_resolve_all(&t, NULL, "capacity:300", &out, err,
				       sizeof(err));
		CHECK_STR("select_resolve_all: core types not read",
			  r == -EINVAL ? err : "", "selector 'capacity:300' "
			  "needs the core types, which were not read");
		cpuset_free(&out);
	}
	coretype_free(&ct);
	topo_free(&t);

	/* Nothing told: no types, no capacity. */
	CHECK("plain tree loads",
	      load(tmp, "plain", "node 0\ncpu 0 core=0 socket=0 node=0\n"
		   "cpu 1 core=1 socket=0 node=0\n", &t, &ct) == 0);
	CHECK("a plain machine has no types", ct.ntypes == 0 && ct.source == NULL &&
	      ct.capacity[0] == -1);
	CHECK_STR("type:big on a plain machine is every online CPU",
		  sel(&ct, &t, "type:big"), "0-1");
	{
		char err[256] = "";

		CHECK("--core-type: on one core type, performance means none",
		      coretype_arg(&ct, &t, "performance", err,
				   sizeof(err)) == -1);
		CHECK("--core-type: on one core type, an unknown type is refused",
		      coretype_arg(&ct, &t, "prime", err, sizeof(err)) ==
		      -EINVAL);
		CHECK_STR("--core-type: saying the machine has one type", err,
			  "invalid --core-type 'prime': this machine has one "
			  "core type");
	}
	coretype_free(&ct);
	topo_free(&t);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		return 1;
	return unit_failed;
}
