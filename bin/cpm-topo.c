// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-topo: what the machine looks like.  Sockets, dies, cores, SMT
 * threads, L3 groups and NUMA nodes; cpulist queries over them; placement
 * checks; and a dump of every file cpm reads, for replay with --sysroot.
 */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli.h"
#include "coretype.h"
#include "irq.h"
#include "json.h"
#include "placement.h"
#include "select.h"
#include "topo.h"
#include "topodump.h"

struct ctx {
	const char *sysroot;
	struct sysroot root;
	struct topo topo;
	bool loaded;
	struct coretypes ct;
	bool ct_loaded;
};

static void
usage(void)
{
	printf(
"Usage: cpm-topo [--sysroot DIR] [-e | --json]\n"
"       cpm-topo [--sysroot DIR] cpus SELECTOR... [--and SEL]... [--not SEL]... [--count]\n"
"       cpm-topo [--sysroot DIR] nodes CPULIST\n"
"       cpm-topo [--sysroot DIR] check CPULIST [--policy compact|spread|local] [--nodes NODELIST]\n"
"                [--irqs [--interval DURATION]]\n"
"       cpm-topo [--sysroot DIR] dump DIR\n"
"\n"
"Show the machine's CPU topology and answer cpulist questions about it.\n"
"\n"
"Options:\n"
"  -e, --extended     one row per possible CPU: CPU NODE SOCKET DIE CORE L3 ONLINE\n"
"                     (and TYPE CAPACITY on a machine with several core types)\n"
"  -j, --json         the whole topology as one JSON document\n"
"      --sysroot DIR  read sys/ and proc/ below DIR (env CPM_SYSROOT)\n"
"  -h, --help         show this help\n"
"  -V, --version      show the version\n"
"\n"
"Commands:\n"
"  cpus SELECTOR...   print the union of the selectors as a cpulist, then\n"
"                     intersect with each --and and remove each --not;\n"
"                     --count prints the number of CPUs instead.\n"
"  nodes CPULIST      print the NUMA nodes that hold those CPUs\n"
"  check CPULIST      print 'warning: ...'/'error: ...' findings about a\n"
"                     placement; exit 3 when there are any.  --policy\n"
"                     compact (default) or local want one node, spread\n"
"                     wants several; --nodes names the nodes allowed.\n"
"                     --irqs adds the device IRQs that may fire on those\n"
"                     CPUs and each CPU's interrupts over --interval\n"
"                     (default 1s, two samples of /proc/interrupts).\n"
"  dump DIR           copy every file cpm reads into DIR (for --sysroot)\n"
"\n"
"Selectors: a cpulist, '-' (stdin), all (possible), present, online,\n"
"offline, isolated, allowed, node:N, socket:N, die:S.D, l3:N, siblings:CPU\n"
"(the CPU and its SMT siblings), thread:K (the K-th thread of every core),\n"
"type:NAME (a core type: performance, efficiency, on some machines prime and\n"
"mid; big/p and little/e are aliases), capacity:MIN-MAX (the kernel's\n"
"cpu_capacity, 1024 for the fastest CPU).\n"
"Topology selectors (node, socket, die, l3, thread, type, capacity) yield\n"
"online CPUs.\n"
"CORE is the lowest CPU of a core's SMT siblings; L3 is the cache id.\n"
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

/* Parse a cpulist argument and insist that its CPUs exist. */
static void
parse_cpus_arg(struct ctx *c, const char *what, const char *arg,
	       struct cpuset *s)
{
	cli_parse_cpus(load(c), what, arg, s);
}

/* ---- summary ---- */

static void
print_list_field(const char *label, const struct cpuset *s)
{
	char *l = cpuset_to_list(s);

	if (l == NULL)
		oom();
	printf("%-22s%s\n", label, *l ? l : "-");
	free(l);
}

static void
print_kb(int64_t kb)
{
	if (kb < 0)
		printf("?");
	else if (kb >= 10 * 1024 * 1024)
		printf("%.1f GiB", (double)kb / (1024.0 * 1024.0));
	else
		printf("%lld MiB", (long long)(kb / 1024));
}

/* Counts of distinct values over online CPUs. */
static void
shape(const struct topo *t, int *dies_per_socket, int *cores_per_socket)
{
	int i, maxd = 0, maxc = 0;

	for (i = 0; i < t->nsockets; i++) {
		struct cpuset dies = CPUSET_INIT;
		int cpu, cores = 0;

		cpuset_for_each(cpu, &t->sockets[i].cpus) {
			const struct topo_cpu *tc = &t->cpus[cpu];

			if (tc->die >= 0 && cpuset_set(&dies, (unsigned int)tc->die) < 0)
				oom();
			if (tc->core == cpu)
				cores++;
		}
		if ((int)cpuset_count(&dies) > maxd)
			maxd = (int)cpuset_count(&dies);
		if (cores > maxc)
			maxc = cores;
		cpuset_free(&dies);
	}
	*dies_per_socket = maxd;
	*cores_per_socket = maxc;
}

/* Hybrid machines only: one line per core type, fastest first. */
static void
print_types(struct ctx *c)
{
	struct coretypes *ct = load_types(c);
	int i;

	if (!coretype_hybrid(ct))
		return;
	printf("%-22s%d\n", "Core types:", ct->ntypes);
	for (i = 0; i < ct->ntypes; i++) {
		const struct coretype *ty = &ct->types[i];
		char label[40], *l = cpuset_to_list(&ty->cpus);

		if (l == NULL)
			oom();
		snprintf(label, sizeof(label), "Type %s:", ty->name);
		printf("%-22sCPUs %s, %u core%s, capacity ", label, l, ty->cores,
		       ty->cores == 1 ? "" : "s");
		if (ty->capacity >= 0)
			printf("%d\n", ty->capacity);
		else
			printf("?\n");
		free(l);
	}
}

static void
print_summary(struct ctx *c)
{
	struct topo *t = load(c);
	int i, j, dies, cores;

	print_list_field("Possible CPUs:", &t->possible);
	print_list_field("Present CPUs:", &t->present);
	print_list_field("Online CPUs:", &t->online);
	print_list_field("Offline CPUs:", &t->offline);
	print_list_field("Isolated CPUs:", &t->isolated);
	shape(t, &dies, &cores);
	printf("%-22s%d\n", "Sockets:", t->nsockets);
	printf("%-22s%d\n", "Dies per socket:", dies);
	printf("%-22s%d\n", "Cores per socket:", cores);
	printf("%-22s%d\n", "Threads per core:", t->threads_per_core);
	print_types(c);
	for (i = 0; i < t->nsockets; i++) {
		char label[40];

		snprintf(label, sizeof(label), "Socket %d CPUs:", t->sockets[i].id);
		print_list_field(label, &t->sockets[i].cpus);
	}
	printf("%-22s%d\n", "NUMA nodes:", t->nnodes);
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];
		char label[40], *l = cpuset_to_list(&n->cpus);

		if (l == NULL)
			oom();
		snprintf(label, sizeof(label), "NUMA node %d:", n->id);
		printf("%-22sCPUs %s, memory ", label, *l ? l : "-");
		print_kb(n->mem_total_kb);
		printf(" total, ");
		print_kb(n->mem_free_kb);
		printf(" free\n");
		free(l);
	}
	if (t->nnodes > 0 && t->nodes[0].distance) {
		printf("NUMA distances:\n%6s", "node");
		for (j = 0; j < t->nnodes; j++)
			printf(" %5d", t->nodes[j].id);
		printf("\n");
		for (i = 0; i < t->nnodes; i++) {
			printf("%6d", t->nodes[i].id);
			for (j = 0; j < t->nnodes; j++)
				if (t->nodes[i].distance)
					printf(" %5d", t->nodes[i].distance[j]);
				else
					printf(" %5s", "-");
			printf("\n");
		}
	}
	printf("%-22s%d\n", "L3 groups:", t->nl3);
	for (i = 0; i < t->nl3; i++) {
		char label[40], *l = cpuset_to_list(&t->l3s[i].cpus);

		if (l == NULL)
			oom();
		snprintf(label, sizeof(label), "L3 %d:", t->l3s[i].id);
		printf("%-22sCPUs %s, size ", label, l);
		if (t->l3s[i].size_kb < 0)
			printf("?\n");
		else if (t->l3s[i].size_kb % 1024 == 0)
			printf("%lld MiB\n", (long long)(t->l3s[i].size_kb / 1024));
		else
			printf("%lld KiB\n", (long long)t->l3s[i].size_kb);
		free(l);
	}
	print_list_field("Allowed CPUs:", &t->allowed);
	if (t->cpu_limit >= 0)
		printf("%-22s%.2f CPUs\n", "CPU limit:", t->cpu_limit);
	else
		printf("%-22s%s\n", "CPU limit:", "none");
}

/* ---- -e ---- */

static void
put_id(struct strbuf *sb, int v, int width)
{
	if (v < 0)
		strbuf_printf(sb, " %*s", width, "-");
	else
		strbuf_printf(sb, " %*d", width, v);
}

static void
print_extended(struct ctx *c)
{
	struct topo *t = load(c);
	struct coretypes *ct = load_types(c);
	bool hybrid = coretype_hybrid(ct);
	struct strbuf sb;
	int cpu;

	strbuf_init(&sb);
	strbuf_puts(&sb, hybrid ?
		    "CPU NODE SOCKET DIE CORE L3 ONLINE        TYPE CAPACITY\n" :
		    "CPU NODE SOCKET DIE CORE L3 ONLINE\n");
	cpuset_for_each(cpu, &t->possible) {
		const struct topo_cpu *tc = &t->cpus[cpu];

		strbuf_printf(&sb, "%3d", cpu);
		put_id(&sb, tc->node, 4);
		put_id(&sb, tc->socket, 6);
		put_id(&sb, tc->die, 3);
		put_id(&sb, tc->core, 4);
		put_id(&sb, tc->l3 >= 0 ? t->l3s[tc->l3].id : -1, 2);
		strbuf_printf(&sb, " %6s", tc->online ? "yes" : "no");
		if (hybrid) {
			int ty = ct->type[cpu];

			strbuf_printf(&sb, " %11s", ty >= 0 ? ct->types[ty].name : "-");
			put_id(&sb, ct->capacity[cpu], 8);
		}
		strbuf_puts(&sb, "\n");
	}
	if (sb.oom)
		oom();
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
}

/* ---- --json ---- */

static void
json_id(struct json *j, const char *key, int v)
{
	json_key(j, key);
	if (v < 0)
		json_null(j);
	else
		json_int(j, v);
}

static void
json_list(struct json *j, const char *key, const struct cpuset *s)
{
	char *l = cpuset_to_list(s);

	if (l == NULL)
		oom();
	json_key(j, key);
	json_str(j, l);
	free(l);
}

static void
print_json(struct ctx *c)
{
	struct topo *t = load(c);
	struct coretypes *ct = load_types(c);
	bool hybrid = coretype_hybrid(ct);
	struct cpuset sib = CPUSET_INIT;
	struct strbuf sb;
	struct json j;
	int cpu, i, k;

	strbuf_init(&sb);
	json_init(&j, &sb);
	json_obj_begin(&j);
	json_list(&j, "possible", &t->possible);
	json_list(&j, "present", &t->present);
	json_list(&j, "online", &t->online);
	json_list(&j, "offline", &t->offline);
	json_list(&j, "isolated", &t->isolated);
	json_list(&j, "allowed", &t->allowed);
	json_key(&j, "threads_per_core");
	json_int(&j, t->threads_per_core);
	json_key(&j, "cpu_limit");
	if (t->cpu_limit >= 0)
		json_double(&j, t->cpu_limit, 3);
	else
		json_null(&j);
	json_key(&j, "cpus");
	json_arr_begin(&j);
	cpuset_for_each(cpu, &t->possible) {
		const struct topo_cpu *tc = &t->cpus[cpu];

		json_obj_begin(&j);
		json_id(&j, "cpu", cpu);
		json_key(&j, "online");
		json_bool(&j, tc->online);
		json_id(&j, "node", tc->node);
		json_id(&j, "socket", tc->socket);
		json_id(&j, "die", tc->die);
		json_id(&j, "core", tc->core);
		json_id(&j, "l3", tc->l3 >= 0 ? t->l3s[tc->l3].id : -1);
		if (tc->core >= 0) {
			if (topo_siblings(t, cpu, &sib) < 0)
				oom();
			json_list(&j, "siblings", &sib);
		} else {
			json_key(&j, "siblings");
			json_null(&j);
		}
		if (hybrid) {
			json_key(&j, "core_type");
			if (ct->type[cpu] >= 0)
				json_str(&j, ct->types[ct->type[cpu]].name);
			else
				json_null(&j);
			json_id(&j, "capacity", ct->capacity[cpu]);
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "nodes");
	json_arr_begin(&j);
	for (i = 0; i < t->nnodes; i++) {
		const struct topo_node *n = &t->nodes[i];

		json_obj_begin(&j);
		json_id(&j, "node", n->id);
		json_list(&j, "cpus", &n->cpus);
		json_key(&j, "memory_total_kb");
		if (n->mem_total_kb >= 0)
			json_int(&j, n->mem_total_kb);
		else
			json_null(&j);
		json_key(&j, "memory_free_kb");
		if (n->mem_free_kb >= 0)
			json_int(&j, n->mem_free_kb);
		else
			json_null(&j);
		json_key(&j, "distances");
		if (n->distance) {
			json_arr_begin(&j);
			for (k = 0; k < t->nnodes; k++)
				json_int(&j, n->distance[k]);
			json_arr_end(&j);
		} else {
			json_null(&j);
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "sockets");
	json_arr_begin(&j);
	for (i = 0; i < t->nsockets; i++) {
		json_obj_begin(&j);
		json_id(&j, "socket", t->sockets[i].id);
		json_list(&j, "cpus", &t->sockets[i].cpus);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "l3");
	json_arr_begin(&j);
	for (i = 0; i < t->nl3; i++) {
		json_obj_begin(&j);
		json_id(&j, "id", t->l3s[i].id);
		json_list(&j, "cpus", &t->l3s[i].cpus);
		json_key(&j, "size_kb");
		if (t->l3s[i].size_kb >= 0)
			json_int(&j, t->l3s[i].size_kb);
		else
			json_null(&j);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	if (hybrid) {
		json_key(&j, "core_types");
		json_arr_begin(&j);
		for (i = 0; i < ct->ntypes; i++) {
			json_obj_begin(&j);
			json_key(&j, "core_type");
			json_str(&j, ct->types[i].name);
			json_list(&j, "cpus", &ct->types[i].cpus);
			json_key(&j, "cores");
			json_int(&j, ct->types[i].cores);
			json_id(&j, "capacity", ct->types[i].capacity);
			json_obj_end(&j);
		}
		json_arr_end(&j);
	}
	json_obj_end(&j);
	strbuf_add(&sb, "\n", 1);
	if (sb.oom)
		oom();
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	cpuset_free(&sib);
}

/* ---- cpus ---- */

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
	const char **ands, **nots, **sels;
	int na = 0, nn = 0, ns = 0, i;
	bool count = false;

	sels = calloc((size_t)argc + 1, sizeof(char *));
	ands = calloc((size_t)argc + 1, sizeof(char *));
	nots = calloc((size_t)argc + 1, sizeof(char *));
	if (!sels || !ands || !nots)
		oom();
	/* Parse everything first: an error in the last word changes nothing. */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--and") == 0 || strcmp(a, "--not") == 0) {
			if (i + 1 >= argc)
				cli_usage_error("option '%s' needs a selector", a);
			if (a[2] == 'a')
				ands[na++] = argv[++i];
			else
				nots[nn++] = argv[++i];
		} else if (startswith(a, "--and=")) {
			ands[na++] = a + 6;
		} else if (startswith(a, "--not=")) {
			nots[nn++] = a + 6;
		} else if (strcmp(a, "--count") == 0 || strcmp(a, "-c") == 0) {
			count = true;
		} else if (a[0] == '-' && a[1] != '\0') {
			cli_usage_error("unknown option '%s'", a);
		} else {
			sels[ns++] = a;
		}
	}
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
	if (count)
		printf("%u\n", cpuset_count(&result));
	else
		cli_print_cpuset(&result);
	cpuset_free(&result);
	cpuset_free(&sel);
	free(sels);
	free(ands);
	free(nots);
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
	cli_print_cpuset(&nodes);
	cpuset_free(&cpus);
	cpuset_free(&nodes);
	return EXIT_OK;
}

/* ---- check ---- */

/* The arguments of check. */
struct check_args {
	const char *list, *nodes, *interval;
	enum placement_policy policy;
	uint64_t interval_us;
	bool irqs;
};

static void
parse_check_args(int argc, char **argv, struct check_args *a)
{
	int i;

	memset(a, 0, sizeof(*a));
	a->policy = PLACE_COMPACT;
	a->interval_us = 1000000;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const char *val = NULL;

		if (strcmp(arg, "--irqs") == 0) {
			a->irqs = true;
			continue;
		}
		if (strcmp(arg, "--policy") == 0 || strcmp(arg, "--nodes") == 0 ||
		    strcmp(arg, "--interval") == 0) {
			if (i + 1 >= argc)
				cli_usage_error("option '%s' needs an argument",
						arg);
			val = argv[++i];
		} else if (startswith(arg, "--policy=") ||
			   startswith(arg, "--nodes=") ||
			   startswith(arg, "--interval=")) {
			val = strchr(arg, '=') + 1;
		} else if (arg[0] == '-' && arg[1] != '\0') {
			cli_usage_error("unknown option '%s'", arg);
		} else {
			if (a->list)
				cli_usage_error("check takes one cpulist");
			a->list = arg;
			continue;
		}
		if (startswith(arg, "--policy")) {
			if (placement_policy_parse(val, &a->policy) < 0)
				cli_usage_error("unknown policy '%s' (compact, spread or local)",
						val);
		} else if (startswith(arg, "--interval")) {
			a->interval = val;
			if (parse_duration_us(val, &a->interval_us) < 0 ||
			    a->interval_us > 3600ULL * 1000000)
				cli_usage_error("invalid --interval '%s' (a duration "
						"such as 500ms or 2s, at most 1h)", val);
		} else {
			a->nodes = val;
		}
	}
	if (a->list == NULL)
		cli_usage_error("check needs a cpulist");
	if (a->interval && !a->irqs)
		cli_usage_error("--interval needs --irqs");
}

static int
cmd_check(struct ctx *c, int argc, char **argv)
{
	struct cpuset cpus = CPUSET_INIT, want_nodes = CPUSET_INIT;
	struct check_args a;
	struct placement_query q;
	struct strbuf sb;
	char err[256];
	int n;

	parse_check_args(argc, argv, &a);
	parse_cpus_arg(c, "cpulist", a.list, &cpus);
	if (a.nodes) {
		char *text = cli_list_text(a.nodes);
		int r = cpuset_parse_list(text, &want_nodes, err, sizeof(err));

		free(text);
		if (r < 0)
			cli_die(EXIT_USAGE, "invalid nodelist %s", err);
	}
	memset(&q, 0, sizeof(q));
	q.cpus = &cpus;
	q.nodes = a.nodes ? &want_nodes : NULL;
	q.policy = a.policy;
	q.irqs = a.irqs;
	q.interval_us = a.interval_us;
	strbuf_init(&sb);
	n = placement_report(&c->root, load(c), load_types(c), &q, &sb, err,
			     sizeof(err));
	if (n == -ENOMEM)
		oom();
	if (n < 0)
		cli_die(EXIT_FAIL, "%s", err);
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	cpuset_free(&cpus);
	cpuset_free(&want_nodes);
	return n ? EXIT_UNSAT : EXIT_OK;
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

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "extended", no_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' },
		{ "sysroot", required_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx c = { 0 };
	int opt, mode = 0, status = EXIT_OK;
	const char *cmd;

	cli_init("cpm-topo");
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:ejhV", opts, NULL)) != -1) {
		switch (opt) {
		case 'e':
		case 'j':
			if (mode && mode != opt)
				cli_usage_error("--extended and --json cannot be combined");
			mode = opt;
			break;
		case 'S':
			c.sysroot = optarg;
			break;
		case 'h':
			usage();
			cli_exit(EXIT_OK);
		case 'V':
			cli_version();
		case ':':
			cli_usage_error("option '%s' needs an argument",
					argv[optind - 1]);
		default:
			cli_usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	argc -= optind;
	argv += optind;
	/* --sysroot may also follow the command. */
	{
		int i, k = 0;

		for (i = 0; i < argc; i++) {
			if (strcmp(argv[i], "--sysroot") == 0) {
				if (i + 1 >= argc)
					cli_usage_error("option '--sysroot' needs a directory");
				c.sysroot = argv[++i];
			} else if (startswith(argv[i], "--sysroot=")) {
				c.sysroot = argv[i] + 10;
			} else {
				argv[k++] = argv[i];
			}
		}
		argc = k;
	}
	if (argc == 0) {
		if (mode == 'e')
			print_extended(&c);
		else if (mode == 'j')
			print_json(&c);
		else
			print_summary(&c);
		cli_exit(EXIT_OK);
	}
	if (mode)
		cli_usage_error("-e and --json go without a command");
	cmd = argv[0];
	if (strcmp(cmd, "cpus") == 0)
		status = cmd_cpus(&c, argc, argv);
	else if (strcmp(cmd, "nodes") == 0)
		status = cmd_nodes(&c, argc, argv);
	else if (strcmp(cmd, "check") == 0)
		status = cmd_check(&c, argc, argv);
	else if (strcmp(cmd, "dump") == 0)
		status = cmd_dump(&c, argc, argv);
	else
		cli_usage_error("unknown command '%s'", cmd);
	if (c.ct_loaded)
		coretype_free(&c.ct);
	if (c.loaded)
		topo_free(&c.topo);
	cli_exit(status);
}
