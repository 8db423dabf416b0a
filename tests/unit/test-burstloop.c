// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The burst engine without its CLI: the queue, the group table and its
 * bound, due times and the cooldown, batch boost and restore, the line
 * reader, and running out of memory (through the engine's allocation
 * hook) inside the loop.  The hierarchy is a cgroup v2 file tree built
 * here (plain files, NOT the kernel); expected quotas are worked out by
 * hand (quota times the factor).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hash.h"
#include "base/strbuf.h"
#include "base/timeutil.h"
#include "cgroup/cgroup.h"
#include "quota/burstloop.h"
#include "unit.h"

static char tmp[] = "/tmp/cpm-test-burstloop-XXXXXX";
static char journal[256], groups[256];
static struct cg_hier h;
static char warnings[8192];

static void
put(const char *rel, const char *val)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	f = fopen(path, "w");
	if (f == NULL) {
		perror(path);
		exit(1);
	}
	fputs(val, f);
	fclose(f);
}

/* A file's first line, without its newline. */
static const char *
get(const char *rel)
{
	static char buf[256];
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, rel);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f == NULL)
		return "(missing)";
	if (fgets(buf, sizeof(buf), f) == NULL)
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* Journal entries (lines after the version and checksum lines). */
static int
journal_entries(void)
{
	char line[1024];
	int n = 0;
	FILE *f = fopen(journal, "r");

	if (f == NULL)
		return 0;
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	return n > 2 ? n - 2 : 0;
}

static void
collect(void *arg, const char *msg)
{
	size_t n = strlen(warnings);

	(void)arg;
	snprintf(warnings + n, sizeof(warnings) - n, "%s\n", msg);
}

static void
reset_tree(void)
{
	put("a/cpu.max", "50000 100000\n");
	put("b/cpu.max", "20000 50000\n");
	put("free/cpu.max", "max 100000\n");
	unlink(journal);
	unlink(groups);
	warnings[0] = '\0';
}

static void
engine(struct burst_engine *b)
{
	burst_engine_init(b);
	b->h = &h;
	b->journal = journal;
	b->groups = groups;
	b->rep.warn = collect;
	b->rep.verbose = true;
	b->pid = getpid();
	if (burst_proc_start(b->pid, &b->start) < 0 ||
	    burst_root_key(&h, &b->root) < 0) {
		printf("not ok - engine setup\n");
		exit(1);
	}
}

static void
test_queue(void)
{
	struct burst_engine b;

	reset_tree();
	engine(&b);
	CHECK("queue: a bad name is refused",
	      burst_queue(&b, "../x", 0) == -EINVAL &&
	      b.rep.status == BURST_BADINPUT && b.nqueue == 0);
	b.rep.status = BURST_OK;
	CHECK("queue: the root group is skipped",
	      burst_queue(&b, "/", 0) == 0 && b.nqueue == 0 &&
	      strstr(warnings, "the root group has no quota to raise"));
	CHECK("queue: a group is queued once",
	      burst_queue(&b, "a", 0) == 1 && burst_queue(&b, "/a", 0) == 0 &&
	      burst_queue(&b, "b", 0) == 1 && b.nqueue == 2 && b.n == 2);
	burst_engine_free(&b);
}

static void
test_boost_restore(void)
{
	struct burst_engine b;
	uint64_t t0 = 1000000;

	reset_tree();
	engine(&b);
	b.for_us = 300000;
	b.cooldown_us = 2000000;
	burst_queue(&b, "a", t0);
	burst_queue(&b, "b", t0);
	burst_queue(&b, "free", t0);
	burst_boost(&b, t0);
	CHECK_STR("boost: a raised by 2", get("a/cpu.max"), "100000 100000");
	CHECK_STR("boost: b raised by 2 at its period", get("b/cpu.max"),
		  "40000 50000");
	CHECK_STR("boost: a group without a limit is left",
		  get("free/cpu.max"), "max 100000");
	CHECK("boost: skipping it is said",
	      strstr(warnings, "'free' has no CPU limit; skipped") != NULL);
	CHECK("boost: the batch is emptied, two groups active",
	      b.nqueue == 0 && b.nactive == 2);
	CHECK("boost: the journal holds both originals",
	      journal_entries() == 2);
	CHECK("due: the first restore is --for after the boost",
	      burst_next_due(&b) == t0 + 300000);

	burst_restore_due(&b, t0 + 299999, false);
	CHECK_STR("due: nothing is restored before its time",
		  get("a/cpu.max"), "100000 100000");
	burst_restore_due(&b, t0 + 300000, false);
	CHECK_STR("due: a is restored at its time", get("a/cpu.max"),
		  "50000 100000");
	CHECK_STR("due: b is restored at its time", get("b/cpu.max"),
		  "20000 50000");
	CHECK("due: nothing active, the journal empty",
	      b.nactive == 0 && journal_entries() == 0 &&
	      burst_next_due(&b) == UINT64_MAX);

	CHECK("cooldown: a is not queued again within it",
	      burst_queue(&b, "a", t0 + 1999999) == 0 && b.nqueue == 0);
	CHECK("cooldown: a is queued again after it",
	      burst_queue(&b, "a", t0 + 2000000) == 1);
	burst_boost(&b, t0 + 2000000);
	CHECK_STR("restore all: a raised again", get("a/cpu.max"),
		  "100000 100000");
	put("a/cpu.max", "70000 100000\n");
	burst_restore_due(&b, t0 + 2000001, true);
	CHECK_STR("restore all: a quota someone changed is left",
		  get("a/cpu.max"), "70000 100000");
	CHECK("restore all: and said",
	      strstr(warnings, "the quota of 'a' changed to 70000us") != NULL);
	burst_engine_free(&b);
}

static void
test_table_bound(void)
{
	struct burst_engine b;
	uint64_t t0 = 1000000;

	reset_tree();
	engine(&b);
	b.max_groups = 2;
	b.for_us = 1000;
	b.cooldown_us = 1000000;
	burst_queue(&b, "a", t0);
	burst_queue(&b, "b", t0);
	burst_boost(&b, t0);
	burst_restore_due(&b, t0 + 1000, false);
	CHECK("bound: a full table refuses a new group in the cooldown",
	      burst_queue(&b, "free", t0 + 2000) == -ENOSPC && b.n == 2 &&
	      b.rep.status == BURST_FAILED &&
	      strstr(warnings, "'free' skipped") != NULL);
	CHECK("bound: a group it knows is still answered",
	      burst_queue(&b, "a", t0 + 3000) == 0);
	CHECK("bound: after the cooldown the old groups make room",
	      burst_queue(&b, "free", t0 + 1000000) == 1 && b.n == 1);
	burst_engine_free(&b);
}

static void
test_reader(void)
{
	struct burst_engine b;
	static const char in[] = "# comment\n\na \nx\0y\nb";
	int fd[2];

	reset_tree();
	engine(&b);
	b.for_us = 60000000;
	if (pipe(fd) < 0)
		exit(1);
	if (write(fd[1], in, sizeof(in) - 1) != (ssize_t)sizeof(in) - 1)
		exit(1);
	close(fd[1]);
	CHECK("reader: more may come while data flows",
	      burst_read(&b, fd[0], 0) == 1);
	CHECK("reader: a NUL inside a line is refused",
	      b.rep.status == BURST_BADINPUT &&
	      strstr(warnings, "holds a NUL byte") != NULL);
	CHECK("reader: 'a ' is not 'a'",
	      strstr(warnings, "'a '") != NULL &&
	      strcmp(get("a/cpu.max"), "50000 100000") == 0);
	CHECK_STR("reader: an unterminated last line waits",
		  get("b/cpu.max"), "20000 50000");
	CHECK("reader: the end of the input",
	      burst_read(&b, fd[0], 0) == 0);
	CHECK_STR("reader: then the last line is taken", get("b/cpu.max"),
		  "40000 50000");
	burst_restore_due(&b, 0, true);
	CHECK_STR("reader: and put back", get("b/cpu.max"), "20000 50000");
	close(fd[0]);
	burst_engine_free(&b);
}

/* The allocation hook: counts, and fails from the fail_at'th call on. */
static long nalloc, fail_at = -1;

static void *
test_realloc(void *p, size_t n)
{
	nalloc++;
	if (fail_at >= 0 && nalloc >= fail_at)
		return NULL;
	return realloc(p, n);
}

/*
 * Raise a, then run the loop on "b\nfree\n" with the fail_at'th
 * allocation failing (counting from the loop's start).  Returns the
 * loop's status; *took the run time.
 */
static int
run_loop(long fail, uint64_t for_us, uint64_t *took, bool *oom)
{
	static volatile sig_atomic_t stop;
	struct burst_engine b;
	sigset_t mask;
	uint64_t t;
	int fd[2], r;

	reset_tree();
	engine(&b);
	b.for_us = for_us;
	b.realloc_fn = test_realloc;
	burst_queue(&b, "a", now_us());
	burst_boost(&b, now_us());
	if (pipe(fd) < 0 || write(fd[1], "b\nfree\n", 7) != 7)
		exit(1);
	close(fd[1]);
	nalloc = 0;
	fail_at = fail;
	sigemptyset(&mask);
	t = now_us();
	r = burst_run(&b, fd[0], &mask, &stop);
	*took = now_us() - t;
	*oom = b.oom;
	fail_at = -1;
	close(fd[0]);
	burst_engine_free(&b);
	return r;
}

static void
test_oom(void)
{
	uint64_t took;
	long n, k;
	bool oom, all = true;
	char name[128];
	int r;

	r = run_loop(-1, 1000, &took, &oom);
	n = nalloc;
	CHECK("oom: the loop allocates (the hook sees it)",
	      r == BURST_OK && !oom && n > 0);
	for (k = 1; k <= n; k++) {
		r = run_loop(k, 3000000, &took, &oom);
		snprintf(name, sizeof(name), "oom: allocation %ld of %ld "
			 "failing stops the loop at once, quotas put back",
			 k, n);
		if (!(r == BURST_FAILED && oom && took < 2000000 &&
		      strcmp(get("a/cpu.max"), "50000 100000") == 0 &&
		      strcmp(get("b/cpu.max"), "20000 50000") == 0 &&
		      journal_entries() == 0 &&
		      strstr(warnings, "out of memory"))) {
			CHECK(name, false);
			all = false;
		}
	}
	CHECK("oom: every failing allocation restores and stops", all);
}

/*
 * The headroom guard on a node whose proc/stat is a file written here:
 * 1000 ticks pass between readings, of which the test says how many are
 * idle (and iowait, which counts as idle).
 */
static char node[512];

static void
node_stat(unsigned long long idle, unsigned long long busy)
{
	char text[256];

	snprintf(text, sizeof(text), "cpu  %llu 0 0 %llu %llu 0 0 0 0 0\n"
		 "cpu0 1 0 0 1 0 0 0 0 0 0\n", busy, idle - idle / 4,
		 idle / 4);
	put("node/proc/stat", text);
}

static void
test_headroom(void)
{
	struct burst_engine b;
	char err[256];
	uint64_t t0 = now_us();

	reset_tree();
	node_stat(1000, 1000);
	engine(&b);
	b.node.root = node;
	b.headroom_pm = 500;
	CHECK("headroom: the first reading",
	      burst_node_start(&b.node, t0, err, sizeof(err)) == 0);
	node_stat(1000 + 300, 1000 + 700);	/* 30% idle */
	burst_queue(&b, "a", t0 + 1000000);
	burst_queue(&b, "b", t0 + 1000000);
	burst_boost(&b, t0 + 1000000);
	CHECK_STR("headroom: 30% idle, below 50%: a is not raised",
		  get("a/cpu.max"), "50000 100000");
	CHECK("headroom: the refusal says why, once for the batch",
	      strstr(warnings, "not raising 'a' and 1 more: the node's idle "
		     "CPU was 30.0% over the last ") != NULL &&
	      strstr(warnings, "below --node-headroom 50%") != NULL);
	CHECK("headroom: nothing journaled, the groups free for the next",
	      journal_entries() == 0 && b.nactive == 0 && b.nqueue == 0 &&
	      burst_queue(&b, "a", t0 + 1000001) == 1);
	warnings[0] = '\0';
	node_stat(1300 + 800, 1700 + 200);	/* 80% idle */
	b.node.at = t0;		/* an interval of a second has passed */
	burst_boost(&b, t0 + 2000000);
	CHECK_STR("headroom: 80% idle: a is raised", get("a/cpu.max"),
		  "100000 100000");
	CHECK("headroom: -v says the node's idle share",
	      strstr(warnings, "raised 'a' from 50000us to 100000us; node "
		     "idle 80.0%") != NULL);
	burst_restore_due(&b, t0 + 2000000, true);
	/* no reading: refused, and said */
	b.node.root = "/nonexistent-cpm-root";
	b.node.idle_pm = -1;
	b.node.have = false;
	warnings[0] = '\0';
	burst_queue(&b, "b", t0 + 9000000);
	burst_boost(&b, t0 + 9000000);
	CHECK("headroom: without proc/stat nothing is raised, and said",
	      strcmp(get("b/cpu.max"), "20000 50000") == 0 &&
	      strstr(warnings, "cannot read the node's CPU time") &&
	      b.rep.status == BURST_FAILED);
	burst_engine_free(&b);
}

/* The whole text of the register of raised groups. */
static const char *
register_text(void)
{
	static char buf[4096];
	FILE *f = fopen(groups, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static void
test_budget(void)
{
	struct burst_engine b;
	uint64_t t0 = now_us();
	const char *reg;

	reset_tree();
	engine(&b);
	b.for_us = 200000;
	b.cooldown_us = 0;
	b.budget_us = 250000;
	b.window_us = 60000000;
	burst_queue(&b, "a", t0);
	burst_boost(&b, t0);
	reg = register_text();
	CHECK("budget: the first raise lasts --for, charged before the "
	      "quota changes",
	      b.nactive == 1 && b.active[0]->restore_at == t0 + 200000 &&
	      strncmp(reg, "cpm-burst-journal 3\n", 20) == 0 &&
	      strstr(reg, " a ") && strstr(reg, " 60000000 200000\n"));
	burst_restore_due(&b, t0 + 200000, false);
	burst_queue(&b, "a", t0 + 300000);
	burst_boost(&b, t0 + 300000);
	CHECK("budget: the second is cut to what is left of the budget",
	      b.nactive == 1 && b.active[0]->restore_at == t0 + 350000 &&
	      strstr(warnings, "for 0.05s, budget 0.25s of 0.25s used"));
	burst_restore_due(&b, t0 + 350000, false);
	warnings[0] = '\0';
	CHECK("budget: used up, the group is queued",
	      burst_queue(&b, "a", t0 + 400000) == 1);
	burst_boost(&b, t0 + 400000);
	CHECK("budget: used up: not raised, and said",
	      b.nactive == 0 && strcmp(get("a/cpu.max"), "50000 100000") == 0 &&
	      strstr(warnings, "not raising 'a': it has used its burst budget "
		     "of 0.25s in its window, which ends in "));
	CHECK("budget: nor queued again within the window",
	      burst_queue(&b, "a", t0 + 500000) == 0);
	/* a raise put back early (exit) gives back the rest */
	burst_queue(&b, "b", t0 + 500000);
	burst_boost(&b, t0 + 500000);
	burst_restore_due(&b, t0 + 550000, true);
	reg = register_text();
	CHECK("budget: a raise put back early is charged only its time",
	      strstr(reg, " b ") != NULL &&
	      strstr(reg, " 60000000 50000\n") != NULL);
	CHECK("budget: the register keeps the windows, not the raises",
	      strstr(reg, "\nbudget ") != NULL && journal_entries() == 0);
	burst_engine_free(&b);
}

/* Budget lines: version 3 only, checked, and written back the same. */
static void
test_budget_format(void)
{
	char v3[] = "budget - kube/a%20b 1700000000000000 600000000 "
		    "1500000\n";
	struct burst_journal j;
	struct strbuf sb;
	char text[512], err[256], *body;
	uint64_t sum = FNV64_INIT;
	int r;

	sum = fnv1a64(sum, v3, strlen(v3));
	snprintf(text, sizeof(text), "cpm-burst-journal 3\nchecksum "
		 "fnv1a64:%016llx\n%s", (unsigned long long)sum, v3);
	memset(&j, 0, sizeof(j));
	j.lockfd = -1;
	r = burst_journal_parse(&j, text, strlen(text), err, sizeof(err));
	CHECK("format: a version 3 journal with a budget line is read",
	      r == 0 && j.bn == 1 && strcmp(j.bv[0].group, "kube/a b") == 0 &&
	      j.bv[0].used == 1500000 && j.bv[0].window == 600000000);
	strbuf_init(&sb);
	burst_journal_format(&j, &sb);
	body = sb.buf ? strstr(sb.buf, "\nbudget") : NULL;
	CHECK_STR("format: written back the same", body ? body + 1 : "", v3);
	burst_journal_close(&j);
	strbuf_free(&sb);
	snprintf(text, sizeof(text), "cpm-burst-journal 2\nchecksum "
		 "fnv1a64:%016llx\n%s", (unsigned long long)sum, v3);
	memset(&j, 0, sizeof(j));
	j.lockfd = -1;
	r = burst_journal_parse(&j, text, strlen(text), err, sizeof(err));
	CHECK("format: version 2 has no budget lines",
	      r == -EBADMSG && strstr(err, "line 3"));
	burst_journal_close(&j);
}

static volatile sig_atomic_t got_usr1;

static void
on_usr1(int sig)
{
	(void)sig;
	got_usr1 = 1;
}

/*
 * A signal that is pending while the input is always ready (a regular
 * file, as /dev/zero or a pipe kept full): ppoll() returns the ready
 * count without taking it, and puts the mask back over it.  The loop
 * must take it at its first turn (reading a chunk or two), not after the
 * whole input; with a raised group, that stop also restores it.
 */
static void
test_signal_ready_input(void)
{
	static const char line[] = "# not a group, a comment line\n";
	struct burst_engine b;
	struct sigaction sa;
	sigset_t block, orig;
	char path[512], chunk[65536];
	size_t i, k = sizeof(line) - 1;
	off_t at;
	int fd, r;

	reset_tree();
	snprintf(path, sizeof(path), "%s/ready.in", tmp);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (i = 0; i + k <= sizeof(chunk); i += k)
		memcpy(chunk + i, line, k);
	for (r = 0; fd >= 0 && r < 256; r++)	/* 16 MiB */
		if (write(fd, chunk, i) != (ssize_t)i)
			exit(1);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0)
		exit(1);
	engine(&b);
	b.for_us = 60000000;
	burst_queue(&b, "a", now_us());
	burst_boost(&b, now_us());
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &orig);
	got_usr1 = 0;
	raise(SIGUSR1);		/* pending: blocked outside ppoll() */
	sigdelset(&orig, SIGUSR1);
	r = burst_run(&b, fd, &orig, &got_usr1);
	at = lseek(fd, 0, SEEK_CUR);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	CHECK("a pending signal under always-ready input stops the loop at "
	      "its first turn, and the raise goes back",
	      got_usr1 && at <= 4 * 65536 &&
	      strcmp(get("a/cpu.max"), "50000 100000") == 0);
	if (at > 4 * 65536)
		printf("# read %lld bytes before stopping\n", (long long)at);
	close(fd);
	unlink(path);
	burst_engine_free(&b);
}

int
main(void)
{
	char path[512];

	if (mkdtemp(tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(journal, sizeof(journal), "%s/burst.journal", tmp);
	snprintf(groups, sizeof(groups), "%s/burst.groups", tmp);
	put("cgroup.controllers", "cpu cpuset memory\n");
	snprintf(path, sizeof(path), "%s/a", tmp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/b", tmp);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/free", tmp);
	mkdir(path, 0755);
	put("a/cgroup.controllers", "cpu\n");
	put("b/cgroup.controllers", "cpu\n");
	put("free/cgroup.controllers", "cpu\n");
	put("a/cpu.max.burst", "0\n");
	put("b/cpu.max.burst", "0\n");
	put("free/cpu.max.burst", "0\n");
	snprintf(node, sizeof(node), "%s/node", tmp);
	mkdir(node, 0755);
	snprintf(path, sizeof(path), "%s/node/proc", tmp);
	mkdir(path, 0755);
	reset_tree();
	{
		char err[256];

		if (cg_open(&h, tmp, err, sizeof(err)) < 0) {
			printf("not ok - cg_open: %s\n", err);
			return 1;
		}
	}

	test_queue();
	test_boost_restore();
	test_table_bound();
	test_reader();
	test_oom();
	test_signal_ready_input();
	test_headroom();
	test_budget();
	test_budget_format();

	cg_close(&h);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmp);
	if (system(path) != 0)
		unit_failed = 1;
	return unit_failed;
}
