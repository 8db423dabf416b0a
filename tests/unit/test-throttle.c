// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot files and window differences of the throttling report. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "base/fileread.h"
#include "base/macros.h"
#include "base/strbuf.h"
#include "throttle/threport.h"
#include "throttle/throttle.h"
#include "unit.h"

static struct thr_sample *
add(struct thr_snap *s, const char *group, int64_t np, int64_t nt,
    uint64_t tns, uint64_t ino)
{
	struct thr_sample *x = thr_snap_add(s, group);

	x->ino = ino;
	x->has_limit = true;
	x->quota_us = 50000;
	x->period_us = 100000;
	x->has_bandwidth = true;
	x->nr_periods = np;
	x->nr_throttled = nt;
	x->throttled_ns = tns;
	x->has_usage = true;
	x->usage_ns = tns;
	return x;
}

static void
test_snapshot_files(void)
{
	struct thr_snap s, t;
	struct strbuf sb;
	char err[256];
	int r;

	thr_snap_init(&s);
	thr_snap_init(&t);
	s.version = 2;
	strcpy(s.hier, "/sys/fs/cgroup");
	s.realtime_us = 1700000000000000ULL;
	add(&s, "", 0, 0, 0, 1);
	add(&s, "a b/100%", -5, 3, 7, 2);
	add(&s, "k\tx", 9, 9, 9, 3);
	strbuf_init(&sb);
	thr_snap_format(&s, &sb);
	r = thr_snap_parse(sb.buf, &t, err, sizeof(err));
	CHECK("a snapshot survives its file format", r == 0 && t.n == 3 &&
	      t.version == 2 && strcmp(t.hier, "/sys/fs/cgroup") == 0 &&
	      t.realtime_us == s.realtime_us &&
	      strcmp(t.v[0].group, "") == 0 &&
	      strcmp(t.v[1].group, "a b/100%") == 0 &&
	      t.v[1].nr_periods == -5 && t.v[1].ino == 2 &&
	      strcmp(t.v[2].group, "k\tx") == 0);
	CHECK("group names are escaped in the file",
	      strstr(sb.buf, "g a%20b/100%25 ") != NULL);

	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\nhierarchy /x\ntime 5\nend 1\n",
			   &t, err, sizeof(err));
	CHECK("a wrong group count is refused", r == -EBADMSG &&
	      strstr(err, "count") != NULL);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\nhierarchy /x\ntime 5\n"
			   "g b 1 -1 100000 1 0 0 0 -\ng a 1 -1 100000 1 0 0 0 -\nend 2\n",
			   &t, err, sizeof(err));
	CHECK("groups out of order are refused", r == -EBADMSG);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\nhierarchy /x\ntime 5\n"
			   "g a/../b 1 -1 100000 1 0 0 0 -\nend 1\n", &t, err, sizeof(err));
	CHECK("a group with .. in a snapshot is refused", r == -EBADMSG);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\nhierarchy /x\ntime 5\n"
			   "g a%0 1 -1 100000 1 0 0 0 -\nend 1\n", &t, err, sizeof(err));
	CHECK("a broken escape is refused", r == -EBADMSG);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\nversion 1\nhierarchy /x\ntime 5\nend 0\n",
			   &t, err, sizeof(err));
	CHECK("a repeated header line is refused", r == -EBADMSG);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\nhierarchy /x\ntime 5\nend 0",
			   &t, err, sizeof(err));
	CHECK("a file without its last newline is refused", r == -EBADMSG);
	r = thr_snap_parse("", &t, err, sizeof(err));
	CHECK("an empty file is refused", r == -EBADMSG);
	strbuf_free(&sb);
	thr_snap_free(&s);
	thr_snap_free(&t);

	/* The longest lines: a group of 3,818 bytes, every one escaped. */
	{
		static char group[4096], line[20000];
		size_t len = 0;

		for (int c = 0; c < 19; c++) {
			if (c > 0)
				group[len++] = '/';
			memset(group + len, ' ', 200);
			len += 200;
		}
		group[len] = '\0';
		thr_snap_init(&s);
		s.version = 1;
		strcpy(s.hier, "/x");
		add(&s, group, 1, 1, 1, 1);
		strbuf_init(&sb);
		thr_snap_format(&s, &sb);
		r = thr_snap_parse(sb.buf, &t, err, sizeof(err));
		CHECK("a snapshot of a 3,818-byte group, every byte escaped, "
		      "is read back", r == 0 && t.n == 1 &&
		      strcmp(t.v[0].group, group) == 0);
		strbuf_free(&sb);
		thr_snap_free(&s);
		thr_snap_free(&t);
		memset(line, 'x', sizeof(line) - 2);
		memcpy(line, "cpm-throttle-snapshot 1\ng ", 26);
		line[sizeof(line) - 2] = '\n';
		line[sizeof(line) - 1] = '\0';
		r = thr_snap_parse(line, &t, err, sizeof(err));
		CHECK("a line longer than any snapshot's is refused",
		      r == -EBADMSG && strstr(err, "line 2: too long") != NULL);
		thr_snap_free(&t);
	}
}

/* Write n bytes of data to path. */
static void
put_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fwrite(data, 1, n, f) != n)
		printf("# cannot write %s\n", path);
	if (f)
		fclose(f);
}

/*
 * Snapshot files read and written a piece at a time (64 KB): a file of
 * many pieces, whose lines straddle the pieces' ends, comes back whole
 * and equal to the text thr_snap_format() makes; what is wrong anywhere
 * in it, in the first piece or a later one, is refused.
 */
static void
test_snapshot_pieces(void)
{
	char dir[] = "/tmp/cpm-test-thrsnap-XXXXXX", path[128], err[256];
	char name[64], *text = NULL, *bad;
	struct thr_snap s, t;
	struct strbuf sb;
	size_t len = 0, i;
	bool same = true;
	struct stat st;
	int r;

	if (!mkdtemp(dir)) {
		CHECK("mkdtemp", false);
		return;
	}
	snprintf(path, sizeof(path), "%s/s.snap", dir);
	thr_snap_init(&s);
	thr_snap_init(&t);
	s.version = 1;
	strcpy(s.hier, "/sys/fs/cgroup/cpu");
	s.realtime_us = 42;
	/* 3,000 groups, some 170 KB: three pieces and more */
	for (i = 0; i < 3000; i++) {
		snprintf(name, sizeof(name), "kubepods/pod%05zu/c %zu", i, i * 7);
		add(&s, name, (int64_t)i, (int64_t)i / 3, i * 11, i + 1)
			->has_usage = i % 5 != 0;
	}
	r = thr_snap_save(path, &s);
	CHECK("a snapshot of 3,000 groups is saved", r == 0);
	strbuf_init(&sb);
	thr_snap_format(&s, &sb);
	if (read_file_at(AT_FDCWD, path, &(struct read_opts){ .flags = READ_TEXT, .max = THR_SNAP_MAX }, &text, &len) < 0)
		text = NULL;
	CHECK("the file saved in pieces is the snapshot's text",
	      text && len == sb.len && memcmp(text, sb.buf, len) == 0);
	CHECK("... of more than three pieces of 64 KB", len > 3 * 65536);
	r = thr_snap_load(path, &t, err, sizeof(err));
	if (r < 0)
		printf("# %d %s\n", r, err);
	for (i = 0; r == 0 && i < s.n && same; i++)
		same = t.n == s.n && strcmp(t.v[i].group, s.v[i].group) == 0 &&
		       t.v[i].ino == s.v[i].ino &&
		       t.v[i].nr_periods == s.v[i].nr_periods &&
		       t.v[i].nr_throttled == s.v[i].nr_throttled &&
		       t.v[i].throttled_ns == s.v[i].throttled_ns &&
		       t.v[i].has_usage == s.v[i].has_usage &&
		       (!s.v[i].has_usage || t.v[i].usage_ns == s.v[i].usage_ns);
	CHECK("read back a piece at a time, every group is as saved",
	      r == 0 && same && t.n == 3000 && t.version == 1 &&
	      t.realtime_us == 42 && strcmp(t.hier, s.hier) == 0);

	/* Faults placed in a later piece than the first. */
	bad = malloc(len + 70000);
	if (text && bad) {
		size_t at = 200000;	/* a line in the fourth piece */

		while (text[at - 1] != '\n')
			at++;
		memcpy(bad, text, len);
		bad[at + 2] = '\0';
		put_file(path, bad, len);
		r = thr_snap_load(path, &t, err, sizeof(err));
		CHECK("a NUL byte in the fourth piece: not a text file",
		      r == -EILSEQ && t.n == 0);
		memcpy(bad, text, len);
		bad[at + 2] = '\r';
		put_file(path, bad, len);
		r = thr_snap_load(path, &t, err, sizeof(err));
		CHECK("a carriage return in the fourth piece: refused",
		      r == -EBADMSG && strstr(err, "not a complete") && t.n == 0);
		memcpy(bad, text, len);
		memcpy(bad + at, "g aa", 4);
		put_file(path, bad, len);
		r = thr_snap_load(path, &t, err, sizeof(err));
		{
			char want[64];
			size_t line = 1;

			for (i = 0; i < at; i++)
				line += text[i] == '\n';
			snprintf(want, sizeof(want), "line %zu: groups out of "
				 "order", line);
			if (strcmp(err, want) != 0)
				printf("# %s\n", err);
			CHECK("a group out of order in the fourth piece: "
			      "refused, with its line", r == -EBADMSG &&
			      strcmp(err, want) == 0 && t.n == 0);
		}
		put_file(path, text, len - 1);
		r = thr_snap_load(path, &t, err, sizeof(err));
		CHECK("a snapshot without its last newline: refused",
		      r == -EBADMSG && strstr(err, "not a complete") != NULL);
		/* a line of 69,999 bytes, longer than a piece */
		memset(bad, 'x', 70100);
		memcpy(bad, "cpm-throttle-snapshot 1\ng ", 26);
		bad[69999 + 26] = '\n';
		put_file(path, bad, 69999 + 27);
		r = thr_snap_load(path, &t, err, sizeof(err));
		CHECK("a line longer than a piece is too long",
		      r == -EBADMSG && strstr(err, "line 2: too long") != NULL);
	}
	free(bad);
	put_file(path, "", 0);
	r = thr_snap_load(path, &t, err, sizeof(err));
	CHECK("an empty snapshot file is refused",
	      r == -EBADMSG && strstr(err, "empty file") != NULL);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK("no file: -ENOENT", thr_snap_load(path, &t, err, sizeof(err)) ==
	      -ENOENT);
	CHECK("a directory: -EISDIR", thr_snap_load(dir, &t, err, sizeof(err)) ==
	      -EISDIR);
	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkfifo(path, 0600);
	CHECK("a FIFO: refused at once, not read",
	      thr_snap_load(path, &t, err, sizeof(err)) == -EFTYPE_CPM);
	snprintf(path, sizeof(path), "%s/no/s.snap", dir);
	CHECK("saved where no directory is: -ENOENT, nothing made",
	      thr_snap_save(path, &s) == -ENOENT && stat(path, &st) < 0);
	free(text);
	strbuf_free(&sb);
	thr_snap_free(&s);
	thr_snap_free(&t);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path) != 0)
		printf("# cannot remove %s\n", dir);
}

static void
test_rows(void)
{
	struct thr_snap o, c;
	struct thr_row *rows;
	size_t n;

	thr_snap_init(&o);
	thr_snap_init(&c);
	add(&o, "same", 100, 50, 1000, 1);
	add(&o, "wrap", 2147483000, 2147483000, 1000, 2);
	add(&o, "recreated", 900, 900, 1000, 3);
	add(&o, "backwards", 900, 900, 1000, 4);
	add(&c, "same", 110, 51, 3000, 1);
	add(&c, "wrap", -2147483296, -2147483396, 2000, 2);
	add(&c, "recreated", 4, 2, 10, 33);
	add(&c, "backwards", 10, 5, 500, 4);
	add(&c, "new", 8, 8, 10, 5);
	/* thr_snap_find() needs sorted samples: sort by name. */
	for (size_t i = 0; i + 1 < o.n; i++)
		for (size_t j = i + 1; j < o.n; j++)
			if (strcmp(o.v[i].group, o.v[j].group) > 0) {
				struct thr_sample t = o.v[i];
				o.v[i] = o.v[j];
				o.v[j] = t;
			}
	thr_rows(&o, &c, 1000000, &rows, &n);
	CHECK("rows come sorted by ratio, then name", n == 5 &&
	      strcmp(rows[0].group, "new") == 0 && rows[0].ratio == 1.0 &&
	      strcmp(rows[1].group, "wrap") == 0);
	for (size_t i = 0; i < n; i++) {
		const struct thr_row *r = &rows[i];

		if (strcmp(r->group, "same") == 0)
			CHECK("a plain difference", r->periods == 10 && r->throttled == 1 &&
			      !r->reset && r->usage > 0.0000019 && r->usage < 0.0000021);
		else if (strcmp(r->group, "wrap") == 0)
			CHECK("a 32-bit wrap is undone", r->periods == 1000 &&
			      r->throttled == 900 && !r->reset &&
			      r->cum_periods == 2147484000ULL);
		else if (strcmp(r->group, "recreated") == 0)
			CHECK("another inode is a reset", r->periods == 4 &&
			      r->throttled == 2 && r->reset);
		else if (strcmp(r->group, "backwards") == 0)
			CHECK("counters going backwards are a reset", r->periods == 10 &&
			      r->throttled == 5 && r->reset);
		else
			CHECK("a new group counts from its creation", r->periods == 8 &&
			      r->reset);
	}
	free(rows);
	thr_rows(NULL, &c, 0, &rows, &n);
	CHECK("without an old snapshot the counters are cumulative and usage unknown",
	      n == 5 && rows[0].usage < 0 && rows[0].reset == false);
	free(rows);
	thr_snap_free(&o);
	thr_snap_free(&c);
}

/*
 * Sorted snapshots, as the walk makes them, where groups went away and
 * came between two runs: each group is matched to its own sample, not
 * to the one after the last match.
 */
static void
test_rows_sorted(void)
{
	static const char *const names[] = { "a", "b", "c", "d", "e", "f" };
	struct thr_snap o, c;
	struct thr_row *rows;
	size_t n;
	bool ok = true;

	thr_snap_init(&o);
	thr_snap_init(&c);
	/* old: a b d e; now: a c d f (b, e gone; c, f new). Group k had
	 * 10k periods, 5k throttled; each has 3 more periods, 1 more
	 * throttled. One inode for all, so that only the name can tell
	 * samples apart. */
	for (size_t k = 0; k < 6; k++) {
		bool was = k != 2 && k != 5, is = k != 1 && k != 4;

		if (was)
			add(&o, names[k], 10 * (int64_t)k, 5 * (int64_t)k, 0, 1);
		if (is)
			add(&c, names[k], 10 * (int64_t)k + 3, 5 * (int64_t)k + 1,
			    0, 1);
	}
	thr_rows(&o, &c, 1000000, &rows, &n);
	CHECK("one row per group now", n == 4);
	for (size_t i = 0; i < n; i++) {
		const struct thr_row *r = &rows[i];
		size_t k = (size_t)(r->group[0] - 'a');
		bool fresh = k == 2 || k == 5;

		if (fresh)
			ok = ok && r->reset && r->periods == 10 * k + 3 &&
			     r->throttled == 5 * k + 1;
		else
			ok = ok && !r->reset && r->periods == 3 &&
			     r->throttled == 1;
	}
	CHECK("sorted snapshots with groups gone and new match by name", ok);
	free(rows);
	thr_snap_free(&o);
	thr_snap_free(&c);
}

/*
 * v1 usage from a cpuacct hierarchy mounted apart (a tree of files):
 * a group missing there has nothing below it there either, and the
 * walk stops looking; a group there without cpuacct.usage says
 * nothing about those below it.
 */
static void
test_collect_cpuacct_apart(void)
{
	static const char *const cpu[] = { "a", "a/x", "a/y", "ab", "b", "b/z",
					   "c", "c/w" };
	static const struct {
		const char *group, *usage;	/* NULL: directory only */
	} acct[] = {
		{ "ab", "11" }, { "b", "5" }, { "b/z", "7" }, { "c", NULL },
		{ "c/w", "9" },
	};
	char tmp[] = "/tmp/cpm-unit-throttle.XXXXXX", path[256], err[512];
	struct thr_select sel = { NULL, 0, true, false, 0, NULL };
	const struct thr_sample *x;
	struct thr_snap s;
	struct cg_hier h;
	int r;

	if (mkdtemp(tmp) == NULL)
		return;
	snprintf(path, sizeof(path), "%s/cpu", tmp);
	mkdir(path, 0755);
	unit_put(path, "cpu.cfs_quota_us", "-1\n");
	unit_put(path, "cpu.cfs_period_us", "100000\n");
	snprintf(path, sizeof(path), "%s/cpuacct", tmp);
	mkdir(path, 0755);
	unit_put(path, "cpuacct.usage", "1\n");
	for (size_t i = 0; i < ARRAY_SIZE(cpu); i++) {
		snprintf(path, sizeof(path), "%s/cpu/%s", tmp, cpu[i]);
		mkdir(path, 0755);
		unit_put(path, "cpu.cfs_quota_us", "50000\n");
		unit_put(path, "cpu.cfs_period_us", "100000\n");
		unit_put(path, "cpu.stat", "nr_periods 4\nnr_throttled 1\nthrottled_time 3\n");
	}
	for (size_t i = 0; i < ARRAY_SIZE(acct); i++) {
		snprintf(path, sizeof(path), "%s/cpuacct/%s", tmp, acct[i].group);
		mkdir(path, 0755);
		if (acct[i].usage)
			unit_put(path, "cpuacct.usage", acct[i].usage);
	}
	thr_snap_init(&s);
	r = cg_open(&h, tmp, err, sizeof(err));
	CHECK("a v1 tree with cpuacct apart opens", r == 0 &&
	      !cg_same_hier(&h, CG_CPU, CG_CPUACCT));
	if (r == 0) {
		r = thr_collect(&h, &sel, &s, err, sizeof(err));
		CHECK("it is collected", r == 0 && s.n == 9);
		x = thr_snap_find(&s, "a/x");
		CHECK("below a group missing from cpuacct: no usage",
		      x && !x->has_usage && x->nr_periods == 4);
		x = thr_snap_find(&s, "ab");
		CHECK("a sibling whose name starts alike has its usage",
		      x && x->has_usage && x->usage_ns == 11);
		x = thr_snap_find(&s, "b/z");
		CHECK("a group in cpuacct has its usage", x && x->has_usage &&
		      x->usage_ns == 7);
		x = thr_snap_find(&s, "c");
		CHECK("a cpuacct group without cpuacct.usage: no usage",
		      x && !x->has_usage);
		x = thr_snap_find(&s, "c/w");
		CHECK("below it the walk still looks", x && x->has_usage &&
		      x->usage_ns == 9);
		cg_close(&h);
	}
	thr_snap_free(&s);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	if (system(path) != 0)
		CHECK("the tree is removed", false);
}

/* Ties in ratio go by group name, with and without a sort to do. */
static void
test_row_order(void)
{
	static const struct {
		const char *group;
		int64_t np, nt;
	} in[] = {	/* in name order, as a snapshot holds them */
		{ "a", 10, 5 }, { "b", 10, 1 }, { "c", 4, 2 },
		{ "d", 10, 9 }, { "e", 2, 1 }, { "f", 0, 0 },
	};
	static const char want[] = "dacebf", same[] = "abc";
	struct thr_snap c;
	struct thr_row *rows;
	char got[8];
	size_t n;

	thr_snap_init(&c);
	for (size_t i = 0; i < ARRAY_SIZE(in); i++)
		add(&c, in[i].group, in[i].np, in[i].nt, 0, i + 1);
	thr_rows(NULL, &c, 0, &rows, &n);
	for (size_t i = 0; i < n && i < 7; i++)
		got[i] = rows[i].group[0];
	got[n < 7 ? n : 7] = '\0';
	CHECK_STR("rows by ratio, ties by name", got, want);
	free(rows);
	thr_snap_free(&c);

	thr_snap_init(&c);
	for (size_t i = 0; i < 3; i++)
		add(&c, in[i].group, 10, 5, 0, i + 1);
	thr_rows(NULL, &c, 0, &rows, &n);
	for (size_t i = 0; i < n && i < 7; i++)
		got[i] = rows[i].group[0];
	got[n < 7 ? n : 7] = '\0';
	CHECK_STR("rows of one ratio stay in name order", got, same);
	free(rows);
	thr_snap_free(&c);
}

/* The parser's lines and fields: runs of spaces, blank lines skipped. */
static void
test_snapshot_split(void)
{
	struct thr_snap t;
	char err[256];
	int r;

	thr_snap_init(&t);
	r = thr_snap_parse("cpm-throttle-snapshot 1\n\nversion  1 \n  hierarchy /x\n"
			   "time 5\n\n\ng  a 7  -1 100000 1 3 2 9  - \nend 1\n\n",
			   &t, err, sizeof(err));
	CHECK("spaces and blank lines around fields are skipped", r == 0 &&
	      t.n == 1 && strcmp(t.v[0].group, "a") == 0 && t.v[0].ino == 7 &&
	      t.v[0].nr_periods == 3 && t.v[0].nr_throttled == 2 &&
	      t.v[0].throttled_ns == 9 && !t.v[0].has_usage);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\nhierarchy /x\n\ntime 5\n"
			   "g a 1 2 3 4 5 6 7 8 9 10 11 12\nend 0\n", &t, err, sizeof(err));
	CHECK_STR("a line of too many fields is refused; blank lines are not counted",
		  r == -EBADMSG ? err : "", "line 5: unexpected 'g'");
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 1\n   \n", &t, err,
			   sizeof(err));
	CHECK_STR("a line of spaces is an empty line", r == -EBADMSG ? err : "",
		  "line 3: empty line");
	r = thr_snap_parse("\n\ncpm-throttle-snapshot 1\nversion 1\nhierarchy /x\n"
			   "time 5\nend 0\n", &t, err, sizeof(err));
	CHECK("leading blank lines are skipped", r == 0 && t.n == 0);
	thr_snap_free(&t);
}

/*
 * The Prometheus text: cAdvisor's "id" label (the cgroup path with a
 * leading slash, "/" for the root) on every series, and with k8s the pod
 * UID twice, as "pod" and as kube-state-metrics' "uid".
 */
static void
test_prom(void)
{
	struct thr_row r[2];
	struct thr_ident id = { 0 };
	struct strbuf sb;

	memset(r, 0, sizeof(r));
	r[0].group = "";
	r[0].limit = -1;
	r[0].cum_periods = 7;
	r[1].group = "kubepods/burstable/pod1-2/ab\"c";
	r[1].limit = 0.5;
	r[1].cum_periods = 40;
	r[1].cum_throttled = 30;
	r[1].cum_throttled_s = 1.5;
	r[1].ratio = 0.75;
	strcpy(id.k8s.qos, "Burstable");
	strcpy(id.k8s.pod, "1-2");
	strcpy(id.k8s.container, "ab\"c");
	r[1].ident = &id;

	strbuf_init(&sb);
	thr_prom(r, 2, false, false, &sb);
	CHECK("prom: the root's id is /",
	      sb.buf && strstr(sb.buf, "\ncpm_cpu_cfs_periods_total{cgroup=\"/\",id=\"/\"} 7\n"));
	CHECK("prom: a group's id is its path with a leading slash, escaped",
	      sb.buf && strstr(sb.buf, "\ncpm_cpu_cfs_limit_cpus{cgroup=\"kubepods/burstable/pod1-2/ab\\\"c\","
			       "id=\"/kubepods/burstable/pod1-2/ab\\\"c\"} 0.5\n"));
	CHECK("prom: no ratio gauge without a window",
	      sb.buf && !strstr(sb.buf, "ratio"));
	strbuf_free(&sb);

	strbuf_init(&sb);
	thr_prom(r, 2, true, true, &sb);
	CHECK("prom: k8s labels carry the pod UID as pod and uid",
	      sb.buf && strstr(sb.buf, "\ncpm_cpu_cfs_throttled_ratio{cgroup=\"kubepods/burstable/pod1-2/ab\\\"c\","
			       "id=\"/kubepods/burstable/pod1-2/ab\\\"c\",qos=\"Burstable\",pod=\"1-2\","
			       "uid=\"1-2\",container=\"ab\\\"c\"} 0.750000\n"));
	CHECK("prom: a group outside kubepods has no k8s labels",
	      sb.buf && strstr(sb.buf, "\ncpm_cpu_cfs_throttled_ratio{cgroup=\"/\",id=\"/\"} 0.000000\n"));
	strbuf_free(&sb);
}

/* --watch's warned-about groups: once each, and bounded. */
static void
test_warned(void)
{
	struct thr_warned w = { 0 };
	char name[32];
	bool again = false;
	int i;

	CHECK("warned: a new group is not yet warned about",
	      !thr_warned_once(&w, "pod/a"));
	CHECK("warned: the second time it is",
	      thr_warned_once(&w, "pod/a"));
	CHECK("warned: another group is new", !thr_warned_once(&w, "pod/b"));
	for (i = 0; i < 3 * THR_WARNED_MAX; i++) {
		snprintf(name, sizeof(name), "g%d", i);
		if (thr_warned_once(&w, name))
			again = true;
	}
	CHECK("warned: every new name is new", !again);
	CHECK("warned: at most THR_WARNED_MAX remembered",
	      w.n == THR_WARNED_MAX);
	snprintf(name, sizeof(name), "g%d", 3 * THR_WARNED_MAX - 1);
	CHECK("warned: the latest are remembered",
	      thr_warned_once(&w, name));
	CHECK("warned: the oldest are forgotten",
	      !thr_warned_once(&w, "pod/a"));
	thr_warned_free(&w);
}

/* --min-ratio's grammar and the --min-ratio/--top filter. */
static void
test_filter(void)
{
	struct thr_row rows[4];
	double v = -1;
	size_t n;

	CHECK("ratio: a fraction", thr_ratio_parse("0.25", &v) == 0 &&
	      v == 0.25);
	CHECK("ratio: a percentage", thr_ratio_parse("50%", &v) == 0 &&
	      v == 0.5);
	CHECK("ratio: 1 and 0 are the bounds",
	      thr_ratio_parse("1", &v) == 0 && v == 1.0 &&
	      thr_ratio_parse("0%", &v) == 0 && v == 0.0);
	CHECK("ratio: above 1 is out of range",
	      thr_ratio_parse("1.5", &v) == -ERANGE &&
	      thr_ratio_parse("150%", &v) == -ERANGE);
	CHECK("ratio: not a number",
	      thr_ratio_parse("", &v) == -EINVAL &&
	      thr_ratio_parse("%", &v) == -EINVAL &&
	      thr_ratio_parse(".", &v) == -EINVAL &&
	      thr_ratio_parse("-0.5", &v) == -EINVAL &&
	      thr_ratio_parse("1e-1", &v) == -EINVAL &&
	      thr_ratio_parse("0.5 ", &v) == -EINVAL);

	memset(rows, 0, sizeof(rows));
	rows[0].ratio = 0.9;
	rows[1].ratio = 0.1;
	rows[2].ratio = 0.5;
	rows[3].ratio = 0.0;
	n = thr_filter(rows, 4, -1, 0);
	CHECK("filter: nothing asked keeps every row", n == 4);
	n = thr_filter(rows, 4, 0.5, 0);
	CHECK("filter: --min-ratio keeps those at or above, in order",
	      n == 2 && rows[0].ratio == 0.9 && rows[1].ratio == 0.5);
	n = thr_filter(rows, n, -1, 1);
	CHECK("filter: --top keeps the first", n == 1 && rows[0].ratio == 0.9);
}

static void
test_psi(void)
{
	struct thr_psi p, o;
	double r = -1, q = -1;

	CHECK("a pressure file parses",
	      thr_psi_parse("some avg10=1.53 avg60=0.87 avg300=0.25 total=2785403\n"
			    "full avg10=0.5 avg60=0.00 avg300=0.00 total=12\n", &p) == 0 &&
	      p.has == (THR_PSI_SOME | THR_PSI_FULL) && p.some_us == 2785403 &&
	      p.full_us == 12 && p.some_avg10 == 153 && p.full_avg10 == 50);
	CHECK("a cpu.pressure without its full line (before 5.13)",
	      thr_psi_parse("some avg10=100.00 avg60=0.00 avg300=0.00 total=1", &p) == 0 &&
	      p.has == THR_PSI_SOME && p.some_avg10 == 10000);
	CHECK("an unknown line is refused",
	      thr_psi_parse("half avg10=0.00 avg60=0.00 avg300=0.00 total=1", &p) == -EBADMSG);
	CHECK("a missing total is refused",
	      thr_psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00", &p) == -EBADMSG);
	CHECK("a bad average is refused",
	      thr_psi_parse("some avg10=1.234 avg60=0.00 avg300=0.00 total=1", &p) == -EBADMSG &&
	      thr_psi_parse("some avg10=101.00 avg60=0.00 avg300=0.00 total=1", &p) == -EBADMSG &&
	      thr_psi_parse("some avg10=-1 avg60=0.00 avg300=0.00 total=1", &p) == -EBADMSG);
	CHECK("a negative total is refused",
	      thr_psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=-1", &p) == -EBADMSG);
	CHECK("other keys are ignored",
	      thr_psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=7 new=1", &p) == 0 &&
	      p.some_us == 7);

	memset(&o, 0, sizeof(o));
	memset(&p, 0, sizeof(p));
	o.has = p.has = THR_PSI_SOME;
	o.some_us = 1000000;
	p.some_us = 1500000;
	p.some_avg10 = 2000;
	CHECK("a share from the totals over the window",
	      thr_psi_share(&o, &p, false, 2000000) == 0.25);
	CHECK("no window: the kernel's avg10",
	      thr_psi_share(&o, &p, false, 0) == 0.2 &&
	      thr_psi_share(NULL, &p, false, 2000000) == 0.2);
	CHECK("no line: unknown", thr_psi_share(&o, &p, true, 1000) < 0);
	o.some_us = 9000000;
	CHECK("a total that went back counts from 0",
	      thr_psi_delta(&o, &p, false) == 1500000 &&
	      thr_psi_share(&o, &p, false, 1000000) == 1.0);

	CHECK("--fail-above takes a ratio, a pressure, or both",
	      thr_fail_parse("0.5", &r, &q) == 0 && r == 0.5 && q < 0 &&
	      thr_fail_parse("ratio=20%,pressure=0.1", &r, &q) == 0 &&
	      r == 0.2 && q == 0.1);
	CHECK("--fail-above refuses the rest",
	      thr_fail_parse("pressure=", &r, &q) < 0 &&
	      thr_fail_parse("io=0.5", &r, &q) < 0 &&
	      thr_fail_parse("0.5,", &r, &q) < 0 &&
	      thr_fail_parse("", &r, &q) < 0 && r == 0.2 && q == 0.1);
}

static void
test_snapshot_psi(void)
{
	struct thr_snap s, t;
	struct thr_sample *x;
	struct strbuf sb;
	char err[256];
	int r;

	thr_snap_init(&s);
	thr_snap_init(&t);
	s.version = 2;
	strcpy(s.hier, "/sys/fs/cgroup");
	s.node[THR_PSI_CPU].has = THR_PSI_SOME | THR_PSI_FULL;
	s.node[THR_PSI_CPU].some_us = 77;
	s.node[THR_PSI_IO].has = THR_PSI_SOME;
	s.node[THR_PSI_IO].some_us = 5;
	x = add(&s, "a", 10, 1, 2, 3);
	x->has_burst = true;
	x->nr_bursts = -3;
	x->burst_ns = 4000;
	x->psi[THR_PSI_CPU].has = THR_PSI_SOME;
	x->psi[THR_PSI_CPU].some_us = 123;
	x->psi[THR_PSI_MEMORY].has = THR_PSI_SOME | THR_PSI_FULL;
	x->psi[THR_PSI_MEMORY].full_us = 9;
	add(&s, "b", 10, 1, 2, 4);
	strbuf_init(&sb);
	thr_snap_format(&s, &sb);
	r = thr_snap_parse(sb.buf, &t, err, sizeof(err));
	CHECK("bursts and pressure survive the snapshot file",
	      r == 0 && t.n == 2 && t.v[0].has_burst && t.v[0].nr_bursts == -3 &&
	      t.v[0].burst_ns == 4000 && t.v[0].psi[0].has == THR_PSI_SOME &&
	      t.v[0].psi[0].some_us == 123 && t.v[0].psi[1].full_us == 9 &&
	      t.v[0].psi[1].has == (THR_PSI_SOME | THR_PSI_FULL) &&
	      t.v[0].psi[2].has == 0 && !t.v[1].has_burst &&
	      t.v[1].psi[0].has == 0);
	CHECK("the node's pressure survives it",
	      t.node[0].has == (THR_PSI_SOME | THR_PSI_FULL) &&
	      t.node[0].some_us == 77 && t.node[1].has == 0 &&
	      t.node[2].has == THR_PSI_SOME && t.node[2].some_us == 5);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 2\nhierarchy /\ntime 1\n"
			   "g a 1 -1 100000 1 0 0 0 - 1 - - - - - - -\nend 1\n",
			   &t, err, sizeof(err));
	CHECK("bursts without their time are refused", r == -EBADMSG);
	r = thr_snap_parse("cpm-throttle-snapshot 1\nversion 2\nhierarchy /\ntime 1\n"
			   "node cpu 1 -\nnode cpu 1 -\nend 0\n",
			   &t, err, sizeof(err));
	CHECK("a repeated node line is refused", r == -EBADMSG);
	strbuf_free(&sb);
	thr_snap_free(&s);
	thr_snap_free(&t);
}

int
main(void)
{
	test_psi();
	test_snapshot_psi();
	test_filter();
	test_snapshot_files();
	test_snapshot_pieces();
	test_rows();
	test_rows_sorted();
	test_row_order();
	test_collect_cpuacct_apart();
	test_snapshot_split();
	test_prom();
	test_warned();
	return unit_failed;
}
