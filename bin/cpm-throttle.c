// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-throttle: who is being throttled.  Reports the CFS bandwidth
 * counters of cgroups (cumulative, over an interval, or since a snapshot
 * file), as a table, TSV, JSON, Prometheus text or a list of names.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "base/err.h"
#include "base/filewrite.h"
#include "base/json.h"
#include "base/lock.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "cgroup/cgowner.h"
#include "cgroup/cgroup.h"
#include "throttle/threport.h"
#include "throttle/throttle.h"
#include "throttle/thrtable.h"
#include "throttle/thrwatch.h"
#include "tool/cli.h"

enum out_fmt { OUT_TABLE, OUT_TSV, OUT_JSON, OUT_PROM, OUT_NAMES };

struct ctx {
	const char *cgroup_root;
	const char **groups;		/* canonical paths */
	size_t ngroups;
	uint64_t interval_us;		/* 0: none */
	const char *since;
	int64_t wait_ms;		/* --since lock; -1: forever */
	bool all;
	size_t top;			/* 0: no limit */
	double min_ratio;		/* < 0: not given */
	double fail_above;		/* < 0: not given */
	double min_pressure;		/* < 0: not given */
	double fail_pressure;		/* < 0: not given */
	unsigned int psi;		/* --pressure: resources to read */
	bool psi_given;
	bool dry_run;			/* --since FILE left as it is */
	bool k8s;
	bool systemd;			/* --systemd, or systemd's v2 tree */
	enum out_fmt fmt;
	bool fmt_given;
	const char *prom_file;
	bool watch;
	const char *columns;		/* -O LIST, or NULL: the default */
	struct cli_table_opts table;	/* --raw, --noheadings */

	struct cg_hier h;
	struct thr_select sel;		/* the groups to sample */
	struct thr_watch *watcher;	/* --watch: the groups kept */
	char stamp[40];			/* --watch: the round's local time,
					 * ISO 8601; "" otherwise */
	struct thr_warned warned;	/* groups already warned about */
};

static noreturn void
usage(void)
{
	printf(
"Usage: cpm-throttle [GROUP...] [--interval D | --since FILE] [--all]\n"
"                    [--top N] [--min-ratio R] [--fail-above R] [--k8s]\n"
"                    [--systemd] [--dry-run] [--min-pressure P]\n"
"                    [--pressure LIST]\n"
"                    [-o table|tsv|json|prom|names] [-O LIST] [--raw]\n"
"                    [--noheadings] [--prom-file PATH] [--watch]\n"
"\n"
"Report CFS bandwidth throttling of cgroups: how many enforcement periods\n"
"each group had and in how many it was throttled.\n"
"\n"
"Without GROUP, walk the whole cpu hierarchy and report every group with a\n"
"CPU limit (a finite quota of its own).  With GROUPs (paths relative to the\n"
"hierarchy root), report those groups and all their descendants, limited\n"
"or not.  Rows are sorted by RATIO, highest first, then by name.\n"
"\n"
"Columns: GROUP PERIODS THROTTLED RATIO THROTTLED_S LIMIT USAGE\n"
"  RATIO is THROTTLED / PERIODS (0 without periods); THROTTLED_S is the\n"
"  throttled time summed over CPUs, in seconds; LIMIT is quota / period in\n"
"  CPUs ('max': unlimited); USAGE is CPU time / wall time in CPUs over the\n"
"  window, and '-' (null in JSON) when there is no window: cumulative\n"
"  counters have no wall time to divide by.  On cgroup v1 with cpuacct\n"
"  mounted apart from cpu it comes from the cpuacct group of the same\n"
"  path, and is '-' for a group that has none there.\n"
"More columns (-O): BURSTS BURST_S (cpu.stat's nr_bursts and burst time\n"
"  in the window, Linux 5.14), PSI_SOME PSI_FULL (cpu.pressure: the share\n"
"  of the window in which some or all of the group's tasks waited for a\n"
"  CPU, from the kernel's totals; without a window the kernel's avg10),\n"
"  PSI_MEM_SOME PSI_MEM_FULL PSI_IO_SOME PSI_IO_FULL (memory.pressure and\n"
"  io.pressure); '-' where the kernel has no such file or line.\n"
"\n"
"Options:\n"
"  -i, --interval D      sample twice, D apart (e.g. 500ms, 2s), and report\n"
"                        the difference; with --watch the round length\n"
"                        (default 1s)\n"
"  -s, --since FILE      report the difference since the snapshot in FILE,\n"
"                        then replace FILE with the current snapshot\n"
"                        (atomically).  When FILE does not exist yet the\n"
"                        counters are reported cumulative and FILE is\n"
"                        created (and its directory, mode 0755).  A damaged FILE is an error (exit 2) and is\n"
"                        left untouched.  With GROUPs, the snapshot keeps\n"
"                        what it held for groups outside them.  Runs on\n"
"                        the same FILE wait for each other, on the lock\n"
"                        FILE.lock\n"
"      --wait SECONDS    with --since: wait at most this long for the\n"
"                        snapshot's lock (default: forever); then exit 1\n"
"      --dry-run         with --since: report since the snapshot but leave\n"
"                        FILE as it is (no lock, no file written): a look\n"
"                        that does not use up a cron job's window\n"
"  -a, --all             every group, limited or not (GROUPs imply it)\n"
"  -n, --top N           only the N highest rows\n"
"  -m, --min-ratio R     hide groups whose RATIO is below R (0..1 or N%%)\n"
"  -f, --fail-above R    exit 3 when any reported group's RATIO is above R,\n"
"                        naming them on stderr (with --watch: after the\n"
"                        first such round); a comma-separated list of R,\n"
"                        ratio=R and pressure=P also checks PSI_SOME\n"
"      --min-pressure P  hide groups whose PSI_SOME (cpu) is below P (0..1\n"
"                        or N%%); groups without cpu.pressure are hidden\n"
"      --pressure LIST   the groups' pressure files to read: cpu, memory,\n"
"                        io (comma-separated), all or none.  Default: cpu\n"
"                        for JSON (without -O), Prometheus, --since and\n"
"                        the pressure options, and what -O names; none\n"
"                        for a table without pressure columns\n"
"  -k, --k8s             recognise kubepods paths (cgroupfs and systemd\n"
"                        drivers) and add QOS, POD (UID) and CONTAINER (ID)\n"
"                        columns, JSON keys and Prometheus labels\n"
"      --systemd         add a UNIT column (JSON key, Prometheus label): the\n"
"                        systemd unit whose group holds the group, '-' for\n"
"                        none; on by itself when systemd runs as PID 1 on\n"
"                        cgroup v2\n"
"  -o, --output FMT      table (default), tsv (same columns, tab-separated,\n"
"                        with a header line), json (one document), prom\n"
"                        (Prometheus text format), names (one group per\n"
"                        line, for 'cpm-quota burst')\n"
"      --json            same as -o json\n"
"  -O, --columns LIST    the columns of the table and tsv, or the members of\n"
"                        the JSON groups: comma-separated, any case, from\n"
"                        the columns above and RESET, PINNED_THROTTLED,\n"
"                        QOS, POD, CONTAINER, UNIT (these need no --k8s or\n"
"                        --systemd)\n"
"      --raw             the table without alignment, one space between\n"
"                        cells (spaces inside escaped as \\x20)\n"
"      --noheadings      the table or tsv without its header line\n"
"  -p, --prom-file PATH  also write the Prometheus text to PATH atomically,\n"
"                        for node_exporter's textfile collector; stdout then\n"
"                        stays empty unless -o is given\n"
"  -w, --watch           repeat every --interval until interrupted, printing\n"
"                        each round (JSON: one document per line) and\n"
"                        flushing it; table and JSON rounds carry their\n"
"                        local time (ISO 8601)\n"
"      --cgroup-root DIR use the cgroup tree at DIR (env CPM_CGROUP_ROOT)\n"
"  -h, --help            show this help\n"
"  -V, --version         show the version\n"
"\n"
"Counter resets (a group created or recreated inside the window, or whose\n"
"counters went backwards) are reported as the counts since the reset, and\n"
"the kernel's 32-bit period counters are unwrapped: never negative or huge.\n"
"Prometheus counters are the kernel's cumulative values; the ratio gauge\n"
"(cpm_cpu_cfs_throttled_ratio) is only written when there is a window.\n"
"Bursts: cpm_cpu_cfs_bursts_total, cpm_cpu_cfs_burst_seconds_total.\n"
"Pressure: cpm_pressure_RES_waiting_seconds_total (some) and\n"
"cpm_pressure_RES_stalled_seconds_total (full), RES cpu, memory or io,\n"
"as cAdvisor's container_pressure_*; the node's /proc/pressure (below\n"
"CPM_SYSROOT when set) as cpm_node_pressure_RES_*_seconds_total.  Every\n"
"report ends with cpm_throttle_last_run_timestamp_seconds and, with a\n"
"window, cpm_throttle_window_seconds.  JSON carries the node's pressure\n"
"as \"node_pressure\".\n"
"\n"
"A group that has an exclusive cpuset (v1 cpuset.cpu_exclusive=1, v2 a\n"
"partition root) and a CPU quota and is still throttled gets a warning on\n"
"stderr and \"pinned_throttled\": true in JSON: its exclusive CPUs sit idle\n"
"while the quota stops it.\n"
"\n"
"Exit status: 0 ok, 1 failure, 2 usage error or invalid input, 3 a\n"
"--fail-above threshold was crossed.\n");
	cli_exit(EXIT_OK);
}

/*
 * Apply --min-ratio and --top; fill pinned, and the rows' Kubernetes
 * and systemd names into *identp (to free; NULL when not asked for);
 * returns the count.
 */
static size_t
select_rows(struct ctx *c, struct thr_row *rows, size_t n,
	    struct thr_ident **identp)
{
	size_t w = thr_filter_psi(rows, n, c->min_ratio, c->min_pressure,
				  c->top);
	struct thr_pins pins = { 0 };
	struct thr_ident *ident = NULL;

	/* -O may name the Kubernetes or systemd columns without --k8s. */
	if (w > 0 && (c->k8s || c->systemd || c->columns)) {
		ident = calloc(w, sizeof(*ident));
		if (ident == NULL)
			cli_die(EXIT_FAIL, "out of memory");
	}
	*identp = ident;
	for (size_t i = 0; i < w; i++) {
		struct thr_row *r = &rows[i];

		if (ident) {
			struct thr_ident *id = &ident[i];

			if (c->k8s || c->columns)
				thr_k8s_parse(r->group, &id->k8s);
			if (c->systemd || c->columns) {
				size_t glen;

				if (cgowner_unit_of_path(r->group, id->unit,
							 sizeof(id->unit),
							 &glen) < 0)
					id->unit[0] = '\0';
			}
			r->ident = id;
		}
		if (thr_pinned_throttled(&c->h, r, &pins)) {
			r->pinned = true;
			if (!thr_warned_once(&c->warned, r->group))
				cli_warn("warning: '%s' has exclusive CPUs but is still throttled by its CPU quota (ratio %.3f)",
					 cg_display(r->group), r->ratio);
		}
	}
	thr_pins_free(&pins);
	return w;
}

/* The report's table, with the columns asked for. */
static void
report_table(const struct ctx *c, const struct thr_row *rows, size_t n,
	     bool json, struct table *tab)
{
	char err[512], cols[512];
	int r;

	r = thr_table_select(rows, n, c->columns ? c->columns : json ?
			     thr_json_columns(c->k8s, c->systemd, c->sel.psi,
					      cols, sizeof(cols)) :
			     thr_default_columns(c->k8s, c->systemd, false), json,
			     tab, err, sizeof(err));
	if (r == -EINVAL)
		cli_usage_error("%s", err);
	if (r < 0)
		cli_die(EXIT_FAIL, "out of memory");
}

/* Print the text in sb and empty it: 0 or -errno. */
static int
put_out(struct strbuf *sb, void *arg)
{
	if (sb->oom)
		return -ENOMEM;
	if (sb->len > 0 && fwrite(sb->buf, 1, sb->len, stdout) != sb->len)
		return errno ? -errno : -EIO;
	sb->len = 0;
	return 0;
}

/* The table as text, printed a slice at a time as it is made. */
static void
render_text(const struct ctx *c, const struct thr_row *rows, size_t n,
	    enum table_format fmt, struct strbuf *sb)
{
	char err[512];
	int r;

	errno = 0;
	r = thr_table_text(rows, n, c->columns ? c->columns :
			   thr_default_columns(c->k8s, c->systemd, false), fmt,
			   !c->table.noheadings, sb, put_out, NULL, err,
			   sizeof(err));
	if (r == -EINVAL)
		cli_usage_error("%s", err);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_FAIL, "cannot write to stdout: %s", strerror(-r));
}

/*
 * "node_pressure": {"cpu": {"some": SHARE, "full": SHARE,
 * "some_total_s": S, "full_total_s": S}, ...}, shares as PSI_SOME's.
 */
static void
json_node(struct json *j, const struct thr_snap *old,
	  const struct thr_snap *cur, uint64_t window_us)
{
	if (!cur->node[0].has && !cur->node[1].has && !cur->node[2].has)
		return;		/* none: no member */
	json_key(j, "node_pressure");
	json_obj_begin(j);
	for (int k = 0; k < THR_PSI_NRES; k++) {
		const struct thr_psi *p = &cur->node[k];

		if (!p->has)
			continue;
		json_key(j, thr_psi_name[k]);
		json_obj_begin(j);
		for (int full = 0; full < 2; full++) {
			double v = thr_psi_share(old ? &old->node[k] : NULL, p,
						 full, window_us);

			if (v < 0)
				continue;
			json_key(j, full ? "full" : "some");
			json_double(j, v, 6);
			json_key(j, full ? "full_total_s" : "some_total_s");
			json_double(j, (double)(full ? p->full_us : p->some_us) /
					       1e6, 6);
		}
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void
render_json(const struct ctx *c, const struct thr_snap *old,
	    const struct thr_snap *cur, const struct thr_row *rows, size_t n,
	    uint64_t window_us, struct strbuf *sb)
{
	bool windowed = old != NULL, cumulative = old == NULL;
	struct table tab;
	struct json j;

	json_init(&j, sb);
	json_obj_begin(&j);
	json_key(&j, "version");
	json_int(&j, cg_version(&c->h, CG_CPU));
	json_key(&j, "cumulative");
	json_bool(&j, cumulative);
	json_key(&j, "window_s");
	if (windowed && window_us > 0)
		json_double(&j, (double)window_us / 1e6, 6);
	else
		json_null(&j);
	if (c->stamp[0]) {
		json_key(&j, "time");
		json_str(&j, c->stamp);
	}
	if (c->sel.psi)
		json_node(&j, old, cur, windowed ? window_us : 0);
	json_key(&j, "groups");
	report_table(c, rows, n, true, &tab);
	table_json(&tab, &j);
	table_free(&tab);
	json_obj_end(&j);
	cli_check_json(&j);
	strbuf_puts(sb, "\n");
}

/*
 * Name on stderr the groups above --fail-above, so that exit status 3
 * says which (the report may be a textfile, or list other groups too);
 * the first ten, and how many more.
 */
static void
warn_crossed(const struct ctx *c, const struct thr_row *rows, size_t n)
{
	struct strbuf sb;
	size_t i, shown = 0, more = 0;

	strbuf_init(&sb);
	for (i = 0; i < n; i++) {
		bool ratio = c->fail_above >= 0 && rows[i].ratio > c->fail_above;
		double psi = rows[i].psi_some[THR_PSI_CPU];

		if (!ratio && !(c->fail_pressure >= 0 && psi > c->fail_pressure))
			continue;
		if (shown == 10) {
			more++;
			continue;
		}
		if (ratio)
			strbuf_printf(&sb, "%s%s (%.3f)", shown ? ", " : "",
				      cg_display(rows[i].group), rows[i].ratio);
		else
			strbuf_printf(&sb, "%s%s (pressure %.3f)",
				      shown ? ", " : "",
				      cg_display(rows[i].group), psi);
		shown++;
	}
	if (more)
		strbuf_printf(&sb, " and %zu more", more);
	if (sb.oom)
		cli_die(EXIT_FAIL, "out of memory");
	if (c->fail_above >= 0)
		cli_warn("throttled above --fail-above %g: %s", c->fail_above,
			 sb.buf ? sb.buf : "");
	else
		cli_warn("pressure above --fail-above pressure=%g: %s",
			 c->fail_pressure, sb.buf ? sb.buf : "");
	strbuf_free(&sb);
}

/*
 * Print one report: rows of cur against old (NULL: cumulative).  Returns
 * true when --fail-above was crossed.
 */
static bool
report(struct ctx *c, const struct thr_snap *old, const struct thr_snap *cur,
       uint64_t window_us)
{
	struct thr_row *rows;
	struct thr_ident *ident;
	struct strbuf sb;
	size_t n;
	bool crossed, windowed = old != NULL;
	int r;

	if (thr_rows(old, cur, window_us, &rows, &n) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	n = select_rows(c, rows, n, &ident);
	crossed = thr_crossed_psi(rows, n, c->fail_above, c->fail_pressure);
	strbuf_init(&sb);
	if (!c->prom_file || c->fmt_given) {
		switch (c->fmt) {
		case OUT_TABLE:
			/* A round of --watch says when, for people. */
			if (c->stamp[0] && !c->table.raw)
				strbuf_printf(&sb, "%s\n", c->stamp);
			render_text(c, rows, n, c->table.raw ? TABLE_RAW :
				    TABLE_ALIGNED, &sb);
			break;
		case OUT_TSV:
			render_text(c, rows, n, TABLE_TSV, &sb);
			break;
		case OUT_JSON:
			render_json(c, old, cur, rows, n, window_us, &sb);
			break;
		case OUT_PROM:
			thr_prom(rows, n, windowed, c->k8s, &sb);
			thr_prom_node(cur, window_us, &sb);
			break;
		case OUT_NAMES:
			for (size_t i = 0; i < n; i++)
				strbuf_printf(&sb, "%s\n", cg_display(rows[i].group));
			break;
		}
	}
	if (sb.oom)
		cli_die(EXIT_FAIL, "out of memory");
	/* Text tables are out already, but for stdio's buffer. */
	if ((sb.len > 0 && fwrite(sb.buf, 1, sb.len, stdout) != sb.len) ||
	    fflush(stdout) != 0)
		cli_die(EXIT_FAIL, "cannot write to stdout: %s", strerror(errno));
	strbuf_free(&sb);
	if (c->prom_file) {
		strbuf_init(&sb);
		thr_prom(rows, n, windowed, c->k8s, &sb);
		thr_prom_node(cur, window_us, &sb);
		if (sb.oom)
			cli_die(EXIT_FAIL, "out of memory");
		r = write_file_atomic(c->prom_file, sb.buf ? sb.buf : "",
				      sb.len, &(struct write_opts){ .mode = 0644 });
		if (r < 0)
			cli_die(EXIT_FAIL, "cannot write '%s': %s", c->prom_file,
				strerror(-r));
		strbuf_free(&sb);
	}
	if (crossed)
		warn_crossed(c, rows, n);
	free(ident);
	free(rows);
	return crossed;
}

static void
collect(struct ctx *c, struct thr_snap *s)
{
	char err[512];
	int r;

	if (c->watcher)
		r = thr_watch_collect(c->watcher, s, err, sizeof(err));
	else
		r = thr_collect(&c->h, &c->sel, s, err, sizeof(err));
	if (r == -EBADMSG || r == -EINVAL)
		cli_die(EXIT_USAGE, "%s", err);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_FAIL, "%s", err);
}

static void
sleep_us(uint64_t us)
{
	struct timespec ts = { (time_t)(us / 1000000),
			       (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Read and check the --since snapshot; false when FILE does not exist. */
static bool
load_since(struct ctx *c, struct thr_snap *old)
{
	char err[256];
	int r;

	r = thr_snap_load(c->since, old, err, sizeof(err));
	if (r == -ENOENT)
		return false;
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r == -EBADMSG)
		cli_die(EXIT_USAGE, "corrupt snapshot '%s': %s", c->since, err);
	if (r == -EILSEQ)
		cli_die(EXIT_USAGE, "corrupt snapshot '%s': not a text file",
			c->since);
	if (r == -EFBIG || r == -EFTYPE_CPM)
		cli_die(EXIT_USAGE, "corrupt snapshot '%s': %s", c->since,
			read_strerror(r));
	if (r == -EISDIR)
		cli_die(EXIT_USAGE, "snapshot '%s' is a directory", c->since);
	if (r < 0)
		cli_die(EXIT_FAIL, "cannot read snapshot '%s': %s", c->since,
			strerror(-r));
	return true;
}

static void
dir_of(const char *path, char *dir, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		snprintf(dir, size, ".");
	else
		snprintf(dir, size, "%.*s",
			 (int)(slash == path ? 1 : slash - path), path);
}

/*
 * Fail before reporting anything when a file we must replace cannot be
 * written: its directory must exist.
 */
static void
check_output_dir(const char *opt, const char *path)
{
	char dir[4096];
	struct stat st;

	if (path == NULL)
		return;
	dir_of(path, dir, sizeof(dir));
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		cli_die(EXIT_FAIL, "cannot write %s '%s': no directory '%s'",
			opt, path, dir);
}

/*
 * The snapshot's directory, made as cpm-alloc makes the state's (mkdir -p,
 * mode 0755): /var/lib/cpm need not exist on a fresh host.  A directory
 * another user owns is refused: its owner could replace the snapshot
 * between two runs.
 */
static void
make_since_dir(const char *path)
{
	char dir[4096];
	struct stat st;
	int r;

	dir_of(path, dir, sizeof(dir));
	r = mkdir_p(dir, 0755);
	if (r < 0)
		cli_die(EXIT_FAIL, "cannot create directory '%s' for --since: %s",
			dir, r == -ELOOP ? "a symbolic link on the way" :
			strerror(-r));
	if (stat(dir, &st) < 0)
		cli_die(EXIT_FAIL, "cannot stat '%s': %s", dir, strerror(errno));
	if (st.st_uid != 0 && st.st_uid != geteuid())
		cli_die(EXIT_FAIL, "directory '%s' of --since is owned by another user",
			dir);
}

static int
run_once(struct ctx *c)
{
	struct thr_snap old, cur;
	bool have_old = false, crossed;
	uint64_t window = 0;
	int lockfd = -1;

	thr_snap_init(&old);
	thr_snap_init(&cur);
	if (c->since && c->dry_run) {
		/* replaced by rename: read whole without the lock */
		have_old = load_since(c, &old);
		if (have_old && !thr_snap_of(&old, &c->h))
			cli_die(EXIT_USAGE,
				"snapshot '%s' was taken of another cgroup hierarchy ('%s', v%d)",
				c->since, old.hier, old.version);
	} else if (c->since) {
		char lock[4096], err[4200];

		/*
		 * Two runs at once (a slow cron job overtaken by the next)
		 * must not both report the same period: hold the lock
		 * FILE.lock from reading the snapshot until replacing it.
		 * The snapshot itself is replaced by rename, so it cannot
		 * carry the lock.
		 */
		if ((size_t)snprintf(lock, sizeof(lock), "%s.lock", c->since) >=
		    sizeof(lock))
			cli_die(EXIT_USAGE, "snapshot name '%s' is too long",
				c->since);
		make_since_dir(c->since);
		/* Nothing created beside a file not known to be a
		 * snapshot (a mistyped path: no /etc/passwd.lock). */
		lockfd = own_file_check(c->since, "snapshot",
					"cpm-throttle-snapshot ", 0, err,
					sizeof(err));
		if (lockfd >= 0)
			lockfd = lock_file(lock, c->wait_ms, err, sizeof(err));
		if (lockfd == -EFTYPE_CPM || lockfd == -EISDIR)
			cli_die(EXIT_USAGE, "%s", err);
		if (lockfd < 0)
			cli_die(EXIT_FAIL, "%s", err);
		have_old = load_since(c, &old);
		if (have_old && !thr_snap_of(&old, &c->h))
			cli_die(EXIT_USAGE,
				"snapshot '%s' was taken of another cgroup hierarchy ('%s', v%d)",
				c->since, old.hier, old.version);
	}
	if (c->interval_us > 0) {
		collect(c, &old);
		sleep_us(c->interval_us);
		have_old = true;
	}
	collect(c, &cur);
	if (have_old)
		window = thr_window_us(&old, &cur, c->interval_us > 0);
	crossed = report(c, have_old ? &old : NULL, &cur, window);
	if (c->since && !c->dry_run) {
		int r;

		if (have_old && c->ngroups > 0 &&
		    thr_snap_keep_outside(&cur, &old, c->groups, c->ngroups) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		r = thr_snap_save(c->since, &cur);
		if (r == -ENOMEM)
			cli_die(EXIT_FAIL, "out of memory");
		if (r < 0)
			cli_die(EXIT_FAIL, "cannot write snapshot '%s': %s",
				c->since, strerror(-r));
	}
	unlock_file(lockfd);
	thr_snap_free(&old);
	thr_snap_free(&cur);
	return crossed ? EXIT_UNSAT : EXIT_OK;
}

/*
 * How many descriptors --watch may keep open: the soft limit, raised to
 * the hard one, less some for everything else.
 */
static size_t
fd_budget(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
			getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1u << 20)
		rl.rlim_cur = 1u << 20;
	return rl.rlim_cur > 64 ? (size_t)rl.rlim_cur - 64 : 0;
}

/* The local time of a --watch round: "2026-11-28T11:26:10+0100". */
static void
set_stamp(struct ctx *c)
{
	struct tm tm;
	time_t now = time(NULL);

	if (localtime_r(&now, &tm) == NULL ||
	    strftime(c->stamp, sizeof(c->stamp), "%Y-%m-%dT%H:%M:%S%z",
		     &tm) == 0)
		snprintf(c->stamp, sizeof(c->stamp), "%lld", (long long)now);
}

static int
run_watch(struct ctx *c)
{
	struct thr_snap a, b, *prev = &a, *cur = &b, *t;
	uint64_t interval = c->interval_us ? c->interval_us : 1000000;
	unsigned long round = 0;

	thr_snap_init(&a);
	thr_snap_init(&b);
	c->watcher = thr_watch_new(&c->h, &c->sel, fd_budget(), 0);
	if (c->watcher == NULL)
		cli_die(EXIT_FAIL, "out of memory");
	collect(c, prev);
	for (;;) {
		uint64_t elapsed = now_us() - prev->mono_us;

		if (elapsed < interval)
			sleep_us(interval - elapsed);
		collect(c, cur);
		set_stamp(c);
		/* Tables for people: an empty line between rounds. */
		if (round++ > 0 && c->fmt == OUT_TABLE && !c->table.raw &&
		    (!c->prom_file || c->fmt_given))
			putchar('\n');
		if (report(c, prev, cur, thr_window_us(prev, cur, true)))
			return EXIT_UNSAT;
		t = prev;
		prev = cur;
		cur = t;
	}
}

/*
 * The pressure files to read: --pressure, else cpu where a report
 * shows or keeps pressure (JSON, Prometheus, a snapshot, a pressure
 * threshold); and what -O names.
 */
static unsigned int
psi_wanted(const struct ctx *c)
{
	unsigned int m = thr_columns_psi(c->columns);

	if (c->psi_given)
		return c->psi | m;
	/* -O with JSON: the members named alone */
	if ((c->fmt == OUT_JSON && !c->columns) || c->fmt == OUT_PROM ||
	    c->prom_file || c->since || c->min_pressure >= 0 ||
	    c->fail_pressure >= 0)
		m |= 1u << THR_PSI_CPU;
	return m;
}

/*
 * The groups named on the command line, canonical, and the hierarchy
 * they are in, opened; a bad name or root exits 2, a missing group 1.
 */
static void
open_groups(struct ctx *c, char **names, int n)
{
	char err[512];
	int r;

	c->ngroups = (size_t)n;
	c->groups = calloc(c->ngroups ? c->ngroups : 1, sizeof(*c->groups));
	if (c->groups == NULL)
		cli_die(EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < c->ngroups; i++) {
		char *canon = malloc(CG_PATH_MAX);

		if (canon == NULL)
			cli_die(EXIT_FAIL, "out of memory");
		if (cg_path_check(names[i], canon, CG_PATH_MAX, err,
				  sizeof(err)) < 0)
			cli_die(EXIT_USAGE, "%s", err);
		c->groups[i] = canon;
	}

	c->cgroup_root = cli_cgroup_root(c->cgroup_root);
	r = cg_open(&c->h, c->cgroup_root, err, sizeof(err));
	if (r < 0)
		cli_die(c->cgroup_root ? EXIT_USAGE : EXIT_FAIL, "%s", err);
	if (!cg_has(&c->h, CG_CPU))
		cli_die(EXIT_FAIL, "no cpu cgroup hierarchy");
	if (cgowner_systemd_host(&c->h))
		c->systemd = true;
	for (size_t i = 0; i < c->ngroups; i++) {
		int fd = cg_open_group(&c->h, CG_CPU, c->groups[i], err,
				       sizeof(err));

		if (fd == -EINVAL)
			cli_die(EXIT_USAGE, "%s", err);
		if (fd < 0)
			cli_die(EXIT_FAIL, "%s", err);
		close(fd);
	}
	/* Without a window (no --since, --interval or --watch) the rows
	 * are the cumulative counters: no inode or usage needed. */
	c->sel.groups = c->groups;
	c->sel.ngroups = c->ngroups;
	c->sel.all = c->all;
	c->sel.cumulative = !c->since && !c->interval_us && !c->watch;
	c->sel.psi = psi_wanted(c);
	c->sel.proc_root = cli_sysroot_dir(NULL);
}

enum { OPT_ROOT = 256, OPT_JSON, OPT_WAIT, OPT_SYSTEMD, OPT_MIN_PRESSURE,
       OPT_PRESSURE, OPT_DRY_RUN };
static const struct cli_option opts[] = {
	{ "interval", required_argument, 'i', CLI_ALL_COMMANDS },
	{ "since", required_argument, 's', CLI_ALL_COMMANDS },
	{ "all", no_argument, 'a', CLI_ALL_COMMANDS },
	{ "top", required_argument, 'n', CLI_ALL_COMMANDS },
	{ "min-ratio", required_argument, 'm', CLI_ALL_COMMANDS },
	{ "fail-above", required_argument, 'f', CLI_ALL_COMMANDS },
	{ "min-pressure", required_argument, OPT_MIN_PRESSURE, CLI_ALL_COMMANDS },
	{ "pressure", required_argument, OPT_PRESSURE, CLI_ALL_COMMANDS },
	{ "dry-run", no_argument, OPT_DRY_RUN, CLI_ALL_COMMANDS },
	{ "k8s", no_argument, 'k', CLI_ALL_COMMANDS },
	{ "systemd", no_argument, OPT_SYSTEMD, CLI_ALL_COMMANDS },
	{ "output", required_argument, 'o', CLI_ALL_COMMANDS },
	{ "columns", required_argument, 'O', CLI_ALL_COMMANDS },
	CLI_TABLE_OPTIONS(CLI_ALL_COMMANDS),
	{ "json", no_argument, OPT_JSON, CLI_ALL_COMMANDS },
	{ "prom-file", required_argument, 'p', CLI_ALL_COMMANDS },
	{ "watch", no_argument, 'w', CLI_ALL_COMMANDS },
	{ "cgroup-root", required_argument, OPT_ROOT, CLI_ALL_COMMANDS },
	{ "wait", required_argument, OPT_WAIT, CLI_ALL_COMMANDS },
	{ "help", no_argument, 'h', CLI_ALL_COMMANDS },
	{ "version", no_argument, 'V', CLI_ALL_COMMANDS },
	{ NULL, 0, 0, 0 }
};
static const struct cli_exclusion excl[] = {
	{ 'i', 's' }, { 'w', 's' }, { 0, 0 }
};

static enum out_fmt
parse_format(const char *arg)
{
	if (strcmp(arg, "table") == 0)
		return OUT_TABLE;
	if (strcmp(arg, "tsv") == 0)
		return OUT_TSV;
	if (strcmp(arg, "json") == 0)
		return OUT_JSON;
	if (strcmp(arg, "prom") == 0)
		return OUT_PROM;
	if (strcmp(arg, "names") == 0)
		return OUT_NAMES;
	{
		/* Column names given to -o, as cpm-topo and lsblk take
		 * them there: point to -O. */
		struct table tab;
		char err[512];

		table_init(&tab, thr_columns, thr_ncolumns, " ");
		if (table_select(&tab, arg, err, sizeof(err)) == 0)
			cli_usage_error("invalid output format '%s' (want table, tsv, json, prom or names); columns are chosen with -O %s",
					arg, arg);
	}
	cli_usage_error("invalid output format '%s' (want table, tsv, json, prom or names)",
			arg);
}

/* The options' combinations, refused before anything is sampled. */
static void
check_args(const struct ctx *c, const struct cli_parser *p)
{
	cli_check_options(p, -1);
	if (c->table.raw && c->fmt != OUT_TABLE)
		cli_usage_error("--raw goes with the table output only");
	if (c->table.noheadings && c->fmt != OUT_TABLE && c->fmt != OUT_TSV)
		cli_usage_error("--noheadings goes with the table and tsv outputs only");
	if (c->columns && (c->fmt == OUT_PROM || c->fmt == OUT_NAMES ||
			  (c->prom_file && !c->fmt_given)))
		cli_usage_error("--columns goes with the table, tsv and json outputs only");
	if (c->columns) {
		/* Refuse a bad list now, not after sampling. */
		struct table tab;
		char err[512];

		table_init(&tab, thr_columns, thr_ncolumns, " ");
		if (table_select(&tab, c->columns, err, sizeof(err)) < 0)
			cli_usage_error("%s", err);
	}
	if (cli_option_given(p, OPT_WAIT) && !c->since)
		cli_usage_error("--wait needs --since");
	if (c->dry_run && !c->since)
		cli_usage_error("--dry-run needs --since");
	if (c->dry_run && c->prom_file)
		cli_usage_error("--dry-run writes no file: not with --prom-file");
	if (c->prom_file && c->since && strcmp(c->prom_file, c->since) == 0)
		cli_usage_error("--prom-file and --since name the same file");
	check_output_dir("--prom-file", c->prom_file);
}

/* --fail-above, the pressure options and --dry-run: true when opt was
 * one. */
static bool
parse_more(struct ctx *c, int opt)
{
	switch (opt) {
	case 'f':
		if (thr_fail_parse(optarg, &c->fail_above,
				   &c->fail_pressure) < 0)
			cli_usage_error("invalid ratio '%s' for --fail-above (want R, ratio=R or pressure=P, comma-separated; each 0 to 1, or a percentage)",
					optarg);
		return true;
	case OPT_MIN_PRESSURE:
		if (thr_ratio_parse(optarg, &c->min_pressure) < 0)
			cli_usage_error("invalid pressure '%s' (want 0 to 1, or a percentage)",
					optarg);
		return true;
	case OPT_PRESSURE:
		if (thr_psi_mask_parse(optarg, &c->psi) < 0)
			cli_usage_error("invalid --pressure '%s' (want cpu, memory, io, comma-separated, or all or none)",
					optarg);
		c->psi_given = true;
		return true;
	case OPT_DRY_RUN:
		c->dry_run = true;
		return true;
	}
	return false;
}

static void
parse_args(struct ctx *c, struct cli_parser *p, int argc, char **argv)
{
	unsigned int top;
	int opt, r;

	cli_parser_init(p, opts, excl, NULL, false);
	while ((opt = cli_next_option(p, argc, argv)) != -1) {
		if (cli_table_option(opt, &c->table) || parse_more(c, opt))
			continue;
		switch (opt) {
		case 'i':
			r = parse_duration_us(optarg, &c->interval_us);
			if (r < 0 || c->interval_us == 0 ||
			    c->interval_us > 86400ULL * 1000000)
				cli_usage_error("invalid interval '%s' (want a duration such as 500ms or 2s, at most a day)",
						optarg);
			break;
		case 's':
			if (*optarg == '\0')
				cli_usage_error("empty snapshot file name");
			c->since = optarg;
			break;
		case 'a':
			c->all = true;
			break;
		case 'n':
			if (parse_uint(optarg, 1000000000, &top) < 0 || top == 0)
				cli_usage_error("invalid --top '%s' (want a whole number of at least 1)",
						optarg);
			c->top = top;
			break;
		case 'm':
			if (thr_ratio_parse(optarg, &c->min_ratio) < 0)
				cli_usage_error("invalid ratio '%s' (want 0 to 1, or a percentage)",
						optarg);
			break;
		case 'k':
			c->k8s = true;
			break;
		case OPT_SYSTEMD:
			c->systemd = true;
			break;
		case 'o':
			c->fmt_given = true;
			c->fmt = parse_format(optarg);
			break;
		case 'O':
			c->columns = optarg;
			break;
		case OPT_JSON:
			c->fmt_given = true;
			c->fmt = OUT_JSON;
			break;
		case 'p':
			if (*optarg == '\0')
				cli_usage_error("empty --prom-file name");
			c->prom_file = optarg;
			break;
		case 'w':
			c->watch = true;
			break;
		case OPT_ROOT:
			if (*optarg == '\0')
				cli_usage_error("--cgroup-root needs a directory");
			c->cgroup_root = optarg;
			break;
		case OPT_WAIT:
			if (parse_wait(optarg, &c->wait_ms) < 0)
				cli_usage_error("invalid --wait '%s' (seconds, a duration such as 500ms, or forever)",
						optarg);
			break;
		case 'h':
			usage();
		case 'V':
			cli_version();
		}
	}
	check_args(c, p);
}

int
main(int argc, char **argv)
{
	struct cli_parser p;
	struct ctx c;
	int r;

	cli_init("cpm-throttle");
	memset(&c, 0, sizeof(c));
	c.min_ratio = -1;
	c.fail_above = -1;
	c.min_pressure = -1;
	c.fail_pressure = -1;
	c.wait_ms = -1;
	parse_args(&c, &p, argc, argv);
	open_groups(&c, argv + optind, argc - optind);
	r = c.watch ? run_watch(&c) : run_once(&c);
	cg_close(&c.h);
	cli_exit(r);
}
