// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Isolating CPUs on a fake tree (proc with threads, the workqueue masks,
 * per-CPU knobs): a whole machine cannot be isolated on a shared test
 * host, so the moves, the journal, the restore after a kill at every
 * instant, values changed by others and several holders are checked
 * where a replayed tree's status files stand for the threads.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fileread.h"
#include "base/hash.h"
#include "machine/sysroot.h"
#include "machine/tasks.h"
#include "pin/isolate.h"
#include "unit.h"

static char dir[256], journal[300];

static void
mkdirs(const char *rel)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", dir, rel);
	if (system(cmd) != 0)
		exit(99);
}

static void
put(const char *rel, const char *text)
{
	char d[512], *slash;

	snprintf(d, sizeof(d), "%s", rel);
	slash = strrchr(d, '/');
	*slash = '\0';
	mkdirs(d);
	unit_put(dir, rel, text);
}

/* A thread: stat (ppid, flags, start) and status (its affinity). */
static void
thread(int pid, int tid, int ppid, const char *comm, unsigned long flags,
       const char *cpus)
{
	char rel[128], text[512];

	snprintf(text, sizeof(text), "%d (%s) S %d %d %d 0 -1 %lu 0 0 0 0 0 "
		 "0 0 0 20 0 1 0 %d 0 0\n", tid, comm, ppid, pid, pid, flags,
		 1000 + tid);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/stat", pid, tid);
	put(rel, text);
	if (pid == tid) {
		snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
		put(rel, text);
	}
	snprintf(text, sizeof(text), "Name:\t%s\nCpus_allowed:\tf\n"
		 "Cpus_allowed_list:\t%s\nMems_allowed_list:\t0\n", comm, cpus);
	snprintf(rel, sizeof(rel), "proc/%d/task/%d/status", pid, tid);
	put(rel, text);
}

static const char *
cpus_of(int pid, int tid)
{
	static char buf[4][64];
	static int i;
	char rel[512], text[512], *p;
	FILE *f;
	size_t n;

	i = (i + 1) % 4;
	snprintf(rel, sizeof(rel), "%s/proc/%d/task/%d/status", dir, pid, tid);
	f = fopen(rel, "r");
	n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	if (f)
		fclose(f);
	text[n] = '\0';
	p = strstr(text, "Cpus_allowed_list:\t");
	snprintf(buf[i], sizeof(buf[i]), "%s", p ? p + 19 : "?");
	buf[i][strcspn(buf[i], "\n")] = '\0';
	return buf[i];
}

#define WQ "sys/devices/virtual/workqueue"
#define CPU1 "sys/devices/system/cpu/cpu1"

static void
make_tree(void)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/proc' '%s/sys' '%s'", dir, dir,
		 journal);
	if (system(cmd) != 0)
		exit(99);
	thread(1, 1, 0, "init", 0x400100, "0-3");
	thread(2, 2, 0, "kthreadd", 0x208040, "0-3");
	thread(20, 20, 2, "ksoftirqd/1", 0x4208040, "1");
	thread(100, 100, 1, "bash", 0x400100, "0-3");
	thread(100, 101, 1, "worker", 0x400040, "1");
	thread(200, 200, 100, "child", 0x400100, "0-3");
	thread(300, 300, 1, "pinned0", 0x400100, "0");
	put(WQ "/cpumask", "f\n");
	put(WQ "/writeback/cpumask", "3\n");
	put(CPU1 "/power/pm_qos_resume_latency_us", "0\n");
	put(CPU1 "/cpufreq/scaling_governor", "powersave\n");
	put(CPU1 "/cpufreq/scaling_available_governors",
	    "performance powersave\n");
	put("sys/devices/system/cpu/cpu2/power/pm_qos_resume_latency_us",
	    "0\n");
}

/* Every file of the tree with its text, to compare whole trees. */
static char *
snapshot(void)
{
	char cmd[1024], *buf = calloc(1, 1 << 16);
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "cd '%s' && find proc sys -type f | sort | "
		 "xargs tail -n +1", dir);
	p = popen(cmd, "r");
	n = p ? fread(buf, 1, (1 << 16) - 1, p) : 0;
	if (p)
		pclose(p);
	buf[n] = '\0';
	return buf;
}

static struct sysroot root;
static struct cpuset online = CPUSET_INIT;
static int kill_at, changes;

static void
count_change(void *arg)
{
	if (++changes == kill_at)
		raise(SIGKILL);
}

static struct iso_opts
opts(const char *holder, pid_t scope)
{
	struct iso_opts o = {
		.root = &root, .journal = journal, .holder = holder,
		.scope = scope, .online = &online,
		.before_change = count_change,
	};
	return o;
}

static int
isolate(const char *holder, const char *list, pid_t scope,
	struct iso_report *rep)
{
	struct cpuset s = CPUSET_INIT;
	struct iso_opts o = opts(holder, scope);
	char err[512];
	int r;

	cpuset_parse_list(list, &s, NULL, 0);
	r = isolate_apply(&o, &s, rep, err, sizeof(err));
	if (r < 0)
		printf("# isolate: %s\n", err);
	cpuset_free(&s);
	return r;
}

static int
release(const char *holder, struct iso_report *rep)
{
	struct iso_opts o = opts(holder, 0);
	char err[512];
	bool found;
	int r = isolate_release(&o, &found, rep, err, sizeof(err));

	if (r < 0)
		printf("# release: %s\n", err);
	return r < 0 ? r : found;
}

/* Kill an isolation (or its release) at its k-th change, restore. */
static int
killed_at(int k, bool in_release)
{
	struct iso_report rep;
	pid_t pid;
	int status;

	make_tree();
	if (in_release && isolate("cpm-pin", "1", 0, &rep) < 0)
		return -1;
	if (in_release)
		iso_report_free(&rep);
	pid = fork();
	if (pid == 0) {
		changes = 0;
		kill_at = k;
		if (in_release)
			release(NULL, &rep);
		else
			isolate("cpm-pin", "1", 0, &rep);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	kill_at = 0;
	if (release(NULL, &rep) < 0)
		return -1;
	iso_report_free(&rep);
	return WIFSIGNALED(status) ? 1 : 0;
}

/* A unit's AllowedCPUs under away, as a cpulist ("" for every CPU). */
static const char *
unit_target(const char *orig, const char *away_list, bool with_online)
{
	static char buf[64];
	struct cpuset away = CPUSET_INIT, want = CPUSET_INIT;
	char *list;

	cpuset_parse_list(away_list, &away, NULL, 0);
	if (isolate_unit_target(orig, &away, with_online ? &online : NULL,
				&want) < 0) {
		snprintf(buf, sizeof(buf), "error");
	} else {
		list = cpuset_to_list(&want);
		snprintf(buf, sizeof(buf), "%s", list ? list : "");
		free(list);
	}
	cpuset_free(&away);
	cpuset_free(&want);
	return buf;
}

/* A journal with body and its right checksum. */
static void
put_journal(const char *body)
{
	char text[2048];

	snprintf(text, sizeof(text), "cpm-isolate-journal 1\n"
		 "checksum fnv1a64:%016llx\n%s",
		 (unsigned long long)fnv1a64(FNV64_INIT, body, strlen(body)),
		 body);
	unit_put(dir, "state/isolate.journal", text);
}

static void
test_units(void)
{
	struct cpuset held = CPUSET_INIT;
	struct iso_report rep;
	char err[256], *text = NULL;

	CHECK_STR("a unit on every CPU gets the others",
		  unit_target("", "1", true), "0,2-3");
	CHECK_STR("a unit's own CPUs lose the isolated one",
		  unit_target("0-1", "1", true), "0");
	CHECK_STR("a unit only on the isolated CPU is left",
		  unit_target("1", "1", true), "1");
	CHECK_STR("a unit never there is left",
		  unit_target("2-3", "1", true), "2-3");
	CHECK_STR("with nothing away, every CPU stays every CPU",
		  unit_target("", "", true), "");
	CHECK_STR("without the online CPUs, every CPU is left",
		  unit_target("", "1", false), "");
	CHECK_STR("an original that is no cpulist is refused",
		  unit_target("x", "1", true), "error");

	/* Old journals (no unit line) and new ones load. */
	make_tree();
	put_journal("holder cpm-pin 1 0\n");
	CHECK("a journal without units loads",
	      isolate_held(journal, &held, err, sizeof(err)) == 0 &&
	      cpuset_isset(&held, 1));
	put_journal("holder cpm-pin 1 0\n"
		    "unit system.slice = =0,2-3 ~\n"
		    "unit init.scope =0-1 =0 ~\n");
	CHECK("a journal with units loads",
	      isolate_held(journal, &held, err, sizeof(err)) == 0 &&
	      cpuset_isset(&held, 1));
	CHECK("another holder keeps the units' lines",
	      isolate("b", "2", 0, &rep) == 0);
	iso_report_free(&rep);
	read_file_at(AT_FDCWD, journal, &(struct read_opts){ 0 }, &text, NULL);
	CHECK("as units, with their values",
	      text && strstr(text, "\nunit system.slice = =0,2-3 ~\n") &&
	      strstr(text, "\nunit init.scope =0-1 =0 ~\n") &&
	      !strstr(text, "unit:"));
	free(text);
	release(NULL, &rep);
	iso_report_free(&rep);
	put_journal("holder cpm-pin 1 0\nunit ../x.slice = ~ ~\n");
	CHECK("a unit that is no top-level unit name is refused",
	      isolate_held(journal, &held, err, sizeof(err)) == -EBADMSG);
	put_journal("holder cpm-pin 1 0\nunit sshd.service = ~ ~\n");
	CHECK("as is a unit that is no slice or scope",
	      isolate_held(journal, &held, err, sizeof(err)) == -EBADMSG);
	unlink(journal);
	cpuset_free(&held);
}

int
main(void)
{
	struct iso_report rep;
	char *before, *after;
	int k, bad;

	snprintf(dir, sizeof(dir), "%s/cpm-isolate-XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL)
		return 99;
	snprintf(journal, sizeof(journal), "%s/state/isolate.journal", dir);
	cpuset_parse_list("0-3", &online, NULL, 0);
	make_tree();
	if (sysroot_open(&root, dir) < 0)
		return 99;
	before = snapshot();

	CHECK("isolating CPU 1 succeeds", isolate("cpm-pin", "1", 0, &rep) == 0);
	CHECK_STR("a process allowed everywhere moves off", cpus_of(100, 100),
		  "0,2-3");
	CHECK_STR("its child process moves off", cpus_of(200, 200), "0,2-3");
	CHECK_STR("an unbound kernel thread moves off", cpus_of(2, 2), "0,2-3");
	CHECK_STR("a thread inside the CPUs stays", cpus_of(100, 101), "1");
	CHECK_STR("a per-CPU kernel thread stays", cpus_of(20, 20), "1");
	CHECK_STR("a thread never there stays", cpus_of(300, 300), "0");
	CHECK("counts: moved, kernel, inside, per-CPU",
	      rep.moved == 4 && rep.kmoved == 1 && rep.inside == 1 &&
	      rep.percpu == 1 && rep.refused == 0);
	CHECK_STR("the unbound workqueue mask loses CPU 1",
		  unit_get(dir, WQ "/cpumask"), "0000000d");
	CHECK_STR("a workqueue's own mask loses CPU 1",
		  unit_get(dir, WQ "/writeback/cpumask"), "00000001");
	CHECK_STR("the CPU keeps out of deep C-states",
		  unit_get(dir, CPU1 "/power/pm_qos_resume_latency_us"), "n/a");
	CHECK_STR("the CPU runs the performance governor",
		  unit_get(dir, CPU1 "/cpufreq/scaling_governor"), "performance");
	CHECK_STR("another CPU's knob is untouched", unit_get(dir,
		  "sys/devices/system/cpu/cpu2/power/pm_qos_resume_latency_us"),
		  "0");
	CHECK("the journal exists", access(journal, F_OK) == 0);
	iso_report_free(&rep);
	CHECK("isolating again changes nothing",
	      isolate("cpm-pin", "1", 0, &rep) == 0 && rep.moved == 0 &&
	      rep.files == 0);
	iso_report_free(&rep);

	/* A thread made since by a moved one inherits the move. */
	thread(100, 102, 1, "late", 0x400040, "0,2-3");
	/* Not a kernel thread: kthreadd's children get theirs from the
	 * kernel (here an interrupt's thread, as its interrupt's). */
	thread(60, 60, 2, "irq/24-acpi", 0x208040, "0,2-3");
	CHECK("the release finds the holder", release("cpm-pin", &rep) == 1);
	CHECK_STR("a thread made since gets its maker's original",
		  cpus_of(100, 102), "0-3");
	CHECK_STR("a kernel thread made since keeps its own",
		  cpus_of(60, 60), "0,2-3");
	iso_report_free(&rep);
	{
		char rel[1024];

		snprintf(rel, sizeof(rel), "rm -r '%s/proc/100/task/102' "
			 "'%s/proc/60'", dir, dir);
		if (system(rel) != 0)
			return 99;
	}
	after = snapshot();
	CHECK_STR("the restore puts back every value", after, before);
	free(after);
	CHECK("the journal is gone", access(journal, F_OK) < 0);
	CHECK("a release without a journal finds nothing",
	      release(NULL, &rep) == 0);
	iso_report_free(&rep);

	/* Values changed by someone else are left alone. */
	isolate("cpm-pin", "1", 0, &rep);
	iso_report_free(&rep);
	thread(100, 100, 1, "bash", 0x400100, "3");
	put(WQ "/cpumask", "3\n");
	CHECK("a restore over others' changes succeeds",
	      release(NULL, &rep) == 1);
	CHECK("and says what others changed", rep.changed == 2);
	CHECK_STR("a thread another changed is left", cpus_of(100, 100), "3");
	CHECK_STR("a mask another changed is left",
		  unit_get(dir, WQ "/cpumask"), "3");
	CHECK_STR("the rest is put back", cpus_of(200, 200), "0-3");
	iso_report_free(&rep);

	/* Two holders: releasing one keeps the other's in force. */
	make_tree();
	isolate("a", "1", 0, &rep);
	iso_report_free(&rep);
	isolate("b", "2", 0, &rep);
	iso_report_free(&rep);
	CHECK_STR("two holders move threads off both",
		  cpus_of(100, 100), "0,3");
	CHECK_STR("and the mask", unit_get(dir, WQ "/cpumask"), "00000009");
	CHECK("releasing one", release("a", &rep) == 1);
	iso_report_free(&rep);
	CHECK_STR("keeps the other's CPUs free", cpus_of(100, 100), "0-1,3");
	CHECK_STR("in the mask too", unit_get(dir, WQ "/cpumask"), "0000000b");
	CHECK_STR("gives the first CPU's knob back",
		  unit_get(dir, CPU1 "/power/pm_qos_resume_latency_us"), "0");
	CHECK("the journal stays", access(journal, F_OK) == 0);
	release("b", &rep);
	iso_report_free(&rep);
	after = snapshot();
	CHECK_STR("the last release puts back every value", after, before);
	free(after);

	/* A scope: only its tree's threads. */
	make_tree();
	isolate("t", "1", 100, &rep);
	CHECK_STR("a scope moves its process", cpus_of(100, 100), "0,2-3");
	CHECK_STR("and its descendants", cpus_of(200, 200), "0,2-3");
	CHECK_STR("but nothing outside", cpus_of(2, 2), "0-3");
	CHECK_STR("nor the masks", unit_get(dir, WQ "/cpumask"), "f");
	iso_report_free(&rep);
	release("t", &rep);
	iso_report_free(&rep);
	after = snapshot();
	CHECK_STR("its release puts back every value", after, before);
	free(after);

	/* A dry run changes nothing. */
	{
		struct iso_opts o = opts("cpm-pin", 0);
		struct cpuset s = CPUSET_INIT;
		char err[256];

		o.dry_run = true;
		cpuset_parse_list("1", &s, NULL, 0);
		CHECK("a dry run plans", isolate_apply(&o, &s, &rep, err,
						       sizeof(err)) == 0 &&
		      rep.n >= 8 && rep.moved == 4);
		iso_report_free(&rep);
		after = snapshot();
		CHECK_STR("and changes nothing", after, before);
		free(after);
		CHECK("nor writes a journal", access(journal, F_OK) < 0);
		cpuset_parse_list("0-3", &s, NULL, 0);
		o.dry_run = false;
		CHECK("isolating every online CPU is refused",
		      isolate_apply(&o, &s, &rep, err, sizeof(err)) == -EINVAL);
		CHECK("and writes no journal", access(journal, F_OK) < 0);
		cpuset_free(&s);
	}

	/* Killed at every instant, then restored: the tree as it was. */
	bad = 0;
	for (k = 1; k < 40; k++) {
		int r = killed_at(k, false);

		after = snapshot();
		if (r < 0 || strcmp(after, before) != 0)
			bad = k;
		free(after);
		if (r == 0)
			break;	/* ran to the end: every instant was tried */
	}
	CHECK("an isolation killed before any change is undone exactly",
	      bad == 0 && k > 5);
	bad = 0;
	for (k = 1; k < 40; k++) {
		int r = killed_at(k, true);

		after = snapshot();
		if (r < 0 || strcmp(after, before) != 0)
			bad = k;
		free(after);
		if (r == 0)
			break;
	}
	CHECK("a release killed at any change is finished exactly",
	      bad == 0 && k > 5);

	test_units();

	/* A damaged journal is refused, nothing changed. */
	make_tree();
	unit_put(dir, "state/isolate.journal",
		 "cpm-isolate-journal 1\nchecksum fnv1a64:0000000000000000\n"
		 "holder x 1 0\n");
	CHECK("a damaged journal is refused",
	      isolate("cpm-pin", "1", 0, &rep) == -EBADMSG);
	CHECK_STR("and nothing moves", cpus_of(100, 100), "0-3");
	unlink(journal);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			return 99;
	}
	free(before);
	sysroot_close(&root);
	cpuset_free(&online);
	return unit_failed;
}
