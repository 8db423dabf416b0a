// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-alloc: hand out CPUs the way the kubelet's CPU Manager does, and
 * remember who got which in a state file that survives crashes and
 * concurrent callers.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc/alloc.h"
#include "alloc/allochook.h"
#include "alloc/allocinit.h"
#include "alloc/allocnear.h"
#include "alloc/allocpod.h"
#include "alloc/alloctable.h"
#include "alloc/alloctake.h"
#include "alloc/kmemstate.h"
#include "alloc/kstate.h"
#include "alloc/planapply.h"
#include "alloc/state.h"
#include "base/err.h"
#include "base/findings.h"
#include "base/json.h"
#include "base/lock.h"
#include "base/macros.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/strutils.h"
#include "kube/kubelet.h"
#include "kube/topomgr.h"
#include "machine/coretype.h"
#include "machine/device.h"
#include "machine/irq.h"
#include "machine/memtier.h"
#include "machine/proc.h"
#include "machine/smtgap.h"
#include "machine/topo.h"
#include "pin/isolate.h"
#include "pin/ocihook.h"
#include "tool/cli.h"
#include "view/draw.h"

enum cmd {
	C_INIT, C_TAKE, C_RELEASE, C_RESIZE, C_MODE, C_SHOW, C_LIST, C_SHARED,
	C_RESERVED, C_HINTS, C_CHECK, C_RECONCILE, C_IMPORT, C_APPLY, C_OCI_HOOK,
	C_MAP, C_NCMDS
};

static const char *const cmd_names[] = {
	"init", "take", "release", "resize", "mode", "show", "list", "shared",
	"reserved", "hints", "check", "reconcile", "import-kubelet", "apply",
	"oci-hook", "map",
};

#define B(c) (1u << (c))
#define PLACEMENT (B(C_INIT) | B(C_TAKE))

struct ctx {
	enum cmd cmd;
	const char *state_path;
	char *state_real;	/* state_path with a symlink resolved */
	int64_t wait_ms;
	const char *sysroot_dir;
	const char *cgroup_root;
	char **args;
	int nargs;

	/* options */
	struct alloc_opts opts;
	bool share, dry_run, nodes, json, strict, force, no_verify, explain;
	struct cli_table_opts table;	/* list: --raw, --noheadings */
	const char *columns;	/* list -o LIST, or NULL: the default */
	bool isolate_irqs;
	const char *allow_ann;	/* oci-hook --allow-annotations */
	bool no_quota;		/* oci-hook: cpu-quota.crio.io=disable */
	struct alloc_hook_policy policy;	/* oci-hook's other limits */
	bool isolate;			/* take --isolate */
	const char *core_type_arg;
	bool have_reserved, have_reserve, have_mem, have_prefer;
	unsigned int reserve_n;
	uint64_t mem;
	struct alloc_memreq memreq;	/* --mem: memory and huge pages */
	const char *from_arg, *prefer_arg, *owner_arg, *reserved_arg;
	const char *resmem_arg;		/* init --reserved-memory */
	const char *near_arg;	/* --near DEV[,DEV...] */
	bool devices;		/* show --devices */
	/* map: --ascii, --svg, --color, --width */
	bool ascii, svg, color, color_given;
	unsigned int width;
	unsigned int used;	/* B(option class) seen, for checks */

	/* the devices of --near, and their record ("eth1@0000:3b:00.0,...") */
	struct alloc_near *near;
	int nnear;
	char *near_text;

	/* take POD --member/--init-member NAME=N ... --scope */
	struct alloc_member *members;
	int nmembers;
	enum alloc_scope scope;

	/* machine */
	struct sysroot root;
	struct topo topo;
	struct ktopo kt;
	struct topo_print print;
	struct alloc_machine m;
	struct coretypes ct;
	char *topo_key;		/* statetopo_key() of root */
	bool topo_cached;	/* topo came from the state's layout */
	bool types_loaded;	/* ct is loaded */

	/* state */
	struct alloc_state st;
	bool st_read;		/* st read already, without the lock */
	int lockfd;
	enum topo_match match;
	char match_msg[512];
	char err[4096];
};

static noreturn void
usage(void)
{
	printf(
"Usage: cpm-alloc [--state FILE] [--sysroot DIR] COMMAND [ARGS] [OPTIONS]\n"
"Hand out CPUs as the kubelet's CPU Manager static policy does and remember\n"
"which name owns which CPUs.\n"
"\n"
"Commands:\n"
"  init [--reserved CPULIST | --reserve N] [--strict-reserved] [--force]\n"
"       [--reserved-memory NODE:TYPE=QTY[,...][;...]]\n"
"                           set the reserved CPUs and memory (and placement\n"
"                           options that every take then uses)\n"
"  take NAME N [OPTIONS]    give N CPUs to NAME and print them\n"
"  take POD --member NAME=N... [--init-member NAME=N...] [--scope S]\n"
"                           place a pod's containers (POD/NAME) in one call\n"
"  release NAME...          give NAME's CPUs (and memory) back; a POD\n"
"                           releases all its members\n"
"  resize NAME N            grow or shrink NAME, keeping its CPUs\n"
"  mode NAME exclusive|share  switch NAME's mode in place\n"
"  show NAME [--nodes | --devices] [--json]\n"
"                           print NAME's CPUs (or its NUMA nodes, or the\n"
"                           devices it was taken beside)\n"
"  list [--json] [-o LIST] [--noheadings]\n"
"                           print every allocation\n"
"  shared                   print the shared pool\n"
"  reserved                 print the reserved CPUs\n"
"  hints N [--mem MEM] [--near DEV[,DEV...]] [--max-numa-nodes N] [--json]\n"
"                           print the NUMA topology hints for N CPUs\n"
"  check [--json]           explain how the state disagrees with the machine\n"
"  reconcile [--dry-run]    release allocations whose owner is gone\n"
"  import-kubelet FILE [--no-verify]\n"
"                           import a kubelet cpu_manager_state file (and the\n"
"                           memory_manager_state beside it, as --mem)\n"
"  apply FILE [--dry-run] [--json]\n"
"                           make the allocations match a plan (one instance\n"
"                           a line, see cpm(7); '-' reads standard input):\n"
"                           take, resize or release the plan's own, all or\n"
"                           nothing; exit 0 when they matched already, 4\n"
"                           when it changed them\n"
"  map [--ascii] [--width N] [--color=WHEN] [--svg]\n"
"                           the machine drawn as cpm-topo draw does, each\n"
"                           CPU marked by what holds it: a key per\n"
"                           allocation (the legend names them) and a glyph\n"
"                           (# exclusive, + share, . shared, * reserved,\n"
"                           ~ isolated, x offline)\n"
"  oci-hook [STAGE]         an OCI runtime hook: the container's state on\n"
"                           stdin; place it (createRuntime, prestart) as\n"
"                           its allowed cpm.io/ annotations ask, or release\n"
"                           it (poststop); the stage from the state's status\n"
"                           when not given; waits at most 10 s for the\n"
"                           lock unless --wait says otherwise\n"
"\n"
"Global options:\n"
"  --state FILE             state file (env CPM_STATE,\n"
"                           default " STATE_DEFAULT_PATH ")\n"
"  --sysroot DIR            read sys/ and proc/ below DIR (env CPM_SYSROOT)\n"
"  --cgroup-root DIR        hierarchy for cgroup:PATH owners\n"
"                           (env CPM_CGROUP_ROOT, default /sys/fs/cgroup)\n"
"  --wait SECONDS           wait at most this long for the state's lock\n"
"                           (default: forever); then exit 1\n"
"  -h, --help               show this help\n"
"  -V, --version            show the version\n"
"\n"
"Placement options (take; init --reserve uses them too and records them):\n"
"  --share                  CPUs stay in the shared pool (never exclusive\n"
"                           to another allocation)\n"
"  --full-cores             whole cores only (full-pcpus-only)\n"
"  --distribute[=GROUP]     spread over NUMA nodes in groups of GROUP CPUs\n"
"                           (distribute-cpus-across-numa)\n"
"  --spread-cores           one thread per core first\n"
"                           (distribute-cpus-across-cores)\n"
"  --prefer-l3              keep to one L3 cache group\n"
"                           (prefer-align-cpus-by-uncorecache)\n"
"  --align-socket           align by socket instead of NUMA node\n"
"  --numa-policy POLICY     Topology Manager policy: none, best-effort,\n"
"                           restricted, single-numa-node\n"
"  --closest-numa           between equally wide NUMA node sets prefer the\n"
"                           closest (prefer-closest-numa-nodes)\n"
"  --explain                print the hints, the policy's decision and why\n"
"                           these CPUs on stderr\n"
"  --mem SIZE|RES=SIZE,...  book SIZE of memory on the chosen NUMA nodes, or\n"
"                           each resource of a list (memory, hugepages-2Mi,\n"
"                           hugepages-1Gi: memory=1G,hugepages-1Gi=2G)\n"
"  --from CPULIST           choose only among these CPUs\n"
"  --max-numa-nodes N       allow a NUMA policy on machines of up to N\n"
"                           (8 or more; default 8) NUMA nodes\n"
"                           (max-allowable-numa-nodes)\n""  --member NAME=N          (take POD) a container of the pod\n"
"  --init-member NAME=N     (take POD) an init container: placed first, its\n"
"                           CPUs handed on to the containers after it\n"
"  --scope container|pod    (take POD) Topology Manager scope: a hint per\n"
"                           container (default) or one for the whole pod\n"
"  --prefer-nodes NODELIST  take what fits from these NUMA nodes first\n"
"  --near DEV[,DEV...]      place beside these devices (an interface, nvme0,\n"
"                           a PCI address: see cpm-topo devices): each adds\n"
"                           its NUMA node as the kubelet's device manager\n"
"                           hint; under none its node is filled first\n"
"  --owner pid:PID|cgroup:PATH  who owns the allocation (for reconcile)\n"
"  --core-type NAME         take only cores of this type on a hybrid machine\n"
"                           (performance, efficiency, ...: see cpm-topo(1));\n"
"                           without it a take keeps to the fastest type\n"
"                           that can hold it\n"
"  --isolate-irqs           move device interrupts off the CPUs taken, until\n"
"                           release (journal: env CPM_IRQ_JOURNAL)\n"
"  --isolate                isolate the CPUs taken as cpm-pin --isolate does\n"
"                           (threads, workqueues, interrupts, C-states),\n"
"                           until release (journal: env CPM_ISOLATE_JOURNAL)\n"
"  --dry-run                print the result but change nothing\n"
"\n"
"Hook options (oci-hook: what a container may be given):\n"
"  --allow-annotations LIST  the cpm.io/ annotations read, by name: cpus,\n"
"                           mode, numa-policy, mem, core-type, isolate-irqs,\n"
"                           and CRI-O's by key: cpu-quota.crio.io,\n"
"                           irq-load-balancing.crio.io, ... (default: none,\n"
"                           every container shared)\n"
"  --allow-parent GROUP[,GROUP...]  grant CPUs, memory and interrupt moves\n"
"                           only to containers below these groups\n"
"  --max-cpus N             at most N CPUs to one container\n"
"\n"
"List options:\n"
"  --json                   one JSON document\n"
"  -o, --output LIST        the columns, or the members of the JSON entries,\n"
"      --columns LIST       in this order: comma-separated, any case, from\n"
"                           NAME MODE COUNT CPUS NODES MEMORY OWNER OPTIONS\n"
"                           (the placement options recorded at take)\n"
"                           DEVICES (those of --near)\n"
"      --noheadings         no header line\n"
"      --raw                rows unaligned: one space between cells\n"
"\n"
"Exit status: 0 success, 1 failure, 2 invalid input (nothing changed),\n"
"3 cannot be satisfied or check found problems; apply: 0 nothing to change,\n"
"4 changed (with --dry-run: would change).\n");
	cli_exit(EXIT_OK);
}

/* apply: the plan changed the allocations (0: they matched already). */
#define EXIT_CHANGED 4

enum {
	O_STATE = 256, O_SYSROOT, O_CGROUP_ROOT, O_RESERVED, O_RESERVE,
	O_STRICT, O_FORCE, O_SHARE, O_FULL, O_DIST, O_SPREAD, O_L3, O_SOCKET,
	O_NUMA, O_MEM, O_FROM, O_PREFER, O_OWNER, O_DRY, O_NODES, O_JSON,
	O_NOVERIFY, O_CLOSEST, O_EXPLAIN, O_CORE_TYPE, O_ISOLATE_IRQS, O_ISOLATE,
	O_WAIT, O_NEAR, O_DEVICES, O_ALLOW_ANN, O_ALLOW_PARENT, O_MAX_CPUS,
	O_ASCII, O_WIDTH, O_COLOR, O_SVG, O_MEMBER, O_INIT_MEMBER, O_SCOPE,
	O_MAX_NODES, O_RESERVED_MEM,
};

/* Every option, with the commands it applies to. */
static const struct cli_option opts[] = {
	{ "help", no_argument, 'h', CLI_ALL_COMMANDS },
	{ "version", no_argument, 'V', CLI_ALL_COMMANDS },
	{ "state", required_argument, O_STATE, CLI_ALL_COMMANDS },
	{ "sysroot", required_argument, O_SYSROOT, CLI_ALL_COMMANDS },
	{ "cgroup-root", required_argument, O_CGROUP_ROOT, CLI_ALL_COMMANDS },
	{ "wait", required_argument, O_WAIT, CLI_ALL_COMMANDS },
	{ "reserved", required_argument, O_RESERVED, B(C_INIT) },
	{ "reserve", required_argument, O_RESERVE, B(C_INIT) },
	{ "reserved-memory", required_argument, O_RESERVED_MEM, B(C_INIT) },
	{ "strict-reserved", no_argument, O_STRICT, B(C_INIT) },
	{ "force", no_argument, O_FORCE, B(C_INIT) },
	{ "share", no_argument, O_SHARE, B(C_TAKE) },
	{ "full-cores", no_argument, O_FULL, PLACEMENT },
	{ "distribute", optional_argument, O_DIST, PLACEMENT },
	{ "spread-cores", no_argument, O_SPREAD, PLACEMENT },
	{ "prefer-l3", no_argument, O_L3, PLACEMENT },
	{ "align-socket", no_argument, O_SOCKET, PLACEMENT },
	{ "numa-policy", required_argument, O_NUMA, B(C_TAKE) },
	{ "mem", required_argument, O_MEM, B(C_TAKE) | B(C_HINTS) },
	{ "from", required_argument, O_FROM, B(C_TAKE) },
	{ "prefer-nodes", required_argument, O_PREFER, B(C_TAKE) },
	{ "owner", required_argument, O_OWNER, B(C_TAKE) },
	{ "dry-run", no_argument, O_DRY, B(C_TAKE) | B(C_RECONCILE) | B(C_APPLY) },
	{ "nodes", no_argument, O_NODES, B(C_SHOW) },
	{ "json", no_argument, O_JSON,
	  B(C_LIST) | B(C_APPLY) | B(C_SHOW) | B(C_HINTS) | B(C_CHECK) },
	{ "no-verify", no_argument, O_NOVERIFY, B(C_IMPORT) },
	{ "closest-numa", no_argument, O_CLOSEST, B(C_TAKE) },
	{ "explain", no_argument, O_EXPLAIN, B(C_TAKE) },
	{ "core-type", required_argument, O_CORE_TYPE, B(C_TAKE) | B(C_HINTS) },
	{ "isolate-irqs", no_argument, O_ISOLATE_IRQS, B(C_TAKE) },
	{ "isolate", no_argument, O_ISOLATE, B(C_TAKE) },
	{ "near", required_argument, O_NEAR, B(C_TAKE) | B(C_HINTS) },
	{ "member", required_argument, O_MEMBER, B(C_TAKE) },
	{ "init-member", required_argument, O_INIT_MEMBER, B(C_TAKE) },
	{ "scope", required_argument, O_SCOPE, B(C_TAKE) },
	{ "max-numa-nodes", required_argument, O_MAX_NODES,
	  B(C_TAKE) | B(C_HINTS) },
	{ "devices", no_argument, O_DEVICES, B(C_SHOW) },
	{ "allow-annotations", required_argument, O_ALLOW_ANN, B(C_OCI_HOOK) },
	{ "allow-parent", required_argument, O_ALLOW_PARENT, B(C_OCI_HOOK) },
	{ "max-cpus", required_argument, O_MAX_CPUS, B(C_OCI_HOOK) },
	{ "ascii", no_argument, O_ASCII, B(C_MAP) },
	{ "width", required_argument, O_WIDTH, B(C_MAP) },
	{ "color", required_argument, O_COLOR, B(C_MAP) },
	{ "svg", no_argument, O_SVG, B(C_MAP) },
	{ "output", required_argument, 'o', B(C_LIST) },
	{ "columns", required_argument, 'o', B(C_LIST) },
	CLI_TABLE_OPTIONS(B(C_LIST)),
	{ NULL, 0, 0, 0 },
};

static const struct cli_exclusion exclusions[] = {
	{ O_RESERVED, O_RESERVE }, { 0, 0 }
};

/* oci-hook's options: what the operator lets a container have. */
static void
hook_option(struct ctx *c, int opt)
{
	unsigned int u;

	switch (opt) {
	case O_ALLOW_ANN:
		if (oci_allowed_check(optarg, c->err, sizeof(c->err)) < 0)
			cli_usage_error("--allow-annotations: %s", c->err);
		c->allow_ann = optarg;
		break;
	case O_ALLOW_PARENT:
		if (!*optarg)
			cli_usage_error("--allow-parent needs a cgroup");
		c->policy.parents = optarg;
		break;
	case O_MAX_CPUS:
		if (parse_uint(optarg, CPUSET_MAX_CPUS, &u) < 0 || u == 0)
			cli_usage_error("invalid --max-cpus '%s'", optarg);
		c->policy.max_cpus = (int)u;
		break;
	}
}

/* take's pod options: its members and the Topology Manager's scope. */
static void
pod_option(struct ctx *c, int opt)
{
	struct alloc_member *mb;

	if (opt == O_SCOPE) {
		if (alloc_scope_parse(optarg, &c->scope) < 0)
			cli_usage_error("invalid --scope '%s' (container or "
					"pod)", optarg);
		return;
	}
	mb = realloc(c->members, ((size_t)c->nmembers + 1) * sizeof(*mb));
	if (!mb)
		cli_die(EXIT_FAIL, "out of memory");
	c->members = mb;
	if (alloc_member_parse(optarg, opt == O_INIT_MEMBER,
			       &mb[c->nmembers], c->err, sizeof(c->err)) < 0)
		cli_usage_error("%s", c->err);
	c->nmembers++;
}

/* Record opt when it is one of map's options; true if so. */
static bool
map_option(struct ctx *c, int opt)
{
	switch (opt) {
	case O_ASCII:
		c->ascii = true;
		return true;
	case O_SVG:
		c->svg = true;
		return true;
	case O_WIDTH:
		if (parse_uint(optarg, 100000, &c->width) < 0 || c->width < 20)
			cli_usage_error("invalid --width '%s' (columns, 20 or "
					"more)", optarg);
		return true;
	case O_COLOR:
		c->color = cli_draw_color(optarg);
		c->color_given = true;
		return true;
	}
	return false;
}

/* Not inlined: its frame (the parser's buffers) is gone before the
 * command runs, instead of lying above every frame of it. */
static __attribute__((noinline)) void
parse_args(struct ctx *c, int argc, char **argv)
{
	struct cli_parser p;
	unsigned int u;
	int opt, i;
	const char *env;

	c->state_path = (env = getenv("CPM_STATE")) && *env ? env :
		STATE_DEFAULT_PATH;
	c->wait_ms = -1;
	c->cgroup_root = cli_cgroup_root(NULL);
	cli_parser_init(&p, opts, exclusions, cmd_names, false);
	while ((opt = cli_next_option(&p, argc, argv)) != -1) {
		if (cli_table_option(opt, &c->table) || map_option(c, opt))
			continue;
		switch (opt) {
		case 'h':
			usage();
		case 'V':
			cli_version();
		case O_STATE:
			if (!*optarg)
				cli_usage_error("--state needs a file name");
			c->state_path = optarg;
			break;
		case O_SYSROOT:
			c->sysroot_dir = optarg;
			break;
		case O_CGROUP_ROOT:
			if (*optarg == '\0')
				cli_usage_error("--cgroup-root needs a directory");
			c->cgroup_root = optarg;
			break;
		case O_RESERVED_MEM:
			c->resmem_arg = optarg;
			break;
		case O_RESERVED:
			c->have_reserved = true;
			c->reserved_arg = optarg;
			break;
		case O_RESERVE:
			if (parse_uint(optarg, CPUSET_MAX_CPUS, &c->reserve_n) < 0)
				cli_usage_error("invalid --reserve count '%s'",
						optarg);
			c->have_reserve = true;
			break;
		case O_STRICT:
			c->strict = true;
			break;
		case O_FORCE:
			c->force = true;
			break;
		case O_SHARE:
			c->share = true;
			break;
		case O_FULL:
			c->opts.k.full_cores = true;
			break;
		case O_DIST:
			if (optarg) {
				if (parse_uint(optarg, 1024, &u) < 0 || u == 0)
					cli_usage_error("invalid --distribute group '%s'",
							optarg);
				c->opts.k.distribute = (int)u;
				c->opts.distribute_auto = false;
			} else {
				c->opts.distribute_auto = true;
				c->opts.k.distribute = 0;
			}
			break;
		case O_SPREAD:
			c->opts.k.spread_cores = true;
			break;
		case O_L3:
			c->opts.k.prefer_l3 = true;
			break;
		case O_SOCKET:
			c->opts.k.align_socket = true;
			break;
		case O_NUMA:
			if (tm_policy_parse(optarg, &c->opts.numa_policy) < 0)
				cli_usage_error("invalid --numa-policy '%s' (none, "
						"best-effort, restricted or "
						"single-numa-node)", optarg);
			break;
		case O_MEM:
			if (alloc_mem_parse(optarg, &c->memreq, c->err,
					    sizeof(c->err)) < 0)
				cli_usage_error("%s", c->err);
			c->mem = c->memreq.mem;
			c->have_mem = true;
			break;
		case O_FROM:
			c->from_arg = optarg;
			break;
		case O_PREFER:
			c->prefer_arg = optarg;
			c->have_prefer = true;
			break;
		case O_OWNER:
			c->owner_arg = optarg;
			break;
		case O_DRY:
			c->dry_run = true;
			break;
		case O_NODES:
			c->nodes = true;
			break;
		case O_JSON:
			c->json = true;
			break;
		case O_NOVERIFY:
			c->no_verify = true;
			break;
		case O_CLOSEST:
			c->opts.closest = true;
			break;
		case O_EXPLAIN:
			c->explain = true;
			break;
		case O_CORE_TYPE:
			if (!*optarg)
				cli_usage_error("--core-type needs a name");
			c->core_type_arg = optarg;
			break;
		case O_ISOLATE_IRQS:
			c->isolate_irqs = true;
			break;
		case O_ISOLATE:
			c->isolate = true;
			break;
		case O_NEAR:
			if (!*optarg)
				cli_usage_error("--near needs a device");
			c->near_arg = optarg;
			break;
		case O_DEVICES:
			c->devices = true;
			break;
		case O_WAIT:
			if (parse_wait(optarg, &c->wait_ms) < 0)
				cli_usage_error("invalid --wait '%s' (seconds, "
						"a duration such as 500ms, or "
						"forever)", optarg);
			break;
		case 'o':
			c->columns = optarg;
			break;
		case O_MEMBER:
		case O_INIT_MEMBER:
		case O_SCOPE:
			pod_option(c, opt);
			break;
		case O_MAX_NODES:
			if (tm_max_nodes_parse(optarg, &c->m.max_nodes, c->err,
					       sizeof(c->err)) < 0)
				cli_usage_error("invalid --max-numa-nodes: %s",
						c->err);
			break;
		default:
			hook_option(c, opt);
			break;
		}
	}
	if (optind >= argc)
		cli_usage_error("missing COMMAND");
	for (i = 0; i < C_NCMDS; i++)
		if (strcmp(argv[optind], cmd_names[i]) == 0)
			break;
	if (i == C_NCMDS)
		cli_usage_error("unknown command '%s'", argv[optind]);
	c->cmd = (enum cmd)i;
	c->args = argv + optind + 1;
	c->nargs = argc - optind - 1;
	cli_check_options(&p, c->cmd);
	if (!c->color_given)
		c->color = cli_draw_color(NULL);
	if (c->columns) {
		/* Refuse a bad list before the state is read. */
		struct table tab;

		table_init(&tab, alloc_columns, alloc_ncolumns, " ");
		if (table_select(&tab, c->columns, c->err, sizeof(c->err)) < 0)
			cli_usage_error("%s", c->err);
	}
	if (c->have_prefer && c->opts.numa_policy != TM_NONE)
		cli_usage_error("--prefer-nodes and --numa-policy exclude each other");
	/* One file, whatever the spelling: a symlink is resolved once. */
	i = state_resolve(c->state_path, &c->state_real, c->err,
			  sizeof(c->err));
	if (i == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (i < 0)
		cli_die(EXIT_USAGE, "%s", c->err);
	c->state_path = c->state_real;
}

/* Arguments */

static void
want_args(const struct ctx *c, int min, int max, const char *synopsis)
{
	if (c->nargs < min)
		cli_usage_error("'%s' needs %s", cmd_names[c->cmd], synopsis);
	if (max >= 0 && c->nargs > max)
		cli_usage_error("unexpected argument '%s'", c->args[max]);
}

static void
check_name(const char *name)
{
	if (!state_name_valid(name))
		cli_die(EXIT_USAGE, "invalid name '%s' (use 1 to %d of "
			"A-Z a-z 0-9 . _ : / @ -)", name, STATE_NAME_MAX);
}

static int
parse_count(const char *s)
{
	unsigned int n;

	if (parse_uint(s, CPUSET_MAX_CPUS, &n) < 0)
		cli_die(EXIT_USAGE, "invalid CPU count '%s'", s);
	return (int)n;
}

/* Machine */

/*
 * Read the state: a take or a release looks at no entry but those it
 * names, so the others stay lines (state_load_named()).
 */
static int
read_state(struct ctx *c)
{
	/* A pod's take looks for its members: every entry. */
	int want = c->cmd == C_TAKE ? (c->nmembers ? 0 : 1) :
		c->cmd == C_RELEASE ? c->nargs : 0;

	if (want > 0 && c->nargs >= want)
		return state_load_named(&c->st, c->state_path, c->args, want,
					c->err, sizeof(c->err));
	return state_load(&c->st, c->state_path, c->err, sizeof(c->err));
}

/*
 * The topology from the layout the state keeps, when the state can be
 * read and the machine still agrees with it (see statetopo.h).  A state
 * that cannot be read is left for open_state() to report.
 */
static bool
topo_from_state(struct ctx *c)
{
	int r;

	if (read_state(c) < 0) {
		state_init(&c->st);
		return false;
	}
	c->st_read = true;
	/*
	 * A release needs no CPU's node, core or siblings, and a take
	 * only the kubelet's view of them: the per-CPU array, the bulk of
	 * a large machine's layout, is left unread (need_cpus()).
	 * Without a fingerprint kept (a version 1 layout), it makes one.
	 */
	r = statetopo_load(&c->topo, &c->root, c->topo_key, &c->st.layout,
			   (c->cmd != C_RELEASE && c->cmd != C_TAKE) ||
			   !c->st.layout.have_print);
	if (r < 0)
		cli_die(EXIT_FAIL, "out of memory");
	return r == 0;
}

static void
load_machine_flags(struct ctx *c, unsigned int flags)
{
	cli_open_sysroot(c->sysroot_dir, &c->root);
	if (statetopo_key(&c->root, &c->topo_key) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	c->topo_cached = flags == 0 && topo_from_state(c);
	if (!c->topo_cached)
		cli_load_topology(&c->root, flags, &c->topo);
	if (topo_print_make_layout(&c->print, &c->topo, c->topo_cached ?
				   &c->st.layout : NULL) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	c->m.topo = &c->topo;
	c->m.kt = &c->kt;	/* built by the commands that place CPUs */
	/* A take given the machine without its per-CPU array: the
	 * kubelet's view straight from the layout it came from. */
	if (c->cmd == C_TAKE && c->topo_cached && !c->topo.cpus &&
	    statetopo_ktopo(&c->st.layout, &c->topo, &c->kt) < 0)
		cli_die(EXIT_FAIL, "out of memory");
}

/*
 * The per-CPU array of a machine given without it, for the callers that
 * look at single CPUs; before open_state(), which may read the state
 * (and its layout) again.
 */
static void
need_cpus(struct ctx *c)
{
	if (c->topo_cached && !c->topo.cpus &&
	    statetopo_expand(&c->st.layout, &c->topo) < 0)
		cli_die(EXIT_FAIL, "out of memory");
}

static void
load_machine(struct ctx *c)
{
	load_machine_flags(c, 0);
}

/* The nodes' memory sizes, for the commands that book memory (after
 * load_machine): a topology from the layout has none. */
static void
load_meminfo(struct ctx *c)
{
	if (c->topo_cached && topo_load_meminfo(&c->topo, &c->root) < 0)
		cli_die(EXIT_FAIL, "out of memory");
}

/* Core types, for the commands that place CPUs (after load_machine). */
static void
load_types(struct ctx *c)
{
	int r = 1;

	/* Kept with the layout the machine came from, else read. */
	if (c->topo_cached)
		r = statetopo_types(&c->ct, &c->st.layout,
				    c->topo.cpus != NULL);
	if (r < 0)
		cli_die(EXIT_FAIL, "out of memory");
	if (r > 0)
		need_cpus(c);
	if (r > 0 && coretype_load(&c->ct, &c->root, &c->topo, c->err,
				   sizeof(c->err)) < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
	c->types_loaded = true;
}

/* The type --core-type names: its index, or -1 for none. */
static int
core_type_arg(struct ctx *c)
{
	int k;

	if (!c->core_type_arg)
		return -1;
	k = coretype_arg(&c->ct, &c->topo, c->core_type_arg, c->err,
			 sizeof(c->err));
	if (k == -EINVAL)
		cli_die(EXIT_USAGE, "%s", c->err);
	return k;
}

static const char *
irq_journal_path(void)
{
	const char *p = getenv("CPM_IRQ_JOURNAL");

	return p && *p ? p : IRQ_JOURNAL_DEFAULT;
}

static struct iso_opts
isolate_opts(struct ctx *c, const char *holder)
{
	const char *j = getenv("CPM_ISOLATE_JOURNAL");
	struct iso_opts o = {
		.root = &c->root, .journal = j && *j ? j : ISOLATE_JOURNAL_DEFAULT,
		.irq_journal = irq_journal_path(), .holder = holder,
		.online = &c->topo.online,
	};
	return o;
}

/*
 * take --isolate: the allocation's CPUs isolated under the holder
 * "alloc:NAME", before the state records it (a list that leaves no CPU
 * changes nothing).  Refusals and values others changed are warnings.
 */
static void
alloc_isolate(struct ctx *c, const char *name, const struct cpuset *cpus)
{
	char holder[STATE_NAME_MAX + 8];
	struct iso_report rep;
	struct iso_opts o;
	size_t i;
	int r;

	snprintf(holder, sizeof(holder), "alloc:%s", name);
	o = isolate_opts(c, holder);
	r = isolate_apply(&o, cpus, &rep, c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", c->err);
	if (rep.refused)
		cli_warn("warning: %u change%s of the isolation refused by the "
			 "kernel", rep.refused, rep.refused == 1 ? "" : "s");
	for (i = 0; i < rep.n; i++)
		if (rep.v[i].error == ISO_PINNED)
			cli_warn("note: %s keeps CPUs %s: work below it is "
				 "pinned there", rep.v[i].name, rep.v[i].to);
	if (rep.irq_error < 0 && rep.irq_error != -ENOENT)
		cli_warn("warning: interrupts: %s", rep.irq_err);
	iso_report_free(&rep);
}

/* release: what an allocation isolated comes back; false on failure. */
static bool
alloc_unisolate(struct ctx *c, const char *name)
{
	char holder[STATE_NAME_MAX + 8];
	struct iso_report rep;
	struct iso_opts o;
	bool found;
	size_t i;

	snprintf(holder, sizeof(holder), "alloc:%s", name);
	o = isolate_opts(c, holder);
	if (isolate_release(&o, &found, &rep, c->err, sizeof(c->err)) < 0) {
		cli_warn("%s", c->err);
		return false;
	}
	for (i = 0; i < rep.n; i++)
		if (rep.v[i].error == ISO_CHANGED)
			cli_warn("warning: %s %s was changed since (now %s): "
				 "left alone", rep.v[i].tid ? "thread" : "file",
				 rep.v[i].name, rep.v[i].from);
	iso_report_free(&rep);
	return true;
}

/* Refusals as warnings; true when a move did not read back as asked. */
static bool
warn_irqs(const struct irq_report *rep)
{
	bool bad = false;
	size_t i;

	for (i = 0; i < rep->n; i++) {
		const struct irq_outcome *o = &rep->v[i];
		char *from = cpuset_to_list(&o->from);
		char name[128];

		snprintf(name, sizeof(name), o->name[0] ? " (%s)" : "%s", o->name);
		if (o->error == -EAGAIN) {
			cli_warn("IRQ %d%s did not move", o->irq, name);
			bad = true;
		} else if (o->error < 0) {
			cli_warn("warning: IRQ %d%s cannot be moved: %s (stays on %s)",
				 o->irq, name, read_strerror(o->error),
				 from && *from ? from : "-");
		}
		free(from);
	}
	if (rep->default_changed && rep->default_error < 0) {
		cli_warn("cannot set default_smp_affinity: %s",
			 strerror(-rep->default_error));
		bad = true;
	}
	return bad;
}

/* Parse a cpulist option, refusing CPUs the machine does not have. */
static void
parse_cpus_arg(struct ctx *c, const char *what, const char *arg,
	       struct cpuset *s)
{
	cli_parse_cpus(&c->topo, what, arg, s);
}

static void
parse_nodes_arg(struct ctx *c, const char *what, const char *arg,
		struct cpuset *s)
{
	int id;

	cli_parse_cpulist(what, arg, s);
	cpuset_for_each(id, s)
		if (!topo_node_by_id(&c->topo, id))
			cli_die(EXIT_USAGE, "invalid %s: NUMA node %d does not "
				"exist", what, id);
}

/* State */

enum { RO = 0, RW = 1 };

/*
 * Load the state, under the writers' lock when rw.  A damaged file, one
 * of an unknown version, or (unless tolerated) one made for another
 * machine ends the program with exit 2 before anything is changed.
 */
static void
open_state(struct ctx *c, int rw, bool tolerate_foreign)
{
	int r;

	c->lockfd = -1;
	/* Commands that need an existing allocation must not create the
	 * state's directory just to find out there is none. */
	if (rw && (c->cmd == C_RELEASE || c->cmd == C_RESIZE ||
		   c->cmd == C_MODE) &&
	    state_need_file(c->state_path, c->args[0], c->err,
			    sizeof(c->err)) < 0)
		cli_die(EXIT_USAGE, "%s", c->err);
	if (rw) {
		c->lockfd = state_lock_wait(c->state_path, c->wait_ms, c->err,
					    sizeof(c->err));
		if (c->lockfd == -EISDIR || c->lockfd == -EFTYPE_CPM ||
		    c->lockfd == -ENAMETOOLONG)
			cli_die(EXIT_USAGE, "%s", c->err);
		if (c->lockfd < 0)
			cli_die(EXIT_FAIL, "%s", c->err);
	}
	if (!c->st_read)
		r = read_state(c);
	else if (rw)
		r = state_reload(&c->st, c->state_path, c->err,
				 sizeof(c->err));
	else
		r = 0;
	if (r == -EBADMSG)
		cli_die(EXIT_USAGE, "state file '%s' is damaged (%s): restore "
			"it from a copy, or remove it and run 'cpm-alloc init'",
			c->state_path, c->err);
	if (r == -EPROTONOSUPPORT)
		cli_die(EXIT_USAGE, "state file '%s': %s: use the cpm-alloc "
			"that wrote it", c->state_path, c->err);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r == -EFTYPE_CPM)
		cli_die(EXIT_USAGE, "%s", c->err);
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
	if (!c->st.exists) {
		topo_print_free(&c->st.print);
		if (topo_print_make(&c->st.print, &c->topo) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		c->st.have_print = true;
	}
	c->match = state_topo_match(&c->st, &c->print, c->match_msg,
				    sizeof(c->match_msg));
	if (!tolerate_foreign &&
	    (c->match == TOPO_RESIZED || c->match == TOPO_FOREIGN))
		cli_die(EXIT_USAGE, "state file '%s' was made for %s (%s): run "
			"'cpm-alloc check'", c->state_path,
			c->match == TOPO_RESIZED ? "a different set of CPUs" :
			"another machine", c->match_msg);
}

/*
 * The state opened for a take (read-only with --dry-run): nothing is
 * handed out on top of what a damaged or forged state says is held;
 * 'check' names each finding.
 */
static void
open_state_to_take(struct ctx *c)
{
	int r;

	open_state(c, c->dry_run ? RO : RW, false);
	r = state_check_held(&c->st, &c->m.topo->possible, c->err,
			     sizeof(c->err));
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "state file '%s' cannot be taken from: %s; "
			"run 'cpm-alloc check'", c->state_path, c->err);
}

static void
save_state(struct ctx *c)
{
	/*
	 * The machine goes with the state, for the next call to read: the
	 * layout the machine was read from is kept as it is, unless the
	 * state changed under the lock to one of another tree or CPU lists,
	 * or it lacks the core types this call read or the fingerprint (a
	 * version 1 layout).
	 */
	const struct topo *lay = &c->st.layout.t;

	/* A topology without its per-CPU array (a release's) cannot be
	 * written: the layout the state has now stays. */
	if (c->topo.cpus &&
	    (!c->topo_cached || !c->st.layout_text || !c->st.layout.key ||
	     (c->types_loaded && !c->st.layout.ct) ||
	     !c->st.layout.have_print ||
	     strcmp(c->st.layout.key, c->topo_key) != 0 ||
	     !cpuset_equal(&lay->possible, &c->topo.possible) ||
	     !cpuset_equal(&lay->present, &c->topo.present) ||
	     !cpuset_equal(&lay->online, &c->topo.online) ||
	     !cpuset_equal(&lay->isolated, &c->topo.isolated)) &&
	    state_set_layout(&c->st, &c->topo, c->types_loaded ? &c->ct : NULL,
			     c->topo_key) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	if (state_save(&c->st, c->state_path, c->err, sizeof(c->err)) < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
}

static struct alloc_entry *
need_entry(struct ctx *c, const char *name)
{
	struct alloc_entry *e = state_need(&c->st, name, c->err,
					   sizeof(c->err));

	if (!e)
		cli_die(EXIT_USAGE, "%s", c->err);
	return e;
}

/* Options: the state's policy merged in, the distribute group decided,
 * and the combination checked as the kubelet checks it. */
static void
effective_opts(struct ctx *c, struct alloc_opts *o)
{
	int r = alloc_opts_effective(&c->m, &c->st.policy, o, c->err,
				     sizeof(c->err));

	if (r < 0)
		cli_die(r == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", c->err);
}

static void
print_set(const struct cpuset *s)
{
	cli_print_cpuset(s);
}

/*
 * The devices of --near (after load_machine): each looked up, its NUMA
 * node read, and the record the entry keeps of them made.  A name that
 * is no PCI device is invalid input.
 */
static void
load_near(struct ctx *c)
{
	struct strbuf rec;
	const char *p;
	int n = 1;

	if (!c->near_arg)
		return;
	for (p = c->near_arg; *p; p++)
		n += *p == ',';
	c->near = calloc((size_t)n, sizeof(*c->near));
	if (!c->near)
		cli_die(EXIT_FAIL, "out of memory");
	strbuf_init(&rec);
	for (p = c->near_arg; ; ) {
		size_t len = strcspn(p, ",");
		char name[256], why[512];
		struct device dev;
		int r;

		if (len == 0 || len >= sizeof(name))
			cli_usage_error("invalid --near list '%s'", c->near_arg);
		memcpy(name, p, len);
		name[len] = '\0';
		r = device_find(&dev, &c->root, name, why, sizeof(why));
		if (r == -ENOMEM)
			cli_die(EXIT_FAIL, "out of memory");
		if (r < 0)
			cli_die(EXIT_USAGE, "invalid --near device: %s", why);
		c->near[c->nnear].name = dev.names;	/* the name as given */
		c->near[c->nnear].node = dev.node;
		dev.names = NULL;
		strbuf_printf(&rec, "%s%s@%s", c->nnear ? "," : "", name,
			      dev.addr);
		device_free(&dev);
		c->nnear++;
		p += len;
		if (!*p)
			break;
		p++;
	}
	if (rec.oom)
		cli_die(EXIT_FAIL, "out of memory");
	c->near_text = rec.buf;
}

/* Commands */

/* Die with the status an allocator error calls for. */
static noreturn void
alloc_die(struct ctx *c, int r)
{
	cli_die(r == -ENOSPC ? EXIT_UNSAT : r == -EINVAL ? EXIT_USAGE :
		EXIT_FAIL, "%s", c->err);
}

/*
 * Warn once when a core has an offline SMT sibling: cpm stays exact to
 * the kubelet's CPUs-per-core arithmetic there, and says what it does.
 * The counts come from the kubelet's view when the machine came from a
 * state's layout, so a take on a machine with every sibling online reads
 * nothing more.
 */
static void
warn_smt_gap(struct ctx *c)
{
	struct strbuf sb;

	if (cpuset_empty(&c->topo.offline))
		return;
	if (!c->topo.cpus && !(ktopo_made(&c->kt) &&
	      smtgap_suspect(&c->topo, c->kt.num_cpus, c->kt.num_cores)))
		return;
	need_cpus(c);
	strbuf_init(&sb);
	if (smtgap_warning(&c->topo, &sb) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	if (sb.len)
		cli_warn("%s", sb.buf);
	strbuf_free(&sb);
}

/* init --reserved-memory, checked against the machine, into in. */
static void
reserved_memory(struct ctx *c, struct alloc_init *in)
{
	struct mem_reserve *m = NULL;
	int r;

	if (!c->resmem_arg)
		return;
	load_meminfo(c);
	r = alloc_resmem_parse(c->m.topo, c->resmem_arg, &m, &in->nresmem,
			       c->err, sizeof(c->err));
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "--reserved-memory: %s", c->err);
	in->resmem = m;
}

static int
cmd_init(struct ctx *c)
{
	struct cpuset given = CPUSET_INIT, reserved = CPUSET_INIT;
	struct alloc_init in = {
		.reserve_n = c->have_reserve ? c->reserve_n : 0,
		.strict = c->strict,
		.opts = c->opts,
	};
	int r;

	want_args(c, 0, 0, "no arguments");
	load_machine(c);
	/* The core types go into the layout with the rest of the machine:
	 * the first take then has nothing left to read. */
	load_types(c);
	warn_smt_gap(c);
	if (c->have_reserved) {
		parse_cpus_arg(c, "--reserved cpulist", c->reserved_arg, &given);
		in.reserved = &given;
	}
	r = alloc_init_reserved(&c->m, &in, &reserved, c->err,
				sizeof(c->err));
	if (r < 0)
		alloc_die(c, r);
	reserved_memory(c, &in);
	open_state(c, RW, c->force);
	if (c->st.exists && !c->force) {
		if (!alloc_init_same(&c->st, &in, &reserved))
			cli_die(EXIT_UNSAT, "state file '%s' already exists with "
				"%d allocations and other settings: use --force "
				"to start over", c->state_path,
				c->st.nentries);
		print_set(&c->st.reserved);
	} else {
		if (alloc_init_reset(&c->st, &c->topo, &in, &reserved) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		save_state(c);
		print_set(&reserved);
	}
	cpuset_free(&reserved);
	cpuset_free(&given);
	free((void *)in.resmem);
	return EXIT_OK;
}

/* pid:PID or cgroup:PATH; fills the entry's owner fields.  Not inlined:
 * its live root's path buffer would sit in every take's frame. */
static __attribute__((noinline)) void
parse_owner(struct ctx *c, struct alloc_entry *e)
{
	struct sysroot live;
	int r;

	if (!c->owner_arg)
		return;
	/* Owners are live processes, whatever --sysroot says. */
	if (sysroot_open(&live, "/") < 0)
		cli_die(EXIT_FAIL, "cannot open /");
	r = alloc_owner_resolve(c->owner_arg, c->cgroup_root ?
				c->cgroup_root : "/sys/fs/cgroup", &live, e,
				c->err, sizeof(c->err));
	sysroot_close(&live);
	if (r < 0)
		alloc_die(c, r);
}

/* Each line of text as a warning. */
static void
warn_lines(const struct strbuf *text)
{
	const char *p = text->buf, *nl;

	while (p && *p && (nl = strchr(p, '\n'))) {
		cli_warn("%.*s", (int)(nl - p), p);
		p = nl + 1;
	}
}

/*
 * The slower-tier note for a request of c->mem bytes, appended to sb.
 * Tiers are read only when the machine has a CPU-less node with memory:
 * elsewhere there is nothing slower to name, and no file is read.
 */
static void
slower_tier_note(struct ctx *c, struct strbuf *sb)
{
	const struct topo *t = c->m.topo;
	struct memtier mt;
	int i, r;

	if (!c->have_mem)
		return;
	for (i = 0; i < t->nnodes; i++)
		if (cpuset_empty(&t->nodes[i].cpus) &&
		    t->nodes[i].mem_total_kb > 0)
			break;
	if (i == t->nnodes)
		return;
	if (memtier_load(&mt, t, &c->root) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	r = alloc_slower_tier(&c->m, &c->st, &mt, c->mem, sb);
	memtier_free(&mt);
	if (r < 0)
		cli_die(EXIT_FAIL, "out of memory");
}

/*
 * --mem into rq: regular memory and huge pages, the nodes' memory read,
 * a huge page size the machine lacks refused.
 */
static void
mem_request(struct ctx *c, struct alloc_request *rq)
{
	rq->have_mem = c->have_mem;
	rq->mem = c->mem;
	if (!c->have_mem)
		return;
	rq->nhuge = c->memreq.nhuge;
	memcpy(rq->huge, c->memreq.huge, sizeof(rq->huge));
	load_meminfo(c);
	if (alloc_mem_check(c->m.topo, &c->memreq, c->err,
			    sizeof(c->err)) < 0)
		cli_die(EXIT_USAGE, "%s", c->err);
}

static int
cmd_take(struct ctx *c)
{
	struct alloc_entry e;
	const struct alloc_entry *held;
	struct alloc_request rq;
	struct cpuset from = CPUSET_INIT, prefer = CPUSET_INIT;
	struct strbuf explain;
	struct irq_report irqs;
	char holder[STATE_NAME_MAX + 8];
	bool mixed = false, irqs_bad = false;
	int r, only;

	want_args(c, 2, 2, "NAME and N");
	check_name(c->args[0]);
	memset(&rq, 0, sizeof(rq));
	rq.name = c->args[0];
	rq.n = parse_count(c->args[1]);
	rq.mode = c->share ? ALLOC_SHARE : ALLOC_EXCLUSIVE;
	rq.opts = c->opts;
	memset(&e, 0, sizeof(e));
	load_machine(c);
	mem_request(c, &rq);
	/* Memory and the NUMA policies look at each CPU's node, offline
	 * ones included. */
	if (c->have_mem || c->opts.numa_policy || c->st.policy.numa_policy)
		need_cpus(c);
	load_types(c);
	warn_smt_gap(c);
	only = core_type_arg(c);
	if (c->from_arg) {
		need_cpus(c);	/* selectors name cores, dies ... */
		parse_cpus_arg(c, "--from cpulist", c->from_arg, &from);
		rq.from = &from;
	}
	if (c->prefer_arg) {
		parse_nodes_arg(c, "--prefer-nodes list", c->prefer_arg,
				&prefer);
		rq.prefer = &prefer;
	}
	load_near(c);
	parse_owner(c, &e);
	open_state_to_take(c);
	effective_opts(c, &rq.opts);
	rq.near = c->near;
	rq.nnear = c->nnear;
	/*
	 * Under the none policy there is no hint to merge: the devices'
	 * nodes are filled first, as --prefer-nodes would.
	 */
	if (c->nnear && rq.opts.numa_policy == TM_NONE && !rq.prefer) {
		int k;

		for (k = 0; k < c->nnear; k++)
			if (c->near[k].node >= 0 &&
			    cpuset_set(&prefer, (unsigned int)c->near[k].node) < 0)
				cli_die(EXIT_FAIL, "out of memory");
		if (!cpuset_empty(&prefer))
			rq.prefer = &prefer;
	}

	strbuf_init(&explain);
	r = alloc_take_named(&c->ct, &c->m, &c->st, &rq, only, &e, &held,
			     &mixed, c->explain ? &explain : NULL, c->err,
			     sizeof(c->err));
	if (c->explain)
		slower_tier_note(c, &explain);
	warn_lines(&explain);
	strbuf_free(&explain);
	if (r < 0)
		alloc_die(c, r);
	if (held && held->hook)
		cli_die(EXIT_USAGE, "allocation '%s' is a container's (made by "
			"oci-hook): names made by hand never share it", rq.name);
	if (held) {
		alloc_entry_free(&e);
		print_set(&held->cpus);
		return EXIT_OK;
	}
	if (mixed)
		cli_warn("warning: no core type can hold %d CPUs: '%s' mixes "
			 "core types", rq.n, rq.name);
	if (c->near_text && !(e.near = strdup(c->near_text)))
		cli_die(EXIT_FAIL, "out of memory");
	/* Interrupts move before the state records the allocation: a list
	 * that leaves no CPU for them changes nothing. */
	if (c->isolate_irqs && !c->dry_run) {
		snprintf(holder, sizeof(holder), "alloc:%s", rq.name);
		r = irq_isolate(&c->root, irq_journal_path(), holder, &e.cpus,
				&c->topo.online, &irqs, c->err, sizeof(c->err));
		if (r < 0)
			cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s",
				c->err);
		irqs_bad = warn_irqs(&irqs);
		irq_report_free(&irqs);
	}
	if (c->isolate && !c->dry_run)
		alloc_isolate(c, rq.name, &e.cpus);
	if (state_add(&c->st, &e) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	if (!c->st.exists && !c->dry_run)
		cli_warn("warning: no state file '%s' yet: this take creates "
			 "one with no CPUs reserved (cpm-alloc init --reserve "
			 "N sets some aside first)", c->state_path);
	if (!c->dry_run)
		save_state(c);
	print_set(&c->st.entries[c->st.nentries - 1].cpus);
	cpuset_free(&from);
	cpuset_free(&prefer);
	return irqs_bad ? EXIT_FAIL : EXIT_OK;
}

/* A pod's take: what it refuses, the state it builds on. */
static void
pod_open(struct ctx *c)
{
	want_args(c, 1, 1, "POD");
	check_name(c->args[0]);
	if (c->have_mem || c->isolate || c->isolate_irqs || c->owner_arg ||
	    c->core_type_arg)
		cli_usage_error("--mem, --isolate, --isolate-irqs, --owner and "
				"--core-type take one allocation, not a pod's "
				"members");
	load_machine(c);
	need_cpus(c);
	warn_smt_gap(c);
	load_near(c);
	open_state_to_take(c);
}

/* take POD --member NAME=N ... [--init-member NAME=N ...] [--scope S] */
static int
cmd_take_pod(struct ctx *c)
{
	struct alloc_pod pod = { c->args[0], c->scope, c->members,
				 c->nmembers };
	struct cpuset from = CPUSET_INIT, prefer = CPUSET_INIT, *got;
	struct alloc_request rq;
	struct alloc_entry *e;
	struct strbuf explain;
	int i, r;

	memset(&rq, 0, sizeof(rq));
	rq.mode = c->share ? ALLOC_SHARE : ALLOC_EXCLUSIVE;
	pod_open(c);
	if (c->from_arg) {
		parse_cpus_arg(c, "--from cpulist", c->from_arg, &from);
		rq.from = &from;
	}
	if (c->prefer_arg) {
		parse_nodes_arg(c, "--prefer-nodes list", c->prefer_arg,
				&prefer);
		rq.prefer = &prefer;
	}
	rq.opts = c->opts;
	effective_opts(c, &rq.opts);
	rq.near = c->near;
	rq.nnear = c->nnear;
	e = calloc((size_t)c->nmembers, sizeof(*e));
	got = calloc((size_t)c->nmembers, sizeof(*got));
	if (!e || !got)
		cli_die(EXIT_FAIL, "out of memory");
	strbuf_init(&explain);
	r = alloc_take_pod(&c->m, &c->st, &rq, &pod, e, got,
			   c->explain ? &explain : NULL, c->err,
			   sizeof(c->err));
	warn_lines(&explain);
	strbuf_free(&explain);
	if (r < 0)
		alloc_die(c, r);
	for (i = 0; i < c->nmembers; i++) {
		char *name = strdup(e[i].name);

		if (!name || state_add(&c->st, &e[i]) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		printf("%s ", name);
		print_set(&got[i]);
		free(name);
		cpuset_free(&got[i]);
	}
	if (!c->dry_run)
		save_state(c);
	free(e);
	free(got);
	cpuset_free(&from);
	cpuset_free(&prefer);
	return EXIT_OK;
}

/* take NAME N, or a pod's take with --member or --init-member. */
static int
cmd_take_any(struct ctx *c)
{
	if (c->nmembers)
		return cmd_take_pod(c);
	if (c->scope != ALLOC_SCOPE_CONTAINER)
		cli_usage_error("--scope needs --member or --init-member");
	return cmd_take(c);
}

/*
 * Remove the entries release names: allocations, or pods (every
 * POD/NAME member), for which the state is read again whole.
 */
static void
release_names(struct ctx *c)
{
	int i, r;

	if (state_remove_named(&c->st, c->args, c->nargs, c->err,
			       sizeof(c->err)) == 0)
		return;
	state_free(&c->st);
	r = state_load(&c->st, c->state_path, c->err, sizeof(c->err));
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "%s", c->err);
	for (i = 0; i < c->nargs; i++) {
		struct alloc_entry *e = state_find(&c->st, c->args[i]);
		bool twice = false;
		int j;

		if (e) {
			state_remove(&c->st, (int)(e - c->st.entries));
			continue;
		}
		for (j = 0; j < i; j++)
			twice |= strcmp(c->args[j], c->args[i]) == 0;
		if (alloc_pod_remove(&c->st, c->args[i]) == 0 && !twice)
			cli_die(EXIT_USAGE, "no allocation named '%s'",
				c->args[i]);
	}
}

static int
cmd_release(struct ctx *c)
{
	int i, status = EXIT_OK;

	want_args(c, 1, -1, "at least one NAME");
	for (i = 0; i < c->nargs; i++)
		check_name(c->args[i]);
	load_machine(c);
	open_state(c, RW, false);
	release_names(c);
	save_state(c);
	/* Interrupts an allocation moved away come back (the journal names
	 * the allocations that isolated). */
	for (i = 0; i < c->nargs; i++) {
		struct irq_report irqs;
		char holder[STATE_NAME_MAX + 8];
		bool found;
		int r;

		snprintf(holder, sizeof(holder), "alloc:%s", c->args[i]);
		r = irq_release(&c->root, irq_journal_path(), holder,
				&c->topo.online, &found, &irqs, c->err,
				sizeof(c->err));
		if (r < 0)
			cli_die(EXIT_FAIL, "%s", c->err);
		if (warn_irqs(&irqs))
			status = EXIT_FAIL;
		irq_report_free(&irqs);
		if (!alloc_unisolate(c, c->args[i]))
			status = EXIT_FAIL;
	}
	return status;
}

static int
cmd_resize(struct ctx *c)
{
	struct alloc_entry *e;
	struct alloc_opts o;
	int n, have, r;

	want_args(c, 2, 2, "NAME and N");
	check_name(c->args[0]);
	n = parse_count(c->args[1]);
	load_machine(c);
	open_state(c, RW, false);
	e = need_entry(c, c->args[0]);
	r = alloc_resize_opts(&c->m, &c->st.policy, e, &o, c->err,
			      sizeof(c->err));
	if (r < 0)
		cli_die(r == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", c->err);
	have = e->n;
	r = alloc_resize(&c->m, &c->st, e, n, &o, c->err, sizeof(c->err));
	if (r < 0)
		alloc_die(c, r);
	if (n != have)
		save_state(c);
	print_set(&e->cpus);
	return EXIT_OK;
}

static int
cmd_mode(struct ctx *c)
{
	struct alloc_entry *e;
	enum alloc_mode m;

	want_args(c, 2, 2, "NAME and exclusive or share");
	check_name(c->args[0]);
	if (strcmp(c->args[1], "exclusive") == 0)
		m = ALLOC_EXCLUSIVE;
	else if (strcmp(c->args[1], "share") == 0)
		m = ALLOC_SHARE;
	else
		cli_die(EXIT_USAGE, "invalid mode '%s' (exclusive or share)",
			c->args[1]);
	load_machine(c);
	open_state(c, RW, false);
	e = need_entry(c, c->args[0]);
	/*
	 * Both directions are always possible: a share allocation's CPUs
	 * are never given to anyone else, so making them exclusive only
	 * takes them out of the shared pool.
	 */
	if (e->mode != m) {
		e->mode = m;
		save_state(c);
	}
	return EXIT_OK;
}

static void
entry_nodes(struct ctx *c, const struct alloc_entry *e, struct cpuset *out)
{
	if (alloc_entry_nodes(&c->topo, e, out) < 0)
		cli_die(EXIT_FAIL, "out of memory");
}

static int
cmd_show(struct ctx *c)
{
	struct alloc_entry *e;
	struct cpuset nodes = CPUSET_INIT;

	want_args(c, 1, 1, "NAME");
	check_name(c->args[0]);
	load_machine(c);
	open_state(c, RO, false);
	e = need_entry(c, c->args[0]);
	if (c->nodes && c->devices)
		cli_usage_error("--nodes and --devices exclude each other");
	if (c->devices) {
		/* One "NAME ADDRESS" line per device it was taken beside. */
		const char *p = e->near;

		while (p && *p) {
			size_t len = strcspn(p, ","), at;

			for (at = len; at > 0 && p[at - 1] != '@'; at--)
				;
			if (at > 0)
				printf("%.*s %.*s\n", (int)(at - 1), p,
				       (int)(len - at), p + at);
			p += len;
			if (*p)
				p++;
		}
	} else if (c->json) {
		/* The entry as list --json gives it. */
		struct strbuf sb;
		struct table tab;
		struct json j;
		char err[256];

		if (alloc_list_table(&c->topo, &c->st, &tab) < 0 ||
		    table_select(&tab, alloc_default_columns(&c->st, true), err,
				 sizeof(err)) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		strbuf_init(&sb);
		json_init(&j, &sb);
		table_json_row(&tab, (size_t)(e - c->st.entries), &j);
		cli_check_json(&j);
		strbuf_puts(&sb, "\n");
		cli_write(&sb);
		strbuf_free(&sb);
		table_free(&tab);
	} else if (c->nodes) {
		entry_nodes(c, e, &nodes);
		print_set(&nodes);
	} else {
		print_set(&e->cpus);
	}
	cpuset_free(&nodes);
	return EXIT_OK;
}

/* The allocations with the columns asked for. */
static void
list_table(struct ctx *c, struct table *tab)
{
	char err[512];

	if (alloc_list_table(&c->topo, &c->st, tab) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	/* The default table for a person: container ids cut short. */
	if (!c->columns && !c->json && !c->table.raw &&
	    alloc_list_short_ids(&c->st, tab) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	if (table_select(tab, c->columns ? c->columns :
			 alloc_default_columns(&c->st, c->json), err,
			 sizeof(err)) < 0)
		cli_usage_error("%s", err);
}

static int
cmd_list(struct ctx *c)
{
	struct strbuf sb;
	struct table tab;

	want_args(c, 0, 0, "no arguments");
	load_machine(c);
	open_state(c, RO, false);
	list_table(c, &tab);
	strbuf_init(&sb);
	if (c->json) {
		struct json j;

		json_init(&j, &sb);
		if (alloc_list_json(&c->topo, &c->st, &tab, &j) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		cli_check_json(&j);
		strbuf_puts(&sb, "\n");
	} else if (table_print(&tab, c->table.raw ? TABLE_RAW : TABLE_ALIGNED,
			       !c->table.noheadings, &sb) < 0) {
		cli_die(EXIT_FAIL, "out of memory");
	}
	cli_write(&sb);
	strbuf_free(&sb);
	table_free(&tab);
	return EXIT_OK;
}

static int
cmd_pool(struct ctx *c)
{
	struct cpuset s = CPUSET_INIT;

	want_args(c, 0, 0, "no arguments");
	load_machine(c);
	open_state(c, RO, false);
	if (c->cmd == C_RESERVED)
		print_set(&c->st.reserved);
	else {
		if (state_shared(&c->st, &c->topo.online, &s) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		print_set(&s);
	}
	cpuset_free(&s);
	return EXIT_OK;
}

static int
cmd_hints(struct ctx *c)
{
	struct alloc_request rq;
	struct strbuf sb;
	int r, only;

	want_args(c, 1, 1, "N");
	memset(&rq, 0, sizeof(rq));
	rq.name = "hints";
	rq.n = parse_count(c->args[0]);
	rq.mode = ALLOC_EXCLUSIVE;
	load_machine(c);
	mem_request(c, &rq);
	load_types(c);
	only = core_type_arg(c);
	load_near(c);
	rq.near = c->near;
	rq.nnear = c->nnear;
	open_state(c, RO, false);
	rq.opts = c->st.policy;
	strbuf_init(&sb);
	if (c->json) {
		struct json j;

		json_init(&j, &sb);
		r = alloc_hints_json(&c->ct, &c->m, &c->st, &rq, only, &j,
				     c->err, sizeof(c->err));
		if (r == 0) {
			cli_check_json(&j);
			strbuf_puts(&sb, "\n");
		}
	} else {
		r = alloc_hints_text(&c->ct, &c->m, &c->st, &rq, only, &sb,
				     c->err, sizeof(c->err));
		if (r == 0)
			slower_tier_note(c, &sb);
	}
	if (r < 0)
		alloc_die(c, r);
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	return EXIT_OK;
}

static int
cmd_check(struct ctx *c)
{
	struct strbuf sb;
	struct sysroot live;
	bool have_live;
	int count;

	want_args(c, 0, 0, "no arguments");
	/* With the process view: the cgroup v2 partitions. */
	load_machine_flags(c, TOPO_PROCESS);
	warn_smt_gap(c);
	open_state(c, RO, true);
	have_live = sysroot_open(&live, "/") == 0;
	strbuf_init(&sb);
	count = alloc_check(&c->m, &c->st, &c->print, c->match, c->match_msg,
			    have_live ? &live : NULL, &sb);
	if (have_live)
		sysroot_close(&live);
	if (count >= 0) {
		/* Entries taken beside devices: still beside them? */
		int n = alloc_near_check(&c->root, &c->topo, &c->st, &sb);

		count = n < 0 ? n : count + n;
	}
	if (count < 0)
		cli_die(EXIT_FAIL, "out of memory");
	if (c->json) {
		struct strbuf js;
		struct json j;

		strbuf_init(&js);
		json_init(&j, &js);
		json_obj_begin(&j);
		json_key(&j, "findings");
		if (findings_json(sb.buf ? sb.buf : "", sb.len, &j) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		json_obj_end(&j);
		cli_check_json(&j);
		strbuf_puts(&js, "\n");
		cli_write(&js);
		strbuf_free(&js);
	} else if (sb.len) {
		fwrite(sb.buf, 1, sb.len, stdout);
	}
	strbuf_free(&sb);
	return count ? EXIT_UNSAT : EXIT_OK;
}

static int
cmd_reconcile(struct ctx *c)
{
	struct sysroot live;
	struct strbuf sb;
	bool changed;
	int r;

	want_args(c, 0, 0, "no arguments");
	load_machine(c);
	open_state(c, c->dry_run ? RO : RW, true);
	if (c->match == TOPO_FOREIGN)
		cli_die(EXIT_USAGE, "state file '%s' was made for another "
			"machine (%s): run 'cpm-alloc check'", c->state_path,
			c->match_msg);
	if (sysroot_open(&live, "/") < 0)
		cli_die(EXIT_FAIL, "cannot open /");
	strbuf_init(&sb);
	r = alloc_reconcile(&c->m, &c->st, &c->print, c->match, &live,
			    c->dry_run, &sb, &changed, c->err, sizeof(c->err));
	sysroot_close(&live);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (changed && !c->dry_run)
		save_state(c);
	if (sb.len)
		fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	if (r < 0) {
		fflush(stdout);
		cli_die(EXIT_UNSAT, "%s", c->err);
	}
	return EXIT_OK;
}

/* The checkpoint file, parsed and (unless --no-verify) verified. */
static void
read_checkpoint(struct ctx *c, struct kstate *ks)
{
	int r = kstate_load(ks, c->args[0], !c->no_verify, c->err,
			    sizeof(c->err));

	if (r < 0)
		cli_die(r == -EINVAL || r == -ENOENT || r == -EILSEQ ||
			r == -EFBIG || r == -EFTYPE_CPM ? EXIT_USAGE :
			EXIT_FAIL, "%s", c->err);
}

/*
 * The Memory Manager's checkpoint beside the CPU Manager's (the kubelet
 * writes both into its root directory): its Static policy's memory
 * blocks become the imported allocations' memory bookings.  None there
 * books nothing; one the kubelet would refuse refuses the import.
 */
static void
import_memory(struct ctx *c, struct alloc_import *im)
{
	struct kmemstate ms;
	const char *slash = strrchr(c->args[0], '/');
	char path[4096];
	int r;

	snprintf(path, sizeof(path), "%.*smemory_manager_state",
		 slash ? (int)(slash - c->args[0] + 1) : 0, c->args[0]);
	r = kmem_load(&ms, path, !c->no_verify, c->err, sizeof(c->err));
	if (r == -ENOENT)
		return;
	if (r < 0)
		cli_die(r == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", c->err);
	need_cpus(c);
	load_meminfo(c);
	r = kmem_book(&ms, &c->topo, im, path, c->err, sizeof(c->err));
	kmem_free(&ms);
	if (r < 0)
		cli_die(r == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s", c->err);
}

static int
cmd_import(struct ctx *c)
{
	struct kstate ks;
	struct alloc_import im;
	struct strbuf out;
	int r;

	want_args(c, 1, 1, "FILE");
	read_checkpoint(c, &ks);
	load_machine(c);
	r = alloc_import_read(&c->topo, &ks, c->args[0], &im, c->err,
			      sizeof(c->err));
	if (r < 0)
		alloc_die(c, r);
	import_memory(c, &im);
	open_state(c, RW, false);
	strbuf_init(&out);
	r = alloc_import_add(&c->st, &im, &out, c->err, sizeof(c->err));
	if (r < 0)
		alloc_die(c, r);
	if (r > 0)
		save_state(c);
	if (out.len)
		fwrite(out.buf, 1, out.len, stdout);
	strbuf_free(&out);
	alloc_import_free(&im);
	kstate_free(&ks);
	return EXIT_OK;
}

/*
 * apply FILE: the allocations made to match a plan, under one lock, all
 * or nothing.  The plan is read and checked before the state is locked
 * and changed; the state is saved only when everything succeeded.
 */
static int
cmd_apply(struct ctx *c)
{
	struct plan_findings f = { 0 };
	struct plan_changes ch;
	struct plan_devices d;
	struct plan plan;
	struct strbuf sb;
	struct json j;
	int r, i;

	want_args(c, 1, 1, "a plan FILE");
	r = plan_read(c->args[0], PLAN_OWN, &plan, c->err, sizeof(c->err));
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "%s", c->err);
	load_machine(c);
	need_cpus(c);
	load_meminfo(c);
	/* Its devices, as take --near looks them up. */
	r = plan_devices_find(&plan, &c->root, &d, c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -ENOMEM ? EXIT_FAIL : EXIT_USAGE, "%s",
			r == -ENOMEM ? "out of memory" : c->err);
	/* A plan is applied beside the host's reservation, which only
	 * init records: without a state, nothing would be kept back. */
	if (access(c->state_path, F_OK) < 0 && errno == ENOENT)
		cli_die(EXIT_USAGE, "no state file '%s': run 'cpm-alloc init "
			"--reserved CPULIST' first, so that the plan keeps "
			"off the host's CPUs: nothing changed", c->state_path);
	open_state(c, c->dry_run ? RO : RW, false);
	if (!c->st.exists)
		cli_die(EXIT_USAGE, "no state file '%s': run 'cpm-alloc init "
			"--reserved CPULIST' first: nothing changed",
			c->state_path);
	/* The plan's own errors on this machine: nothing is tried. */
	if (plan_check(&plan, &c->topo, &c->st.reserved, &d, &f) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	for (i = 0; i < f.n; i++)
		if (f.f[i].error)
			cli_warn("error: %s: %s", f.f[i].instance,
				 f.f[i].message);
	if (f.nerrors)
		cli_die(EXIT_UNSAT, "the plan has %d error%s on this machine "
			"(cpm-topo check --plan): nothing changed", f.nerrors,
			f.nerrors == 1 ? "" : "s");
	plan_findings_free(&f);
	r = plan_apply(&c->m, &c->st, &plan, &d, &ch, c->err, sizeof(c->err));
	plan_devices_free(&d);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_UNSAT, "cannot apply "
			"the plan: %s: nothing changed", c->err);
	if (ch.nchanged && !c->dry_run)
		save_state(c);
	strbuf_init(&sb);
	if (c->json) {
		json_init(&j, &sb);
		plan_changes_json(&ch, c->dry_run, &j);
		cli_check_json(&j);
		strbuf_add(&sb, "\n", 1);
	} else {
		plan_changes_text(&ch, c->dry_run, &sb);
	}
	if (sb.oom)
		cli_die(EXIT_FAIL, "out of memory");
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
	r = ch.nchanged ? EXIT_CHANGED : EXIT_OK;
	plan_changes_free(&ch);
	plan_free(&plan);
	return r;
}

/*
 * oci-hook: cpm as an OCI runtime hook.  Everything happens under the
 * state's lock, taken with a bounded wait so that a hook never hangs the
 * runtime: the allocation, its cpuset, and the shared pool's followers
 * rewritten, so two hooks never write pools that disagree.
 */

#define OCI_HOOK_WAIT_MS 10000

enum hook_stage { HOOK_PLACE, HOOK_RELEASE };

struct hook {
	struct oci_state os;
	struct cg_hier h;
	struct sysroot live;
	const char *id;
	char group[CG_PATH_MAX];	/* the container's cpuset group */
	struct cpuset pool_before, pool_after;
};

static enum hook_stage
hook_stage(const struct ctx *c, const struct oci_state *os)
{
	static const char *const place[] = { "createRuntime", "prestart" };
	size_t i;

	if (c->nargs == 0)
		return os->status && strcmp(os->status, "stopped") == 0 ?
			HOOK_RELEASE : HOOK_PLACE;
	if (strcmp(c->args[0], "poststop") == 0)
		return HOOK_RELEASE;
	for (i = 0; i < ARRAY_SIZE(place); i++)
		if (strcmp(c->args[0], place[i]) == 0)
			return HOOK_PLACE;
	cli_die(EXIT_USAGE, "invalid stage '%s' (createRuntime, prestart or "
		"poststop)", c->args[0]);
}

static void
hook_read_state(struct ctx *c, struct hook *hk)
{
	struct strbuf sb;
	char tmp[4096];
	ssize_t n;
	int r;

	/* A pipe, as the runtimes give it, or anything else readable. */
	strbuf_init(&sb);
	strbuf_puts(&sb, "");
	for (;;) {
		n = read(STDIN_FILENO, tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (sb.len + (size_t)n > OCI_STATE_MAX)
			cli_die(EXIT_USAGE, "the OCI state on stdin is larger "
				"than %u bytes", OCI_STATE_MAX);
		strbuf_add(&sb, tmp, (size_t)n);
	}
	if (n < 0)
		cli_die(EXIT_FAIL, "cannot read the OCI state on stdin: %s",
			strerror(errno));
	if (!sb.buf)
		cli_die(EXIT_FAIL, "out of memory");
	r = oci_state_parse(&hk->os, sb.buf, sb.len, c->err, sizeof(c->err));
	strbuf_free(&sb);
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", c->err);
	if (!state_name_valid(hk->os.id))
		cli_die(EXIT_USAGE, "invalid container id '%s' (use 1 to %d of "
			"A-Z a-z 0-9 . _ : / @ -)", hk->os.id, STATE_NAME_MAX);
	hk->id = hk->os.id;
}

/* The request's placement options, as take's command line would set them. */
static void
hook_request(struct ctx *c, const struct oci_request *orq)
{
	if (orq->have_policy)
		c->opts.numa_policy = orq->policy;
	c->share = orq->share;
	c->have_mem = orq->have_mem;
	c->mem = orq->mem;
	c->core_type_arg = orq->core_type;
	c->isolate_irqs = orq->isolate_irqs;
	c->no_quota = orq->no_quota;
}

static void
hook_open_cgroups(struct ctx *c, struct hook *hk)
{
	int r = cg_open(&hk->h, c->cgroup_root, c->err, sizeof(c->err));

	if (r < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
	if (!cg_has(&hk->h, CG_CPUSET))
		cli_die(EXIT_FAIL, "no cpuset cgroup hierarchy");
	if (sysroot_open(&hk->live, "/") < 0)
		cli_die(EXIT_FAIL, "cannot open /");
}

static void
pool_of(struct ctx *c, struct cpuset *out)
{
	if (state_shared(&c->st, &c->topo.online, out) < 0)
		cli_die(EXIT_FAIL, "out of memory");
}

/* The NUMA nodes for a set of CPUs (and e's booked memory). */
static void
hook_mems(struct ctx *c, const struct alloc_entry *e, struct cpuset *out)
{
	entry_nodes(c, e, out);
}

/*
 * Every other container following the shared pool (an entry of 0 CPUs
 * owned by a group) gets the pool now; a group gone since is left to
 * reconcile.  A write that fails is warned about: it is no reason to
 * fail this container's start or stop.
 */
static void
hook_rewrite_followers(struct ctx *c, struct hook *hk)
{
	struct alloc_entry tmp;
	struct cpuset mems = CPUSET_INIT;
	char group[CG_PATH_MAX];
	int i, r;

	if (cpuset_equal(&hk->pool_before, &hk->pool_after))
		return;
	memset(&tmp, 0, sizeof(tmp));
	tmp.cpus = hk->pool_after;
	hook_mems(c, &tmp, &mems);
	for (i = alloc_hook_follower(&c->st, hk->id, 0); i >= 0;
	     i = alloc_hook_follower(&c->st, hk->id, i + 1)) {
		const struct alloc_entry *e = &c->st.entries[i];

		if (cg_path_check(e->owner + 7, group, sizeof(group), c->err,
				  sizeof(c->err)) < 0 || !*group ||
		    !cg_exists(&hk->h, CG_CPUSET, group))
			continue;
		r = oci_cpuset_apply(&hk->h, &hk->live, &c->topo, group,
				     &hk->pool_after, &mems, c->err,
				     sizeof(c->err));
		if (r < 0 && r != -ENOENT)
			cli_warn("warning: shared container %s keeps its CPUs: "
				 "%s", e->name, c->err);
	}
	cpuset_free(&mems);
}

/* Interrupts an allocation moved away come back; true when all did. */
static bool
hook_restore_irqs(struct ctx *c, const char *name)
{
	struct irq_report irqs;
	char holder[STATE_NAME_MAX + 8];
	bool found, ok;

	snprintf(holder, sizeof(holder), "alloc:%s", name);
	if (irq_release(&c->root, irq_journal_path(), holder, &c->topo.online,
			&found, &irqs, c->err, sizeof(c->err)) < 0) {
		cli_warn("%s", c->err);
		return false;
	}
	ok = !warn_irqs(&irqs);
	irq_report_free(&irqs);
	return ok;
}

/* Interrupts moved away from a new exclusive entry; true when some stay. */
static bool
hook_isolate_irqs(struct ctx *c, struct hook *hk, const struct cpuset *cpus)
{
	char holder[STATE_NAME_MAX + 8];
	struct irq_report irqs;
	bool bad;
	int r;

	snprintf(holder, sizeof(holder), "alloc:%s", hk->id);
	r = irq_isolate(&c->root, irq_journal_path(), holder, cpus,
			&c->topo.online, &irqs, c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "container %s: %s",
			hk->id, c->err);
	bad = warn_irqs(&irqs);
	irq_report_free(&irqs);
	return bad;
}

/* The container's request, as take's command line would give it. */
static int
hook_read_request(struct ctx *c, struct hook *hk, struct alloc_request *rq)
{
	struct oci_request orq;
	int r;

	r = oci_config_load(&hk->os, c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", c->err);
	if (oci_request_parse(&hk->os, c->allow_ann, &orq, c->err,
			      sizeof(c->err)) < 0)
		cli_die(EXIT_USAGE, "container %s: %s", hk->id, c->err);
	/* podman copies an image's annotations into the container's: what
	 * the operator did not allow is no one's to ask for. */
	if (orq.ignored)
		cli_warn("warning: container %s: annotation %s is not allowed "
			 "(--allow-annotations): ignored", hk->id, orq.ignored);
	if (orq.unsupported)
		cli_warn("warning: container %s: annotation %s is not "
			 "supported by cpm: ignored", hk->id, orq.unsupported);
	hook_request(c, &orq);
	memset(rq, 0, sizeof(*rq));
	rq->name = hk->id;
	rq->n = orq.have_cpus ? (int)orq.n : 0;
	/* A follower takes no CPU from the pool: a share entry of none. */
	rq->mode = c->share || rq->n == 0 ? ALLOC_SHARE : ALLOC_EXCLUSIVE;
	rq->opts = c->opts;
	rq->have_mem = c->have_mem;
	rq->mem = c->mem;
	load_machine(c);
	need_cpus(c);
	load_meminfo(c);
	load_types(c);
	return core_type_arg(c);
}

/* Give the container's group its CPUs: its own, or the shared pool's. */
static int
hook_apply(struct ctx *c, struct hook *hk, const struct alloc_entry *mine)
{
	struct alloc_entry tmp;
	struct cpuset mems = CPUSET_INIT;
	int r;

	memset(&tmp, 0, sizeof(tmp));
	tmp.cpus = hk->pool_after;
	if (mine->n > 0)
		tmp = *mine;
	hook_mems(c, &tmp, &mems);
	r = oci_cpuset_apply(&hk->h, &hk->live, &c->topo, hk->group, &tmp.cpus,
			     &mems, c->err, sizeof(c->err));
	cpuset_free(&mems);
	return r;
}

/*
 * What the operator allows (--allow-parent, --max-cpus): a container
 * outside the parents is placed as if it asked for nothing; one that
 * asks for more CPUs than allowed is refused.
 */
static void
hook_policy(struct ctx *c, struct hook *hk, struct alloc_request *rq)
{
	bool asks = rq->n > 0 || rq->have_mem || c->isolate_irqs;

	if (asks && c->policy.parents &&
	    !alloc_hook_below(c->policy.parents, hk->group)) {
		cli_warn("warning: container %s: cgroup '%s' is below none of "
			 "the parents the hook grants CPUs in (%s): placed as "
			 "if it asked for none", hk->id, cg_display(hk->group),
			 c->policy.parents);
		rq->n = 0;
		rq->mode = ALLOC_SHARE;
		rq->have_mem = c->have_mem = false;
		c->isolate_irqs = c->no_quota = false;
	}
	if (alloc_hook_allowed(&c->policy, hk->group, rq, c->isolate_irqs,
			       c->err, sizeof(c->err)) < 0)
		cli_die(EXIT_USAGE, "container %s: %s", hk->id, c->err);
}

/* The container as the entry's owner: its group, process and start. */
static void
hook_owner(struct ctx *c, struct hook *hk, struct alloc_entry *e)
{
	char owner[CG_PATH_MAX + 8], cname[OCI_NAME_MAX + 1];

	snprintf(owner, sizeof(owner), "cgroup:%s", hk->group);
	c->owner_arg = owner;
	parse_owner(c, e);
	c->owner_arg = NULL;
	e->hook = true;
	e->hook_pid = (int)hk->os.pid;
	oci_container_name(&hk->os, cname, sizeof(cname));
	if (*cname && !(e->cname = strdup(cname)))
		cli_die(EXIT_FAIL, "out of memory");
	if (hk->os.pid > 0 &&
	    proc_start_time(&hk->live, hk->os.pid, &e->owner_start) < 0)
		cli_die(EXIT_USAGE, "container %s: its process %d does not "
			"exist", hk->id, (int)hk->os.pid);
}

/*
 * cpu-quota.crio.io=disable: the CFS quota of a container whose CPUs
 * are all exclusive is removed (poststop puts config.json's back).
 * True when it could not be.
 */
static bool
hook_disable_quota(struct ctx *c, struct hook *hk, const struct alloc_entry *e)
{
	if (!c->no_quota)
		return false;
	if (e->n == 0 || e->mode != ALLOC_EXCLUSIVE) {
		cli_warn("warning: container %s: cpu-quota.crio.io=disable: "
			 "its CPUs are not exclusive: its quota stays",
			 hk->id);
		return false;
	}
	if (oci_quota_disable(&hk->h, hk->group, c->err, sizeof(c->err)) < 0) {
		cli_warn("container %s: cannot remove its CPU quota: %s",
			 hk->id, c->err);
		return true;
	}
	return false;
}

/* poststop: the quota cpu-quota.crio.io=disable removed comes back. */
static bool
hook_restore_quota(struct ctx *c, struct hook *hk)
{
	struct oci_request orq;

	if (oci_request_parse(&hk->os, c->allow_ann, &orq, c->err,
			      sizeof(c->err)) < 0 || !orq.no_quota)
		return true;
	if (oci_quota_restore(&hk->h, &hk->os, hk->group, c->err,
			      sizeof(c->err)) < 0) {
		cli_warn("container %s: %s", hk->id, c->err);
		return false;
	}
	return true;
}

static int
hook_place(struct ctx *c, struct hook *hk)
{
	struct alloc_request rq;
	struct alloc_entry e;
	struct alloc_hook_result res;
	bool irqs_bad = false;
	int r, only;

	only = hook_read_request(c, hk, &rq);
	memset(&e, 0, sizeof(e));
	hook_open_cgroups(c, hk);
	r = oci_container_group(&hk->os, &hk->h, &hk->live, hk->group,
				sizeof(hk->group), c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", c->err);
	hook_policy(c, hk, &rq);
	hook_owner(c, hk, &e);

	open_state(c, RW, false);
	effective_opts(c, &rq.opts);
	pool_of(c, &hk->pool_before);
	r = alloc_hook_place(&c->ct, &c->m, &c->st, &rq, only, &hk->live, &e,
			     &res, c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -ENOSPC || r == -EEXIST ? EXIT_UNSAT :
			r == -EINVAL ? EXIT_USAGE : EXIT_FAIL,
			"container %s: %s", hk->id, c->err);
	if (res.changed)
		save_state(c);
	if (!res.held) {
		if (res.mixed)
			cli_warn("warning: no core type can hold %d CPUs: "
				 "container %s mixes core types", rq.n, hk->id);
		if (c->isolate_irqs && rq.n > 0)
			irqs_bad = hook_isolate_irqs(c, hk,
						     &c->st.entries[res.at].cpus);
		/* Recorded before the group is written: a hook killed in
		 * between leaves an entry whose group the runtime removes,
		 * which reconcile releases. */
		save_state(c);
	}
	pool_of(c, &hk->pool_after);
	r = hook_apply(c, hk, &c->st.entries[res.at]);
	if (r < 0) {
		char msg[sizeof(c->err)];
		char *names[1] = { (char *)hk->id };

		/* Nothing half-done: the allocation goes again. */
		snprintf(msg, sizeof(msg), "%s", c->err);
		if (!res.held) {
			if (state_remove_named(&c->st, names, 1, c->err,
					       sizeof(c->err)) == 0)
				save_state(c);
			if (c->isolate_irqs)
				hook_restore_irqs(c, hk->id);
		}
		cli_die(EXIT_FAIL, "container %s: cannot set the cpuset of "
			"cgroup '%s': %s", hk->id, cg_display(hk->group), msg);
	}
	if (hook_disable_quota(c, hk, &c->st.entries[res.at]))
		irqs_bad = true;
	hook_rewrite_followers(c, hk);
	return irqs_bad ? EXIT_FAIL : EXIT_OK;
}

/*
 * poststop: only what the same container was given goes back: an entry
 * the hook made, of the group the bundle names (or one below it), of
 * the process the state names, which no longer runs.
 */
static int
hook_release(struct ctx *c, struct hook *hk)
{
	bool ok = true;
	int r;

	r = oci_config_load(&hk->os, c->err, sizeof(c->err));
	if (r == 0)
		r = oci_config_group(&hk->os, hk->group, sizeof(hk->group),
				     c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", c->err);
	load_machine(c);
	need_cpus(c);
	load_meminfo(c);
	hook_open_cgroups(c, hk);
	open_state(c, RW, false);
	r = alloc_hook_find_stopped(&c->st, hk->id,
				    *hk->group ? hk->group : NULL,
				    (int)hk->os.pid, &hk->live, c->err,
				    sizeof(c->err));
	/* A container the hook never placed: nothing to do. */
	if (r == -ENOENT)
		return EXIT_OK;
	if (r < 0)
		cli_die(EXIT_UNSAT, "container %s: %s", hk->id, c->err);
	pool_of(c, &hk->pool_before);
	state_remove(&c->st, r);
	save_state(c);
	ok = hook_restore_irqs(c, hk->id);
	ok = hook_restore_quota(c, hk) && ok;
	pool_of(c, &hk->pool_after);
	hook_rewrite_followers(c, hk);
	return ok ? EXIT_OK : EXIT_FAIL;
}

static int
cmd_oci_hook(struct ctx *c)
{
	struct hook hk;
	enum hook_stage stage;
	int status;

	/* Some runtimes (crun) report a hook's exit status, not its stderr. */
	cli_log_to_syslog();
	want_args(c, 0, 1, "at most a STAGE");
	memset(&hk, 0, sizeof(hk));
	cpuset_init(&hk.pool_before);
	cpuset_init(&hk.pool_after);
	if (c->wait_ms < 0)
		c->wait_ms = OCI_HOOK_WAIT_MS;
	hook_read_state(c, &hk);
	stage = hook_stage(c, &hk.os);
	status = stage == HOOK_PLACE ? hook_place(c, &hk) :
				       hook_release(c, &hk);
	cpuset_free(&hk.pool_before);
	cpuset_free(&hk.pool_after);
	oci_state_free(&hk.os);
	return status;
}

/* map */

/* Each CPU's kind and holder, as the state has them. */
static void
map_marks(struct ctx *c, struct draw_marks *m, struct draw_holder *h)
{
	const struct topo *t = &c->topo;
	unsigned char *kind = calloc((size_t)t->ncpus + 1, 1);
	int *holder = malloc(sizeof(int) * ((size_t)t->ncpus + 1));
	int i, cpu;

	if (kind == NULL || holder == NULL)
		cli_die(EXIT_FAIL, "out of memory");
	for (cpu = 0; cpu < t->ncpus; cpu++)
		holder[cpu] = -1;
	for (i = 0; i < c->st.nentries; i++) {
		const struct alloc_entry *e = &c->st.entries[i];

		h[i].name = e->name;
		h[i].kind = e->mode == ALLOC_SHARE ? DRAW_SHARE : DRAW_EXCLUSIVE;
		if ((h[i].cpus = cpuset_to_list(&e->cpus)) == NULL)
			cli_die(EXIT_FAIL, "out of memory");
		for (cpu = cpuset_first(&e->cpus); cpu >= 0 && cpu < t->ncpus;
		     cpu = cpuset_next(&e->cpus, cpu))
			if (holder[cpu] < 0)
				holder[cpu] = i;
	}
	for (cpu = 0; cpu < t->ncpus; cpu++) {
		enum draw_kind k = DRAW_SHARED;

		if (!t->cpus[cpu].online)
			k = DRAW_OFFLINE;
		else if (holder[cpu] >= 0)
			k = h[holder[cpu]].kind;
		else if (cpuset_isset(&c->st.reserved, (unsigned int)cpu))
			k = DRAW_RESERVED;
		else if (t->cpus[cpu].isolated)
			k = DRAW_ISOLATED;
		kind[cpu] = (unsigned char)k;
	}
	m->ncpus = t->ncpus;
	m->kind = kind;
	m->holder = holder;
	m->nholders = c->st.nentries;
	m->holders = h;
}

static int
cmd_map(struct ctx *c)
{
	struct draw_input in = { 0 };
	struct draw_opts o = { 0 };
	struct draw_holder *h;
	struct draw_marks m;
	struct memtier mt;
	struct devices devs;
	struct strbuf sb;
	int r, i;

	want_args(c, 0, 0, "no arguments");
	load_machine_flags(c, TOPO_PROCESS);
	open_state(c, RO, false);
	h = calloc((size_t)c->st.nentries + 1, sizeof(*h));
	if (h == NULL || memtier_load(&mt, &c->topo, &c->root) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	map_marks(c, &m, h);
	r = device_list(&devs, &c->root, c->err, sizeof(c->err));
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", r == -ENOMEM ? "out of memory" : c->err);
	in.topo = &c->topo;
	in.mem = &mt;
	in.devs = &devs;
	in.marks = &m;
	o.width = cli_draw_width((int)c->width);
	o.ascii = c->ascii;
	o.color = c->color && !c->svg;
	strbuf_init(&sb);
	r = c->svg ? draw_svg(&in, &o, &sb) : draw_text(&in, &o, &sb);
	if (r < 0)
		cli_die(EXIT_FAIL, "out of memory");
	cli_write(&sb);
	strbuf_free(&sb);
	for (i = 0; i < c->st.nentries; i++)
		free((char *)h[i].cpus);
	free(h);
	free((void *)m.kind);
	free((void *)m.holder);
	devices_free(&devs);
	memtier_free(&mt);
	return EXIT_OK;
}

/*
 * Each command's function, called through this table rather than a
 * switch the compiler would inline them all into: main's frame would
 * then hold every command's locals (22 KB, with check's and
 * reconcile's buffers) above the one that runs, pages of stack each
 * command touches for nothing.
 */
static int (*const commands[C_NCMDS])(struct ctx *) = {
	[C_INIT] = cmd_init, [C_TAKE] = cmd_take_any, [C_RELEASE] = cmd_release,
	[C_RESIZE] = cmd_resize, [C_MODE] = cmd_mode, [C_SHOW] = cmd_show,
	[C_LIST] = cmd_list, [C_SHARED] = cmd_pool, [C_RESERVED] = cmd_pool,
	[C_HINTS] = cmd_hints, [C_CHECK] = cmd_check,
	[C_RECONCILE] = cmd_reconcile, [C_IMPORT] = cmd_import,
	[C_APPLY] = cmd_apply,
	[C_OCI_HOOK] = cmd_oci_hook, [C_MAP] = cmd_map,
};

int
main(int argc, char **argv)
{
	struct ctx c;
	int r;

	cli_init("cpm-alloc");
	memset(&c, 0, sizeof(c));
	c.lockfd = -1;
	parse_args(&c, argc, argv);
	r = c.cmd < C_NCMDS && commands[c.cmd] ? commands[c.cmd](&c) :
						  EXIT_USAGE;
	state_unlock(c.lockfd);
	free(c.state_real);
	free(c.topo_key);
	while (c.nnear > 0)
		free((char *)c.near[--c.nnear].name);
	free(c.near);
	free(c.near_text);
	free(c.members);
	cli_exit(r);
}
