// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cgroup layer on directory trees (v1 and v2) made here, and, when
 * running as root on a machine with a v1 cpu hierarchy, on the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/openat2.h>

#include "../helpers/deny-openat2.h"
#include "base/macros.h"
#include "base/num.h"
#include "cgroup/cgmount.h"
#include "cgroup/cgroup.h"
#include "throttle/throttle.h"
#include "unit.h"

static char tmpdir[] = "/tmp/cpm-unit-cgroup.XXXXXX";

/*
 * Whether this kernel has openat2, asked here: open_no_links_works()
 * keeps its answer, and the walk's test without openat2 asks it first.
 */
static bool
have_openat2(void)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC };
	long fd = syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));

	if (fd >= 0)
		close((int)fd);
	return fd >= 0;
}

static void
test_paths(void)
{
	char out[CG_PATH_MAX], err[256];

	CHECK("path check keeps a plain path",
	      cg_path_check("kubepods/burstable", out, sizeof(out), err, sizeof(err)) == 0 &&
	      strcmp(out, "kubepods/burstable") == 0);
	CHECK("path check collapses slashes and drops a leading one",
	      cg_path_check("//a///b/", out, sizeof(out), err, sizeof(err)) == 0 &&
	      strcmp(out, "a/b") == 0);
	CHECK("path check maps / and . to the root",
	      cg_path_check("/", out, sizeof(out), NULL, 0) == 0 && out[0] == '\0' &&
	      cg_path_check(".", out, sizeof(out), NULL, 0) == 0 && out[0] == '\0');
	CHECK("path check refuses ..",
	      cg_path_check("a/../../etc", out, sizeof(out), err, sizeof(err)) == -EINVAL &&
	      strstr(err, "'..'") != NULL);
	CHECK("path check refuses a lone ..",
	      cg_path_check("..", out, sizeof(out), NULL, 0) == -EINVAL);
	CHECK("path check refuses . inside a path",
	      cg_path_check("a/./b", out, sizeof(out), NULL, 0) == -EINVAL);
	CHECK("path check refuses a newline",
	      cg_path_check("a\nb", out, sizeof(out), NULL, 0) == -EINVAL);
	CHECK("path check allows dots inside names",
	      cg_path_check("a..b/.c", out, sizeof(out), NULL, 0) == 0);
}

static void
test_v1_tree(void)
{
	struct cg_hier h;
	struct cg_cpu_limit lim;
	struct cg_cpu_stat st;
	char dir[4096], err[512], buf[256], path[4200];
	int r;

	snprintf(dir, sizeof(dir), "%s/v1", tmpdir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/cpu", dir);
	mkdir(path, 0755);
	unit_put(path, "cpu.cfs_quota_us", "-1\n");
	unit_put(path, "cpu.cfs_period_us", "100000\n");
	snprintf(path, sizeof(path), "%s/cpuset", dir);
	mkdir(path, 0755);
	unit_put(path, "cpuset.cpus", "0-3\n");
	unit_put(path, "cpuset.mems", "0\n");
	snprintf(path, sizeof(path), "%s/cpuacct", dir);
	symlink("cpu", path);

	r = cg_open(&h, dir, err, sizeof(err));
	CHECK("a v1 tree opens", r == 0 && h.version == 1 && !h.live);
	if (r != 0)
		return;
	CHECK("a cpuacct symlink to cpu is a co-mount",
	      cg_same_hier(&h, CG_CPU, CG_CPUACCT) && !cg_has(&h, CG_MEMORY));
	r = cg_create(&h, CG_CPU, "a/b", err, sizeof(err));
	CHECK("create makes parents in a v1 tree", r == 0 && cg_exists(&h, CG_CPU, "a") &&
	      cg_exists(&h, CG_CPU, "a/b"));
	CHECK("a created v1 group has the kernel's defaults",
	      cg_read(&h, CG_CPU, "a/b", "cpu.cfs_quota_us", buf, sizeof(buf), NULL, 0) == 2 &&
	      strcmp(buf, "-1") == 0);
	r = cg_write(&h, CG_CPU, "a/b", "cpu.cfs_quota_us", "50000", err, sizeof(err));
	CHECK("write replaces a value", r == 0 &&
	      cg_cpu_limit_read(&h, "a/b", -1, &lim, NULL, 0) == 0 &&
	      lim.quota_us == 50000 && lim.period_us == 100000 && lim.shares == 1024);
	r = cg_write(&h, CG_CPU, "a/b", "cpu.nonexistent", "1", err, sizeof(err));
	CHECK("write refuses a missing file, naming it", r == -ENOENT &&
	      strstr(err, "cpu.nonexistent of a/b") != NULL);
	r = cg_write(&h, CG_CPU, "a/../..", "cpu.cfs_quota_us", "1", err, sizeof(err));
	CHECK("write refuses ..", r == -EINVAL);
	r = cg_create(&h, CG_CPUSET, "p/q", err, sizeof(err));
	CHECK("a new v1 cpuset gets its parent's cpus and mems", r == 0 &&
	      cg_read(&h, CG_CPUSET, "p/q", "cpuset.cpus", buf, sizeof(buf), NULL, 0) > 0 &&
	      strcmp(buf, "0-3") == 0);
	CHECK("a v1 cpuset is not exclusive by default", !cg_cpuset_exclusive(&h, "p/q"));
	cg_write(&h, CG_CPUSET, "p/q", "cpuset.cpu_exclusive", "1", NULL, 0);
	CHECK("cpu_exclusive=1 makes it exclusive", cg_cpuset_exclusive(&h, "p/q"));

	/* A symlink inside the hierarchy pointing out of it. */
	snprintf(path, sizeof(path), "%s/cpu/a/escape", dir);
	symlink(tmpdir, path);
	r = cg_read(&h, CG_CPU, "a/escape/v1/cpu", "cpu.cfs_period_us", buf,
		    sizeof(buf), err, sizeof(err));
	CHECK("a symlink inside the hierarchy is refused", r == -EINVAL &&
	      strstr(err, "symbolic link") != NULL);
	r = cg_create(&h, CG_CPU, "a/escape/x", err, sizeof(err));
	CHECK("create does not follow a symlink", r == -EINVAL);

	unit_put(dir, "cpu/a/b/cpu.stat", "nr_periods -2147483647\nnr_throttled 7\nthrottled_time 900\n");
	unit_put(dir, "cpu/a/b/cpuacct.usage", "123456\n");
	r = cg_cpu_stat_read(&h, "a/b", -1, &st, err, sizeof(err));
	CHECK("cpu.stat reads wrapped counters as printed", r == 0 && st.has_bandwidth &&
	      st.nr_periods == -2147483647 && st.nr_throttled == 7 &&
	      st.throttled_ns == 900 && st.has_usage && st.usage_ns == 123456);
	unit_put(dir, "cpu/a/b/cpu.stat", "nr_periods x\n");
	r = cg_cpu_stat_read(&h, "a/b", -1, &st, err, sizeof(err));
	CHECK("a malformed cpu.stat is -EBADMSG", r == -EBADMSG);
	r = cg_cpu_stat_read_usage(&h, "a/b", -1, false, &st, err, sizeof(err));
	CHECK("without usage cpuacct.usage is not read", r == -EBADMSG);
	unit_put(dir, "cpu/a/b/cpu.stat", "nr_periods 5\nnr_throttled 1\n");
	r = cg_cpu_stat_read_usage(&h, "a/b", -1, false, &st, err, sizeof(err));
	CHECK("without usage: the counters, no usage", r == 0 &&
	      st.nr_periods == 5 && st.nr_throttled == 1 && !st.has_usage);
	/* Control files read in one read(2); what does not fit, or is
	 * not an ordinary file, still gets read_buf_at()'s answer. */
	{
		char big[3000];
		int64_t q;
		uint64_t per;

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		unit_put(dir, "cpu/a/b/cpu.stat", big);
		r = cg_cpu_stat_read(&h, "a/b", -1, &st, err, sizeof(err));
		CHECK("a cpu.stat larger than the buffer is -EFBIG", r == -EFBIG);
		unit_put(dir, "cpu/a/b/cpu.stat", "");
		r = cg_cpu_stat_read(&h, "a/b", -1, &st, err, sizeof(err));
		CHECK("an empty cpu.stat reads as no counters", r == 0 &&
		      !st.has_bandwidth);
		snprintf(path, sizeof(path), "%s/cpu/a/b/cpu.cfs_quota_us", dir);
		unlink(path);
		mkfifo(path, 0644);
		r = cg_cpu_quota_read(&h, "a/b", -1, &q, &per, err, sizeof(err));
		CHECK("a FIFO quota file is refused as bad input, not waited on",
		      r == -EBADMSG && strstr(err, "not a regular file"));
		unlink(path);
		mkdir(path, 0755);
		r = cg_cpu_quota_read(&h, "a/b", -1, &q, &per, err, sizeof(err));
		CHECK("a directory quota file is -EISDIR", r == -EISDIR);
		rmdir(path);
		unit_put(dir, "cpu/a/b/cpu.cfs_quota_us", "25000\n");
		unit_put(dir, "cpu/a/b/cpu.cfs_period_us", "50000");
		r = cg_cpu_quota_read(&h, "a/b", -1, &q, &per, err, sizeof(err));
		CHECK("quota and period, with or without a newline",
		      r == 0 && q == 25000 && per == 50000);
		unit_put(dir, "cpu/a/b/cpu.stat", "nr_periods 5\n");
	}
	/* Kept control files: opened once within the budget, then pread. */
	{
		struct cg_cpu_fds f;
		size_t budget = 2;
		int64_t q;
		uint64_t per;

		cg_cpu_fds_init(&f, &budget);
		r = cg_cpu_quota_read_fds(&h, "a/b", NULL, &f, &q, &per, err,
					  sizeof(err));
		CHECK("kept: quota and period read, both kept", r == 0 &&
		      q == 25000 && per == 50000 && f.quota >= 0 &&
		      f.period >= 0 && budget == 0);
		r = cg_cpu_stat_read_fds(&h, "a/b", NULL, false, &f, &st, err,
					 sizeof(err));
		CHECK("kept: past the budget a file is read, not kept",
		      r == 0 && st.nr_periods == 5 && f.stat == -1);
		unit_put(dir, "cpu/a/b/cpu.cfs_quota_us", "35000\n");
		r = cg_cpu_quota_read_fds(&h, "a/b", NULL, &f, &q, &per, err,
					  sizeof(err));
		CHECK("kept: a rewritten file is read again through its descriptor",
		      r == 0 && q == 35000 && budget == 0);
		unit_put(dir, "cpu/a/b/cpu.cfs_quota_us", "");
		r = cg_cpu_quota_read_fds(&h, "a/b", NULL, &f, &q, &per, err,
					  sizeof(err));
		CHECK("kept: a kept file that fails is -ESTALE, closed",
		      r == -ESTALE && f.quota == -1 && budget == 1);
		cg_cpu_fds_close(&f);
		CHECK("kept: closing gives the budget back", budget == 2 &&
		      f.period == -1);
		unit_put(dir, "cpu/a/b/cpu.cfs_quota_us", "25000\n");
	}
	/*
	 * A leaf read from its parent (as cg_walk() hands leaves over):
	 * its own files, and never through a link put in its place.
	 */
	if (have_openat2()) {
		struct cg_at at;
		int64_t q;
		uint64_t per;

		snprintf(path, sizeof(path), "%s/cpu/a", dir);
		at.fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		at.sub = "b";
		r = cg_cpu_quota_read_fds(&h, "a/b", &at, NULL, &q, &per, err,
					  sizeof(err));
		CHECK("leaf from its parent: its quota and period",
		      r == 0 && q == 25000 && per == 50000);
		r = cg_cpu_stat_read_fds(&h, "a/b", &at, true, NULL, &st, err,
					 sizeof(err));
		CHECK("leaf from its parent: its cpu.stat and cpuacct.usage",
		      r == 0 && st.nr_periods == 5 && st.has_usage &&
		      st.usage_ns == 123456);
		snprintf(path, sizeof(path), "%s/cpu/a/lnk", dir);
		symlink("b", path);
		at.sub = "lnk";
		r = cg_cpu_quota_read_fds(&h, "a/lnk", &at, NULL, &q, &per, err,
					  sizeof(err));
		CHECK("leaf from its parent: a link in its place is refused",
		      r == -EBADMSG && strstr(err, "symbolic link") != NULL);
		r = cg_cpu_stat_read_fds(&h, "a/lnk", &at, false, NULL, &st,
					 err, sizeof(err));
		CHECK("leaf from its parent: no cpu.stat through a link",
		      r == -EBADMSG && strstr(err, "symbolic link") != NULL);
		unlink(path);
		close(at.fd);
	}

	unit_put(dir, "cpu/a/b/cgroup.procs", "");
	r = cg_attach(&h, CG_CPU, "a/b", 4242, err, sizeof(err));
	CHECK("attach writes cgroup.procs",
	      r == 0 && cg_read(&h, CG_CPU, "a/b", "cgroup.procs", buf, sizeof(buf), NULL, 0) > 0 &&
	      strcmp(buf, "4242") == 0);
	r = cg_remove(&h, CG_CPU, "a/b", err, sizeof(err));
	CHECK("remove refuses a group with processes", r == -EBUSY);
	unit_put(dir, "cpu/a/b/cgroup.procs", "");
	r = cg_remove(&h, CG_CPU, "a", err, sizeof(err));
	CHECK("remove refuses a group with children", r == -EBUSY);
	r = cg_remove(&h, CG_CPU, "a/b", err, sizeof(err));
	CHECK("remove drops an empty group", r == 0 && !cg_exists(&h, CG_CPU, "a/b"));
	CHECK("remove refuses the root", cg_remove(&h, CG_CPU, "", NULL, 0) == -EINVAL);
	cg_close(&h);
}

struct walk_log {
	char text[1024];
};

static int
log_group(const char *group, const struct cg_at *at, const struct stat *st,
	  void *arg)
{
	struct walk_log *w = arg;
	size_t n = strlen(w->text);
	struct stat own;
	int r;

	/* the walk's stat, where it took one, is the directory's */
	r = at->sub ? fstatat(at->fd, at->sub, &own, AT_SYMLINK_NOFOLLOW)
		    : fstat(at->fd, &own);
	if ((st == NULL && at->sub != NULL) ||
	    (st != NULL && (r < 0 || own.st_ino != st->st_ino ||
			    own.st_dev != st->st_dev)))
		n += (size_t)snprintf(w->text + n, sizeof(w->text) - n, "!");
	/* "~": a leaf handed over as its parent and its name there */
	snprintf(w->text + n, sizeof(w->text) - n, "[%s%s]",
		 at->sub ? "~" : "", group);
	return strcmp(group, "skip") == 0 ? 1 : 0;
}

/*
 * The cpu.stat parser as it was, line by line with strcmp(): the
 * one-pass parser must give its answers on any text.
 */
static int
ref_cpu_stat_parse(const char *text, int version, struct cg_cpu_stat *st)
{
	const char *p = text;
	uint64_t mult = version == 2 ? 1000 : 1;

	memset(st, 0, sizeof(*st));
	while (*p != '\0') {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) : strlen(p);
		char line[256], *sp, *val;
		int64_t iv;
		uint64_t uv;

		if (n == 0) {
			p += 1;
			continue;
		}
		if (n >= sizeof(line))
			return -EBADMSG;
		memcpy(line, p, n);
		line[n] = '\0';
		p += n + (eol != NULL);
		sp = strchr(line, ' ');
		if (sp == NULL || sp == line)
			return -EBADMSG;
		*sp = '\0';
		val = sp + 1;
#define KEY_I(k, field, flag) \
		if (strcmp(line, k) == 0) { \
			if (parse_i64(val, INT64_MIN, INT64_MAX, &iv) < 0) \
				return -EBADMSG; \
			st->field = iv; flag; continue; \
		}
#define KEY_U(k, field, m, flag) \
		if (strcmp(line, k) == 0) { \
			if (parse_u64(val, UINT64_MAX / (m), &uv) < 0) \
				return -EBADMSG; \
			st->field = uv * (m); flag; continue; \
		}
		KEY_I("nr_periods", nr_periods, st->has_bandwidth = true)
		KEY_I("nr_throttled", nr_throttled, (void)0)
		KEY_I("nr_bursts", nr_bursts, st->has_burst = true)
		if (version == 2) {
			KEY_U("throttled_usec", throttled_ns, mult, (void)0)
			KEY_U("burst_usec", burst_ns, mult, (void)0)
			KEY_U("usage_usec", usage_ns, mult, st->has_usage = true)
		} else {
			KEY_U("throttled_time", throttled_ns, 1, (void)0)
			KEY_U("burst_time", burst_ns, 1, (void)0)
		}
#undef KEY_I
#undef KEY_U
	}
	return 0;
}

static void
test_cpu_stat_parse(void)
{
	static const char *const parts[] = {
		"nr_periods", "nr_throttled", "nr_bursts", "throttled_usec",
		"burst_usec", "usage_usec", "throttled_time", "burst_time",
		"user_usec", "nr_period", "nr_periodsx", " ", " ", "\n", "\n",
		"0", "1", "7", "42", "-", "-0", "-5", "00", "x", "\n\n",
		"18446744073709551615", "18446744073709551616",
		"18446744073709551", "9223372036854775807",
		"9223372036854775808", "-9223372036854775808",
		"-9223372036854775809",
	};
	static const char *const fixed[] = {
		"", "\n", "nr_periods 5\nnr_throttled 2\nthrottled_time 9\n",
		"usage_usec 1\nuser_usec 0\nnr_periods 4\nthrottled_usec 18446744073709551\n",
		"throttled_usec 18446744073709552\n", " nr_periods 1\n",
		"nr_periods\n", "nr_periods 1 \n", "unknown x y z\n",
	};
	unsigned int seed = 12345, bad = 0, runs = 0;
	char text[600];

	for (size_t i = 0; i < ARRAY_SIZE(fixed) + 30000; i++) {
		struct cg_cpu_stat a, b;
		int ra, rb, v = 1 + (int)(i & 1);

		if (i < 2) {
			/* unknown keys on lines of 255 and 256 bytes */
			memset(text, 'a', sizeof(text));
			text[1] = ' ';
			text[255 + i] = '\n';
			text[256 + i] = '\0';
		} else if (i < ARRAY_SIZE(fixed)) {
			snprintf(text, sizeof(text), "%s", fixed[i]);
		} else {
			size_t len = 0, np;

			seed = seed * 1103515245 + 12345;
			np = (seed >> 16) % 12;
			text[0] = '\0';
			for (size_t j = 0; j < np; j++) {
				const char *t;

				seed = seed * 1103515245 + 12345;
				t = parts[(seed >> 16) % ARRAY_SIZE(parts)];
				if (len + strlen(t) + 1 >= sizeof(text))
					break;
				memcpy(text + len, t, strlen(t) + 1);
				len += strlen(t);
			}
			if ((seed >> 8) % 17 == 0) {	/* a line too long */
				memset(text + len, 'n', 300 < sizeof(text) - len - 1 ?
				       300 : sizeof(text) - len - 1);
				text[sizeof(text) - 1] = '\0';
			}
		}
		ra = ref_cpu_stat_parse(text, v, &a);
		rb = cg_cpu_stat_parse(text, v, &b);
		runs++;
		if (ra != rb || (ra == 0 && memcmp(&a, &b, sizeof(a)) != 0)) {
			if (bad++ == 0)
				fprintf(stderr, "# differs on v%d '%s': %d %d\n", v,
					text, ra, rb);
		}
	}
	CHECK("cpu.stat: the one-pass parser answers as the line parser did",
	      bad == 0 && runs > 30000);
}

static void
test_v2_tree(void)
{
	struct cg_hier h;
	struct cg_cpu_limit lim;
	struct walk_log wl = { "" };
	char dir[4096], err[512], buf[256];
	int r;

	snprintf(dir, sizeof(dir), "%s/v2", tmpdir);
	mkdir(dir, 0755);
	unit_put(dir, "cgroup.controllers", "cpuset cpu io memory\n");
	unit_put(dir, "cgroup.subtree_control", "");
	unit_put(dir, "cpuset.cpus.effective", "0-7\n");
	r = cg_open(&h, dir, err, sizeof(err));
	CHECK("a v2 tree opens", r == 0 && h.version == 2 &&
	      cg_same_hier(&h, CG_CPU, CG_CPUSET));
	if (r != 0)
		return;
	r = cg_create(&h, CG_CPU, "k/pod", err, sizeof(err));
	CHECK("create enables cpu in the ancestors' subtree_control",
	      r == 0 &&
	      cg_read(&h, CG_CPU, "", "cgroup.subtree_control", buf, sizeof(buf), NULL, 0) > 0 &&
	      strcmp(buf, "cpu") == 0 &&
	      cg_read(&h, CG_CPU, "k", "cgroup.subtree_control", buf, sizeof(buf), NULL, 0) > 0 &&
	      strcmp(buf, "cpu") == 0);
	CHECK("a new v2 group is unlimited",
	      cg_cpu_limit_read(&h, "k/pod", -1, &lim, NULL, 0) == 0 &&
	      lim.quota_us == -1 && lim.period_us == 100000 && lim.weight == 100);
	cg_write(&h, CG_CPU, "k/pod", "cpu.max", "25000 50000", NULL, 0);
	CHECK("cpu.max is parsed",
	      cg_cpu_limit_read(&h, "k/pod", -1, &lim, NULL, 0) == 0 &&
	      lim.quota_us == 25000 && lim.period_us == 50000 &&
	      cg_cpu_limit_cpus(&lim) == 0.5);
	cg_write(&h, CG_CPU, "k/pod", "cpu.max", "lots 100000", NULL, 0);
	CHECK("a bad cpu.max is -EBADMSG",
	      cg_cpu_limit_read(&h, "k/pod", -1, &lim, err, sizeof(err)) == -EBADMSG);
	CHECK("the v2 root reads as unlimited",
	      cg_cpu_limit_read(&h, "", -1, &lim, NULL, 0) == 0 && lim.quota_us == -1);
	r = cg_create(&h, CG_CPUSET, "k/pod", err, sizeof(err));
	CHECK("cpuset joins cpu in subtree_control",
	      r == 0 &&
	      cg_read(&h, CG_CPU, "", "cgroup.subtree_control", buf, sizeof(buf), NULL, 0) > 0 &&
	      strcmp(buf, "cpu cpuset") == 0);
	cg_write(&h, CG_CPUSET, "k/pod", "cpuset.cpus.partition", "root", NULL, 0);
	CHECK("a v2 partition root is exclusive", cg_cpuset_exclusive(&h, "k/pod"));
	{
		/* cg_read_quiet(): cg_read()'s answers, fewer calls. */
		char want[256], path[4200];
		ssize_t a, b;

		a = cg_read_quiet(&h, CG_CPUSET, "k//pod/", "cpuset.cpus.partition",
				  buf, sizeof(buf));
		CHECK_STR("read_quiet: a value, its newline removed",
			  a == 4 ? buf : "", "root");
		CHECK("read_quiet: a missing file or group is -ENOENT",
		      cg_read_quiet(&h, CG_CPU, "k/pod", "cpu.nothing", buf,
				    sizeof(buf)) == -ENOENT &&
		      cg_read_quiet(&h, CG_CPU, "k/none", "cpu.max", buf,
				    sizeof(buf)) == -ENOENT);
		snprintf(path, sizeof(path), "%s/k/pod/cpu.link", dir);
		symlink("cpu.max", path);
		a = cg_read(&h, CG_CPU, "k/pod", "cpu.link", want, sizeof(want),
			    NULL, 0);
		b = cg_read_quiet(&h, CG_CPU, "k/pod", "cpu.link", buf, sizeof(buf));
		CHECK("read_quiet: a symlinked file is refused, as cg_read() "
		      "refuses it", a == -ELOOP && b == -ELOOP);
		snprintf(path, sizeof(path), "%s/k/link", dir);
		symlink("pod", path);
		CHECK("read_quiet: a symlinked group is refused",
		      cg_read_quiet(&h, CG_CPU, "k/link", "cpu.max", buf,
				    sizeof(buf)) < 0);
		snprintf(path, sizeof(path), "%s/k/pod/cpu.fifo", dir);
		mkfifo(path, 0644);
		a = cg_read(&h, CG_CPU, "k/pod", "cpu.fifo", want, sizeof(want),
			    NULL, 0);
		b = cg_read_quiet(&h, CG_CPU, "k/pod", "cpu.fifo", buf, sizeof(buf));
		CHECK("read_quiet: a FIFO gets cg_read()'s answer", a < 0 && a == b);
		unit_put(dir, "k/pod/cpu.big", "0123456789abcdef\n");
		a = cg_read(&h, CG_CPU, "k/pod", "cpu.big", want, 8, NULL, 0);
		b = cg_read_quiet(&h, CG_CPU, "k/pod", "cpu.big", buf, 8);
		CHECK("read_quiet: a text too large gets cg_read()'s answer",
		      a == -EFBIG && a == b);
		unit_put(dir, "k/pod/cpu.full", "0123456\n");
		a = cg_read(&h, CG_CPU, "k/pod", "cpu.full", want, 9, NULL, 0);
		b = cg_read_quiet(&h, CG_CPU, "k/pod", "cpu.full", buf, 9);
		CHECK("read_quiet: a text that fills the buffer is read whole",
		      a == 7 && a == b && strcmp(buf, want) == 0);
		CHECK("read_quiet: a bad path gets cg_read()'s answer",
		      cg_read_quiet(&h, CG_CPU, "k/../..", "cpu.max", buf,
				    sizeof(buf)) == -EINVAL);
		unlink(path);
		snprintf(path, sizeof(path), "%s/k/pod/cpu.link", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/k/link", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/k/pod/cpu.big", dir);
		unlink(path);
		snprintf(path, sizeof(path), "%s/k/pod/cpu.full", dir);
		unlink(path);
	}
	cg_create(&h, CG_CPU, "skip/hidden", NULL, 0);
	cg_create(&h, CG_CPU, "b", NULL, 0);
	/*
	 * Without openat2 (a kernel before 5.6, a seccomp filter) the walk
	 * opens every directory, leaves too.  In a child, and before this
	 * process walks: the answer is asked once and kept.
	 */
	{
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			struct walk_log cl = { "" };

			if (deny_openat2(ENOSYS) < 0)
				_exit(3);
			if (cg_walk(&h, CG_CPU, "", log_group, &cl, NULL, 0) != 0)
				_exit(4);
			if (strcmp(cl.text, "[][b][k][k/pod][skip]") != 0) {
				printf("# walked: %s\n", cl.text);
				fflush(stdout);
				_exit(5);
			}
			_exit(0);
		}
		CHECK("walk without openat2: every directory opened",
		      pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0);
	}
	r = cg_walk(&h, CG_CPU, "", log_group, &wl, err, sizeof(err));
	CHECK_STR("walk is pre-order, sorted, and can skip a subtree", wl.text,
		  "[][~b][k][~k/pod][skip]");
	wl.text[0] = '\0';
	r = cg_walk(&h, CG_CPU, "k", log_group, &wl, err, sizeof(err));
	CHECK_STR("walk starts at a group", wl.text, "[k][~k/pod]");

	r = cg_walk(&h, CG_CPU, "nope", log_group, &wl, err, sizeof(err));
	CHECK("walk of a missing group is -ENOENT", r == -ENOENT &&
	      strstr(err, "'nope' not found") != NULL);
	cg_close(&h);
}

static void
test_k8s(void)
{
	struct thr_k8s k;

	CHECK("cgroupfs burstable container",
	      thr_k8s_parse("kubepods/burstable/pod1234-ab/0123abcd", &k) &&
	      strcmp(k.qos, "Burstable") == 0 && strcmp(k.pod, "1234-ab") == 0 &&
	      strcmp(k.container, "0123abcd") == 0);
	CHECK("cgroupfs guaranteed pod",
	      thr_k8s_parse("kubepods/pod77", &k) && strcmp(k.qos, "Guaranteed") == 0 &&
	      strcmp(k.pod, "77") == 0 && k.container[0] == '\0');
	CHECK("systemd besteffort container",
	      thr_k8s_parse("kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod12_34.slice/cri-containerd-feed.scope", &k) &&
	      strcmp(k.qos, "BestEffort") == 0 && strcmp(k.pod, "12-34") == 0 &&
	      strcmp(k.container, "feed") == 0);
	CHECK("systemd guaranteed pod",
	      thr_k8s_parse("kubepods.slice/kubepods-podaa_bb.slice", &k) &&
	      strcmp(k.qos, "Guaranteed") == 0 && strcmp(k.pod, "aa-bb") == 0);
	CHECK("a path outside kubepods is not kubernetes",
	      !thr_k8s_parse("system.slice/cron.service", &k) && k.qos[0] == '\0');
}

/* The mounts of mountinfo text as cg_open() finds them. */
static void
test_mountinfo(void)
{
	const char *text =
		"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
		"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
		"not a mount line at all\n"
		"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 master:2 - cgroup cgroup rw,cpu,cpuacct\n"
		"32 30 0:29 / /sys/fs/cgroup/cpu\\040set rw - cgroup cgroup rw,cpuset\n"
		"33 30 0:28 /docker /mnt/cpu2 rw - cgroup cgroup rw,cpu,cpuacct\n"
		"34 30 0:31 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd,memoryx\n"
		"35 30 0:32 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw,nsdelegate\n"
		"36 30 0:33 / /sys/fs/cgroup/unified2 rw - cgroup2 cgroup2 rw";
	char path[64], tiny[8];

	CHECK_STR("mountinfo: a co-mounted controller, the first mount of it",
		  (cg_mountinfo_find(text, "cpu", path, sizeof(path)) == 1
		   ? path : "-"), "/sys/fs/cgroup/cpu,cpuacct");
	CHECK_STR("mountinfo: its partner on the same mount",
		  (cg_mountinfo_find(text, "cpuacct", path, sizeof(path)) == 1
		   ? path : "-"), "/sys/fs/cgroup/cpu,cpuacct");
	CHECK_STR("mountinfo: an escaped space in a mount point",
		  (cg_mountinfo_find(text, "cpuset", path, sizeof(path)) == 1
		   ? path : "-"), "/sys/fs/cgroup/cpu set");
	CHECK("mountinfo: an option that only starts with the name is not it",
	      cg_mountinfo_find(text, "memory", path, sizeof(path)) == 0);
	CHECK_STR("mountinfo: the first cgroup2 mount",
		  (cg_mountinfo_find(text, NULL, path, sizeof(path)) == 1
		   ? path : "-"), "/sys/fs/cgroup/unified");
	CHECK("mountinfo: a v2 mount has no v1 controllers",
	      cg_mountinfo_find("35 30 0:32 / /u rw - cgroup2 cgroup2 rw,cpu\n",
				"cpu", path, sizeof(path)) == 0);
	CHECK("mountinfo: a v1 mount is not the v2 one",
	      cg_mountinfo_find("31 30 0:28 / /c rw - cgroup cgroup rw,cpu",
				NULL, path, sizeof(path)) == 0);
	CHECK("mountinfo: a mount point too long for the buffer",
	      cg_mountinfo_find(text, "cpu", tiny, sizeof(tiny)) == -ENAMETOOLONG);
	CHECK("mountinfo: a line cut before its super options is passed over",
	      cg_mountinfo_find("31 30 0:28 / /c rw - cgroup cgroup\n", "cpu",
				path, sizeof(path)) == 0);
	CHECK("mountinfo: empty text", cg_mountinfo_find("", NULL, path,
							  sizeof(path)) == 0);
}

static void
test_live(void)
{
	struct cg_hier h;
	char err[512], buf[256], name[64];
	pid_t pid;
	int r, st;

	if (geteuid() != 0 || access("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", F_OK) != 0) {
		printf("skip - live cgroup layer # needs root and a v1 cpu hierarchy\n");
		return;
	}
	r = cg_open(&h, NULL, err, sizeof(err));
	CHECK("the live hierarchy opens, changes going through libcgroup",
	      r == 0 && h.live && h.use_libcgroup && h.version == 1 &&
	      cg_uses_libcgroup(&h, CG_CPU));
	if (r != 0)
		return;
	snprintf(name, sizeof(name), "cpm-unit-%ld/inner", (long)getpid());
	r = cg_create(&h, CG_CPU, name, err, sizeof(err));
	CHECK("a live group is created with its parent", r == 0 && cg_exists(&h, CG_CPU, name));
	r = cg_write(&h, CG_CPU, name, "cpu.cfs_quota_us", "500", err, sizeof(err));
	CHECK("a kernel refusal names value, file, group and reason", r == -EINVAL &&
	      strstr(err, "cannot write '500' to cpu.cfs_quota_us of cpm-unit-") != NULL &&
	      strstr(err, "Invalid argument") != NULL);
	r = cg_write(&h, CG_CPU, name, "cpu.cfs_quota_us", "20000", err, sizeof(err));
	CHECK("a live write goes through",
	      r == 0 && cg_read(&h, CG_CPU, name, "cpu.cfs_quota_us", buf, sizeof(buf), NULL, 0) > 0 &&
	      strcmp(buf, "20000") == 0);
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	r = cg_attach(&h, CG_CPU, name, pid, err, sizeof(err));
	CHECK("attach moves a process",
	      r == 0 && cg_read(&h, CG_CPU, name, "cgroup.procs", buf, sizeof(buf), NULL, 0) > 0 &&
	      atol(buf) == pid);
	CHECK("a busy group cannot be removed",
	      cg_remove(&h, CG_CPU, name, NULL, 0) == -EBUSY);
	cg_attach(&h, CG_CPU, "", pid, NULL, 0);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	r = cg_remove(&h, CG_CPU, name, err, sizeof(err));
	*strchr(name, '/') = '\0';
	r |= cg_remove(&h, CG_CPU, name, err, sizeof(err));
	CHECK("live groups are removed", r == 0 && !cg_exists(&h, CG_CPU, name));
	cg_close(&h);
}

int
main(void)
{
	char cmd[128];

	if (mkdtemp(tmpdir) == NULL)
		return 1;
	test_paths();
	test_v1_tree();
	test_v2_tree();
	test_cpu_stat_parse();
	test_k8s();
	test_mountinfo();
	test_live();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		return 1;
	return unit_failed;
}
