// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-quota: CPU quantities, shares and quotas.
 *
 *   convert  a Kubernetes CPU quantity into the kubelet's cgroup values
 *   class    the QoS class of a container and whether it gets exclusive CPUs
 *   set/get  write and read a group's shares/weight, quota, period, burst
 *   burst    raise throttled groups' quotas for a while, then put them back
 *   restore  put back what a killed burst process left raised
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/json.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "cgroup/cgowner.h"
#include "cgroup/cgroup.h"
#include "cgroup/sdapply.h"
#include "kube/qos.h"
#include "kube/quantity.h"
#include "quota/burst.h"
#include "quota/burstguard.h"
#include "quota/burstloop.h"
#include "quota/quota.h"
#include "quota/quotatable.h"
#include "tool/cli.h"

enum opt_id {
	O_PERIOD = 0, O_JSON, O_REQUEST, O_LIMIT, O_MEM_REQUEST, O_MEM_LIMIT,
	O_BURST, O_CREATE, O_DRY_RUN, O_FACTOR, O_FOR, O_COOLDOWN, O_JOURNAL,
	O_CGROUP_ROOT, O_WEIGHT_FORMULA, O_VERBOSE, O_FORCE, O_WAIT,
	O_NODE_HEADROOM, O_BUDGET, O_NOPTS
};

#define OPT_BASE 256

enum cmd_id { C_CONVERT, C_CLASS, C_SET, C_GET, C_BURST, C_RESTORE, C_NCMDS };

static const char *const cmd_names[C_NCMDS] = {
	"convert", "class", "set", "get", "burst", "restore",
};

#define CMD(c) (1u << (c))
#define CG_CMDS (CMD(C_SET) | CMD(C_GET) | CMD(C_BURST) | CMD(C_RESTORE))

/* Every option, with the subcommands that accept it. */
static const struct cli_option opts[] = {
	{ "period", required_argument, OPT_BASE + O_PERIOD,
	  CMD(C_CONVERT) | CMD(C_SET) },
	{ "json", no_argument, OPT_BASE + O_JSON,
	  CMD(C_CONVERT) | CMD(C_CLASS) | CMD(C_GET) },
	{ "request", required_argument, OPT_BASE + O_REQUEST,
	  CMD(C_CLASS) | CMD(C_SET) },
	{ "limit", required_argument, OPT_BASE + O_LIMIT,
	  CMD(C_CLASS) | CMD(C_SET) },
	{ "mem-request", required_argument, OPT_BASE + O_MEM_REQUEST,
	  CMD(C_CLASS) },
	{ "mem-limit", required_argument, OPT_BASE + O_MEM_LIMIT, CMD(C_CLASS) },
	{ "burst", required_argument, OPT_BASE + O_BURST, CMD(C_SET) },
	{ "create", no_argument, OPT_BASE + O_CREATE, CMD(C_SET) },
	{ "dry-run", no_argument, OPT_BASE + O_DRY_RUN, CMD(C_SET) },
	{ "factor", required_argument, OPT_BASE + O_FACTOR, CMD(C_BURST) },
	{ "for", required_argument, OPT_BASE + O_FOR, CMD(C_BURST) },
	{ "cooldown", required_argument, OPT_BASE + O_COOLDOWN, CMD(C_BURST) },
	{ "node-headroom", required_argument, OPT_BASE + O_NODE_HEADROOM,
	  CMD(C_BURST) },
	{ "budget", required_argument, OPT_BASE + O_BUDGET, CMD(C_BURST) },
	{ "journal", required_argument, OPT_BASE + O_JOURNAL,
	  CMD(C_BURST) | CMD(C_RESTORE) },
	{ "cgroup-root", required_argument, OPT_BASE + O_CGROUP_ROOT, CG_CMDS },
	{ "weight-formula", required_argument, OPT_BASE + O_WEIGHT_FORMULA,
	  CMD(C_SET) | CMD(C_GET) },
	{ "verbose", no_argument, 'v', CMD(C_BURST) | CMD(C_RESTORE) },
	{ "force", no_argument, OPT_BASE + O_FORCE,
	  CMD(C_SET) | CMD(C_RESTORE) },
	{ "wait", required_argument, OPT_BASE + O_WAIT,
	  CMD(C_BURST) | CMD(C_RESTORE) },
	{ "help", no_argument, 'h', CLI_ALL_COMMANDS },
	{ "version", no_argument, 'V', CLI_ALL_COMMANDS },
	{ NULL, 0, 0, 0 },
};


struct quota_ctx {
	enum cmd_id cmd;
	char **args;
	int nargs;
	const char *optarg[O_NOPTS];	/* option text; "" for flags */
	const char *cgroup_root;
	const char *journal;
	enum weight_formula formula;
	bool json, create, dry_run, verbose, force;
	uint64_t period_us;		/* 0: not given */
	int64_t wait_ms;		/* journal lock; -1: forever */

	struct cg_hier h;
	bool h_open;
};

static void
usage(void)
{
	printf(
"Usage: cpm-quota [--cgroup-root DIR] COMMAND [ARGS] [OPTIONS]\n"
"\n"
"Commands:\n"
"  convert QUANTITY... [--period D] [--json]\n"
"        print millicpu, shares, weight, weight_runc, quota_us, period_us\n"
"        and cpu_max for a Kubernetes CPU quantity (250m, 0.5, 2, 1e3m, max);\n"
"        for several, a table with a row each (--json: an object a line)\n"
"  class [--request Q] [--limit Q|max] [--mem-request S] [--mem-limit S] [--json]\n"
"        print the QoS class of a container with these resources and\n"
"        whether it qualifies for exclusive CPUs\n"
"  set CGROUP [--request Q] [--limit Q|max] [--period D] [--burst Q]\n"
"             [--create] [--dry-run] [--force] [--weight-formula F]\n"
"        write the group's shares (v2: weight), quota, period and burst,\n"
"        checked against the kernel's limits first; a systemd unit's\n"
"        group gets them as the unit's runtime properties\n"
"  get CGROUP [--json] [--weight-formula F]\n"
"        print the group's request, limit, period and burst in CPUs\n"
"  burst [--factor F] [--for D] [--cooldown D] [--journal FILE] [GROUP...]\n"
"        raise each group's quota by F (default 2) for D (default 500ms),\n"
"        at most once per --cooldown (default 5s) per group, then restore\n"
"        it; groups come from the arguments or, one per line, from stdin\n"
"  restore [--journal FILE] [--force]\n"
"        put back every quota a killed burst process left raised\n"
"\n"
"Options:\n"
"  --cgroup-root DIR    use the hierarchy at DIR (env CPM_CGROUP_ROOT)\n"
"  --period D           CFS period: 1ms..1s (default 100ms; set: the\n"
"                       group's current period)\n"
"  --json               one JSON document instead of key=value lines\n"
"  --request Q          CPU request (set: shares or weight)\n"
"  --limit Q|max        CPU limit (set: quota; max removes the limit and,\n"
"                       without --burst, the burst)\n"
"  --burst Q            CPU burst, at most the limit (set: cfs_burst_us or\n"
"                       cpu.max.burst)\n"
"  --mem-request S      memory request, a Kubernetes quantity (128Mi)\n"
"  --mem-limit S        memory limit\n"
"  --create             create the group when it does not exist\n"
"  --dry-run            print the writes as 'FILE VALUE' lines instead\n"
"  --weight-formula F   shares to cgroup v2 weight: runc (log-quadratic,\n"
"                       runc 1.3.2+, crun 1.23+; the default), kubelet\n"
"                       (linear), systemd (shares*100/1024)\n"
"  --factor F           burst: quota multiplier, more than 1 (default 2)\n"
"  --for D              burst: how long a boost lasts (default 500ms)\n"
"  --cooldown D         burst: least time between two boosts of a group\n"
"                       (default 5s)\n"
"  --node-headroom PCT  burst: raise nothing while the node's idle CPU\n"
"                       over the last interval is below PCT percent\n"
"                       (env CPM_NODE_HEADROOM, default 50; 0: off)\n"
"  --budget D[/W]       burst: raise each group for D at most in total in\n"
"                       a window of W (default 600s) from its first raise\n"
"  --journal FILE       burst journal (env CPM_BURST_JOURNAL, default\n"
"                       " BURST_JOURNAL_DEFAULT ")\n"
"  --force              set: write a group systemd owns directly (systemd\n"
"                       puts its own values back on its next reload);\n"
"                       restore: also entries of burst processes still\n"
"                       running\n"
"  --wait SECONDS       burst, restore: wait at most this long for the\n"
"                       journal's lock (default: forever); then exit 1\n"
"  -v, --verbose        burst, restore: report each change on stderr\n"
"  -h, --help           show this help\n"
"  -V, --version        show the version\n"
"\n"
"Durations take a unit: us, ms, s.  Exit status: 0 ok, 1 failed,\n"
"2 invalid input (nothing changed), 3 the group is systemd's and cannot\n"
"be changed through it (nothing changed).\n");
	cli_exit(EXIT_OK);
}

/* ---- parsing helpers (all die with exit 2 on bad input) ---- */

static int64_t
need_cpu(const char *what, const char *s, bool allow_max)
{
	char err[160];
	int64_t m;
	bool rounded;

	if (cpu_quantity_parse(s, allow_max, &m, &rounded, err,
			       sizeof(err)) < 0)
		cli_die(EXIT_USAGE, "invalid %s '%s': %s", what, s, err);
	if (rounded)
		cli_warn("%s '%s' is finer than 1m; rounded up to %lldm", what,
			 s, (long long)m);
	return m;
}

static uint64_t
need_duration(const char *what, const char *s, uint64_t min, uint64_t max)
{
	uint64_t us;
	int r = parse_duration_us(s, &us);

	if (r == -EINVAL)
		cli_die(EXIT_USAGE, "invalid %s '%s': want a number with a "
			"unit us, ms or s", what, s);
	if (r < 0 || us < min || us > max)
		cli_die(EXIT_USAGE, "%s '%s' is outside %lluus..%lluus", what,
			s, (unsigned long long)min, (unsigned long long)max);
	return us;
}

static uint64_t
need_period(const char *s)
{
	uint64_t us;

	if (parse_duration_us(s, &us) < 0)
		cli_die(EXIT_USAGE, "invalid period '%s': want a number with a "
			"unit us, ms or s", s);
	if (us < CFS_PERIOD_MIN_US || us > CFS_PERIOD_MAX_US)
		cli_die(EXIT_USAGE, "period '%s' is outside the kernel's range "
			"1ms..1s", s);
	return us;
}

static void
open_hier(struct quota_ctx *c)
{
	char err[512];
	int r;

	r = cg_open(&c->h, c->cgroup_root, err, sizeof(err));
	/* A root given that holds no hierarchy is bad input, as in every
	 * tool; one discovered on the live system is a failure. */
	if (r < 0)
		cli_die(c->cgroup_root ? EXIT_USAGE : EXIT_FAIL, "%s", err);
	c->h_open = true;
	if (!cg_has(&c->h, CG_CPU))
		cli_die(EXIT_FAIL, "no cpu controller hierarchy found");
}

/* Canonical group path, or exit 2. */
static void
need_group(const char *group, char *out, size_t outlen)
{
	char err[512];

	if (cg_path_check(group, out, outlen, err, sizeof(err)) < 0)
		cli_die(EXIT_USAGE, "%s", err);
}

/*
 * Does the group exist in the cpu hierarchy?  Path tricks (symlinks) are
 * exit 2, other failures exit 1; a missing group returns false.
 */
static bool
group_exists(struct quota_ctx *c, const char *group)
{
	char err[512];
	int fd;

	fd = cg_open_group(&c->h, CG_CPU, group, err, sizeof(err));
	if (fd >= 0) {
		close(fd);
		return true;
	}
	if (fd == -ENOENT)
		return false;
	if (fd == -EINVAL || fd == -ELOOP || fd == -ENOTDIR)
		cli_die(EXIT_USAGE, "%s", err);
	cli_die(EXIT_FAIL, "%s", err);
}

static void
read_limit(struct quota_ctx *c, const char *group, struct cg_cpu_limit *lim)
{
	char err[512];
	int r;

	r = cg_cpu_limit_read(&c->h, group, -1, lim, err, sizeof(err));
	if (r == -EBADMSG || r == -EINVAL)
		cli_die(EXIT_USAGE, "%s", err);
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
}

/* A report's one row: key=value lines, or one JSON object with --json. */
static void
print_row(struct quota_ctx *c, struct table *tab, int r)
{
	struct strbuf sb;

	if (r < 0)
		cli_die(EXIT_FAIL, "out of memory");
	strbuf_init(&sb);
	if (c->json) {
		struct json j;

		json_init(&j, &sb);
		table_json_row(tab, 0, &j);
		cli_check_json(&j);
		strbuf_puts(&sb, "\n");
	} else if (table_print(tab, TABLE_PAIRS, false, &sb) < 0) {
		cli_die(EXIT_FAIL, "out of memory");
	}
	table_free(tab);
	if (sb.oom)
		cli_die(EXIT_FAIL, "out of memory");
	fwrite(sb.buf, 1, sb.len, stdout);
	strbuf_free(&sb);
}

/* ---- convert ---- */

static int
cmd_convert(struct quota_ctx *c)
{
	uint64_t period = c->period_us ? c->period_us : CFS_PERIOD_DEFAULT_US;
	struct cpu_conversion *cv;
	struct strbuf sb;
	struct table tab;
	char err[160];
	int i;

	if (c->nargs < 1)
		cli_usage_error("convert needs a QUANTITY");
	cv = calloc((size_t)c->nargs, sizeof(*cv));
	if (!cv)
		cli_die(EXIT_FAIL, "out of memory");
	/* Every quantity is checked before the first is printed. */
	for (i = 0; i < c->nargs; i++)
		if (cpu_convert(need_cpu("quantity", c->args[i], true), period,
				&cv[i], err, sizeof(err)) < 0)
			cli_die(EXIT_USAGE, "quantity '%s' %s", c->args[i], err);
	if (c->nargs == 1) {
		print_row(c, &tab, quota_convert_table(cv, &tab));
		free(cv);
		return EXIT_OK;
	}
	/* Several: a table with a row each, or a JSON object a line. */
	if (quota_convert_rows(cv, (size_t)c->nargs, &tab) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	strbuf_init(&sb);
	if (c->json) {
		for (i = 0; i < c->nargs; i++) {
			struct json j;

			json_init(&j, &sb);
			table_json_row(&tab, (size_t)i, &j);
			cli_check_json(&j);
			strbuf_puts(&sb, "\n");
		}
	} else if (table_print(&tab, TABLE_ALIGNED, true, &sb) < 0) {
		cli_die(EXIT_FAIL, "out of memory");
	}
	table_free(&tab);
	free(cv);
	cli_write(&sb);
	strbuf_free(&sb);
	return EXIT_OK;
}

/* ---- class ---- */

static int
cmd_class(struct quota_ctx *c)
{
	struct qos_text t = {
		.cpu_req = c->optarg[O_REQUEST],
		.cpu_lim = c->optarg[O_LIMIT],
		.mem_req = c->optarg[O_MEM_REQUEST],
		.mem_lim = c->optarg[O_MEM_LIMIT],
	};
	struct qos_resources r;
	struct qos_class q;
	struct table tab;
	unsigned int rounded;
	char err[512];
	int rc;

	if (c->nargs != 0)
		cli_usage_error("class takes no arguments");
	rc = qos_resources_parse(&t, &r, &rounded, err, sizeof(err));
	if (rounded & QOS_ROUNDED_LIMIT)
		cli_warn("CPU limit '%s' is finer than 1m; rounded up to %lldm",
			 t.cpu_lim, (long long)r.cpu_lim_m);
	if (rounded & QOS_ROUNDED_REQUEST)
		cli_warn("%s '%s' is finer than 1m; rounded up to %lldm",
			 t.cpu_req ? "CPU request" : "CPU limit",
			 t.cpu_req ? t.cpu_req : t.cpu_lim,
			 (long long)r.cpu_req_m);
	if (rc < 0)
		cli_die(EXIT_USAGE, "%s", err);

	qos_classify(&r, &q);
	print_row(c, &tab, quota_class_table(&q, &tab));
	return EXIT_OK;
}

/* ---- set ---- */

/* How to change group: sdapply_route()'s rule. */
static enum cgowner_route
route_change(struct quota_ctx *c, const char *group, struct cgowner *o,
	     struct sdbus **bus)
{
	char err[768];
	int r;

	r = sdapply_route(&c->h, group, NULL, c->force, o, bus, err,
			  sizeof(err));
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE :
			r == -ECANCELED ? EXIT_UNSAT : EXIT_FAIL, "%s", err);
	if (r == CGOWNER_FORCED)
		cli_warn("warning: %s", err);
	return r;
}

/*
 * The request that set's options and CGROUP argument describe, checked
 * before anything is opened: every refusal here is a usage error.
 */
static void
set_request(struct quota_ctx *c, char *group, size_t size,
	    struct quota_request *rq)
{
	const char *sreq = c->optarg[O_REQUEST], *slim = c->optarg[O_LIMIT];
	const char *sburst = c->optarg[O_BURST];
	char err[1024];

	if (c->nargs != 1)
		cli_usage_error(c->nargs ? "set takes one CGROUP" :
				"set needs a CGROUP");
	if (!sreq && !slim && !sburst && !c->period_us)
		cli_usage_error("set needs --request, --limit, --period or "
				"--burst");
	memset(rq, 0, sizeof(*rq));
	if ((rq->have_request = sreq != NULL))
		rq->request_m = need_cpu("--request", sreq, false);
	if ((rq->have_limit = slim != NULL))
		rq->limit_m = need_cpu("--limit", slim, true);
	if ((rq->have_burst = sburst != NULL))
		rq->burst_m = need_cpu("--burst", sburst, false);
	rq->request_text = sreq;
	rq->limit_text = slim;
	rq->period_us = c->period_us;
	rq->formula = c->formula;
	need_group(c->args[0], group, size);
	if (quota_request_check(rq, group, err, sizeof(err)) < 0)
		cli_die(EXIT_USAGE, "%s", err);
}

/* set --dry-run: say what would be done and print the planned writes. */
static void
set_dry_run(struct quota_ctx *c, const char *group, bool exists,
	    enum cgowner_route route, const struct cgowner *o,
	    const struct quota_plan *p)
{
	const char *base = c->h.ctrl[CG_CPU].path;
	int i;

	if (!exists)
		cli_warn("would create cgroup '%s'", group);
	if (route == CGOWNER_VIA_SYSTEMD)
		cli_warn("would apply through systemd unit %s (runtime "
			 "properties)", o->unit);
	for (i = 0; i < p->n; i++)
		printf("%s/%s/%s %s\n", base, group, p->op[i].file,
		       p->op[i].value);
}

static int
cmd_set(struct quota_ctx *c)
{
	char group[CG_PATH_MAX], err[512];
	struct quota_request rq;
	struct cg_cpu_limit cur;
	struct quota_plan p;
	struct cgowner o;
	struct sdbus *bus = NULL;
	enum cgowner_route route;
	bool exists;
	int r;

	set_request(c, group, sizeof(group), &rq);
	open_hier(c);
	exists = group_exists(c, group);
	if (!exists && !c->create)
		cli_die(EXIT_FAIL, "no cgroup '%s' (use --create)", group);
	route = route_change(c, group, &o, &bus);
	r = quota_current(&c->h, group, exists, route == CGOWNER_VIA_SYSTEMD,
			  &cur, err, sizeof(err));
	if (r < 0)
		cli_die(r == -EBADMSG || r == -EINVAL ? EXIT_USAGE : EXIT_FAIL,
			"%s", err);
	r = quota_plan_make(cg_version(&c->h, CG_CPU), group, &cur, &rq, &p,
			    err, sizeof(err));
	if (p.request_clamped)
		cli_warn("--request '%s' is above the kernel's maximum of %d "
			 "shares; clamped", c->optarg[O_REQUEST], CPU_SHARES_MAX);
	if (r < 0)
		cli_die(r == -EINVAL ? EXIT_USAGE : EXIT_FAIL, "%s", err);

	if (c->dry_run) {
		set_dry_run(c, group, exists, route, &o, &p);
		sdbus_close(bus);
		return EXIT_OK;
	}
	if (route == CGOWNER_VIA_SYSTEMD) {
		r = sdapply_quota(&c->h, bus, o.unit, group, &p, err,
				  sizeof(err));
		sdbus_close(bus);
		if (r < 0)
			cli_die(EXIT_FAIL, "%s", err);
		return EXIT_OK;
	}
	if (quota_plan_apply(&c->h, group, c->create, &p, err, sizeof(err)) < 0)
		cli_die(EXIT_FAIL, "%s", err);
	return EXIT_OK;
}

/* ---- get ---- */

static int
cmd_get(struct quota_ctx *c)
{
	char group[CG_PATH_MAX];
	struct quota_group_view v = { .group = group, .formula = c->formula };
	struct table tab;

	if (c->nargs != 1)
		cli_usage_error(c->nargs ? "get takes one CGROUP" :
				"get needs a CGROUP");
	need_group(c->args[0], group, sizeof(group));
	open_hier(c);
	v.version = cg_version(&c->h, CG_CPU);
	if (!group_exists(c, group))
		cli_die(EXIT_FAIL, "no cgroup '%s'", cg_display(group));
	read_limit(c, group, &v.cur);
	if (v.version == 2) {
		char err[512];
		int r = cgowner_of(&c->h, group, &v.owner, err, sizeof(err));

		if (r < 0)
			cli_die(EXIT_FAIL, "%s", err);
	}
	print_row(c, &tab, quota_group_table(&v, c->json, &tab));
	return EXIT_OK;
}

/* ---- burst and restore ---- */

static volatile sig_atomic_t got_signal;

static void
on_signal(int sig)
{
	got_signal = sig;
}

static const char *
journal_path(struct quota_ctx *c)
{
	const char *p = c->journal;

	if (p == NULL || *p == '\0')
		p = getenv("CPM_BURST_JOURNAL");
	if (p == NULL || *p == '\0')
		p = BURST_JOURNAL_DEFAULT;
	return p;
}

/* The register of raised groups (burst.h): one for every journal. */
static const char *
groups_path(void)
{
	const char *p = getenv("CPM_BURST_GROUPS");

	return p != NULL && *p != '\0' ? p : BURST_GROUPS_DEFAULT;
}

static void
journal_open(struct quota_ctx *c, struct burst_journal *j)
{
	char err[512];
	int r;

	r = burst_journal_open_wait(j, journal_path(c), c->wait_ms, err,
				    sizeof(err));
	if (r == -EBADMSG)
		cli_die(EXIT_USAGE, "%s", err);
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
}

/* The burst engine's warnings, as the tool's. */
static void
engine_warn(void *arg, const char *msg)
{
	(void)arg;
	cli_warn("%s", msg);
}

/* The guards' settings (burstguard.h) from the options; bad ones exit 2. */
static void
guard_options(struct quota_ctx *c, struct burst_engine *b)
{
	const char *hr = c->optarg[O_NODE_HEADROOM], *bu = c->optarg[O_BUDGET];
	unsigned int pct = BURST_HEADROOM_DEFAULT;
	char d[64], *w;

	if (hr == NULL && (hr = getenv("CPM_NODE_HEADROOM")) != NULL &&
	    *hr == '\0')
		hr = NULL;
	if (hr != NULL && parse_uint(hr, 100, &pct) < 0)
		cli_die(EXIT_USAGE, "invalid --node-headroom '%s': want a "
			"percentage, 0 to 100", hr);
	b->headroom_pm = (int)pct * 10;
	if (bu == NULL)
		return;
	if (snprintf(d, sizeof(d), "%s", bu) >= (int)sizeof(d))
		cli_die(EXIT_USAGE, "invalid --budget '%s'", bu);
	w = strchr(d, '/');
	if (w != NULL)
		*w++ = '\0';
	if (w != NULL)
		b->window_us = need_duration("--budget window", w, 1000000,
					     UINT64_C(31536000000000));
	b->budget_us = need_duration("--budget", d, 1000, b->window_us);
}

/* The engine's settings from the options; bad values exit 2. */
static void
burst_options(struct quota_ctx *c, struct burst_engine *b)
{
	if (c->optarg[O_FACTOR]) {
		char err[160];
		const char *f = c->optarg[O_FACTOR];
		int r;

		r = quantity_parse(f, 3, &b->factor_m, NULL, err, sizeof(err));
		if (r < 0 || strchr(f, 'm') || strchr(f, 'i'))
			cli_die(EXIT_USAGE, "invalid --factor '%s': want a "
				"number such as 2 or 1.5", f);
		if (b->factor_m <= 1000 || b->factor_m > 1000000)
			cli_die(EXIT_USAGE, "--factor '%s' is outside (1, 1000]",
				f);
	}
	if (c->optarg[O_FOR])
		b->for_us = need_duration("--for", c->optarg[O_FOR], 1000,
					  UINT64_C(86400000000));
	if (c->optarg[O_COOLDOWN])
		b->cooldown_us = need_duration("--cooldown",
					       c->optarg[O_COOLDOWN], 0,
					       UINT64_C(86400000000));
	guard_options(c, b);
	b->journal = journal_path(c);
	b->groups = groups_path();
	b->wait_ms = c->wait_ms;
	b->rep.warn = engine_warn;
	b->rep.verbose = c->verbose;
}

static int
cmd_burst(struct quota_ctx *c)
{
	struct burst_engine b;
	struct burst_journal j, m;
	char group[CG_PATH_MAX], err[512];
	struct sigaction sa;
	sigset_t block, orig;
	int i, r;

	burst_engine_init(&b);
	burst_options(c, &b);
	for (i = 0; i < c->nargs; i++) {
		need_group(c->args[i], group, sizeof(group));
		if (group[0] == '\0')
			cli_die(EXIT_USAGE, "the root group has no quota to "
				"raise");
	}
	open_hier(c);
	b.h = &c->h;
	for (i = 0; i < c->nargs; i++) {
		need_group(c->args[i], group, sizeof(group));
		if (!group_exists(c, group))
			cli_die(EXIT_FAIL, "no cgroup '%s'", group);
	}
	/* the journal must name the tree from any directory: make it absolute */
	r = burst_root_key(&c->h, &b.root);
	if (r < 0)
		cli_die(EXIT_FAIL, "cannot resolve '%s': %s", c->h.root,
			strerror(-r));
	b.pid = getpid();
	if (burst_proc_start(b.pid, &b.start) < 0)
		cli_die(EXIT_FAIL, "cannot read this process's start time");
	/* Fail now, not at the first boost, when the journal is unusable. */
	journal_open(c, &j);
	r = burst_register_open(&m, &j, b.groups, c->wait_ms, err, sizeof(err));
	burst_journal_close(&j);
	if (r < 0)
		cli_die(r == -EBADMSG ? EXIT_USAGE : EXIT_FAIL, "%s", err);
	burst_journal_close(&m);
	/* the first interval of the node's headroom begins now */
	if (b.headroom_pm > 0 &&
	    burst_node_start(&b.node, now_us(), err, sizeof(err)) < 0)
		cli_die(EXIT_FAIL, "%s", err);

	/* Signals only arrive inside ppoll(), so the loop never races them. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &orig);

	for (i = 0; i < c->nargs; i++)
		burst_queue(&b, c->args[i], now_us());
	burst_boost(&b, now_us());
	r = burst_run(&b, c->nargs == 0 ? STDIN_FILENO : -1, &orig,
		      &got_signal);
	burst_engine_free(&b);
	return r;
}

static int
cmd_restore(struct quota_ctx *c)
{
	struct burst_journal j, m;
	struct burst_report rep = { .warn = engine_warn, .verbose = c->verbose };
	char err[512];
	int r;

	if (c->nargs != 0)
		cli_usage_error("restore takes no arguments");
	journal_open(c, &j);
	/*
	 * Without the register the quotas go back all the same: an entry
	 * left there is inert once its group is no longer raised.
	 */
	r = burst_register_open(&m, &j, groups_path(), c->wait_ms, err,
				sizeof(err));
	if (r < 0)
		cli_warn("%s", err);
	r = burst_restore_journal(&j, r < 0 ? NULL : &m, c->force, &rep);
	burst_journal_close(&m);
	burst_journal_close(&j);
	return r;
}

/* ---- main ---- */

/* The options into c->optarg[], and the command and its arguments. */
static void
parse_args(struct quota_ctx *c, int argc, char **argv)
{
	struct cli_parser p;
	int opt, i;

	cli_parser_init(&p, opts, NULL, cmd_names, false);
	while ((opt = cli_next_option(&p, argc, argv)) != -1) {
		switch (opt) {
		case 'h':
			usage();
			break;
		case 'V':
			cli_version();
			break;
		case 'v':
			c->optarg[O_VERBOSE] = "";
			break;
		default:
			c->optarg[opt - OPT_BASE] = optarg ? optarg : "";
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
	c->cmd = (enum cmd_id)i;
	c->args = argv + optind + 1;
	c->nargs = argc - optind - 1;
	cli_check_options(&p, c->cmd);
}

/* The typed settings the options' text asks for, checked. */
static void
resolve_options(struct quota_ctx *c)
{
	c->json = c->optarg[O_JSON] != NULL;
	c->create = c->optarg[O_CREATE] != NULL;
	c->dry_run = c->optarg[O_DRY_RUN] != NULL;
	c->verbose = c->optarg[O_VERBOSE] != NULL;
	c->force = c->optarg[O_FORCE] != NULL;
	c->cgroup_root = c->optarg[O_CGROUP_ROOT];
	c->journal = c->optarg[O_JOURNAL];
	if (c->cgroup_root && *c->cgroup_root == '\0')
		cli_usage_error("--cgroup-root needs a directory");
	c->cgroup_root = cli_cgroup_root(c->cgroup_root);
	if (c->journal && *c->journal == '\0')
		cli_usage_error("--journal needs a file name");
	c->wait_ms = -1;
	if (c->optarg[O_WAIT] && parse_wait(c->optarg[O_WAIT], &c->wait_ms) < 0)
		cli_usage_error("invalid --wait '%s' (seconds, a duration such "
				"as 500ms, or forever)", c->optarg[O_WAIT]);
	if (c->optarg[O_PERIOD])
		c->period_us = need_period(c->optarg[O_PERIOD]);
	if (c->optarg[O_WEIGHT_FORMULA] &&
	    weight_formula_parse(c->optarg[O_WEIGHT_FORMULA], &c->formula) < 0)
		cli_usage_error("unknown --weight-formula '%s' (runc, kubelet "
				"or systemd)", c->optarg[O_WEIGHT_FORMULA]);
}

static int
run_command(struct quota_ctx *c)
{
	switch (c->cmd) {
	case C_CONVERT:
		return cmd_convert(c);
	case C_CLASS:
		return cmd_class(c);
	case C_SET:
		return cmd_set(c);
	case C_GET:
		return cmd_get(c);
	case C_BURST:
		return cmd_burst(c);
	case C_RESTORE:
	default:
		return cmd_restore(c);
	}
}

int
main(int argc, char **argv)
{
	struct quota_ctx c;
	int rc;

	cli_init("cpm-quota");
	memset(&c, 0, sizeof(c));
	c.formula = WEIGHT_RUNC;
	parse_args(&c, argc, argv);
	resolve_options(&c);
	rc = run_command(&c);
	if (c.h_open)
		cg_close(&c.h);
	cli_exit(rc);
}
