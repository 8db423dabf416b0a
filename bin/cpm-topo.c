// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-topo: what the machine looks like.  Sockets, dies, cores, SMT
 * threads, L3 groups and NUMA nodes; cpulist queries over them; placement
 * checks; and a dump of every file cpm reads, for replay with --sysroot.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "alloc/allocselect.h"
#include "alloc/plan.h"
#include "alloc/planapply.h"
#include "base/findings.h"
#include "base/json.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "cgroup/cgcpuset.h"
#include "cgroup/cgroup.h"
#include "machine/cache.h"
#include "machine/coretype.h"
#include "machine/device.h"
#include "machine/irq.h"
#include "machine/memtier.h"
#include "machine/proc.h"
#include "machine/select.h"
#include "machine/topo.h"
#include "pin/mempolicy.h"
#include "pin/numamaps.h"
#include "pin/pin.h"
#include "tool/cli.h"
#include "view/draw.h"
#include "view/isocheck.h"
#include "view/memtable.h"
#include "view/placement.h"
#include "view/topodump.h"
#include "view/toposum.h"
#include "view/topotable.h"

struct ctx {
	const char *sysroot;
	struct sysroot root;
	struct topo topo;
	bool loaded;
	struct coretypes ct;
	bool ct_loaded;
	struct topo_caches caches;
	bool caches_loaded;
	bool caches_view;	/* -C */
	struct memtier mt;
	bool mt_loaded;
	bool list;		/* memory --list */
	const char *columns;	/* -o LIST, or NULL: the default */
	struct cli_table_opts table;	/* --raw, --noheadings */
	int mode;		/* 0, 'e' (-e) or 'j' (--json) */
	/* cpus */
	const char **ands, **nots;
	int nands, nnots;
	bool count;
	/* check */
	struct check_args {
		const char *nodes, *interval, *device;
		const char *plan, *reserved;	/* --plan, --reserved */
		const char *pid, *cgroup, *cgroup_root;
		enum placement_policy policy;
		bool policy_given;
		uint64_t interval_us;
		bool irqs, isolation;
	} check;
	/* draw */
	struct draw_args {
		bool ascii, svg, color;
		unsigned int width;	/* 0: COLUMNS or the terminal's */
	} draw;
};

static void
usage(void)
{
	printf(
"Usage: cpm-topo [--sysroot DIR] [-e | --json] [-o LIST] [--raw] [--noheadings]\n"
"       cpm-topo [--sysroot DIR] -C [--json | --raw] [--noheadings]\n"
"       cpm-topo [--sysroot DIR] cpus SELECTOR... [--and SEL]... [--not SEL]... [--count]\n"
"                [--json]\n"
"       cpm-topo [--sysroot DIR] nodes CPULIST [--json]\n"
"       cpm-topo [--sysroot DIR] memory [NODESEL...] [--list | --json | -o LIST]\n"
"       cpm-topo [--sysroot DIR] check CPULIST [--policy compact|spread|local] [--nodes NODELIST]\n"
"                [--irqs [--interval DURATION]] [--device DEV[,DEV...]] [--json]\n"
"       cpm-topo [--sysroot DIR] check --plan FILE [--reserved CPULIST] [--json]\n"
"       cpm-topo [--sysroot DIR] check --pid PID | --cgroup GROUP [--cgroup-root DIR] [--json]\n"
"       cpm-topo [--sysroot DIR] devices [--json | -o LIST] [--raw] [--noheadings]\n"
"       cpm-topo [--sysroot DIR] draw [--ascii] [--width N] [--color=WHEN] [--svg]\n"
"       cpm-topo [--sysroot DIR] dump DIR\n"
"\n"
"Show the machine's CPU topology and answer cpulist questions about it.\n"
"\n"
"Options:\n"
"  -e, --extended     one row per possible CPU: CPU NODE SOCKET DIE CORE L3 ONLINE\n"
"                     (and TYPE CAPACITY on a machine with several core types,\n"
"                     PART where /proc/cpuinfo names ARM parts)\n"
"  -C, --caches       one row per cache level, as lscpu -C: NAME ONE-SIZE\n"
"                     ALL-SIZE WAYS TYPE LEVEL SETS PHY-LINE COHERENCY-SIZE\n"
"                     INSTANCES SHARED (the most CPUs one instance serves)\n"
"  -j, --json         the whole topology as one JSON document; with cpus,\n"
"                     nodes and check, their result as one JSON object\n"
"  -o, --output LIST  the columns of -e (implied), or the members of the\n"
"      --columns LIST JSON \"cpus\" objects: comma-separated, any case,\n"
"                     from CPU NODE SOCKET DIE CORE L3 ONLINE TYPE CAPACITY\n"
"                     PART SIBLINGS (the core's SMT siblings as a cpulist) L1d\n"
"                     L1i L2 (cache ids) CACHE (L1d:L1i:L2:L3 ids, as lscpu -e)\n"
"      --raw          -e without alignment: one space between cells\n"
"      --noheadings   -e without its header line\n"
"      --sysroot DIR  read sys/ and proc/ below DIR (env CPM_SYSROOT)\n"
"  -h, --help         show this help\n"
"  -V, --version      show the version\n"
"\n"
"Commands:\n"
"  cpus SELECTOR...   print the union of the selectors as a cpulist, then\n"
"                     intersect with each --and and remove each --not;\n"
"                     --count (-c) prints the number of CPUs instead.\n"
"  nodes CPULIST      print the NUMA nodes that hold those CPUs\n"
"  memory [NODESEL...] one row per NUMA node: CPUs, memory tier, size,\n"
"                     bandwidth (MB/s) and latency (ns) from the nearest\n"
"                     initiators, memory-side caches, interleave weight;\n"
"                     --list prints the selected nodes as a nodelist.\n"
"                     -o from NODE CPUS TIER MEMORY FREE READ_BW WRITE_BW\n"
"                     READ_LAT WRITE_LAT INITIATORS CLASS CACHE WEIGHT\n"
"  check CPULIST      print 'warning: ...'/'error: ...' findings about a\n"
"                     placement; exit 3 when there are any.  --policy\n"
"                     compact (default) or local want one node, spread\n"
"                     wants several; --nodes names the nodes allowed.\n"
"                     --irqs adds the device IRQs that may fire on those\n"
"                     CPUs and each CPU's interrupts over --interval\n"
"                     (default 1s, two samples of /proc/interrupts).\n"
"                     --device DEV[,DEV...] warns about the CPUs not local\n"
"                     to a device (as dev:DEV names it), with their\n"
"                     distance; with --irqs, the devices' own IRQs are\n"
"                     expected on the CPUs, and checked to be there.\n"
"                     --isolation lists what can still run on or\n"
"                     interrupt the CPUs: threads, interrupts, the\n"
"                     workqueue mask, irqbalance, systemd slices; notes\n"
"                     per-CPU kernel threads and boot parameters.\n"
"  check --plan FILE  check a plan, one instance a line (NAME cpus=N|CPULIST\n"
"                     [nodes=] [affinity=] [numa-policy=] [mem=] [mem-policy=]\n"
"                     [mode=] [devices=]; '-' reads standard input) as a\n"
"                     whole: 'error: NAME: ...'/'warning: NAME: ...' lines,\n"
"                     exit 3 when there are any, 2 for a malformed plan;\n"
"                     --reserved CPULIST: the CPUs kept for the host;\n"
"                     --json: {\"findings\": [...], \"errors\", \"warnings\"}\n"
"  devices            the PCI devices an operator places work beside (network,\n"
"                     storage, display, accelerators, named or SR-IOV), one\n"
"                     row each: ADDRESS TYPE NODE CPUS DRIVER VFS PF NAMES\n"
"                     (-o also DEVICE CLASS VENDOR); NODE - is unknown\n"
"  check --pid PID    where the process's pages are (/proc/PID/numa_maps)\n"
"  check --cgroup G   or the group's (memory.numa_stat), against its CPUs\n"
"                     and policy: most memory on nodes without its CPUs, a\n"
"                     local policy with remote pages, pages outside a bind\n"
"                     or interleave policy's nodes, interleave not spread;\n"
"                     exit 3 when there are any; --json for one object.\n"
"  draw               the machine as nested boxes: packages, dies, NUMA nodes\n"
"                     (memory, tier), L3 groups, cores and their threads'\n"
"                     CPU numbers; CPU-less memory nodes, devices under\n"
"                     their node; x offline, ~ isolated.  --ascii: no\n"
"                     Unicode; --width N columns (default COLUMNS, else\n"
"                     the terminal's, else 80); --color=auto|always|never\n"
"                     (auto: on a terminal, unless NO_COLOR is set);\n"
"                     --svg: the same picture as an SVG document\n"
"  dump DIR           copy every file cpm reads into DIR (for --sysroot), and\n"
"                     what lscpu --sysroot and lstopo --input read\n"
"\n"
"Selectors: a cpulist, '-' (stdin), all (possible), present, online,\n"
"offline, isolated, allowed, node:N, socket:N, die:S.D, l3:N, l2:N, l1d:N,\n"
"l1i:N (the CPUs sharing that cache), siblings:CPU\n"
"(the CPU and its SMT siblings), thread:K (the K-th thread of every core),\n"
"type:NAME (a core type: performance, efficiency, on some machines prime and\n"
"mid; big/p and little/e are aliases), capacity:MIN-MAX (the kernel's\n"
"cpu_capacity, 1024 for the fastest CPU), part:0xNNN or part:NAME (an ARM\n"
"MIDR part number, or its name such as cortex-a710 or a710), dev:NAME (the\n"
"local online CPUs of a PCI device: an interface, nvme0, nvme0n1, card0 or an\n"
"address such as 0000:3b:00.0), alloc:NAME (the CPUs of cpm-alloc's\n"
"allocation NAME, from its state: env CPM_STATE).\n"
"Node selectors (memory): all, a nodelist, node:N, cpus (nodes with CPUs),\n"
"cpuless, tier:N (the kernel's memory_tierN), near:CPULIST (the nodes with\n"
"memory nearest those CPUs).\n"
"Topology selectors (node, socket, die, l1d, l1i, l2, l3, thread, type,\n"
"capacity, part) and dev: yield online CPUs.\n"
"CORE is the lowest CPU of a core's SMT siblings; L3 (and L2, L1d, L1i) is the\n"
"cache id, or the lowest CPU of the cache where the kernel gives none.\n"
"\n"
"Options may also follow the command and its arguments.\n"
"\n"
"Exit status: 0 success, 1 failure, 2 invalid input, 3 check findings.\n");
}

static struct topo *
load(struct ctx *c)
{
	if (c->loaded)
		return &c->topo;
	cli_open_sysroot(c->sysroot, &c->root);
	cli_load_topology(&c->root, TOPO_PROCESS, &c->topo);
	c->loaded = true;
	return &c->topo;
}

static void
oom(void)
{
	cli_die(EXIT_FAIL, "out of memory");
}

static struct memtier *
load_memtier(struct ctx *c)
{
	if (c->mt_loaded)
		return &c->mt;
	if (memtier_load(&c->mt, load(c), &c->root) < 0)
		oom();
	c->mt_loaded = true;
	return &c->mt;
}

static struct coretypes *
load_types(struct ctx *c)
{
	char err[256];

	if (c->ct_loaded)
		return &c->ct;
	if (coretype_load(&c->ct, &c->root, load(c), err, sizeof(err)) < 0)
		cli_die(EXIT_FAIL, "%s", err);
	c->ct_loaded = true;
	return &c->ct;
}

/* Every cache level: read only by the views that show caches. */
static struct topo_caches *
load_caches(struct ctx *c)
{
	char err[512];
	int r;

	if (c->caches_loaded)
		return &c->caches;
	r = cache_load(&c->caches, &c->root, load(c), err, sizeof(err));

	/* As for the topology: a replayed tree's bad file is bad input. */
	if (r < 0)
		cli_die(r == -ENOMEM || c->root.live ? EXIT_FAIL : EXIT_USAGE,
			"%s", err);
	c->caches_loaded = true;
	return &c->caches;
}

/* Parse a cpulist argument and insist that its CPUs exist. */
static void
parse_cpus_arg(struct ctx *c, const char *what, const char *arg,
	       struct cpuset *s)
{
	cli_parse_cpus(load(c), what, arg, s);
}

/* ---- summary ---- */

static void
print_summary(struct ctx *c)
{
	struct topo *t = load(c);
	struct strbuf sb;

	strbuf_init(&sb);
	if (topo_summary(t, load_types(c), &sb) < 0)
		oom();
	memtier_summary(load_memtier(c), &sb);
	if (sb.oom)
		oom();
	cli_write(&sb);
	strbuf_free(&sb);
}

/* ---- -e ---- */

/*
 * The per-CPU table with the columns asked for (default: those of -e, or
 * of the JSON "cpus" array when json).
 */
static void
cpu_table(struct ctx *c, bool json, struct table *tab)
{
	struct coretypes *ct = load_types(c);
	char err[512], cols[256];
	size_t i;

	if (topo_cpu_table(load(c), ct, tab) < 0)
		oom();
	/* JSON has the cache ids too: the whole topology. */
	snprintf(cols, sizeof(cols), "%s%s", topo_cpu_columns_for(ct, json),
		 json ? ",L1d,L1i,L2" : "");
	if (table_select(tab, c->columns ? c->columns : cols, err,
			 sizeof(err)) < 0)
		cli_usage_error("%s", err);
	for (i = 0; i < tab->nsel; i++) {
		const char *name = tab->cols[tab->sel[i]].name;

		if (strcmp(name, "L1d") == 0 || strcmp(name, "L1i") == 0 ||
		    strcmp(name, "L2") == 0 || strcmp(name, "CACHE") == 0) {
			cache_cpu_cells(load_caches(c), load(c), tab);
			if (tab->oom)
				oom();
			break;
		}
	}
}

/* ---- -C ---- */

static void
print_caches(struct ctx *c)
{
	struct table tab;
	struct strbuf sb;
	struct json j;
	int r;

	strbuf_init(&sb);
	if (c->mode == 'j') {
		json_init(&j, &sb);
		json_obj_begin(&j);
		cache_json(load_caches(c), &j);
		json_obj_end(&j);
		cli_check_json(&j);
		strbuf_add(&sb, "\n", 1);
	} else {
		if (cache_table(load_caches(c), &tab) < 0)
			oom();
		r = table_print(&tab, c->table.raw ? TABLE_RAW : TABLE_ALIGNED,
				!c->table.noheadings, &sb);
		table_free(&tab);
		if (r < 0)
			oom();
	}
	if (sb.oom)
		oom();
	cli_write(&sb);
	strbuf_free(&sb);
}

static void
print_extended(struct ctx *c)
{
	struct table tab;
	struct strbuf sb;

	cpu_table(c, false, &tab);
	strbuf_init(&sb);
	if (table_print(&tab, c->table.raw ? TABLE_RAW : TABLE_ALIGNED,
			!c->table.noheadings, &sb) < 0)
		oom();
	cli_write(&sb);
	strbuf_free(&sb);
	table_free(&tab);
}

/* ---- devices ---- */

/* The device table with the columns asked for (columns NULL: the
 * default ones of the text table or of JSON). */
static void
device_rows(struct ctx *c, const char *columns, bool json, struct table *tab)
{
	struct devices d;
	char err[512];
	int r;

	load(c);
	r = device_list(&d, &c->root, err, sizeof(err));
	if (r == -ENOMEM)
		oom();
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
	r = device_table(&d, tab);
	devices_free(&d);
	if (r < 0)
		oom();
	if (table_select(tab, columns ? columns : json ?
			 device_json_columns : device_default_columns,
			 err, sizeof(err)) < 0)
		cli_usage_error("%s", err);
}

static int
cmd_devices(struct ctx *c, int argc, char **argv)
{
	struct table tab;
	struct strbuf sb;

	if (argc != 1)
		cli_usage_error("devices takes no arguments");
	device_rows(c, c->columns, c->mode == 'j', &tab);
	strbuf_init(&sb);
	if (c->mode == 'j') {
		struct json j;

		json_init(&j, &sb);
		table_json(&tab, &j);
		cli_check_json(&j);
		strbuf_add(&sb, "\n", 1);
	} else if (table_print(&tab, c->table.raw ? TABLE_RAW : TABLE_ALIGNED,
			       !c->table.noheadings, &sb) < 0)
		oom();
	if (sb.oom)
		oom();
	cli_write(&sb);
	strbuf_free(&sb);
	table_free(&tab);
	return EXIT_OK;
}

/* ---- --json ---- */

static void
print_json(struct ctx *c)
{
	struct table tab;
	struct strbuf sb;
	struct json j;

	cpu_table(c, true, &tab);
	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	topo_json_members(load(c), load_types(c), &tab, &j);
	cache_json(load_caches(c), &j);
	json_key(&j, "memory");
	memtier_json(load_memtier(c), NULL, &j);
	json_obj_end(&j);
	table_free(&tab);
	cli_check_json(&j);
	/* The devices join the document as its last member. */
	if (sb.len && sb.buf[sb.len - 1] == '}') {
		struct json dj;

		device_rows(c, NULL, true, &tab);
		sb.len--;
		strbuf_puts(&sb, ",\"devices\":");
		json_init(&dj, &sb);
		table_json(&tab, &dj);
		table_free(&tab);
		cli_check_json(&dj);
		strbuf_add(&sb, "}", 1);
	}
	strbuf_add(&sb, "\n", 1);
	if (sb.oom)
		oom();
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
}

/* ---- cpus ---- */

/* Print {"KEY": "LIST", ...} members one after the other, as one line. */
static void
print_lists_json(const char *const *keys, const struct cpuset *const *sets,
		 int n, bool count, const struct cpuset *counted)
{
	struct strbuf sb;
	struct json j;
	int i;

	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	for (i = 0; i < n; i++) {
		char *l = cpuset_to_list(sets[i]);

		if (l == NULL)
			oom();
		json_key(&j, keys[i]);
		json_str(&j, l);
		free(l);
	}
	if (count) {
		json_key(&j, "count");
		json_int(&j, cpuset_count(counted));
	}
	json_obj_end(&j);
	cli_check_json(&j);
	strbuf_puts(&sb, "\n");
	cli_write(&sb);
	strbuf_free(&sb);
}

/*
 * Resolve one selector into out.  Dies with exit 2 on a selector that is
 * malformed or names something the machine does not have.
 */
static void
resolve_selector(struct ctx *c, const char *sel, struct cpuset *out)
{
	char err[256];
	int r;

	cpuset_zero(out);
	if (select_is_cpulist(sel)) {
		parse_cpus_arg(c, "cpulist", sel, out);
		return;
	}
	/* The caches below L3 are read for their selectors alone. */
	if (cache_is_selector(sel)) {
		r = cache_select(load_caches(c), sel, out, err, sizeof(err));
		if (r == -ENOMEM)
			oom();
		if (r < 0)
			cli_die(EXIT_USAGE, "%s", err);
		return;
	}
	if (alloc_is_selector(sel)) {
		/* An allocation of cpm-alloc's state, read as it is. */
		r = alloc_select(NULL, sel, out, NULL, NULL, err, sizeof(err));
		if (r == -ENOMEM)
			oom();
		if (r < 0)
			cli_die(EXIT_USAGE, "%s", err);
		return;
	}
	if (device_is_selector(sel)) {
		r = device_select(&c->root, load(c), sel, out, err,
				  sizeof(err));
		if (r == -ENOMEM)
			oom();
		if (r < 0)
			cli_die(EXIT_USAGE, "%s", err);
		return;
	}
	/* The core-type selectors need files the topology does not read. */
	r = select_resolve_all(load(c), select_needs_types(sel) ?
			       load_types(c) : NULL, sel, out, err,
			       sizeof(err));
	if (r == -ENOMEM)
		oom();
	if (r < 0)
		cli_die(EXIT_USAGE, "%s", err);
}

static int
cmd_cpus(struct ctx *c, int argc, char **argv)
{
	struct cpuset result = CPUSET_INIT, sel = CPUSET_INIT;
	const char **ands = c->ands, **nots = c->nots, **sels = (const char **)argv + 1;
	int na = c->nands, nn = c->nnots, ns = argc - 1, i;
	bool count = c->count;

	if (ns == 0)
		cli_usage_error("cpus needs at least one selector");
	for (i = 0; i < ns; i++) {
		resolve_selector(c, sels[i], &sel);
		if (cpuset_or(&result, &sel) < 0)
			oom();
	}
	for (i = 0; i < na; i++) {
		resolve_selector(c, ands[i], &sel);
		cpuset_and(&result, &sel);
	}
	for (i = 0; i < nn; i++) {
		resolve_selector(c, nots[i], &sel);
		cpuset_andnot(&result, &sel);
	}
	if (c->mode == 'j') {
		const char *keys[] = { "cpus" };
		const struct cpuset *sets[] = { &result };

		print_lists_json(keys, sets, 1, true, &result);
	} else if (count) {
		printf("%u\n", cpuset_count(&result));
	} else {
		cli_print_cpuset(&result);
	}
	cpuset_free(&result);
	cpuset_free(&sel);
	return EXIT_OK;
}

/* ---- nodes ---- */

static int
cmd_nodes(struct ctx *c, int argc, char **argv)
{
	struct cpuset cpus = CPUSET_INIT, nodes = CPUSET_INIT;

	if (argc != 2)
		cli_usage_error(argc < 2 ? "nodes needs a cpulist" :
				"nodes takes one cpulist");
	parse_cpus_arg(c, "cpulist", argv[1], &cpus);
	if (topo_nodes_of(load(c), &cpus, &nodes) < 0)
		oom();
	if (c->mode == 'j') {
		const char *keys[] = { "cpus", "nodes" };
		const struct cpuset *sets[] = { &cpus, &nodes };

		print_lists_json(keys, sets, 2, false, NULL);
	} else {
		cli_print_cpuset(&nodes);
	}
	cpuset_free(&cpus);
	cpuset_free(&nodes);
	return EXIT_OK;
}

/* ---- memory ---- */

static int
cmd_memory(struct ctx *c, int argc, char **argv)
{
	struct cpuset nodes = CPUSET_INIT;
	struct memtier *m = load_memtier(c);
	struct strbuf sb;
	char err[512];
	int i, r;

	for (i = 1; i < argc; i++) {
		char *text = cli_list_text(argv[i]);

		r = memtier_select(m, load(c), text, &nodes, err, sizeof(err));
		free(text);
		if (r == -ENOMEM)
			oom();
		if (r < 0)
			cli_die(EXIT_USAGE, "%s", err);
	}
	if (argc == 1 && memtier_select(m, load(c), "all", &nodes, err,
					sizeof(err)) < 0)
		oom();
	strbuf_init(&sb);
	if (c->list) {
		cli_print_cpuset(&nodes);
	} else if (c->mode == 'j') {
		struct json j;

		json_init(&j, &sb);
		memtier_json(m, &nodes, &j);
		cli_check_json(&j);
		strbuf_add(&sb, "\n", 1);
	} else {
		struct table tab;

		if (memtier_table(load(c), m, &nodes, &tab) < 0)
			oom();
		if (c->columns && table_select(&tab, c->columns, err,
					       sizeof(err)) < 0)
			cli_usage_error("%s", err);
		if (table_print(&tab, c->table.raw ? TABLE_RAW : TABLE_ALIGNED,
				!c->table.noheadings, &sb) < 0)
			oom();
		table_free(&tab);
	}
	if (sb.oom)
		oom();
	cli_write(&sb);
	strbuf_free(&sb);
	cpuset_free(&nodes);
	return EXIT_OK;
}

/* ---- check --pid / --cgroup ---- */

/* The weights of weighted interleave over nodes, into w[] (NULL: none). */
static int *
policy_weights(struct ctx *c, const struct cpuset *nodes, int *nw)
{
	struct weights want, cur;
	char err[256];
	int *w = NULL, i;

	weights_init(&want);
	weights_init(&cur);
	if (cpuset_copy(&want.nodes, nodes) == 0 &&
	    weights_read(&c->root, &want, &cur, err, sizeof(err)) == 0 &&
	    (w = calloc((size_t)cur.n + 1, sizeof(int))) != NULL) {
		for (i = 0; i < cur.n; i++)
			w[i] = cur.w[i];
		*nw = cur.n;
	}
	weights_free(&want);
	weights_free(&cur);
	return w;
}

/* The CPUs, pages and policy of a process or a cgroup, judged. */
static int
check_live(struct ctx *c)
{
	const struct check_args *a = &c->check;
	struct cpuset cpus = CPUSET_INIT;
	struct numa_pages np;
	struct pin_policy pp;
	struct numa_policy pol = { .mode = PIN_MEM_KEEP };
	struct strbuf sb, find;
	struct json j;
	char whose[CG_PATH_MAX + 16], err[512];
	int n, r, *w = NULL;
	bool have_policy = false;

	numa_pages_init(&np);
	pin_policy_init(&pp);
	load(c);
	if (a->pid) {
		unsigned int pid;

		if (parse_uint(a->pid, INT32_MAX, &pid) < 0 || pid == 0)
			cli_usage_error("invalid --pid '%s'", a->pid);
		snprintf(whose, sizeof(whose), "process %u", pid);
		r = proc_status_list(&c->root, (pid_t)pid, "Cpus_allowed_list",
				     &cpus);
		if (r == -ESRCH)
			cli_die(EXIT_USAGE, "no process with pid %u", pid);
		if (r < 0)
			cli_die(EXIT_FAIL, "cannot read the CPUs of process %u: %s",
				pid, strerror(-r));
		r = numamaps_read_pid(&c->root, (pid_t)pid, &np);
		if (r < 0)
			cli_die(r == -ESRCH ? EXIT_USAGE : EXIT_FAIL,
				"cannot read the pages of process %u: %s", pid,
				r == -ESRCH ? "no such process" : strerror(-r));
		have_policy = pin_read_task_policy(&c->root, (pid_t)pid, &pp) == 0 &&
			      pp.mode != PIN_MEM_UNKNOWN;
	} else {
		struct cgcpuset_files f;
		struct cg_hier h;
		char group[CG_PATH_MAX], *text;
		ssize_t k;

		if (cg_path_check(a->cgroup, group, sizeof(group), err,
				  sizeof(err)) < 0)
			cli_die(EXIT_USAGE, "%s", err);
		snprintf(whose, sizeof(whose), "cgroup '%s'", cg_display(group));
		r = cg_open(&h, cli_cgroup_root(a->cgroup_root), err, sizeof(err));
		if (r < 0)
			cli_die(EXIT_FAIL, "%s", err);
		if (!cg_has(&h, CG_MEMORY))
			cli_die(EXIT_FAIL, "no memory controller hierarchy");
		cgcpuset_files(cg_version(&h, CG_CPUSET), &f);
		r = cg_has(&h, CG_CPUSET) ?
		    cgcpuset_read_list(&h, group, f.eff_cpus, &cpus, err,
				       sizeof(err)) : -ENODEV;
		if (r == -EINVAL)
			cli_die(EXIT_USAGE, "%s", err);
		if (r == -ENOENT)
			cli_die(EXIT_USAGE, "no cgroup '%s'", cg_display(group));
		if (r < 0)	/* no cpuset: every online CPU */
			cpuset_copy(&cpus, &c->topo.online);
		text = malloc(1 << 20);
		if (text == NULL)
			oom();
		k = cg_read(&h, CG_MEMORY, group, "memory.numa_stat", text,
			    1 << 20, err, sizeof(err));
		if (k == -ENOENT)
			cli_die(EXIT_USAGE, "%s", err);
		if (k < 0)
			cli_die(EXIT_FAIL, "%s", err);
		r = numastat_parse(text, cg_version(&h, CG_MEMORY),
				   (unsigned int)(sysconf(_SC_PAGESIZE) / 1024),
				   &np);
		free(text);
		if (r == -ENOMEM)
			oom();
		if (r < 0)
			cli_die(EXIT_FAIL, "memory.numa_stat of %s holds no "
				"per-node counts", whose);
		cg_close(&h);
	}
	if (have_policy) {
		pol.mode = pp.mode;
		pol.nodes = &pp.nodes;
		if (pp.mode == PIN_MEM_WEIGHTED)
			w = policy_weights(c, &pp.nodes, &pol.nweights);
		pol.weights = w;
	}
	strbuf_init(&sb);
	strbuf_init(&find);
	if (c->mode == 'j') {
		json_init(&j, &sb);
		json_obj_begin(&j);
		if (a->pid) {
			json_key(&j, "pid");
			json_int(&j, atoi(a->pid));
		} else {
			json_key(&j, "cgroup");
			json_str(&j, a->cgroup);
		}
		json_key(&j, "cpus");
		json_cpulist(&j, &cpus);
		json_key(&j, "mempolicy");
		if (have_policy) {
			struct strbuf ps;

			strbuf_init(&ps);
			pin_policy_format(&pp, &ps);
			json_str(&j, ps.buf ? ps.buf : "");
			strbuf_free(&ps);
		} else {
			json_null(&j);
		}
		json_key(&j, "memory");
		numa_pages_json(&np, &j);
		json_key(&j, "findings");
		json_arr_begin(&j);
		n = numamaps_findings(&c->topo, load_memtier(c), &np, &cpus,
				      have_policy ? &pol : NULL, whose, &find,
				      &j);
		json_arr_end(&j);
		json_obj_end(&j);
		cli_check_json(&j);
		strbuf_puts(&sb, "\n");
	} else {
		n = numamaps_findings(&c->topo, load_memtier(c), &np, &cpus,
				      have_policy ? &pol : NULL, whose, &find,
				      NULL);
		strbuf_printf(&sb, "%s: CPUs ", whose);
		cpuset_format(&cpus, &sb);
		if (have_policy) {
			strbuf_puts(&sb, ", mempolicy ");
			pin_policy_format(&pp, &sb);
		}
		strbuf_puts(&sb, ", memory ");
		numa_pages_format(&np, &sb);
		strbuf_puts(&sb, "\n");
		if (find.len)
			strbuf_add(&sb, find.buf, find.len);
	}
	if (sb.oom || find.oom)
		oom();
	cli_write(&sb);
	strbuf_free(&sb);
	strbuf_free(&find);
	free(w);
	pin_policy_free(&pp);
	numa_pages_free(&np);
	cpuset_free(&cpus);
	return n ? EXIT_UNSAT : EXIT_OK;
}

/* ---- check ---- */

/* check --plan FILE: the plan as a whole. */
static int
cmd_check_plan(struct ctx *c, int argc)
{
	const struct check_args *a = &c->check;
	struct cpuset reserved = CPUSET_INIT;
	struct plan_findings f = { 0 };
	struct plan_devices d;
	struct alloc_machine m = { 0 };
	struct ktopo kt = { 0 };
	struct plan plan;
	struct strbuf sb;
	struct json j;
	char err[768];
	int r, n;

	if (argc > 1)
		cli_usage_error("check --plan takes no cpulist");
	if (a->nodes || a->irqs || a->policy_given)
		cli_usage_error("--policy, --nodes and --irqs check one cpulist, "
				"not a plan");
	if (a->reserved)
		parse_cpus_arg(c, "--reserved CPU list", a->reserved, &reserved);
	r = plan_read(a->plan, 0, &plan, err, sizeof(err));
	if (r == -ENOMEM)
		oom();
	if (r < 0)
		cli_die(EXIT_USAGE, "%s", err);
	/* As apply looks up the devices and applies the plan. */
	r = plan_devices_find(&plan, (load(c), &c->root), &d, err, sizeof(err));
	if (r == -ENOMEM)
		oom();
	if (r < 0)
		cli_die(EXIT_USAGE, "%s", err);
	m.topo = &c->topo;
	m.kt = &kt;
	n = plan_verify(&m, &plan, a->reserved ? &reserved : NULL, &d, &f);
	if (n < 0)
		oom();
	ktopo_free(&kt);
	plan_devices_free(&d);
	strbuf_init(&sb);
	if (c->mode == 'j') {
		json_init(&j, &sb);
		json_obj_begin(&j);
		plan_findings_json(&f, &j);
		json_obj_end(&j);
		cli_check_json(&j);
		strbuf_add(&sb, "\n", 1);
	} else {
		plan_findings_text(&f, &sb);
	}
	if (sb.oom)
		oom();
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	plan_findings_free(&f);
	plan_free(&plan);
	cpuset_free(&reserved);
	return n ? EXIT_UNSAT : EXIT_OK;
}

/* The arguments of check. */

/* check --json: {"cpus": LIST, "findings": [{"level", "message"}...]}. */
static void
print_findings_json(const struct cpuset *cpus, const struct strbuf *report)
{
	char *l = cpuset_to_list(cpus);
	struct strbuf sb;
	struct json j;

	if (l == NULL)
		oom();
	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	json_key(&j, "cpus");
	json_str(&j, l);
	json_key(&j, "findings");
	if (findings_json(report->buf ? report->buf : "", report->len, &j) < 0)
		oom();
	json_obj_end(&j);
	cli_check_json(&j);
	strbuf_puts(&sb, "\n");
	cli_write(&sb);
	strbuf_free(&sb);
	free(l);
}

/* The devices of check --device DEV[,DEV...], each looked up. */
static struct device *
check_devices(struct ctx *c, const char *list, size_t *n)
{
	struct device *v;
	const char *p;
	size_t cap = 1;

	for (p = list; *p; p++)
		cap += *p == ',';
	v = calloc(cap, sizeof(*v));
	if (v == NULL)
		oom();
	*n = 0;
	for (p = list; ; ) {
		size_t len = strcspn(p, ",");
		char name[256], err[512];
		int r;

		if (len == 0 || len >= sizeof(name))
			cli_usage_error("invalid --device list '%s'", list);
		memcpy(name, p, len);
		name[len] = '\0';
		r = device_find(&v[*n], &c->root, name, err, sizeof(err));
		if (r == -ENOMEM)
			oom();
		if (r < 0)
			cli_die(EXIT_USAGE, "invalid --device: %s", err);
		(*n)++;
		p += len;
		if (!*p)
			break;
		p++;
	}
	return v;
}

/* check CPULIST --isolation: what still reaches the CPUs. */
static int
cmd_check_isolation(struct ctx *c, int argc, char **argv)
{
	const struct check_args *a = &c->check;
	struct cpuset cpus = CPUSET_INIT;
	struct strbuf sb;
	char err[256];
	int n;

	if (a->nodes || a->irqs || a->policy_given || a->device || a->pid ||
	    a->cgroup || a->reserved || a->cgroup_root)
		cli_usage_error("--isolation goes with one cpulist alone "
				"(and --json)");
	if (argc != 2)
		cli_usage_error("check --isolation takes one cpulist");
	load(c);
	parse_cpus_arg(c, "cpulist", argv[1], &cpus);
	strbuf_init(&sb);
	n = isolation_check(&c->root, &cpus, &sb, err, sizeof(err));
	if (n == -ENOMEM)
		oom();
	if (n < 0)
		cli_die(EXIT_FAIL, "%s", err);
	if (c->mode == 'j')
		print_findings_json(&cpus, &sb);
	else if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	cpuset_free(&cpus);
	return n ? EXIT_UNSAT : EXIT_OK;
}

static int
cmd_check(struct ctx *c, int argc, char **argv)
{
	struct cpuset cpus = CPUSET_INIT, want_nodes = CPUSET_INIT;
	const struct check_args *a = &c->check;
	struct placement_query q;
	struct device *devs = NULL;
	size_t ndevs = 0, i;
	struct strbuf sb;
	char err[256];
	int n;

	if (a->plan)
		return cmd_check_plan(c, argc);
	if (a->isolation)
		return cmd_check_isolation(c, argc, argv);
	if (a->reserved)
		cli_usage_error("--reserved goes with --plan");
	if (a->pid || a->cgroup) {
		if (a->pid && a->cgroup)
			cli_usage_error("--pid and --cgroup cannot be combined");
		if (argc > 1)
			cli_usage_error("check --pid or --cgroup takes no cpulist");
		if (a->nodes || a->irqs || c->check.policy != PLACE_COMPACT)
			cli_usage_error("--nodes, --policy and --irqs go with a "
					"cpulist, not --pid or --cgroup");
		return check_live(c);
	}
	if (a->cgroup_root)
		cli_usage_error("--cgroup-root goes with --cgroup");
	if (argc < 2)
		cli_usage_error("check needs a cpulist or --plan FILE");
	if (argc > 2)
		cli_usage_error("check takes one cpulist");
	parse_cpus_arg(c, "cpulist", argv[1], &cpus);
	if (a->nodes) {
		char *text = cli_list_text(a->nodes);
		int r = cpuset_parse_list(text, &want_nodes, err, sizeof(err));

		free(text);
		if (r < 0)
			cli_die(EXIT_USAGE, "invalid nodelist %s", err);
	}
	if (a->device)
		devs = check_devices(c, a->device, &ndevs);
	memset(&q, 0, sizeof(q));
	q.cpus = &cpus;
	q.nodes = a->nodes ? &want_nodes : NULL;
	q.policy = a->policy;
	q.irqs = a->irqs;
	q.interval_us = a->interval_us;
	q.devices = devs;
	q.ndevices = ndevs;
	strbuf_init(&sb);
	n = placement_report(&c->root, load(c), load_types(c), &q, &sb, err,
			     sizeof(err));
	if (n == -ENOMEM)
		oom();
	if (n < 0)
		cli_die(EXIT_FAIL, "%s", err);
	for (i = 0; i < ndevs; i++)
		device_free(&devs[i]);
	free(devs);
	if (c->mode == 'j')
		print_findings_json(&cpus, &sb);
	else if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	cpuset_free(&cpus);
	cpuset_free(&want_nodes);
	return n ? EXIT_UNSAT : EXIT_OK;
}

/* ---- draw ---- */

static int
cmd_draw(struct ctx *c, int argc, char **argv)
{
	struct draw_input in = { 0 };
	struct draw_opts o = { 0 };
	struct devices devs;
	struct strbuf sb;
	char err[512];
	int r;

	if (argc != 1)
		cli_usage_error("draw takes no arguments");
	in.topo = load(c);
	in.mem = load_memtier(c);
	r = device_list(&devs, &c->root, err, sizeof(err));
	if (r == -ENOMEM)
		oom();
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
	in.devs = &devs;
	o.width = cli_draw_width((int)c->draw.width);
	o.ascii = c->draw.ascii;
	o.color = c->draw.color && !c->draw.svg;
	strbuf_init(&sb);
	r = c->draw.svg ? draw_svg(&in, &o, &sb) : draw_text(&in, &o, &sb);
	devices_free(&devs);
	if (r < 0)
		oom();
	cli_write(&sb);
	strbuf_free(&sb);
	return EXIT_OK;
}

/* ---- dump ---- */

static int
cmd_dump(struct ctx *c, int argc, char **argv)
{
	char err[512];
	int r;

	if (argc != 2)
		cli_usage_error(argc < 2 ? "dump needs a directory" :
				"dump takes one directory");
	cli_open_sysroot(c->sysroot, &c->root);
	r = topo_dump(&c->root, argv[1], err, sizeof(err));
	if (r == -EEXIST || r == -EINVAL)
		cli_die(EXIT_USAGE, "%s", err);
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
	return EXIT_OK;
}

enum { C_NONE, C_CPUS, C_NODES, C_CHECK, C_DUMP, C_DEVICES, C_MEMORY,
       C_DRAW, C_NCMDS };
static const char *const commands[] = {
	[C_NONE] = NULL, [C_CPUS] = "cpus", [C_NODES] = "nodes",
	[C_CHECK] = "check", [C_DUMP] = "dump", [C_DEVICES] = "devices",
	[C_MEMORY] = "memory", [C_DRAW] = "draw",
};
enum { OPT_SYSROOT = 256, OPT_AND, OPT_NOT,
       OPT_POLICY, OPT_NODES, OPT_IRQS, OPT_INTERVAL, OPT_PLAN,
       OPT_RESERVED, OPT_DEVICE, OPT_LIST, OPT_PID, OPT_CGROUP,
       OPT_CGROUP_ROOT, OPT_ASCII, OPT_WIDTH, OPT_COLOR, OPT_SVG,
       OPT_ISOLATION };
static const struct cli_option opts[] = {
	{ "extended", no_argument, 'e', 1u << C_NONE },
	{ "json", no_argument, 'j',
	  (1u << C_NONE) | (1u << C_CPUS) | (1u << C_NODES) | (1u << C_CHECK) |
	  (1u << C_DEVICES) | (1u << C_MEMORY) },
	{ "caches", no_argument, 'C', 1u << C_NONE },
	{ "output", required_argument, 'o',
	  1u << C_NONE | 1u << C_DEVICES | 1u << C_MEMORY },
	{ "columns", required_argument, 'o',
	  1u << C_NONE | 1u << C_DEVICES | 1u << C_MEMORY },
	CLI_TABLE_OPTIONS(1u << C_NONE | 1u << C_DEVICES | 1u << C_MEMORY),
	{ "list", no_argument, OPT_LIST, 1u << C_MEMORY },
	{ "and", required_argument, OPT_AND, 1u << C_CPUS },
	{ "not", required_argument, OPT_NOT, 1u << C_CPUS },
	{ "count", no_argument, 'c', 1u << C_CPUS },
	{ "policy", required_argument, OPT_POLICY, 1u << C_CHECK },
	{ "nodes", required_argument, OPT_NODES, 1u << C_CHECK },
	{ "irqs", no_argument, OPT_IRQS, 1u << C_CHECK },
	{ "isolation", no_argument, OPT_ISOLATION, 1u << C_CHECK },
	{ "interval", required_argument, OPT_INTERVAL, 1u << C_CHECK },
	{ "plan", required_argument, OPT_PLAN, 1u << C_CHECK },
	{ "reserved", required_argument, OPT_RESERVED, 1u << C_CHECK },
	{ "device", required_argument, OPT_DEVICE, 1u << C_CHECK },
	{ "pid", required_argument, OPT_PID, 1u << C_CHECK },
	{ "cgroup", required_argument, OPT_CGROUP, 1u << C_CHECK },
	{ "cgroup-root", required_argument, OPT_CGROUP_ROOT, 1u << C_CHECK },
	{ "ascii", no_argument, OPT_ASCII, 1u << C_DRAW },
	{ "width", required_argument, OPT_WIDTH, 1u << C_DRAW },
	{ "color", required_argument, OPT_COLOR, 1u << C_DRAW },
	{ "svg", no_argument, OPT_SVG, 1u << C_DRAW },
	{ "sysroot", required_argument, OPT_SYSROOT, CLI_ALL_COMMANDS },
	{ "help", no_argument, 'h', CLI_ALL_COMMANDS },
	{ "version", no_argument, 'V', CLI_ALL_COMMANDS },
	{ NULL, 0, 0, 0 },
};
static const struct cli_exclusion excl[] = {
	{ 'e', 'j' }, { 'e', 'C' }, { 0, 0 }
};

/* Record opt in d when it is one of draw's options; true if so. */
static bool
draw_option(struct draw_args *d, int opt, bool *color_given)
{
	switch (opt) {
	case OPT_ASCII:
		d->ascii = true;
		return true;
	case OPT_SVG:
		d->svg = true;
		return true;
	case OPT_WIDTH:
		if (parse_uint(optarg, 100000, &d->width) < 0 || d->width < 20)
			cli_usage_error("invalid --width '%s' (columns, 20 or "
					"more)", optarg);
		return true;
	case OPT_COLOR:
		d->color = cli_draw_color(optarg);
		*color_given = true;
		return true;
	}
	return false;
}

/*
 * Parse the options and the command word; on return *argcp and *argvp
 * hold the command and its arguments, and c->mode the output mode.
 */
static int
parse_args(struct ctx *c, int *argcp, char ***argvp)
{
	struct cli_parser p;
	bool color_given = false;
	int opt, cmd;

	/* Options may come before or after the command and its arguments. */
	cli_parser_init(&p, opts, excl, commands, false);
	while ((opt = cli_next_option(&p, *argcp, *argvp)) != -1) {
		if (cli_table_option(opt, &c->table) ||
		    draw_option(&c->draw, opt, &color_given))
			continue;
		switch (opt) {
		case 'e':
		case 'j':
			c->mode = opt;
			break;
		case 'o':
			c->columns = optarg;
			break;
		case 'C':
			c->caches_view = true;
			break;
		case OPT_AND:
			c->ands[c->nands++] = optarg;
			break;
		case OPT_NOT:
			c->nots[c->nnots++] = optarg;
			break;
		case 'c':
			c->count = true;
			break;
		case OPT_POLICY:
			if (placement_policy_parse(optarg, &c->check.policy) < 0)
				cli_usage_error("unknown policy '%s' (compact, spread or local)",
						optarg);
			c->check.policy_given = true;
			break;
		case OPT_PLAN:
			c->check.plan = optarg;
			break;
		case OPT_RESERVED:
			c->check.reserved = optarg;
			break;
		case OPT_LIST:
			c->list = true;
			break;
		case OPT_PID:
			c->check.pid = optarg;
			break;
		case OPT_CGROUP:
			c->check.cgroup = optarg;
			break;
		case OPT_CGROUP_ROOT:
			c->check.cgroup_root = optarg;
			break;
		case OPT_NODES:
			c->check.nodes = optarg;
			break;
		case OPT_IRQS:
			c->check.irqs = true;
			break;
		case OPT_ISOLATION:
			c->check.isolation = true;
			break;
		case OPT_DEVICE:
			if (!*optarg)
				cli_usage_error("--device needs a device");
			c->check.device = optarg;
			break;
		case OPT_INTERVAL:
			c->check.interval = optarg;
			if (parse_duration_us(optarg, &c->check.interval_us) < 0 ||
			    c->check.interval_us > 3600ULL * 1000000)
				cli_usage_error("invalid --interval '%s' (a duration "
						"such as 500ms or 2s, at most 1h)", optarg);
			break;
		case OPT_SYSROOT:
			c->sysroot = optarg;
			break;
		case 'h':
			usage();
			cli_exit(EXIT_OK);
		case 'V':
			cli_version();
		}
	}
	*argcp -= optind;
	*argvp += optind;
	cmd = C_NONE;
	if (*argcp > 0) {
		for (cmd = C_CPUS; cmd < C_NCMDS; cmd++)
			if (strcmp((*argvp)[0], commands[cmd]) == 0)
				break;
		if (cmd == C_NCMDS)
			cli_usage_error("unknown command '%s'",
					(*argvp)[0]);
	}
	cli_check_options(&p, cmd);
	if (!color_given)
		c->draw.color = cli_draw_color(NULL);
	if (c->check.interval && !c->check.irqs)
		cli_usage_error("--interval needs --irqs");
	if (c->list && (c->mode == 'j' || c->columns || c->table.raw ||
			c->table.noheadings))
		cli_usage_error("--list prints a nodelist: no --json, -o, --raw or --noheadings");
	if (c->mode == 'j' && (c->table.raw || c->table.noheadings))
		cli_usage_error("--raw and --noheadings go with -e, not --json");
	if (c->caches_view && c->columns)
		cli_usage_error("-o chooses the columns of -e, not of -C");
	/* A column list or a table style asks for the -e table. */
	if (!c->mode && !c->caches_view && cmd == C_NONE &&
	    (c->columns || c->table.raw || c->table.noheadings))
		c->mode = 'e';
	return cmd;
}

static int
run_command(struct ctx *c, int cmd, int argc, char **argv)
{
	if (cmd == C_NONE) {
		if (c->caches_view)
			print_caches(c);
		else if (c->mode == 'e')
			print_extended(c);
		else if (c->mode == 'j')
			print_json(c);
		else
			print_summary(c);
		return EXIT_OK;
	}
	if (cmd == C_CPUS)
		return cmd_cpus(c, argc, argv);
	if (cmd == C_NODES)
		return cmd_nodes(c, argc, argv);
	if (cmd == C_CHECK)
		return cmd_check(c, argc, argv);
	if (cmd == C_DEVICES)
		return cmd_devices(c, argc, argv);
	if (cmd == C_MEMORY)
		return cmd_memory(c, argc, argv);
	if (cmd == C_DRAW)
		return cmd_draw(c, argc, argv);
	return cmd_dump(c, argc, argv);
}

int
main(int argc, char **argv)
{
	struct ctx c = { 0 };
	int status, cmd;

	cli_init("cpm-topo");
	c.ands = calloc((size_t)argc + 1, sizeof(*c.ands));
	c.nots = calloc((size_t)argc + 1, sizeof(*c.nots));
	if (c.ands == NULL || c.nots == NULL)
		oom();
	c.check.policy = PLACE_COMPACT;
	c.check.interval_us = 1000000;
	cmd = parse_args(&c, &argc, &argv);
	status = run_command(&c, cmd, argc, argv);
	if (c.ct_loaded)
		coretype_free(&c.ct);
	if (c.caches_loaded)
		cache_free(&c.caches);
	if (c.mt_loaded)
		memtier_free(&c.mt);
	if (c.loaded)
		topo_free(&c.topo);
	free(c.ands);
	free(c.nots);
	cli_exit(status);
}
