// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-pin: put work on CPUs and memory nodes, and check that it is there.
 *
 *   cpm-pin [--mem MODE] [--nodes NODELIST] CPULIST -- COMMAND [ARG...]
 *   cpm-pin --scope [--unit NAME] CPULIST -- COMMAND [ARG...]
 *   cpm-pin -p PID [CPULIST] [--nodes NODELIST] [--migrate]
 *   cpm-pin --cgroup GROUP CPULIST [--mems NODELIST] [--exclusive]
 *           [--create] [--attach PID...]
 *   cpm-pin [-n] --irqs-away CPULIST | --irqs-to DEV CPULIST
 *   cpm-pin [-n] --irqs-restore [DEV]
 *   cpm-pin --isolate CPULIST [-p PID] | --isolate-restore
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/allocselect.h"
#include "base/cpuset.h"
#include "base/err.h"
#include "base/json.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "cgroup/cgcpuset.h"
#include "cgroup/cgowner.h"
#include "cgroup/cgroup.h"
#include "cgroup/sdapply.h"
#include "machine/coretype.h"
#include "machine/device.h"
#include "machine/irq.h"
#include "machine/select.h"
#include "machine/sysroot.h"
#include "machine/topo.h"
#include "pin/mempolicy.h"
#include "machine/memtier.h"
#include "pin/numamaps.h"
#include "pin/pin.h"
#include "pin/pingroup.h"
#include "pin/pintable.h"
#include "pin/repin.h"
#include "pin/isolate.h"
#include "tool/cli.h"

enum form { FORM_RUN, FORM_PID, FORM_CGROUP, FORM_IRQS, FORM_WEIGHTS,
	    FORM_ISOLATE };

struct pin_ctx {
	enum form form;
	/* as given */
	const char *sysroot_dir, *cgroup_root;
	const char *pid_arg, *group_arg, *nodes_arg, *mems_arg, *mem_arg;
	const char *cpulist_arg;
	const char *cpu_selector;	/* CPULIST names a selector */
	const char *irqs_away_arg;
	const char *irqs_to_arg;	/* --irqs-to DEV */
	const char *unit_arg;		/* --unit NAME */
	const char *weights_arg;	/* --weights W */
	const char *set_weights_arg;	/* --set-weights W */
	bool restore_weights;
	const char *wait_arg;		/* --wait SECONDS (--irqs forms) */
	bool irqs_restore;
	const char *irqs_restore_dev;	/* --irqs-restore DEV */
	const char *isolate_arg;	/* --isolate CPULIST */
	bool isolate_restore;
	bool dry_run, migrate, exclusive, isolated, create, verbose, json;
	bool force, scope;
	bool dashdash;
	char **command;			/* after "--" */
	const char **attach_args;
	size_t nattach;
	/* parsed */
	enum pin_mem mem;
	pid_t pid;
	pid_t *attach;
	char group[CG_PATH_MAX];
	struct cpuset cpus, nodes;
	bool have_cpus, have_nodes;
	struct sysroot root;		/* topology: --sysroot or / */
	struct sysroot live;		/* processes: always / */
	struct topo topo;
	char err[8192];
};

static void
usage(void)
{
	printf(
"Usage: cpm-pin [OPTION...] CPULIST -- COMMAND [ARG...]\n"
"       cpm-pin --scope [--unit NAME] [OPTION...] CPULIST -- COMMAND [ARG...]\n"
"       cpm-pin -p PID [CPULIST] [--nodes NODELIST --migrate]\n"
"       cpm-pin --cgroup GROUP CPULIST [--mems NODELIST]\n"
"               [--exclusive | --isolated] [--create] [--attach PID...]\n"
"       cpm-pin --cgroup GROUP\n"
"       cpm-pin [-n] --irqs-away CPULIST | --irqs-to DEV CPULIST\n"
"       cpm-pin [-n] --irqs-restore [DEV]\n"
"       cpm-pin --isolate CPULIST [-p PID] | --isolate-restore\n"
"Put work on CPUs and NUMA memory nodes, then read back what the kernel did.\n"
"\n"
"Run COMMAND with the CPU affinity CPULIST (the kernel's list grammar;\n"
"'-' reads it from stdin; or a selector of cpm-topo cpus such as node:1,\n"
"type:efficiency or dev:eth1, the CPUs local to a device; alloc:NAME, the\n"
"CPUs of cpm-alloc's allocation NAME, with its memory policy on the nodes its\n"
"memory is booked on unless --mem or --nodes say otherwise)\n"
"and, with --mem or --nodes, a NUMA memory policy.\n"
"\n"
"  -m, --mem MODE          memory policy: local, bind, interleave,\n"
"                          preferred, preferred-many (Linux 5.15) or\n"
"                          weighted-interleave (Linux 6.9) (default: keep\n"
"                          the inherited policy; local when only --nodes\n"
"                          is given); a kernel without the mode: exit 3\n"
"      --weights W         with weighted-interleave: the weights the task\n"
"                          needs (0:5,1:2; their nodes unless --nodes);\n"
"                          the kernel's weights are system-wide, so they\n"
"                          must be in place (exit 3 otherwise)\n"
"      --set-weights W     set the kernel's interleave weights (root), the\n"
"                          old ones going to a journal (env\n"
"                          CPM_WEIGHT_JOURNAL, default\n"
"                          " WEIGHT_JOURNAL_DEFAULT ")\n"
"      --restore-weights   put back the weights the journal holds\n"
"  -N, --nodes NODELIST    nodes for the policy (default for bind,\n"
"                          interleave, preferred: the nodes of CPULIST that\n"
"                          have memory; with local, CPULIST must lie on them)\n"
"  -p, --pid PID           without CPULIST: print the affinity of process PID\n"
"                          (first line, a cpulist), its memory policy and\n"
"                          the threads whose affinity differs; with CPULIST:\n"
"                          re-pin every thread until no new thread appears\n"
"      --migrate           with -p: move the process's pages to --nodes (or\n"
"                          to the nodes of CPULIST)\n"
"  -j, --json              with -p PID alone: print the process, every\n"
"                          thread, as one JSON object\n"
"  -g, --cgroup GROUP      write the cpuset of cgroup GROUP instead;\n"
"                          without CPULIST: print it (first line, the\n"
"                          CPUs granted), as -p prints a process's\n"
"      --mems NODELIST     with --cgroup: cpuset.mems (default: the nodes of\n"
"                          CPULIST that have memory)\n"
"      --exclusive         with --cgroup: v1 cpuset.cpu_exclusive=1, v2\n"
"                          cpuset.cpus.partition=root\n"
"      --isolated          with --cgroup, v2: cpuset.cpus.partition=isolated\n"
"                          (no load balancing on its CPUs); v2 partitions\n"
"                          below a non-partition parent are made remote\n"
"                          (cpuset.cpus.exclusive up the tree, Linux 6.7+)\n"
"      --create            with --cgroup: create GROUP if it does not exist\n"
"      --force             with --cgroup: write the cpuset of a group that\n"
"                          systemd owns directly (systemd may put its own\n"
"                          values back); without it such a group is\n"
"                          changed through its unit's AllowedCPUs and\n"
"                          AllowedMemoryNodes, or refused (exit 3)\n"
"      --scope             run COMMAND in a new transient systemd scope unit\n"
"                          with AllowedCPUs=CPULIST (and AllowedMemoryNodes=\n"
"                          --nodes), so that the kernel's cpuset enforces it\n"
"      --unit NAME         with --scope: the scope's name (default\n"
"                          cpm-pin-PID.scope)\n"
"      --attach PID...     with --cgroup: move these whole processes into\n"
"                          GROUP (the PIDs run to the next option or the end)\n"
"      --irqs-away CPULIST move every movable device interrupt (and the\n"
"                          default for new ones) off CPULIST, read each back,\n"
"                          and report those the kernel keeps there; the old\n"
"                          affinities go to a journal (env CPM_IRQ_JOURNAL,\n"
"                          default " IRQ_JOURNAL_DEFAULT ")\n"
"      --irqs-to DEV CPULIST  steer a device's interrupts (its MSI-X vectors,\n"
"                          msi_irqs) onto CPULIST (a cpulist or selector such\n"
"                          as dev:eth1), even CPUs kept free of the others;\n"
"                          journaled as --irqs-away is; exit 3 when the\n"
"                          kernel keeps one elsewhere\n"
"      --irqs-restore [DEV]  put back every affinity the journal holds, also\n"
"                          after a crash, and remove the journal; with DEV,\n"
"                          undo that device's --irqs-to alone\n"
"      --wait SECONDS      with the --irqs forms: wait at most\n"
"                          this long for the journal's lock (default:\n"
"                          forever), then exit 1 naming its holder\n"
"      --isolate CPULIST   move everything that can move off CPULIST: every\n"
"                          thread (repeated until no new one appears; per-CPU\n"
"                          kernel threads and threads already inside stay),\n"
"                          the workqueue cpumasks and device interrupts; keep\n"
"                          the CPUs out of deep C-states and at the\n"
"                          performance governor; the old values go to a\n"
"                          journal (env CPM_ISOLATE_JOURNAL, default\n"
"                          " ISOLATE_JOURNAL_DEFAULT ");\n"
"                          with -p PID only that process's tree moves\n"
"      --isolate-restore   put back every value the journal holds that no\n"
"                          one changed since, also after a crash\n"
"  -n, --dry-run           print what would be set and change nothing\n"
"  -v, --verbose           report what was changed and verified on stderr\n"
"      --sysroot DIR       read the topology below DIR (env CPM_SYSROOT);\n"
"                          only with --dry-run unless DIR is /, or with\n"
"                          the --irqs forms, which write proc/irq below DIR\n"
"      --cgroup-root DIR   use the cgroup hierarchy at DIR (env\n"
"                          CPM_CGROUP_ROOT)\n"
"  -h, --help              print this help and exit\n"
"  -V, --version           print the version and exit\n"
"\n"
"After every change cpm-pin reads the affinity, the memory policy or\n"
"cpuset.cpus.effective back and fails when it differs.  CPUs that do not\n"
"exist, are offline or lie outside the target's cpuset are errors, never\n"
"dropped.  The memory policy of a running process cannot be changed (Linux\n"
"sets it per thread, from inside): start it with cpm-pin or use --migrate.\n"
"\n"
"Exit status: 0 done, 1 the kernel refused or did something else (or,\n"
"with --scope, there is no systemd), 2 bad usage or input (nothing\n"
"changed), 3 the group is systemd's and cannot be changed through it\n"
"(nothing changed), 126 COMMAND cannot be run, 127 COMMAND not found.\n");
	cli_exit(EXIT_OK);
}

/* ---- argument parsing ---- */

enum opt_id {
	OPT_HELP, OPT_VERSION, OPT_MEM, OPT_NODES, OPT_PID, OPT_MIGRATE,
	OPT_CGROUP, OPT_MEMS, OPT_EXCLUSIVE, OPT_ISOLATED, OPT_CREATE, OPT_ATTACH,
	OPT_DRY_RUN, OPT_VERBOSE, OPT_SYSROOT, OPT_CGROUP_ROOT, OPT_JSON,
	OPT_IRQS_AWAY, OPT_IRQS_RESTORE, OPT_FORCE, OPT_SCOPE, OPT_UNIT,
	OPT_IRQS_TO,
	OPT_WEIGHTS, OPT_SET_WEIGHTS, OPT_RESTORE_WEIGHTS,
	OPT_WAIT, OPT_ISOLATE, OPT_ISOLATE_RESTORE,
};

#define OPT_BASE 256

/* Options with a short letter are known by it, the others by OPT_BASE + id. */
static const struct cli_option opts[] = {
	{ "help", no_argument, 'h', CLI_ALL_COMMANDS },
	{ "version", no_argument, 'V', CLI_ALL_COMMANDS },
	{ "mem", required_argument, 'm', CLI_ALL_COMMANDS },
	{ "nodes", required_argument, 'N', CLI_ALL_COMMANDS },
	{ "pid", required_argument, 'p', CLI_ALL_COMMANDS },
	{ "migrate", no_argument, OPT_BASE + OPT_MIGRATE, CLI_ALL_COMMANDS },
	{ "cgroup", required_argument, 'g', CLI_ALL_COMMANDS },
	{ "mems", required_argument, OPT_BASE + OPT_MEMS, CLI_ALL_COMMANDS },
	{ "exclusive", no_argument, OPT_BASE + OPT_EXCLUSIVE, CLI_ALL_COMMANDS },
	{ "isolated", no_argument, OPT_BASE + OPT_ISOLATED, CLI_ALL_COMMANDS },
	{ "create", no_argument, OPT_BASE + OPT_CREATE, CLI_ALL_COMMANDS },
	{ "attach", required_argument, OPT_BASE + OPT_ATTACH, CLI_ALL_COMMANDS },
	{ "dry-run", no_argument, 'n', CLI_ALL_COMMANDS },
	{ "verbose", no_argument, 'v', CLI_ALL_COMMANDS },
	{ "sysroot", required_argument, OPT_BASE + OPT_SYSROOT, CLI_ALL_COMMANDS },
	{ "cgroup-root", required_argument, OPT_BASE + OPT_CGROUP_ROOT,
	  CLI_ALL_COMMANDS },
	{ "json", no_argument, 'j', CLI_ALL_COMMANDS },
	{ "irqs-away", required_argument, OPT_BASE + OPT_IRQS_AWAY,
	  CLI_ALL_COMMANDS },
	{ "irqs-restore", no_argument, OPT_BASE + OPT_IRQS_RESTORE,
	  CLI_ALL_COMMANDS },
	{ "irqs-to", required_argument, OPT_BASE + OPT_IRQS_TO,
	  CLI_ALL_COMMANDS },
	{ "force", no_argument, OPT_BASE + OPT_FORCE, CLI_ALL_COMMANDS },
	{ "scope", no_argument, OPT_BASE + OPT_SCOPE, CLI_ALL_COMMANDS },
	{ "unit", required_argument, OPT_BASE + OPT_UNIT, CLI_ALL_COMMANDS },
	{ "weights", required_argument, OPT_BASE + OPT_WEIGHTS,
	  CLI_ALL_COMMANDS },
	{ "set-weights", required_argument, OPT_BASE + OPT_SET_WEIGHTS,
	  CLI_ALL_COMMANDS },
	{ "restore-weights", no_argument, OPT_BASE + OPT_RESTORE_WEIGHTS,
	  CLI_ALL_COMMANDS },
	{ "wait", required_argument, OPT_BASE + OPT_WAIT, CLI_ALL_COMMANDS },
	{ "isolate", required_argument, OPT_BASE + OPT_ISOLATE,
	  CLI_ALL_COMMANDS },
	{ "isolate-restore", no_argument, OPT_BASE + OPT_ISOLATE_RESTORE,
	  CLI_ALL_COMMANDS },
	{ NULL, 0, 0, 0 },
};

static const struct cli_exclusion exclusions[] = {
	{ OPT_BASE + OPT_IRQS_AWAY, OPT_BASE + OPT_IRQS_RESTORE },
	{ OPT_BASE + OPT_ISOLATE, OPT_BASE + OPT_ISOLATE_RESTORE }, { 0, 0 }
};

/* The long name of a val cli_next_option() returned. */
static const char *
opt_name(int val)
{
	const struct cli_option *o;

	for (o = opts; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
}

static enum opt_id
opt_id_of(int val)
{
	switch (val) {
	case 'h': return OPT_HELP;
	case 'V': return OPT_VERSION;
	case 'm': return OPT_MEM;
	case 'N': return OPT_NODES;
	case 'p': return OPT_PID;
	case 'g': return OPT_CGROUP;
	case 'n': return OPT_DRY_RUN;
	case 'v': return OPT_VERBOSE;
	case 'j': return OPT_JSON;
	default: return (enum opt_id)(val - OPT_BASE);
	}
}


static bool
is_pid_word(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

static void
set_once(const char **slot, const char *val, const char *name)
{
	if (*slot)
		cli_usage_error("option '--%s' given twice", name);
	*slot = val;
}

/* --isolate CPULIST [-p PID] and --isolate-restore. */
static void
isolate_args(struct pin_ctx *c, int npos)
{
	if (c->isolate_arg && c->isolate_restore)
		cli_usage_error("--isolate and --isolate-restore cannot be "
				"combined");
	if (c->group_arg || c->dashdash || npos > 0 || c->mem_arg ||
	    c->nodes_arg || c->mems_arg || c->migrate || c->exclusive ||
	    c->isolated || c->create || c->nattach || c->json || c->force ||
	    c->scope || c->unit_arg || c->irqs_away_arg || c->irqs_restore ||
	    c->irqs_to_arg || c->wait_arg || c->weights_arg ||
	    c->set_weights_arg || c->restore_weights)
		cli_usage_error("--isolate and --isolate-restore go alone (with "
				"-p, --dry-run, --verbose and --sysroot)");
	if (c->pid_arg && c->isolate_restore)
		cli_usage_error("-p goes with --isolate, not --isolate-restore");
	c->form = FORM_ISOLATE;
}

/*
 * Options may come before or after the positional arguments, up to "--";
 * "--attach" takes every following PID up to the next option.
 */
static void
parse_args(struct pin_ctx *c, int argc, char **argv)
{
	const char **pos = calloc((size_t)argc, sizeof(*pos));
	struct cli_parser p;
	int npos = 0, nopt, opt, i;

	c->attach_args = calloc((size_t)argc, sizeof(*c->attach_args));
	if (pos == NULL || c->attach_args == NULL)
		cli_die(EXIT_FAIL, "out of memory");
	/* The options end at "--": what follows is the command. */
	for (nopt = 1; nopt < argc; nopt++)
		if (strcmp(argv[nopt], "--") == 0)
			break;
	if (nopt < argc) {
		c->dashdash = true;
		c->command = argv + nopt + 1;
	}
	cli_parser_init(&p, opts, exclusions, NULL, false);
	while ((opt = cli_next_option(&p, nopt, argv)) != -1) {
		const char *val = optarg, *shown = opt_name(opt);

		switch (opt_id_of(opt)) {
		case OPT_HELP:
			usage();
			break;
		case OPT_VERSION:
			cli_version();
			break;
		case OPT_MEM:
			set_once(&c->mem_arg, val, shown);
			break;
		case OPT_NODES:
			set_once(&c->nodes_arg, val, shown);
			break;
		case OPT_PID:
			set_once(&c->pid_arg, val, shown);
			break;
		case OPT_MIGRATE:
			c->migrate = true;
			break;
		case OPT_CGROUP:
			set_once(&c->group_arg, val, shown);
			break;
		case OPT_MEMS:
			set_once(&c->mems_arg, val, shown);
			break;
		case OPT_EXCLUSIVE:
			c->exclusive = true;
			break;
		case OPT_ISOLATED:
			c->isolated = true;
			break;
		case OPT_CREATE:
			c->create = true;
			break;
		case OPT_ATTACH:
			c->attach_args[c->nattach++] = val;
			while (optind < nopt && is_pid_word(argv[optind]))
				c->attach_args[c->nattach++] = argv[optind++];
			break;
		case OPT_DRY_RUN:
			c->dry_run = true;
			break;
		case OPT_VERBOSE:
			c->verbose = true;
			break;
		case OPT_SYSROOT:
			set_once(&c->sysroot_dir, val, shown);
			break;
		case OPT_CGROUP_ROOT:
			if (*val == '\0')
				cli_usage_error("--cgroup-root needs a directory");
			set_once(&c->cgroup_root, val, shown);
			break;
		case OPT_JSON:
			c->json = true;
			break;
		case OPT_IRQS_AWAY:
			set_once(&c->irqs_away_arg, val, shown);
			break;
		case OPT_IRQS_RESTORE:
			c->irqs_restore = true;
			break;
		case OPT_IRQS_TO:
			set_once(&c->irqs_to_arg, val, shown);
			break;
		case OPT_FORCE:
			c->force = true;
			break;
		case OPT_SCOPE:
			c->scope = true;
			break;
		case OPT_UNIT:
			set_once(&c->unit_arg, val, shown);
			break;
		case OPT_WEIGHTS:
			set_once(&c->weights_arg, val, shown);
			break;
		case OPT_SET_WEIGHTS:
			set_once(&c->set_weights_arg, val, shown);
			break;
		case OPT_RESTORE_WEIGHTS:
			c->restore_weights = true;
			break;
		case OPT_WAIT:
			set_once(&c->wait_arg, val, shown);
			break;
		case OPT_ISOLATE:
			set_once(&c->isolate_arg, val, shown);
			break;
		case OPT_ISOLATE_RESTORE:
			c->isolate_restore = true;
			break;
		}
	}
	cli_check_options(&p, -1);
	for (i = optind; i < nopt; i++)
		pos[npos++] = argv[i];

	if (c->isolate_arg || c->isolate_restore) {
		isolate_args(c, npos);
		free(pos);
		return;
	}
	if (c->irqs_to_arg) {
		if (c->irqs_away_arg || c->irqs_restore)
			cli_usage_error("--irqs-to goes with neither --irqs-away "
					"nor --irqs-restore");
		if (npos != 1)
			cli_usage_error(npos ? "unexpected argument '%s'" :
					"--irqs-to needs a CPU list", pos[1]);
		c->cpulist_arg = pos[0];
		npos = 0;	/* the CPU list: checked as the others below */
	}
	if (c->irqs_restore && npos == 1) {
		c->irqs_restore_dev = pos[0];	/* one device's steering */
		npos = 0;
	}
	if (c->irqs_away_arg || c->irqs_restore || c->irqs_to_arg) {
		if (c->irqs_away_arg && c->irqs_restore)
			cli_usage_error("--irqs-away and --irqs-restore cannot "
					"be combined");
		if (c->pid_arg || c->group_arg || c->dashdash || npos > 0 ||
		    c->mem_arg || c->nodes_arg || c->mems_arg || c->migrate ||
		    c->exclusive || c->isolated || c->create || c->nattach ||
		    c->json || c->force || c->scope || c->unit_arg)
			cli_usage_error("%s go%s alone (with --sysroot and "
					"--verbose, --dry-run)", c->irqs_to_arg ? "--irqs-to" :
					"--irqs-away and --irqs-restore",
					c->irqs_to_arg ? "es" : "");
		if (c->wait_arg) {
			int64_t ms;

			if (parse_wait(c->wait_arg, &ms) < 0)
				cli_usage_error("invalid --wait '%s' (seconds, "
						"a duration such as 500ms, or "
						"forever)", c->wait_arg);
			irq_journal_wait(ms);
		}
		c->form = FORM_IRQS;
		free(pos);
		return;
	}

	if (c->set_weights_arg || c->restore_weights) {
		if (c->set_weights_arg && c->restore_weights)
			cli_usage_error("--set-weights and --restore-weights "
					"cannot be combined");
		if (c->pid_arg || c->group_arg || c->dashdash || npos > 0 ||
		    c->mem_arg || c->nodes_arg || c->mems_arg || c->migrate ||
		    c->exclusive || c->isolated || c->create || c->nattach ||
		    c->json || c->force || c->scope || c->unit_arg ||
		    c->weights_arg || c->dry_run)
			cli_usage_error("--set-weights and --restore-weights go "
					"alone (with --sysroot and --verbose)");
		c->form = FORM_WEIGHTS;
		free(pos);
		return;
	}
	if (c->weights_arg && (!c->mem_arg ||
			       strcmp(c->mem_arg, "weighted-interleave") != 0))
		cli_usage_error("--weights goes with --mem weighted-interleave");
	if (c->wait_arg)
		cli_usage_error("--wait goes only with --irqs-away or "
				"--irqs-restore");
	if (c->pid_arg && c->group_arg)
		cli_usage_error("-p and --cgroup cannot be combined");
	c->form = c->pid_arg ? FORM_PID : c->group_arg ? FORM_CGROUP : FORM_RUN;

	if (c->form != FORM_RUN && c->dashdash)
		cli_usage_error("'--' COMMAND only goes with the run form");
	if (c->scope && c->form != FORM_RUN)
		cli_usage_error("--scope goes with the run form only "
				"(CPULIST -- COMMAND)");
	if (c->unit_arg && !c->scope)
		cli_usage_error("--unit needs --scope");
	if (c->force && c->form != FORM_CGROUP)
		cli_usage_error("--force needs --cgroup");
	if (c->form != FORM_PID && c->migrate)
		cli_usage_error("--migrate needs -p PID");
	if (c->json && (c->form != FORM_PID || npos > 0 || c->migrate))
		cli_usage_error("--json only goes with -p PID alone");
	if (c->form != FORM_CGROUP) {
		if (c->mems_arg)
			cli_usage_error("--mems needs --cgroup (use --nodes)");
		if (c->exclusive)
			cli_usage_error("--exclusive needs --cgroup");
		if (c->isolated)
			cli_usage_error("--isolated needs --cgroup");
		if (c->create)
			cli_usage_error("--create needs --cgroup");
		if (c->nattach)
			cli_usage_error("--attach needs --cgroup");
	} else {
		if (c->mem_arg || c->nodes_arg)
			cli_usage_error("--mem and --nodes do not go with "
					"--cgroup (use --mems)");
		if (c->exclusive && c->isolated)
			cli_usage_error("--exclusive and --isolated cannot be "
					"combined");
	}

	switch (c->form) {
	case FORM_RUN:
		if (npos == 0)
			cli_usage_error("missing CPULIST");
		if (!c->dashdash)
			cli_usage_error("missing '--' before COMMAND");
		if (npos > 1)
			cli_usage_error("unexpected argument '%s' before '--'",
					pos[1]);
		if (c->command[0] == NULL)
			cli_usage_error("missing COMMAND after '--'");
		break;
	case FORM_PID:
		if (npos > 1)
			cli_usage_error("unexpected argument '%s'", pos[1]);
		break;
	case FORM_IRQS:
	case FORM_WEIGHTS:
	case FORM_ISOLATE:
		break;	/* handled above */
	case FORM_CGROUP:
		/* --cgroup GROUP alone shows its cpuset, as -p PID shows a
		 * process's; anything that changes it needs the list. */
		if (npos == 0 && (c->create || c->nattach || c->exclusive ||
				  c->isolated || c->mems_arg || c->dry_run ||
				  c->force))
			cli_usage_error("missing CPULIST");
		if (npos > 1)
			cli_usage_error("unexpected argument '%s' (CPULIST goes "
					"before --attach)", pos[1]);
		break;
	}
	c->cpulist_arg = npos ? pos[0] : NULL;
	free(pos);
}

static pid_t
parse_pid(const char *s)
{
	unsigned int v;

	if (parse_uint(s, 0x3fffffff, &v) < 0 || v == 0)
		cli_die(EXIT_USAGE, "invalid pid '%s'", s);
	return (pid_t)v;
}

/* ---- shared steps ---- */

static void
die_check(int r, const char *msg)
{
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "%s", msg);
}

/*
 * alloc:NAME: the allocation's CPUs and, unless --nodes or --mem say
 * otherwise, its memory: the nodes it is booked on and its memory
 * policy (a plan's mem-policy=).  Returns as device_select().
 */
static int
select_alloc(struct pin_ctx *c)
{
	struct cpuset mems = CPUSET_INIT;
	const char *pol = NULL;
	int r;

	r = alloc_select(NULL, c->cpu_selector, &c->cpus, &mems, &pol, c->err,
			 sizeof(c->err));
	if (r == 0 && !c->have_nodes && !cpuset_empty(&mems)) {
		r = cpuset_copy(&c->nodes, &mems);
		c->have_nodes = true;
	}
	if (r == 0 && !c->mem_arg && pol)
		c->mem_arg = pol;
	cpuset_free(&mems);
	return r;
}

static void
load_topology(struct pin_ctx *c)
{
	int r;

	cli_open_sysroot(c->sysroot_dir, &c->root);
	r = sysroot_open(&c->live, "/");
	if (r < 0)
		cli_die(EXIT_FAIL, "cannot open '/': %s", strerror(-r));
	if (!c->root.live && !c->dry_run)
		cli_usage_error("--sysroot '%s' is another machine: only "
				"--dry-run can use it", c->root.path);
	/* A replayed tree's own process files say what it was allowed;
	 * selectors such as siblings:N or allowed need all of it. */
	cli_load_topology(&c->root, c->cpu_selector ? TOPO_PROCESS :
			  TOPO_NO_CORES | (c->root.live ? 0 : TOPO_PROCESS),
			  &c->topo);
	if (c->cpu_selector) {
		struct coretypes ct;
		bool types = select_needs_types(c->cpu_selector);

		/* type:, capacity: and part: need files the topology does not read */
		if (types && coretype_load(&ct, &c->root, &c->topo, c->err,
					   sizeof(c->err)) < 0)
			cli_die(EXIT_FAIL, "%s", c->err);
		if (alloc_is_selector(c->cpu_selector))
			r = select_alloc(c);
		else if (device_is_selector(c->cpu_selector))
			r = device_select(&c->root, &c->topo, c->cpu_selector,
					  &c->cpus, c->err, sizeof(c->err));
		else
			r = select_resolve_all(&c->topo, types ? &ct : NULL,
					       c->cpu_selector, &c->cpus, c->err,
					       sizeof(c->err));
		if (types)
			coretype_free(&ct);
		die_check(r, c->err);
	}
}

static void
parse_lists(struct pin_ctx *c, const char *nodes_arg)
{
	if (c->cpulist_arg && !select_is_cpulist(c->cpulist_arg))
		c->cpu_selector = c->cpulist_arg;	/* after the topology */
	else if (c->cpulist_arg)
		cli_parse_cpulist("cpulist", c->cpulist_arg, &c->cpus);
	c->have_cpus = c->cpulist_arg != NULL;
	if (nodes_arg) {
		cli_parse_cpulist("node list", nodes_arg, &c->nodes);
		c->have_nodes = true;
	}
}

static void
print_plan_line(const char *key, const char *value)
{
	printf("%s: %s\n", key, value);
}

static void
print_plan_set(const char *key, const struct cpuset *s)
{
	char *l = cpuset_to_list(s);

	if (l == NULL)
		cli_die(EXIT_FAIL, "out of memory");
	print_plan_line(key, l);
	free(l);
}

static char *
list_or_die(const struct cpuset *s)
{
	char *l = cpuset_to_list(s);

	if (l == NULL)
		cli_die(EXIT_FAIL, "out of memory");
	return l;
}

/* "WHAT is GOT, not WANT as asked (missing: M) (extra: E)", exit 1. */
static noreturn void
die_mismatch(const char *what, const struct cpuset *want,
	     const struct cpuset *got)
{
	char msg[8192];

	pin_mismatch(what, want, got, msg, sizeof(msg));
	cli_die(EXIT_FAIL, "%s", msg);
}

/* ---- the run form ---- */

static void
resolve_policy_nodes(struct pin_ctx *c, const struct cpuset *mems_allowed,
		     const char *whose)
{
	int r;

	if (c->mem_arg) {
		if (pin_mem_parse(c->mem_arg, &c->mem) < 0)
			cli_usage_error("invalid --mem '%s' (local, bind, "
					"interleave, preferred, preferred-many "
					"or weighted-interleave)", c->mem_arg);
	} else {
		c->mem = c->have_nodes ? PIN_MEM_LOCAL : PIN_MEM_KEEP;
	}
	r = pin_policy_nodes(&c->topo, &c->cpus, c->mem, c->have_nodes,
			     &c->nodes, mems_allowed, whose, c->err,
			     sizeof(c->err));
	die_check(r, c->err);
}

/* The asked policy as text ("bind 0-1") into sb. */
static void
format_asked_policy(const struct pin_ctx *c, struct strbuf *sb)
{
	pin_policy_asked(c->mem, &c->nodes, sb);
	if (sb->oom)
		cli_die(EXIT_FAIL, "out of memory");
}

static void
plan_policy(const struct pin_ctx *c)
{
	struct strbuf sb;

	if (c->mem == PIN_MEM_KEEP) {
		print_plan_line("mempolicy", "inherited");
		return;
	}
	strbuf_init(&sb);
	format_asked_policy(c, &sb);
	if (sb.oom)
		cli_die(EXIT_FAIL, "out of memory");
	print_plan_line("mempolicy", sb.buf);
	strbuf_free(&sb);
}

/*
 * --scope: this process moves into a new scope unit whose AllowedCPUs
 * (and AllowedMemoryNodes) are what was asked, then the kernel's
 * effective cpuset of its group is read back.  The exec follows.
 */
static void
start_scope(struct pin_ctx *c, const char *unit)
{
	struct cpuset eff = CPUSET_INIT;
	struct cg_hier h;
	char desc[512];
	int r;

	r = cg_open(&h, cli_cgroup_root(c->cgroup_root), c->err,
		    sizeof(c->err));
	if (r < 0)
		cli_die(cli_cgroup_root(c->cgroup_root) ? EXIT_USAGE :
			EXIT_FAIL, "--scope: %s", c->err);
	snprintf(desc, sizeof(desc), "cpm-pin %s", c->command[0]);
	r = sdapply_scope(&h, unit, getpid(), desc, &c->cpus,
			  c->have_nodes ? &c->nodes : NULL, c->err,
			  sizeof(c->err));
	cg_close(&h);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_FAIL, "--scope: %s", c->err);
	if (cgcpuset_pid_allowed(&c->live, getpid(), &c->topo.online, &eff) &&
	    !cpuset_subset(&eff, &c->cpus))
		die_mismatch("the scope's cpuset", &c->cpus, &eff);
	if (c->verbose) {
		char *l = list_or_die(&c->cpus);

		cli_warn("scope %s: AllowedCPUs=%s", unit, l);
		free(l);
	}
	cpuset_free(&eff);
}

/*
 * The common case, CPU numbers and no memory policy on this machine:
 * CPUs within this process's affinity exist, are online and are allowed,
 * so nothing else need be read.  Anything else, or CPUs outside it, goes
 * through the topology, which also names what is wrong.
 */
static bool
plain_cpus_fit(const struct pin_ctx *c)
{
	return !c->cpu_selector && !c->scope &&
	       cli_sysroot_dir(c->sysroot_dir) == NULL &&
	       pin_within_affinity(0, &c->cpus) == 1;
}

/*
 * With a policy on the nodes it names (bind, interleave, preferred), the
 * same for the nodes: nodes this process may allocate on exist, have
 * memory and are allowed.  local, or a policy on the CPUs' own nodes,
 * needs the topology.
 */
static bool
plain_nodes_fit(struct pin_ctx *c)
{
	enum pin_mem mode;

	if (!c->mem_arg || !c->have_nodes ||
	    pin_mem_parse(c->mem_arg, &mode) < 0 || mode == PIN_MEM_LOCAL ||
	    pin_within_mems_allowed(&c->nodes) != 1)
		return false;
	c->mem = mode;
	return true;
}

/* Check the run form's CPUs and decide its policy; bad input exits 2. */
static void
check_run_plan(struct pin_ctx *c)
{
	struct cpuset allowed = CPUSET_INIT, mems = CPUSET_INIT;
	const char *whose;
	bool have_allowed, have_mems;
	int r;

	if (!c->mem_arg && !c->nodes_arg && plain_cpus_fit(c)) {
		c->mem = PIN_MEM_KEEP;
		return;
	}
	if (c->mem_arg && plain_cpus_fit(c) && plain_nodes_fit(c))
		return;
	load_topology(c);
	pin_runner_limits(&c->root, &c->topo, &allowed, &have_allowed, &mems,
			  &have_mems);
	whose = c->root.live ? "this process" : "the replayed process";
	r = pin_check_cpus(&c->topo, &c->cpus, have_allowed ? &allowed : NULL,
			   whose, c->err, sizeof(c->err));
	die_check(r, c->err);
	resolve_policy_nodes(c, have_mems ? &mems : NULL, whose);
	cpuset_free(&allowed);
	cpuset_free(&mems);
}

/* ---- weighted interleave ---- */

static const char *
weight_journal_path(void)
{
	const char *p = getenv("CPM_WEIGHT_JOURNAL");

	return p && *p ? p : WEIGHT_JOURNAL_DEFAULT;
}

static void
parse_weights_arg(const char *arg, struct weights *ws)
{
	char err[256];
	int r = weights_parse(arg, ws, err, sizeof(err));

	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "%s", err);
}

/* --weights without --nodes: the policy's nodes are the weights' nodes;
 * with --nodes, each of them needs a weight. */
static void
weights_nodes(struct pin_ctx *c)
{
	struct weights ws;

	weights_init(&ws);
	parse_weights_arg(c->weights_arg, &ws);
	if (!c->have_nodes) {
		if (cpuset_copy(&c->nodes, &ws.nodes) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		c->have_nodes = true;
	} else if (!cpuset_subset(&c->nodes, &ws.nodes)) {
		struct cpuset miss = CPUSET_INIT;
		char *l;

		cpuset_copy(&miss, &c->nodes);
		cpuset_andnot(&miss, &ws.nodes);
		l = list_or_die(&miss);
		cli_die(EXIT_USAGE, "--weights gives no weight to node%s %s of "
			"--nodes", cpuset_count(&miss) > 1 ? "s" : "", l);
	}
	weights_free(&ws);
}

/*
 * The kernel's weights are system-wide: a task gets the weights it
 * needs only when they are in place.  Changing them is --set-weights'
 * work, asked for on its own.
 */
static void
check_weights(struct pin_ctx *c)
{
	struct weights want, cur;
	struct strbuf a, b;
	char err[512];
	int r;

	weights_init(&want);
	weights_init(&cur);
	parse_weights_arg(c->weights_arg, &want);
	if (c->root.fd < 0)
		cli_open_sysroot(c->sysroot_dir, &c->root);
	r = weights_read(&c->root, &want, &cur, err, sizeof(err));
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(r == -ERANGE ? EXIT_USAGE : r == -ENOENT ? EXIT_UNSAT :
			EXIT_FAIL, "%s", err);
	if (!weights_equal(&want, &cur)) {
		strbuf_init(&a);
		strbuf_init(&b);
		weights_format(&cur, &a);
		weights_format(&want, &b);
		cli_die(EXIT_UNSAT, "the kernel's interleave weights are %s, "
			"not %s; they are system-wide: 'cpm-pin --set-weights "
			"%s' (root) sets them, --restore-weights puts them "
			"back", a.buf ? a.buf : "?", b.buf ? b.buf : "?",
			b.buf ? b.buf : "?");
	}
	weights_free(&want);
	weights_free(&cur);
}

static noreturn void
weights_form(struct pin_ctx *c)
{
	char err[512];
	int r;

	cli_open_sysroot(c->sysroot_dir, &c->root);
	if (c->restore_weights) {
		r = weights_restore(&c->root, weight_journal_path(), err,
				    sizeof(err));
		if (r < 0)
			cli_die(EXIT_FAIL, "%s", err);
		if (c->verbose)
			cli_warn(r == 1 ? "no weight journal: nothing to put back" :
				 "interleave weights put back");
		cli_exit(EXIT_OK);
	} else {
		struct weights ws;
		struct strbuf sb;

		weights_init(&ws);
		parse_weights_arg(c->set_weights_arg, &ws);
		r = weights_apply(&c->root, weight_journal_path(), &ws, err,
				  sizeof(err));
		if (r == -ENOENT)
			cli_die(EXIT_UNSAT, "%s", err);
		if (r == -ERANGE)
			cli_die(EXIT_USAGE, "%s", err);
		if (r < 0)
			cli_die(EXIT_FAIL, "%s", err);
		if (c->verbose) {
			strbuf_init(&sb);
			weights_format(&ws, &sb);
			cli_warn("interleave weights %s (journal %s)",
				 sb.buf ? sb.buf : "?", weight_journal_path());
			strbuf_free(&sb);
		}
		weights_free(&ws);
	}
	cli_exit(EXIT_OK);
}

static noreturn void
run_form(struct pin_ctx *c)
{
	struct cpuset got = CPUSET_INIT;
	char unit[CGOWNER_UNIT_MAX];
	int r;

	parse_lists(c, c->nodes_arg);
	if (c->weights_arg)
		weights_nodes(c);
	check_run_plan(c);
	if (c->weights_arg)
		check_weights(c);
	if (c->scope) {
		r = sdapply_scope_name(c->unit_arg, getpid(), unit,
				       sizeof(unit), c->err, sizeof(c->err));
		die_check(r, c->err);
	}
	if (c->dry_run) {
		struct strbuf sb;
		char **a;

		if (c->scope)
			print_plan_line("scope", unit);
		print_plan_set("cpus", &c->cpus);
		plan_policy(c);
		strbuf_init(&sb);
		for (a = c->command; *a; a++)
			strbuf_printf(&sb, "%s%s", a == c->command ? "" : " ",
				      *a);
		if (sb.oom)
			cli_die(EXIT_FAIL, "out of memory");
		print_plan_line("exec", sb.buf);
		strbuf_free(&sb);
		cli_exit(EXIT_OK);
	}

	if (c->scope)
		start_scope(c, unit);
	r = pin_apply_self(&c->cpus, c->mem, &c->nodes, &got, c->err,
			   sizeof(c->err));
	if (r < 0)	/* a kernel without the mode: exit 3 */
		cli_die(r == -EOPNOTSUPP ? EXIT_UNSAT : EXIT_FAIL, "%s", c->err);
	if (c->verbose) {
		char *l = list_or_die(&got);

		cli_warn("running '%s' on CPUs %s", c->command[0], l);
		free(l);
	}
	fflush(stdout);
	execvp(c->command[0], c->command);
	r = errno;
	cli_die(r == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC,
		"cannot run '%s': %s", c->command[0], strerror(r));
}

/* ---- -p PID ---- */

/*
 * Where the process's pages are (numa_maps), and what does not fit its
 * CPUs or its policy: "memory: ..." and "warning: ..." lines, or the
 * JSON members "memory" and "findings".
 */
static void
process_memory(struct pin_ctx *c, const struct pin_proc_view *v,
	       struct strbuf *out, struct json *j)
{
	struct numa_pages np;
	struct numa_policy pol = { .mode = PIN_MEM_KEEP };
	struct weights want, cur;
	struct memtier mt;
	struct strbuf find;
	bool have_mt;
	int *w = NULL, nw = 0, i;
	char whose[48], err[256];

	numa_pages_init(&np);
	if (numamaps_read_pid(&c->live, c->pid, &np) < 0) {
		if (j) {
			json_key(j, "memory");
			json_null(j);
			json_key(j, "findings");
			json_arr_begin(j);
			json_arr_end(j);
		}
		return;
	}
	cli_load_topology(&c->live, TOPO_NO_CORES, &c->topo);
	/* HMAT's initiators: what is near for a CPU-less node. */
	have_mt = memtier_load(&mt, &c->topo, &c->live) == 0;
	weights_init(&want);
	weights_init(&cur);
	if (v->have_policy) {
		pol.mode = v->policy.mode;
		pol.nodes = &v->policy.nodes;
		/* Weighted interleave: the kernel's weights give the shares. */
		if (pol.mode == PIN_MEM_WEIGHTED &&
		    cpuset_copy(&want.nodes, &v->policy.nodes) == 0 &&
		    weights_read(&c->live, &want, &cur, err, sizeof(err)) == 0 &&
		    (w = calloc((size_t)cur.n + 1, sizeof(int))) != NULL) {
			for (i = 0; i < cur.n; i++)
				w[i] = cur.w[i];
			nw = cur.n;
		}
		pol.weights = w;
		pol.nweights = nw;
	}
	snprintf(whose, sizeof(whose), "process %d", (int)c->pid);
	strbuf_init(&find);
	if (j) {
		json_key(j, "memory");
		numa_pages_json(&np, j);
		json_key(j, "findings");
		json_arr_begin(j);
	}
	numamaps_findings(&c->topo, have_mt ? &mt : NULL, &np, &v->aff,
			  v->have_policy ? &pol : NULL, whose, &find, j);
	if (j) {
		json_arr_end(j);
	} else {
		strbuf_puts(out, "memory: ");
		numa_pages_format(&np, out);
		strbuf_puts(out, "\n");
		if (find.len)
			strbuf_add(out, find.buf, find.len);
	}
	strbuf_free(&find);
	weights_free(&want);
	weights_free(&cur);
	free(w);
	if (have_mt)
		memtier_free(&mt);
	numa_pages_free(&np);
}

/*
 * Show a process: its affinity as a cpulist (the first line, for pipes),
 * its memory policy, its allowed memory nodes, where its pages are
 * (with warnings when they do not fit), and the threads whose
 * affinity differs; or all of it, every thread, as one JSON object
 * (lib/pin/pintable.c defines both).
 */
static void
print_process(struct pin_ctx *c)
{
	struct pin_proc_view v = { .pid = c->pid, .aff = CPUSET_INIT,
				   .mems = CPUSET_INIT };
	struct table proc, threads;
	struct strbuf out;
	struct json j;
	pid_t *tids = NULL;
	int r, n;

	r = pin_get_affinity(c->pid, &v.aff);
	if (r == -ESRCH)
		cli_die(EXIT_USAGE, "no process with pid %d", (int)c->pid);
	if (r < 0)
		cli_die(EXIT_FAIL, "cannot read the affinity of process %d: %s",
			(int)c->pid, strerror(-r));
	pin_policy_init(&v.policy);
	v.have_policy = pin_read_task_policy(&c->live, c->pid, &v.policy) == 0 &&
			v.policy.mode != PIN_MEM_UNKNOWN;
	v.have_mems = proc_status_list(&c->live, c->pid, "Mems_allowed_list",
				       &v.mems) == 0;
	n = pin_list_threads(&c->live, c->pid, &tids);
	if (pin_proc_table(&v, &proc) < 0 ||
	    pin_thread_table(&v, tids, n, c->json, &threads) < 0)
		cli_die(EXIT_FAIL, "out of memory");

	strbuf_init(&out);
	if (c->json) {
		table_select(&proc, PIN_PROC_JSON_COLUMNS, NULL, 0);
		json_init(&j, &out);
		json_obj_begin(&j);
		table_json_members(&proc, 0, &j);
		process_memory(c, &v, &out, &j);
		json_key(&j, "threads");
		table_json(&threads, &j);
		json_obj_end(&j);
		cli_check_json(&j);
		strbuf_puts(&out, "\n");
	} else {
		if (table_print(&proc, TABLE_LABELLED, false, &out) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		process_memory(c, &v, &out, NULL);
		if (table_print(&threads, TABLE_LABELLED, false, &out) < 0)
			cli_die(EXIT_FAIL, "out of memory");
	}
	if (out.oom)
		cli_die(EXIT_FAIL, "out of memory");
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_free(&out);
	table_free(&proc);
	table_free(&threads);
	if (n > 0)
		free(tids);
	pin_policy_free(&v.policy);
	cpuset_free(&v.aff);
	cpuset_free(&v.mems);
	cli_exit(EXIT_OK);
}

/* -p PID CPULIST: every thread of the process, then the kernel's word. */
static void
repin(struct pin_ctx *c)
{
	struct pin_repin res;
	struct cpuset st = CPUSET_INIT;
	int r;

	cpuset_init(&res.got);
	r = pin_repin_process(&c->live, c->pid, &c->cpus, &res, c->err,
			      sizeof(c->err));
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
	/* The kernel's own report, as a second opinion. */
	r = proc_status_list(&c->live, c->pid, "Cpus_allowed_list", &st);
	if (r == 0 && !cpuset_equal(&st, &c->cpus))
		die_mismatch("Cpus_allowed_list", &c->cpus, &st);
	if (c->verbose) {
		char *l = list_or_die(&c->cpus);

		cli_warn("process %d: %u thread%s on CPUs %s (%u set, %u "
			 "pass%s)", (int)c->pid, res.threads,
			 res.threads == 1 ? "" : "s", l, res.set,
			 res.passes, res.passes == 1 ? "" : "es");
		free(l);
	}
	cpuset_free(&st);
	cpuset_free(&res.got);
}

/* --migrate: the pages of the process move to the nodes. */
static void
migrate(struct pin_ctx *c)
{
	int r;

	r = pin_migrate_process(&c->topo, &c->live, c->pid, &c->nodes, c->err,
				sizeof(c->err));
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
	if (c->verbose) {
		char *l = list_or_die(&c->nodes);

		cli_warn("process %d: pages on node%s %s", (int)c->pid,
			 cpuset_count(&c->nodes) == 1 ? "" : "s", l);
		free(l);
	}
}

/*
 * Check -p's CPUs against those the process may use, and decide the
 * nodes --migrate moves its pages to; bad input exits 2.
 */
static void
check_pid_plan(struct pin_ctx *c)
{
	struct cpuset allowed = CPUSET_INIT, mems = CPUSET_INIT;
	const struct cpuset *allowedp = NULL;
	char whose[64];
	int r;

	snprintf(whose, sizeof(whose), "process %d", (int)c->pid);
	if (c->have_cpus) {
		if (c->root.live && cgcpuset_pid_allowed(&c->live, c->pid,
							 &c->topo.online,
							 &allowed))
			allowedp = &allowed;
		r = pin_check_cpus(&c->topo, &c->cpus, allowedp, whose,
				   c->err, sizeof(c->err));
		die_check(r, c->err);
	}
	if (c->migrate) {
		const struct cpuset *memsp = NULL;

		if (proc_status_list(&c->live, c->pid, "Mems_allowed_list",
				    &mems) == 0)
			memsp = &mems;
		/* The pages go where a bind policy would put them. */
		r = pin_policy_nodes(&c->topo, &c->cpus, PIN_MEM_BIND,
				     c->have_nodes, &c->nodes, memsp, whose,
				     c->err, sizeof(c->err));
		die_check(r, c->err);
	}
	cpuset_free(&allowed);
	cpuset_free(&mems);
}

static noreturn void
pid_form(struct pin_ctx *c)
{

	c->pid = parse_pid(c->pid_arg);
	if (c->mem_arg)
		cli_die(EXIT_USAGE, "cannot set the memory policy of a running "
			"process: Linux lets only a thread set its own; start "
			"it with 'cpm-pin --mem', or move its pages with "
			"--migrate");
	if (c->nodes_arg && !c->migrate)
		cli_usage_error("--nodes with -p needs --migrate");
	if (c->migrate && !c->nodes_arg && !c->cpulist_arg)
		cli_usage_error("--migrate needs --nodes or a CPULIST");
	parse_lists(c, c->nodes_arg);
	if (sysroot_open(&c->live, "/") < 0)
		cli_die(EXIT_FAIL, "cannot open '/'");
	if (!pin_pid_exists(&c->live, c->pid))
		cli_die(EXIT_USAGE, "no process with pid %d", (int)c->pid);
	/* Showing needs no topology (and no --sysroot). */
	if (!c->have_cpus && !c->migrate)
		print_process(c);
	/* CPU numbers within the process's affinity need no topology. */
	if (c->migrate || c->cpu_selector ||
	    cli_sysroot_dir(c->sysroot_dir) != NULL ||
	    pin_within_affinity(c->pid, &c->cpus) != 1) {
		sysroot_close(&c->live);
		load_topology(c);
		check_pid_plan(c);
	}
	if (c->dry_run) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%d", (int)c->pid);
		print_plan_line("pid", buf);
		if (c->have_cpus)
			print_plan_set("cpus", &c->cpus);
		if (c->migrate)
			print_plan_set("migrate", &c->nodes);
		cli_exit(EXIT_OK);
	}

	if (c->have_cpus)
		repin(c);
	if (c->migrate)
		migrate(c);
	cli_exit(EXIT_OK);
}

/* ---- --cgroup GROUP ---- */

static void
print_cgroup_plan(const struct pin_ctx *c, const struct cgcpuset_plan *p)
{
	size_t i;

	print_plan_line("cgroup", cg_display(c->group));
	if (!p->exists)
		print_plan_line("create", cg_display(c->group));
	print_plan_set(p->files.cpus, &p->cpus);
	print_plan_set(p->files.mems, &p->mems);
	if (c->exclusive || c->isolated)
		print_plan_line(p->files.exclusive, p->files.exclusive_on);
	for (i = 0; i < c->nattach; i++) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%d", (int)c->attach[i]);
		print_plan_line("attach", buf);
	}
}

/*
 * How to change the group (sdapply_route()'s rule); systemd has no
 * property for a partition or for moving processes in, so --exclusive,
 * --isolated and --attach on a unit's group need --force.
 */
static enum cgowner_route
route_cgroup(struct pin_ctx *c, const struct cg_hier *h, struct cgowner *o,
	     struct sdbus **bus)
{
	const char *unsupported = NULL;
	int r;

	if (c->exclusive || c->isolated)
		unsupported = "a cpuset partition";
	else if (c->nattach)
		unsupported = "moving processes in";
	r = sdapply_route(h, c->group, unsupported, c->force, o, bus, c->err,
			  sizeof(c->err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE :
			r == -ECANCELED ? EXIT_UNSAT : EXIT_FAIL, "%s", c->err);
	if (r == CGOWNER_FORCED)
		cli_warn("warning: %s", c->err);
	return r;
}

/*
 * --cgroup GROUP without a CPU list: the CPUs the kernel grants the group
 * on the first line (as -p PID prints a process's affinity), then what
 * the group asks for and its memory nodes.
 */
static noreturn void
print_cgroup(struct pin_ctx *c)
{
	struct cgcpuset_files f;
	struct cg_hier h;
	struct cpuset cpus = CPUSET_INIT, eff = CPUSET_INIT,
		mems = CPUSET_INIT, eff_mems = CPUSET_INIT;
	char *l[4];
	int r;

	r = cg_path_check(c->group_arg, c->group, sizeof(c->group), c->err,
			  sizeof(c->err));
	die_check(r, c->err);
	r = cg_open(&h, cli_cgroup_root(c->cgroup_root), c->err,
		    sizeof(c->err));
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
	if (cg_version(&h, CG_CPUSET) == 0)
		cli_die(EXIT_FAIL, "no cpuset controller in the cgroup hierarchy");
	cgcpuset_files(cg_version(&h, CG_CPUSET), &f);
	r = cgcpuset_read_list(&h, c->group, f.cpus, &cpus, c->err,
			       sizeof(c->err));
	if (r == 0)
		r = cgcpuset_read_list(&h, c->group, f.mems, &mems, c->err,
				       sizeof(c->err));
	if (r == -ENOENT)
		cli_die(EXIT_FAIL, "no cgroup '%s' with a cpuset",
			cg_display(c->group));
	if (r < 0)
		cli_die(r == -EBADMSG ? EXIT_USAGE : EXIT_FAIL, "%s", c->err);
	/* Without effective files (trees, old kernels), or with them
	 * empty (a v1 group that asks for nothing), asked is granted. */
	if ((cgcpuset_read_list(&h, c->group, f.eff_cpus, &eff, NULL, 0) < 0 ||
	     cpuset_empty(&eff)) && cpuset_or(&eff, &cpus) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	if ((cgcpuset_read_list(&h, c->group, f.eff_mems, &eff_mems, NULL, 0) < 0 ||
	     cpuset_empty(&eff_mems)) && cpuset_or(&eff_mems, &mems) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	l[0] = list_or_die(&eff);
	l[1] = list_or_die(&cpus);
	l[2] = list_or_die(&mems);
	l[3] = list_or_die(&eff_mems);
	printf("%s\ncpus: %s\nmems: %s\nmems_allowed: %s\n", l[0],
	       *l[1] ? l[1] : "(inherited)", *l[2] ? l[2] : "(inherited)",
	       l[3]);
	for (r = 0; r < 4; r++)
		free(l[r]);
	cpuset_free(&cpus);
	cpuset_free(&eff);
	cpuset_free(&mems);
	cpuset_free(&eff_mems);
	cg_close(&h);
	cli_exit(EXIT_OK);
}

static noreturn void
cgroup_form(struct pin_ctx *c)
{
	struct cg_hier h;
	struct cgcpuset_request rq;
	struct cgcpuset_plan plan;
	struct cgowner o;
	struct sdbus *bus = NULL;
	enum cgowner_route route;
	size_t i;
	int r;

	if (c->cpulist_arg == NULL)
		print_cgroup(c);
	r = cg_path_check(c->group_arg, c->group, sizeof(c->group), c->err,
			  sizeof(c->err));
	die_check(r, c->err);
	if (c->group[0] == '\0')
		cli_die(EXIT_USAGE, "the root cgroup's cpuset cannot be "
			"changed");
	c->attach = calloc(c->nattach + 1, sizeof(*c->attach));
	if (c->attach == NULL)
		cli_die(EXIT_FAIL, "out of memory");
	for (i = 0; i < c->nattach; i++)
		c->attach[i] = parse_pid(c->attach_args[i]);
	parse_lists(c, c->mems_arg);
	load_topology(c);
	for (i = 0; i < c->nattach; i++)
		if (!pin_pid_exists(&c->live, c->attach[i]))
			cli_die(EXIT_USAGE, "no process with pid %d",
				(int)c->attach[i]);

	r = cg_open(&h, cli_cgroup_root(c->cgroup_root), c->err,
		    sizeof(c->err));
	/* A root given that holds no hierarchy is bad input, as in every
	 * tool; one discovered on the live system is a failure. */
	if (r < 0)
		cli_die(cli_cgroup_root(c->cgroup_root) ? EXIT_USAGE :
			EXIT_FAIL, "%s", c->err);
	memset(&rq, 0, sizeof(rq));
	rq.group = c->group;
	rq.cpus = &c->cpus;
	rq.mems = c->have_nodes ? &c->nodes : NULL;
	rq.exclusive = c->exclusive;
	rq.isolated = c->isolated;
	rq.create = c->create;
	rq.attach = c->attach;
	rq.nattach = c->nattach;
	r = cgcpuset_plan(&h, &c->topo, &rq, &plan, c->err, sizeof(c->err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", c->err);
	route = route_cgroup(c, &h, &o, &bus);
	if (c->dry_run) {
		if (route == CGOWNER_VIA_SYSTEMD)
			cli_warn("would apply through systemd unit %s (runtime "
				 "AllowedCPUs, AllowedMemoryNodes)", o.unit);
		print_cgroup_plan(c, &plan);
		sdbus_close(bus);
		cg_close(&h);
		cli_exit(EXIT_OK);
	}
	if (route == CGOWNER_VIA_SYSTEMD) {
		r = sdapply_cpuset(&h, bus, o.unit, c->group, &plan.cpus,
				   &plan.mems, c->err, sizeof(c->err));
		sdbus_close(bus);
	} else {
		r = cgcpuset_apply(&h, &c->live, &plan, c->err,
				   sizeof(c->err));
	}
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", c->err);
	if (c->verbose) {
		char *l = list_or_die(&plan.cpus), *m = list_or_die(&plan.mems);

		cli_warn("cgroup '%s': cpus %s, mems %s%s, %zu process%s "
			 "attached", cg_display(c->group), l, m,
			 c->isolated ? ", isolated" : c->exclusive ?
			 ", exclusive" : "", c->nattach,
			 c->nattach == 1 ? "" : "es");
		free(l);
		free(m);
	}
	cgcpuset_plan_free(&plan);
	cg_close(&h);
	cli_exit(EXIT_OK);
}

/* ---- interrupts ---- */

static const char *
irq_journal_path(void)
{
	const char *p = getenv("CPM_IRQ_JOURNAL");

	return p && *p ? p : IRQ_JOURNAL_DEFAULT;
}

/*
 * Report a change IRQ by IRQ: refusals as warnings (managed and per-CPU
 * interrupts stay where the kernel keeps them), the rest with -v; in a
 * dry run, each change as an "irq: N FROM -> TO" plan line.  Returns
 * true when a write the kernel took did not read back as asked.
 */
static bool
report_irqs(const struct pin_ctx *c, const struct irq_report *rep)
{
	bool bad = false;
	size_t i;

	for (i = 0; i < rep->n; i++) {
		const struct irq_outcome *o = &rep->v[i];
		char *from = list_or_die(&o->from), *to = list_or_die(&o->to);
		char *eff = list_or_die(&o->effective), name[128];

		snprintf(name, sizeof(name), o->name[0] ? " (%s)" : "%s", o->name);
		if (c->dry_run) {
			printf("irq: %d %s -> %s%s\n", o->irq, *from ? from : "-",
			       *to ? to : "-", name);
		} else if (o->error == -EAGAIN) {
			cli_warn("IRQ %d%s reads back %s after the move", o->irq,
				 name, *to ? to : "-");
			bad = true;
		} else if (o->error < 0) {
			cli_warn("warning: IRQ %d%s cannot be moved: %s (stays on %s)",
				 o->irq, name, read_strerror(o->error), *from ? from : "-");
		} else if (o->effective_outside) {
			cli_warn("warning: IRQ %d%s is set to %s, but the kernel "
				 "still delivers it to %s (effective_affinity_list)",
				 o->irq, name, *to ? to : "-", eff);
		} else if (c->verbose) {
			cli_warn("IRQ %d%s: %s -> %s", o->irq, name,
				 *from ? from : "-", *to ? to : "-");
		}
		free(from);
		free(to);
		free(eff);
	}
	if (rep->default_changed && c->dry_run)
		print_plan_line("default_smp_affinity", "rewritten");
	else if (rep->default_changed && rep->default_error < 0) {
		cli_warn("cannot set default_smp_affinity: %s",
			 strerror(-rep->default_error));
		bad = true;
	}
	if (!cpuset_empty(&rep->kept) && !c->irqs_to_arg) {
		char *k = list_or_die(&rep->kept);

		cli_warn("note: IRQ%s %s stay%s on the CPUs %s steered to "
			 "(--irqs-to), away set or not", cpuset_count(&rep->kept) == 1 ?
			 "" : "s", k, cpuset_count(&rep->kept) == 1 ? "s" : "",
			 cpuset_count(&rep->kept) == 1 ? "it is" : "they are");
		free(k);
	}
	return bad;
}

/* The CPUs of a --irqs-to or --irqs-away argument: a list or selector. */
static void
irq_cpus(struct pin_ctx *c, const char *what, const char *arg)
{
	int r;

	if (select_is_cpulist(arg)) {
		cli_parse_cpus(&c->topo, "cpulist", arg, &c->cpus);
	} else {
		r = device_is_selector(arg) ?
		    device_select(&c->root, &c->topo, arg, &c->cpus, c->err,
				  sizeof(c->err)) :
		    select_resolve(&c->topo, arg, &c->cpus, c->err,
				   sizeof(c->err));
		die_check(r, c->err);
	}
	if (cpuset_empty(&c->cpus))
		cli_die(EXIT_USAGE, "%s needs at least one CPU", what);
}

/* The device of --irqs-to or --irqs-restore DEV, and its holder name. */
static void
irq_device(struct pin_ctx *c, const char *what, const char *name,
	   struct device *dev, char *holder, size_t len)
{
	int r = device_find(dev, &c->root, name, c->err, sizeof(c->err));

	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "invalid %s device: %s", what, c->err);
	snprintf(holder, len, "irqs-to:%s", dev->addr);
}

/*
 * After --irqs-to: the device's IRQs that are not where they were
 * steered, each with why; with -v, where they are.  Returns the exit
 * status: 3 when one is not there.
 */
static int
steer_outcome(const struct pin_ctx *c, const struct device *dev,
	      const struct cpuset *irqs, const struct irq_report *rep)
{
	const char *name = c->irqs_to_arg;
	char *l, *to = list_or_die(&c->cpus);
	int irq;

	cpuset_for_each(irq, &rep->unsteered) {
		const struct irq_outcome *o = NULL;
		char *now;
		size_t i;

		for (i = 0; i < rep->n; i++)
			if (rep->v[i].irq == irq)
				o = &rep->v[i];
		now = o ? list_or_die(o->error == -EAGAIN ? &o->to : &o->from) :
		      NULL;
		cli_warn("cannot steer IRQ %d of %s to %s: %s%s%s", irq, name, to,
			 o == NULL ? "its smp_affinity_list cannot be read" :
			 o->error == -EAGAIN ? "the kernel keeps it on " :
			 read_strerror(o->error), o && o->error != -EAGAIN ?
			 "; it stays on " : "", now ? now : "");
		free(now);
	}
	if (c->verbose && !c->dry_run) {
		l = list_or_die(irqs);
		cli_warn("%s (%s): IRQ%s %s steered to %s%s", name, dev->addr,
			 cpuset_count(irqs) == 1 ? "" : "s", l, to,
			 cpuset_intersects(&rep->away, &c->cpus) ?
			 ", which other interrupts stay off" : "");
		free(l);
	}
	free(to);
	return cpuset_empty(&rep->unsteered) ? EXIT_OK : EXIT_UNSAT;
}

/*
 * --irqs-to DEV CPULIST: the device's IRQs onto the CPUs, journaled
 * under a holder named for the device's address, so that steering it
 * again replaces what it was steered to and --irqs-restore puts back
 * what it had.  Steering wins over the away sets: exit 3 only where the
 * kernel keeps an IRQ elsewhere.
 */
static noreturn void
irqs_to(struct pin_ctx *c)
{
	struct cpuset irqs = CPUSET_INIT;
	struct irq_report rep;
	struct device dev;
	struct strbuf far;
	char holder[64], err[512], *line, *nl;
	int r, status;

	irq_device(c, "--irqs-to", c->irqs_to_arg, &dev, holder,
		   sizeof(holder));
	irq_cpus(c, "--irqs-to", c->cpulist_arg);
	r = device_irqs(&c->root, dev.addr, &irqs);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_UNSAT, "%s (%s) has no interrupts (no msi_irqs, "
			"no irq line)", c->irqs_to_arg, dev.addr);
	/* CPUs on another node than the device's: said, then done. */
	strbuf_init(&far);
	if (device_check_cpus(&dev, &c->topo, &c->cpus, &far) < 0 || far.oom)
		cli_die(EXIT_FAIL, "out of memory");
	for (line = far.buf; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		cli_warn("%.*s", (int)(nl - line), line);
	}
	strbuf_free(&far);
	r = irq_steer(&c->root, irq_journal_path(), holder, &irqs, &c->cpus,
		      &c->topo.online, &rep, err, sizeof(err));
	if (r == -EINVAL || r == -EFTYPE_CPM)
		cli_die(EXIT_USAGE, "%s", err);
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
	status = report_irqs(c, &rep) ? EXIT_FAIL : EXIT_OK;
	r = steer_outcome(c, &dev, &irqs, &rep);
	if (r != EXIT_OK)
		status = r;
	cpuset_free(&irqs);
	device_free(&dev);
	irq_report_free(&rep);
	cli_exit(status);
}

static noreturn void
irqs_form(struct pin_ctx *c)
{
	struct irq_report rep;
	struct device dev;
	char err[512], holder[64];
	bool found;
	int r;

	cli_open_sysroot(c->sysroot_dir, &c->root);
	cli_load_topology(&c->root, TOPO_NO_CORES, &c->topo);
	irq_dry_run(c->dry_run);
	if (c->irqs_to_arg)
		irqs_to(c);
	if (c->irqs_away_arg) {
		irq_cpus(c, "--irqs-away", c->irqs_away_arg);
		r = irq_isolate(&c->root, irq_journal_path(), "cpm-pin", &c->cpus,
				&c->topo.online, &rep, err, sizeof(err));
		if (r == -EINVAL)
			cli_die(EXIT_USAGE, "%s", err);
	} else {
		/* --irqs-restore [DEV]: every holder, or the device's. */
		if (c->irqs_restore_dev)
			irq_device(c, "--irqs-restore", c->irqs_restore_dev, &dev,
				   holder, sizeof(holder));
		r = irq_release(&c->root, irq_journal_path(),
				c->irqs_restore_dev ? holder : NULL,
				&c->topo.online, &found, &rep, err, sizeof(err));
		if (r == 0 && c->irqs_restore_dev && !found)
			cli_warn("note: %s (%s) is not steered: nothing to "
				 "restore", c->irqs_restore_dev, dev.addr);
		if (c->irqs_restore_dev)
			device_free(&dev);
	}
	if (r == -EFTYPE_CPM)
		cli_die(EXIT_USAGE, "%s", err);
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
	r = report_irqs(c, &rep) ? EXIT_FAIL : EXIT_OK;
	irq_report_free(&rep);
	cli_exit(r);
}

/* ---- isolation ---- */

static const char *
isolate_journal_path(void)
{
	const char *p = getenv("CPM_ISOLATE_JOURNAL");

	return p && *p ? p : ISOLATE_JOURNAL_DEFAULT;
}

/*
 * Each change with -v (--dry-run: on stdout, as the plan), refusals and
 * values others changed as warnings, then the counts.
 */
static void
report_isolate(const struct pin_ctx *c, const struct iso_report *rep)
{
	size_t i;

	for (i = 0; i < rep->n; i++) {
		const struct iso_change *x = &rep->v[i];
		char what[192];

		if (x->tid)
			snprintf(what, sizeof(what), "%s %d (%s)", x->kthread ?
				 "kernel thread" : "thread", (int)x->tid, x->name);
		else
			snprintf(what, sizeof(what), "%s", x->name);
		if (x->error == ISO_CHANGED)
			cli_warn("warning: %s was changed since (now %s): left "
				 "alone", what, x->from);
		else if (x->error == ISO_PINNED)
			cli_warn("note: %s keeps CPUs %s: work below it is "
				 "pinned there (new units in it may start there "
				 "too)", what, x->to);
		else if (x->error < 0)
			cli_warn("warning: %s cannot be set to %s: %s (stays %s)",
				 what, x->to, strerror(-x->error), x->from);
		else if (c->dry_run)
			printf("%s: %s -> %s\n", what, x->from, x->to);
		else if (c->verbose)
			cli_warn("%s: %s -> %s", what, x->from, x->to);
	}
	if (c->verbose || c->dry_run)
		cli_warn("%s%u thread%s moved (%u kernel), %u inside the CPUs, "
			 "%u per-CPU kernel thread%s left, %u file%s set, %u "
			 "pass%s", c->dry_run ? "would be: " : "", rep->moved,
			 rep->moved == 1 ? "" : "s", rep->kmoved, rep->inside,
			 rep->percpu, rep->percpu == 1 ? "" : "s",
			 rep->files, rep->files == 1 ? "" : "s", rep->passes,
			 rep->passes == 1 ? "" : "es");
	if (rep->irqs)
		report_irqs(c, &rep->irq);
	else if (rep->irq_error < 0 && rep->irq_error != -ENOENT)
		cli_warn("warning: interrupts: %s", rep->irq_err);
}

static noreturn void
isolate_form(struct pin_ctx *c)
{
	struct iso_report rep;
	struct iso_opts o = { 0 };
	bool found = true;
	char err[512];
	int r;

	if (c->pid_arg)
		c->pid = parse_pid(c->pid_arg);
	cli_open_sysroot(c->sysroot_dir, &c->root);
	cli_load_topology(&c->root, TOPO_NO_CORES, &c->topo);
	o.root = &c->root;
	o.journal = isolate_journal_path();
	o.irq_journal = irq_journal_path();
	o.holder = c->isolate_arg ? "cpm-pin" : NULL;
	o.scope = c->pid;
	o.online = &c->topo.online;
	o.dry_run = c->dry_run;
	if (c->isolate_arg) {
		if (select_is_cpulist(c->isolate_arg))
			cli_parse_cpus(&c->topo, "cpulist", c->isolate_arg,
				       &c->cpus);
		else
			die_check(select_resolve(&c->topo, c->isolate_arg,
						 &c->cpus, c->err,
						 sizeof(c->err)), c->err);
		if (cpuset_empty(&c->cpus))
			cli_die(EXIT_USAGE, "--isolate needs at least one CPU");
		if (c->pid && kill(c->pid, 0) < 0 && errno == ESRCH)
			cli_die(EXIT_USAGE, "no process %d", (int)c->pid);
		r = isolate_apply(&o, &c->cpus, &rep, err, sizeof(err));
	} else {
		r = isolate_release(&o, &found, &rep, err, sizeof(err));
	}
	if (r == -EINVAL || r == -EFTYPE_CPM)
		cli_die(EXIT_USAGE, "%s", err);
	if (r == -EIO)		/* values not put back: which, and why */
		report_isolate(c, &rep);
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
	if (!found && c->verbose)
		cli_warn("nothing to restore: no journal '%s'", o.journal);
	report_isolate(c, &rep);
	r = rep.irq_error < 0 && rep.irq_error != -ENOENT ? EXIT_FAIL : EXIT_OK;
	iso_report_free(&rep);
	cli_exit(r);
}

int
main(int argc, char **argv)
{
	struct pin_ctx c;

	memset(&c, 0, sizeof(c));
	cli_init("cpm-pin");
	cpuset_init(&c.cpus);
	cpuset_init(&c.nodes);
	c.root.fd = c.live.fd = -1;
	parse_args(&c, argc, argv);
	switch (c.form) {
	case FORM_RUN:
		run_form(&c);
	case FORM_PID:
		pid_form(&c);
	case FORM_CGROUP:
		cgroup_form(&c);
	case FORM_IRQS:
		irqs_form(&c);
	case FORM_WEIGHTS:
		weights_form(&c);
	case FORM_ISOLATE:
		isolate_form(&c);
	}
	return EXIT_FAIL;
}
