// SPDX-License-Identifier: GPL-2.0-or-later
/* What still reaches a set of CPUs, as findings. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/strutils.h"
#include "machine/irq.h"
#include "machine/irqbalance.h"
#include "machine/tasks.h"
#include "view/isocheck.h"

#define SHOWN 8
#define WQ_DIR "sys/devices/virtual/workqueue"

/* A list of up to SHOWN names, then ", ...". */
struct names {
	struct strbuf sb;
	size_t n;
};

/* "NAME (ID)", or for an interrupt "NAME (IRQ ID)" or "IRQ ID". */
static void
names_add(struct names *l, bool irq, const char *name, int id)
{
	if (l->n++ >= SHOWN)
		return;
	strbuf_puts(&l->sb, l->n > 1 ? ", " : "");
	if (irq && !*name)
		strbuf_printf(&l->sb, "IRQ %d", id);
	else
		strbuf_printf(&l->sb, "%s (%s%d)", name, irq ? "IRQ " : "", id);
}

static const char *
names_text(struct names *l)
{
	if (l->n > SHOWN)
		strbuf_puts(&l->sb, ", ...");
	return l->sb.buf ? l->sb.buf : "";
}

static int
check_threads(const struct task_table *t, const struct cpuset *cpus,
	      const char *list, struct strbuf *out)
{
	struct names user = { 0 }, kern = { 0 };
	size_t i, percpu = 0, procs = 0;
	int n = 0;

	strbuf_init(&user.sb);
	strbuf_init(&kern.sb);
	for (i = 0; i < t->n; i++) {
		const struct task_info *x = &t->v[i];

		if (!cpuset_intersects(&x->allowed, cpus))
			continue;
		if (x->percpu) {
			percpu++;
			continue;
		}
		if (cpuset_subset(&x->allowed, cpus))
			continue;	/* the work placed there */
		procs += !x->kthread && x->tid == x->pid;
		names_add(x->kthread ? &kern : &user, false, x->comm,
			  (int)x->tid);
	}
	if (user.n)
		strbuf_printf(out, "warning: %zu thread%s (%zu process%s) may "
			      "run on CPUs %s: %s (cpm-pin --isolate moves "
			      "them)\n", user.n, user.n == 1 ? "" : "s", procs,
			      procs == 1 ? "" : "es", list, names_text(&user));
	if (kern.n)
		strbuf_printf(out, "warning: %zu unbound kernel thread%s may run "
			      "on CPUs %s: %s\n", kern.n, kern.n == 1 ? "" : "s",
			      list, names_text(&kern));
	if (percpu)
		strbuf_printf(out, "note: %zu per-CPU kernel thread%s run%s on "
			      "CPUs %s and cannot move\n", percpu,
			      percpu == 1 ? "" : "s", percpu == 1 ? "s" : "",
			      list);
	n = (user.n > 0) + (kern.n > 0);
	strbuf_free(&user.sb);
	strbuf_free(&kern.sb);
	return n;
}

/* An IRQ's effective affinity where the kernel shows it, else its own. */
static void
effective(const struct sysroot *root, const struct irq_info *x,
	  struct cpuset *s)
{
	char path[96], buf[4096];

	snprintf(path, sizeof(path), "proc/irq/%d/effective_affinity_list",
		 x->irq);
	if (sysroot_read(root, path, buf, sizeof(buf)) < 0 ||
	    cpuset_parse_list(strstrip(buf), s, NULL, 0) < 0 ||
	    cpuset_empty(s))
		cpuset_copy(s, &x->affinity);
}

static int
check_irqs(const struct sysroot *root, const struct cpuset *cpus,
	   const char *list, struct strbuf *out)
{
	struct names l = { 0 };
	struct irq_table t;
	struct cpuset s = CPUSET_INIT;
	size_t i;

	if (irq_scan(root, &t, NULL, 0) < 0)
		return 0;
	strbuf_init(&l.sb);
	for (i = 0; i < t.n; i++) {
		if (!t.v[i].parsed)
			continue;
		effective(root, &t.v[i], &s);
		if (cpuset_intersects(&s, cpus))
			names_add(&l, true, t.v[i].name, t.v[i].irq);
	}
	if (l.n)
		strbuf_printf(out, "warning: %zu interrupt%s may be delivered "
			      "to CPUs %s: %s\n", l.n, l.n == 1 ? "" : "s",
			      list, names_text(&l));
	cpuset_free(&s);
	strbuf_free(&l.sb);
	irq_table_free(&t);
	return l.n > 0;
}

/* A mask file reaching cpus: 1 (and a warning), else 0. */
static int
check_mask(const struct sysroot *root, const char *path, const char *what,
	   const struct cpuset *cpus, const char *list, struct strbuf *out)
{
	struct cpuset s = CPUSET_INIT;
	char buf[4096];
	int n = 0;

	if (sysroot_read(root, path, buf, sizeof(buf)) >= 0 &&
	    cpuset_parse_mask(strstrip(buf), &s) == 0 &&
	    cpuset_intersects(&s, cpus)) {
		strbuf_printf(out, "warning: %s %s reaches CPUs %s\n", what, buf,
			      list);
		n = 1;
	}
	cpuset_free(&s);
	return n;
}

/* Each workqueue's own cpumask (WQ_SYSFS ones), as one warning. */
static int
check_wq_masks(const struct sysroot *root, const struct cpuset *cpus,
	       const char *list, struct strbuf *out)
{
	struct names l = { 0 };
	struct cpuset s = CPUSET_INIT;
	struct dirent *de;
	char path[512], buf[4096];
	int fd = sysroot_open_dir(root, WQ_DIR);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (fd >= 0 && d == NULL)
		close(fd);
	strbuf_init(&l.sb);
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), WQ_DIR "/%s/cpumask", de->d_name);
		if (sysroot_read(root, path, buf, sizeof(buf)) < 0 ||
		    cpuset_parse_mask(strstrip(buf), &s) < 0 ||
		    !cpuset_intersects(&s, cpus))
			continue;
		if (l.n < SHOWN)
			strbuf_printf(&l.sb, "%s%s %s", l.n ? ", " : "",
				      de->d_name, buf);
		l.n++;
	}
	if (d)
		closedir(d);
	if (l.n)
		strbuf_printf(out, "warning: %zu workqueue%s reach%s CPUs %s: "
			      "%s\n", l.n, l.n == 1 ? "" : "s",
			      l.n == 1 ? "es" : "", list, names_text(&l));
	cpuset_free(&s);
	strbuf_free(&l.sb);
	return l.n > 0;
}

/*
 * irqbalance: running, and its banned list (over its socket, else what
 * it bans of its own accord), as a warning unless it holds cpus.
 */
static int
check_irqbalance(const struct sysroot *root, const struct task_table *t,
		 const struct cpuset *cpus, const char *list,
		 struct strbuf *out)
{
	struct cpuset banned = CPUSET_INIT;
	char *bl = NULL;
	pid_t pid;
	size_t i;
	int n = 0;

	for (i = 0; i < t->n; i++)
		if (t->v[i].tid == t->v[i].pid &&
		    strcmp(t->v[i].comm, "irqbalance") == 0)
			break;
	if (i == t->n)
		return 0;
	pid = t->v[i].pid;
	if (!root->live || irqb_banned(pid, &banned) < 0)
		irqb_own(root, pid, &banned);
	bl = cpuset_to_list(&banned);
	if (!cpuset_subset(cpus, &banned)) {
		strbuf_printf(out, "warning: irqbalance (PID %d) runs and does "
			      "not ban CPUs %s: it moves interrupts back onto "
			      "them (banned: %s; cpm-pin --isolate bans them)\n",
			      (int)pid, list, bl && *bl ? bl : "none");
		n = 1;
	} else {
		strbuf_printf(out, "note: irqbalance (PID %d) runs and bans "
			      "CPUs %s\n", (int)pid, bl ? bl : "");
	}
	free(bl);
	cpuset_free(&banned);
	return n;
}

/* One top-level unit's cpuset.cpus: a warning, or a note when fine. */
static int
check_slice(const struct sysroot *root, const char *unit,
	    const struct cpuset *cpus, const char *list, struct strbuf *out)
{
	struct cpuset s = CPUSET_INIT;
	char path[320], buf[4096];
	int n = 0;

	if (snprintf(path, sizeof(path), "sys/fs/cgroup/%s/cpuset.cpus",
		     unit) >= (int)sizeof(path))
		return 0;
	if (sysroot_read(root, path, buf, sizeof(buf)) < 0 ||
	    cpuset_parse_list(strstrip(buf), &s, NULL, 0) < 0) {
		cpuset_free(&s);
		return 0;
	}
	if (!cpuset_empty(&s) && !cpuset_intersects(&s, cpus)) {
		strbuf_printf(out, "note: %s keeps off CPUs %s (AllowedCPUs="
			      "%s)\n", unit, list, buf);
	} else {
		strbuf_printf(out, "warning: %s may run on CPUs %s (AllowedCPUs="
			      "%s)\n", unit, list, buf[0] ? buf : "all");
		n++;
	}
	cpuset_free(&s);
	return n;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static bool
top_unit(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && (strcmp(name + n - 6, ".slice") == 0 ||
			 strcmp(name + n - 6, ".scope") == 0);
}

/*
 * systemd's top-level slices and scopes (the groups right below the
 * cgroup v2 root): cpuset.cpus, which holds AllowedCPUs, empty for every
 * CPU.
 */
static int
check_slices(const struct sysroot *root, const struct cpuset *cpus,
	     const char *list, struct strbuf *out)
{
	int fd = sysroot_open_dir(root, "sys/fs/cgroup"), n = 0;
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	char names[64][256];
	struct dirent *de;
	size_t i, k = 0;

	if (fd >= 0 && d == NULL)
		close(fd);
	while (d && k < 64 && (de = readdir(d)) != NULL)
		if (de->d_type == DT_DIR && top_unit(de->d_name) &&
		    strlen(de->d_name) < sizeof(names[0]))
			snprintf(names[k++], sizeof(names[0]), "%s", de->d_name);
	if (d)
		closedir(d);
	qsort(names, k, sizeof(names[0]), cmp_name);
	for (i = 0; i < k; i++)
		n += check_slice(root, names[i], cpus, list, out);
	return n;
}

/* What only the boot command line does, as a note. */
static void
boot_advice(const struct sysroot *root, const struct cpuset *cpus,
	    const char *list, struct strbuf *out)
{
	static const char *const files[] = { "isolated", "nohz_full" };
	char path[64], buf[4096], cmdline[4096] = "";
	struct cpuset s = CPUSET_INIT;
	bool all = true;
	size_t i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "sys/devices/system/cpu/%s",
			 files[i]);
		cpuset_zero(&s);
		if (sysroot_read(root, path, buf, sizeof(buf)) >= 0)
			cpuset_parse_list(strstrip(buf), &s, NULL, 0);
		all = all && cpuset_subset(cpus, &s);
	}
	if (sysroot_read(root, "proc/cmdline", cmdline, sizeof(cmdline)) >= 0 &&
	    !strstr(cmdline, "rcu_nocbs="))
		all = false;
	if (!all)
		strbuf_printf(out, "note: only the boot command line keeps the "
			      "scheduler tick, RCU callbacks and managed "
			      "interrupts off CPUs %s: isolcpus=managed_irq,"
			      "domain,%s nohz_full=%s rcu_nocbs=%s\n", list, list,
			      list, list);
	cpuset_free(&s);
}

int
isolation_check(const struct sysroot *root, const struct cpuset *cpus,
		struct strbuf *out, char *err, size_t errlen)
{
	struct task_table t;
	char *list = cpuset_to_list(cpus);
	int r, n;

	if (list == NULL)
		return -ENOMEM;
	r = task_scan(root, 0, &t, err, errlen);
	if (r < 0) {
		free(list);
		return r;
	}
	n = check_threads(&t, cpus, list, out);
	n += check_irqs(root, cpus, list, out);
	n += check_mask(root, WQ_DIR "/cpumask",
			"the unbound workqueue mask", cpus, list, out);
	n += check_wq_masks(root, cpus, list, out);
	n += check_irqbalance(root, &t, cpus, list, out);
	n += check_slices(root, cpus, list, out);
	boot_advice(root, cpus, list, out);
	task_table_free(&t);
	free(list);
	return out->oom ? -ENOMEM : n;
}
