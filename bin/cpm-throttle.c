// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpm-throttle: who is being throttled.  Reports the CFS bandwidth
 * counters of cgroups (cumulative, over an interval, or since a snapshot
 * file), as a table, TSV, JSON, Prometheus text or a list of names.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "cgowner.h"
#include "cgroup.h"
#include "cli.h"
#include "json.h"
#include "throttle.h"
#include "util.h"

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
	bool k8s;
	bool systemd;			/* --systemd, or systemd's v2 tree */
	enum out_fmt fmt;
	bool fmt_given;
	const char *prom_file;
	bool watch;

	struct cg_hier h;
	struct thr_warned warned;	/* groups already warned about */
};

static noreturn void
usage(void)
{
	printf(
"Usage: cpm-throttle [GROUP...] [--interval D | --since FILE] [--all]\n"
"                    [--top N] [--min-ratio R] [--fail-above R] [--k8s]\n"
"                    [--systemd]\n"
"                    [-o table|tsv|json|prom|names] [--prom-file PATH] [--watch]\n"
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
"  counters have no wall time to divide by.\n"
"\n"
"Options:\n"
"  -i, --interval D      sample twice, D apart (e.g. 500ms, 2s), and report\n"
"                        the difference; with --watch the round length\n"
"                        (default 1s)\n"
"  -s, --since FILE      report the difference since the snapshot in FILE,\n"
"                        then replace FILE with the current snapshot\n"
"                        (atomically).  When FILE does not exist yet the\n"
"                        counters are reported cumulative and FILE is\n"
"                        created.  A damaged FILE is an error (exit 2) and is\n"
"                        left untouched.  With GROUPs, the snapshot keeps\n"
"                        what it held for groups outside them.  Runs on\n"
"                        the same FILE wait for each other, on the lock\n"
"                        FILE.lock\n"
"      --wait SECONDS    with --since: wait at most this long for the\n"
"                        snapshot's lock (default: forever); then exit 1\n"
"  -a, --all             every group, limited or not (GROUPs imply it)\n"
"  -n, --top N           only the N highest rows\n"
"  -m, --min-ratio R     hide groups whose RATIO is below R (0..1 or N%%)\n"
"  -f, --fail-above R    exit 3 when any reported group's RATIO is above R\n"
"                        (with --watch: after the first such round)\n"
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
"  -p, --prom-file PATH  also write the Prometheus text to PATH atomically,\n"
"                        for node_exporter's textfile collector; stdout then\n"
"                        stays empty unless -o is given\n"
"  -w, --watch           repeat every --interval until interrupted, printing\n"
"                        each round (JSON: one document per line) and\n"
"                        flushing it\n"
"      --cgroup-root DIR use the cgroup tree at DIR (env CPM_CGROUP_ROOT)\n"
"  -h, --help            show this help\n"
"  -V, --version         show the version\n"
"\n"
"Counter resets (a group created or recreated inside the window, or whose\n"
"counters went backwards) are reported as the counts since the reset, and\n"
"the kernel's 32-bit period counters are unwrapped: never negative or huge.\n"
"Prometheus counters are the kernel's cumulative values; the ratio gauge\n"
"(cpm_cpu_cfs_throttled_ratio) is only written when there is a window.\n"
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

/* Apply --min-ratio and --top; fill k8s and pinned; returns the count. */
static size_t
select_rows(struct ctx *c, struct thr_row *rows, size_t n)
{
	size_t w = thr_filter(rows, n, c->min_ratio, c->top);

	for (size_t i = 0; i < w; i++) {
		struct thr_row *r = &rows[i];

		if (c->k8s)
			thr_k8s_parse(r->group, &r->k8s);
		if (c->systemd) {
			size_t glen;

			if (cgowner_unit_of_path(r->group, r->unit,
						 sizeof(r->unit), &glen) < 0)
				r->unit[0] = '\0';
		}
		if (r->limit >= 0 && r->throttled > 0 &&
		    cg_cpuset_exclusive(&c->h, r->group)) {
			r->pinned = true;
			if (!thr_warned_once(&c->warned, r->group))
				cli_warn("warning: '%s' has exclusive CPUs but is still throttled by its CPU quota (ratio %.3f)",
					 cg_display(r->group), r->ratio);
		}
	}
	return w;
}

static void
fmt_cpus(char *buf, size_t size, double v, const char *none)
{
	char *e;

	if (v < 0) {
		snprintf(buf, size, "%s", none);
		return;
	}
	snprintf(buf, size, "%.3f", v);
	e = buf + strlen(buf);
	while (e > buf && e[-1] == '0')
		*--e = '\0';
	if (e > buf && e[-1] == '.')
		*--e = '\0';
}

#define NCOLS 11
#define COL_UNIT 10

static void
row_cells(const struct ctx *c, const struct thr_row *r, char cells[NCOLS][64])
{
	snprintf(cells[1], 64, "%llu", (unsigned long long)r->periods);
	snprintf(cells[2], 64, "%llu", (unsigned long long)r->throttled);
	snprintf(cells[3], 64, "%.3f", r->ratio);
	snprintf(cells[4], 64, "%.3f", r->throttled_s);
	fmt_cpus(cells[5], 64, r->limit, "max");
	fmt_cpus(cells[6], 64, r->usage, "-");
	if (c->k8s) {
		snprintf(cells[7], 64, "%s", r->k8s.qos[0] ? r->k8s.qos : "-");
		snprintf(cells[8], 64, "%s", r->k8s.pod[0] ? r->k8s.pod : "-");
		snprintf(cells[9], 64, "%.63s",
			 r->k8s.container[0] ? r->k8s.container : "-");
	}
	if (c->systemd)
		snprintf(cells[COL_UNIT], 64, "%.63s", r->unit[0] ? r->unit : "-");
}

static const char *const headers[NCOLS] = {
	"GROUP", "PERIODS", "THROTTLED", "RATIO", "THROTTLED_S", "LIMIT",
	"USAGE", "QOS", "POD", "CONTAINER", "UNIT"
};

/* The columns shown, in order: the seven, the k8s three, UNIT. */
static size_t
columns(const struct ctx *c, size_t col[NCOLS])
{
	size_t n = 0, k;

	for (k = 0; k < (c->k8s ? 10u : 7u); k++)
		col[n++] = k;
	if (c->systemd)
		col[n++] = COL_UNIT;
	return n;
}

static void
render_text(const struct ctx *c, const struct thr_row *rows, size_t n,
	    bool tsv, struct strbuf *sb)
{
	size_t col[NCOLS], ncols = columns(c, col), width[NCOLS];
	char cells[NCOLS][64];

	for (size_t k = 0; k < ncols; k++)
		width[k] = strlen(headers[col[k]]);
	if (!tsv) {
		for (size_t i = 0; i < n; i++) {
			size_t gl = strlen(cg_display(rows[i].group));

			row_cells(c, &rows[i], cells);
			if (gl > width[0])
				width[0] = gl;
			for (size_t k = 1; k < ncols; k++)
				if (strlen(cells[col[k]]) > width[k])
					width[k] = strlen(cells[col[k]]);
		}
	}
	for (size_t i = 0; i <= n; i++) {
		const char *cell[NCOLS];

		if (i == 0) {
			for (size_t k = 0; k < ncols; k++)
				cell[k] = headers[col[k]];
		} else {
			row_cells(c, &rows[i - 1], cells);
			cell[0] = cg_display(rows[i - 1].group);
			for (size_t k = 1; k < ncols; k++)
				cell[k] = cells[col[k]];
		}
		for (size_t k = 0; k < ncols; k++) {
			bool last = k + 1 == ncols;

			if (tsv) {
				strbuf_puts(sb, cell[k]);
				strbuf_puts(sb, last ? "\n" : "\t");
			} else if (k == 0 || col[k] >= 7) {
				/* Text columns: left-aligned. */
				if (last)
					strbuf_printf(sb, "%s\n", cell[k]);
				else
					strbuf_printf(sb, "%-*s  ", (int)width[k], cell[k]);
			} else {
				strbuf_printf(sb, "%*s%s", (int)width[k], cell[k],
					      last ? "\n" : "  ");
			}
		}
	}
}

static void
render_json(const struct ctx *c, const struct thr_row *rows, size_t n,
	    bool windowed, uint64_t window_us, bool cumulative,
	    struct strbuf *sb)
{
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
	json_key(&j, "groups");
	json_arr_begin(&j);
	for (size_t i = 0; i < n; i++) {
		const struct thr_row *r = &rows[i];

		json_obj_begin(&j);
		json_key(&j, "group");
		json_str(&j, cg_display(r->group));
		json_key(&j, "periods");
		json_uint(&j, r->periods);
		json_key(&j, "throttled");
		json_uint(&j, r->throttled);
		json_key(&j, "ratio");
		json_double(&j, r->ratio, 6);
		json_key(&j, "throttled_s");
		json_double(&j, r->throttled_s, 9);
		json_key(&j, "limit");
		if (r->limit >= 0)
			json_double(&j, r->limit, 6);
		else
			json_null(&j);
		json_key(&j, "usage");
		if (r->usage >= 0)
			json_double(&j, r->usage, 6);
		else
			json_null(&j);
		json_key(&j, "reset");
		json_bool(&j, r->reset);
		json_key(&j, "pinned_throttled");
		json_bool(&j, r->pinned);
		if (c->k8s) {
			json_key(&j, "qos");
			json_str(&j, r->k8s.qos[0] ? r->k8s.qos : NULL);
			json_key(&j, "pod");
			json_str(&j, r->k8s.pod[0] ? r->k8s.pod : NULL);
			json_key(&j, "container");
			json_str(&j, r->k8s.container[0] ? r->k8s.container : NULL);
		}
		if (c->systemd) {
			json_key(&j, "unit");
			json_str(&j, r->unit[0] ? r->unit : NULL);
		}
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_obj_end(&j);
	strbuf_puts(sb, "\n");
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
	struct strbuf sb;
	size_t n;
	bool crossed = false, windowed = old != NULL;
	int r;

	if (thr_rows(old, cur, window_us, &rows, &n) < 0)
		cli_die(EXIT_FAIL, "out of memory");
	n = select_rows(c, rows, n);
	for (size_t i = 0; i < n; i++)
		if (c->fail_above >= 0 && rows[i].ratio > c->fail_above)
			crossed = true;
	strbuf_init(&sb);
	if (!c->prom_file || c->fmt_given) {
		switch (c->fmt) {
		case OUT_TABLE:
			render_text(c, rows, n, false, &sb);
			break;
		case OUT_TSV:
			render_text(c, rows, n, true, &sb);
			break;
		case OUT_JSON:
			render_json(c, rows, n, windowed, window_us, old == NULL,
				    &sb);
			break;
		case OUT_PROM:
			thr_prom(rows, n, windowed, c->k8s, &sb);
			break;
		case OUT_NAMES:
			for (size_t i = 0; i < n; i++)
				strbuf_printf(&sb, "%s\n", cg_display(rows[i].group));
			break;
		}
	}
	if (sb.oom)
		cli_die(EXIT_FAIL, "out of memory");
	if (sb.len > 0 && (fwrite(sb.buf, 1, sb.len, stdout) != sb.len ||
			   fflush(stdout) != 0))
		cli_die(EXIT_FAIL, "cannot write to stdout: %s", strerror(errno));
	strbuf_free(&sb);
	if (c->prom_file) {
		strbuf_init(&sb);
		thr_prom(rows, n, windowed, c->k8s, &sb);
		if (sb.oom)
			cli_die(EXIT_FAIL, "out of memory");
		r = write_file_atomic(c->prom_file, sb.buf ? sb.buf : "",
				      sb.len, 0644);
		if (r < 0)
			cli_die(EXIT_FAIL, "cannot write '%s': %s", c->prom_file,
				strerror(-r));
		strbuf_free(&sb);
	}
	free(rows);
	return crossed;
}

static void
collect(struct ctx *c, struct thr_snap *s)
{
	struct thr_select sel = { c->groups, c->ngroups, c->all };
	char err[512];
	int r;

	r = thr_collect(&c->h, &sel, s, err, sizeof(err));
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
	char *text;
	int r;

	r = read_file_max_at(AT_FDCWD, c->since, THR_SNAP_MAX, &text, NULL,
			     true);
	if (r == -ENOENT)
		return false;
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
	r = thr_snap_parse(text, old, err, sizeof(err));
	free(text);
	if (r == -ENOMEM)
		cli_die(EXIT_FAIL, "out of memory");
	if (r < 0)
		cli_die(EXIT_USAGE, "corrupt snapshot '%s': %s", c->since, err);
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

static int
run_once(struct ctx *c)
{
	struct thr_snap old, cur;
	bool have_old = false, crossed;
	uint64_t window = 0;
	int lockfd = -1;

	thr_snap_init(&old);
	thr_snap_init(&cur);
	if (c->since) {
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
		lockfd = lock_file(lock, c->wait_ms, err, sizeof(err));
		if (lockfd < 0)
			cli_die(EXIT_FAIL, "%s", err);
		have_old = load_since(c, &old);
		if (have_old && (old.version != cg_version(&c->h, CG_CPU) ||
				 strcmp(old.hier, c->h.ctrl[CG_CPU].path) != 0))
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
	if (have_old) {
		if (c->interval_us > 0)
			window = cur.mono_us - old.mono_us;
		else if (cur.realtime_us > old.realtime_us)
			window = cur.realtime_us - old.realtime_us;
	}
	crossed = report(c, have_old ? &old : NULL, &cur, window);
	if (c->since) {
		struct strbuf sb;
		int r;

		if (have_old && c->ngroups > 0 &&
		    thr_snap_keep_outside(&cur, &old, c->groups, c->ngroups) < 0)
			cli_die(EXIT_FAIL, "out of memory");
		strbuf_init(&sb);
		thr_snap_format(&cur, &sb);
		if (sb.oom)
			cli_die(EXIT_FAIL, "out of memory");
		r = write_file_atomic(c->since, sb.buf, sb.len, 0644);
		if (r < 0)
			cli_die(EXIT_FAIL, "cannot write snapshot '%s': %s",
				c->since, strerror(-r));
		strbuf_free(&sb);
	}
	unlock_file(lockfd);
	thr_snap_free(&old);
	thr_snap_free(&cur);
	return crossed ? EXIT_UNSAT : EXIT_OK;
}

static int
run_watch(struct ctx *c)
{
	struct thr_snap a, b, *prev = &a, *cur = &b, *t;
	uint64_t interval = c->interval_us ? c->interval_us : 1000000;
	unsigned long round = 0;

	thr_snap_init(&a);
	thr_snap_init(&b);
	collect(c, prev);
	for (;;) {
		uint64_t elapsed = now_us() - prev->mono_us;

		if (elapsed < interval)
			sleep_us(interval - elapsed);
		collect(c, cur);
		/* Tables for people: an empty line between rounds. */
		if (round++ > 0 && c->fmt == OUT_TABLE &&
		    (!c->prom_file || c->fmt_given))
			putchar('\n');
		if (report(c, prev, cur, cur->mono_us - prev->mono_us))
			return EXIT_UNSAT;
		t = prev;
		prev = cur;
		cur = t;
	}
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
}

int
main(int argc, char **argv)
{
	enum { OPT_ROOT = 256, OPT_JSON, OPT_WAIT, OPT_SYSTEMD };
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "since", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "top", required_argument, NULL, 'n' },
		{ "min-ratio", required_argument, NULL, 'm' },
		{ "fail-above", required_argument, NULL, 'f' },
		{ "k8s", no_argument, NULL, 'k' },
		{ "systemd", no_argument, NULL, OPT_SYSTEMD },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "prom-file", required_argument, NULL, 'p' },
		{ "watch", no_argument, NULL, 'w' },
		{ "cgroup-root", required_argument, NULL, OPT_ROOT },
		{ "wait", required_argument, NULL, OPT_WAIT },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct ctx c;
	unsigned int top;
	bool interval_given = false, wait_given = false;
	int opt, r;

	cli_init("cpm-throttle");
	memset(&c, 0, sizeof(c));
	c.min_ratio = -1;
	c.fail_above = -1;
	c.wait_ms = -1;
	opterr = 0;	/* one message of our own, not getopt's and ours */
	while ((opt = getopt_long(argc, argv, ":i:s:an:m:f:ko:p:whV", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'i':
			r = parse_duration_us(optarg, &c.interval_us);
			if (r < 0 || c.interval_us == 0 ||
			    c.interval_us > 86400ULL * 1000000)
				cli_usage_error("invalid interval '%s' (want a duration such as 500ms or 2s, at most a day)",
						optarg);
			interval_given = true;
			break;
		case 's':
			if (*optarg == '\0')
				cli_usage_error("empty snapshot file name");
			c.since = optarg;
			break;
		case 'a':
			c.all = true;
			break;
		case 'n':
			if (parse_uint(optarg, 1000000000, &top) < 0 || top == 0)
				cli_usage_error("invalid --top '%s' (want a whole number of at least 1)",
						optarg);
			c.top = top;
			break;
		case 'm':
			if (thr_ratio_parse(optarg, &c.min_ratio) < 0)
				cli_usage_error("invalid ratio '%s' (want 0 to 1, or a percentage)",
						optarg);
			break;
		case 'f':
			if (thr_ratio_parse(optarg, &c.fail_above) < 0)
				cli_usage_error("invalid ratio '%s' (want 0 to 1, or a percentage)",
						optarg);
			break;
		case 'k':
			c.k8s = true;
			break;
		case OPT_SYSTEMD:
			c.systemd = true;
			break;
		case 'o':
			c.fmt_given = true;
			if (strcmp(optarg, "table") == 0)
				c.fmt = OUT_TABLE;
			else if (strcmp(optarg, "tsv") == 0)
				c.fmt = OUT_TSV;
			else if (strcmp(optarg, "json") == 0)
				c.fmt = OUT_JSON;
			else if (strcmp(optarg, "prom") == 0)
				c.fmt = OUT_PROM;
			else if (strcmp(optarg, "names") == 0)
				c.fmt = OUT_NAMES;
			else
				cli_usage_error("invalid output format '%s' (want table, tsv, json, prom or names)",
						optarg);
			break;
		case OPT_JSON:
			c.fmt_given = true;
			c.fmt = OUT_JSON;
			break;
		case 'p':
			if (*optarg == '\0')
				cli_usage_error("empty --prom-file name");
			c.prom_file = optarg;
			break;
		case 'w':
			c.watch = true;
			break;
		case OPT_ROOT:
			c.cgroup_root = optarg;
			break;
		case OPT_WAIT:
			if (parse_wait(optarg, &c.wait_ms) < 0)
				cli_usage_error("invalid --wait '%s' (seconds, a duration such as 500ms, or forever)",
						optarg);
			wait_given = true;
			break;
		case 'h':
			usage();
		case 'V':
			cli_version();
		case ':':
			cli_usage_error("option '%s' requires an argument",
					argv[optind - 1]);
		default:
			if (startswith(argv[optind - 1], "--"))
				cli_usage_error("unrecognized option '%s'",
						argv[optind - 1]);
			cli_usage_error("invalid option '-%c'", optopt);
		}
	}
	if (interval_given && c.since)
		cli_usage_error("--interval and --since cannot be combined");
	if (c.watch && c.since)
		cli_usage_error("--watch and --since cannot be combined");
	if (wait_given && !c.since)
		cli_usage_error("--wait needs --since");
	if (c.prom_file && c.since && strcmp(c.prom_file, c.since) == 0)
		cli_usage_error("--prom-file and --since name the same file");
	check_output_dir("--prom-file", c.prom_file);
	check_output_dir("--since", c.since);
	open_groups(&c, argv + optind, argc - optind);
	r = c.watch ? run_watch(&c) : run_once(&c);
	cg_close(&c.h);
	cli_exit(r);
}
