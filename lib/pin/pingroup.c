// SPDX-License-Identifier: GPL-2.0-or-later
/* Giving a group CPUs and memory nodes: see pingroup.h. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/strutils.h"
#include "cgroup/partition.h"
#include "machine/proc.h"
#include "pin/pin.h"
#include "pin/pingroup.h"

/* The parent of a canonical group path ("" for a top-level group);
 * out may be group itself. */
static void
parent_of(const char *group, char *out, size_t size)
{
	const char *slash = strrchr(group, '/');
	size_t n = slash ? (size_t)(slash - group) : 0;

	if (n >= size)
		n = size - 1;
	memmove(out, group, n);
	out[n] = '\0';
}

/* A check of the request: -EINVAL unless out of memory. */
static int
misfit(int r)
{
	return r == -ENOMEM ? r : r < 0 ? -EINVAL : 0;
}

/*
 * What the nearest existing ancestor grants: cpus and mems point to the
 * sets read, or are NULL when a tree holds no such file or an empty one
 * (nothing computes effective sets there).
 */
static int
ancestor_bounds(const struct cg_hier *h, struct cgcpuset_plan *p,
		const char *parent, struct cpuset *pcpus, struct cpuset *pmems,
		const struct cpuset **cpus, const struct cpuset **mems,
		char *err, size_t errlen)
{
	char up[CG_PATH_MAX];
	int r;

	*cpus = *mems = NULL;
	/*
	 * On v2 a group whose parent has not enabled the cpuset controller
	 * (a systemd unit no property asked it for) has no cpuset files:
	 * its bounds are those of the nearest ancestor that has them.
	 */
	snprintf(up, sizeof(up), "%s", parent);
	while (p->version == 2 && up[0] &&
	       cgcpuset_read_list(h, up, p->files.eff_cpus, pcpus, NULL,
				  0) == -ENOENT)
		parent_of(up, up, sizeof(up));
	parent = up;
	r = cgcpuset_read_list(h, parent, p->files.eff_cpus, pcpus, err,
			       errlen);
	if (r < 0 && (r != -ENOENT || h->live))
		return r == -EINVAL ? -EIO : r;
	if (r == 0 && (h->live || !cpuset_empty(pcpus)))
		*cpus = pcpus;
	r = cgcpuset_read_list(h, parent, p->files.eff_mems, pmems, err,
			       errlen);
	if (r < 0 && (r != -ENOENT || h->live))
		return r == -EINVAL ? -EIO : r;
	if (r == 0 && (h->live || !cpuset_empty(pmems)))
		*mems = pmems;
	return 0;
}

int
cgcpuset_plan(const struct cg_hier *h, const struct topo *t,
	      const struct cgcpuset_request *rq, struct cgcpuset_plan *p,
	      char *err, size_t errlen)
{
	struct cpuset pcpus = CPUSET_INIT, pmems = CPUSET_INIT;
	const struct cpuset *pcpusp, *pmemsp;
	char parent[CG_PATH_MAX], whose[CG_PATH_MAX + 16];
	int r;

	memset(p, 0, sizeof(*p));
	p->rq = rq;
	if (!cg_has(h, CG_CPUSET))
		return err_ret(err, errlen, -ENODEV, "no cpuset cgroup "
			    "hierarchy%s%s", h->live ? "" : " in ",
			    h->live ? "" : h->root);
	p->version = cg_version(h, CG_CPUSET);
	cgcpuset_files(p->version, &p->files);
	p->exists = cg_exists(h, CG_CPUSET, rq->group);
	if (rq->isolated && p->version != 2)
		return err_ret(err, errlen, -EINVAL, "an isolated partition needs "
			    "cgroup v2 (the cpuset hierarchy is v1)");
	if (rq->isolated)
		p->files.exclusive_on = "isolated";
	if (!p->exists && !rq->create)
		return err_ret(err, errlen, -ENOENT, "cgroup '%s' does not exist "
			    "(--create makes it)", cg_display(rq->group));
	/* With create, missing parents are made too: the nearest existing
	 * ancestor is the bound. */
	parent_of(rq->group, parent, sizeof(parent));
	while (parent[0] && !cg_exists(h, CG_CPUSET, parent))
		parent_of(parent, parent, sizeof(parent));
	snprintf(whose, sizeof(whose), "cgroup '%s'", cg_display(parent));
	r = ancestor_bounds(h, p, parent, &pcpus, &pmems, &pcpusp, &pmemsp,
			    err, errlen);
	if (r == 0)
		r = misfit(pin_check_cpus(t, rq->cpus, pcpusp, whose, err,
					  errlen));
	if (r == 0 && cpuset_copy(&p->cpus, rq->cpus) < 0)
		r = -ENOMEM;
	if (r == 0 && rq->mems && cpuset_copy(&p->mems, rq->mems) < 0)
		r = -ENOMEM;
	if (r == 0 && !rq->mems)
		r = misfit(pin_mem_nodes_of(t, rq->cpus, &p->mems, err,
					    errlen));
	if (r == 0)
		r = misfit(pin_check_nodes(t, &p->mems, pmemsp, whose, err,
					   errlen));
	if (r == -ENOMEM)
		err_ret(err, errlen, r, "out of memory");
	cpuset_free(&pcpus);
	cpuset_free(&pmems);
	return r;
}

void
cgcpuset_plan_free(struct cgcpuset_plan *p)
{
	cpuset_free(&p->cpus);
	cpuset_free(&p->mems);
}

/* Make the group, or give an existing v2 group its cpuset files. */
static int
make_group(const struct cg_hier *h, const struct cgcpuset_plan *p, char *err,
	   size_t errlen)
{
	const char *group = p->rq->group;
	int r;

	/*
	 * On v2 an existing group has cpuset files only when its parent
	 * enabled the controller; cg_create() enables it up the tree.
	 */
	if (p->exists && p->version == 2) {
		char probe[8];

		r = cg_read(h, CG_CPUSET, group, p->files.cpus, probe,
			    sizeof(probe), NULL, 0);
		if (r == -ENOENT)
			return cg_create(h, CG_CPUSET, group, err, errlen);
		return 0;
	}
	if (p->exists)
		return 0;
	r = cg_create(h, CG_CPUSET, group, err, errlen);
	/*
	 * On v1 a new cpuset is given its parent's CPUs, which the kernel
	 * refuses when an exclusive sibling holds some of them; the group
	 * then exists with no CPUs, and the write that follows gives it the
	 * ones asked for.
	 */
	if (r == -EINVAL && p->version == 1 && cg_exists(h, CG_CPUSET, group))
		return 0;
	return r;
}

/*
 * Why a v1 group cannot be exclusive with cpus, for the message: its
 * parent is not exclusive, or the first sibling (in name order) whose
 * CPUs overlap, with them ("'libpod_parent' holds 0-3").  Writes ""
 * when nothing is found.
 */
static void
exclusive_blocker(const struct cg_hier *h, const struct cgcpuset_plan *p,
		  char *out, size_t outlen)
{
	const char *group = p->rq->group, *slash = strrchr(group, '/');
	char parent[CG_PATH_MAX], sib[CG_PATH_MAX], buf[1024], best[256];
	struct cpuset cpus = CPUSET_INIT;
	struct dirent *d;
	DIR *dir;
	int fd;

	*out = '\0';
	*best = '\0';
	snprintf(parent, sizeof(parent), "%.*s",
		 slash ? (int)(slash - group) : 0, group);
	if (cg_read_quiet(h, CG_CPUSET, parent, p->files.exclusive, buf,
			  sizeof(buf)) > 0 && strcmp(strstrip(buf), "0") == 0) {
		snprintf(out, outlen, "its parent '%s' is not exclusive",
			 cg_display(parent));
		return;
	}
	fd = cg_open_group(h, CG_CPUSET, parent, NULL, 0);
	if (fd < 0 || !(dir = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.' ||
		    strcmp(d->d_name, slash ? slash + 1 : group) == 0 ||
		    (*best && strcmp(d->d_name, best) >= 0))
			continue;
		if ((size_t)snprintf(sib, sizeof(sib), "%s%s%s", parent,
				     *parent ? "/" : "", d->d_name) >=
		    sizeof(sib))
			continue;
		if (cg_read_quiet(h, CG_CPUSET, sib, p->files.cpus, buf,
				  sizeof(buf)) < 0 ||
		    cpuset_parse_list(strstrip(buf), &cpus, NULL, 0) < 0 ||
		    !cpuset_intersects(&cpus, &p->cpus))
			continue;
		snprintf(best, sizeof(best), "%s", d->d_name);
		snprintf(out, outlen, "'%s' holds %s", sib, strstrip(buf));
	}
	closedir(dir);
	cpuset_free(&cpus);
}

static int
write_sets(const struct cg_hier *h, const struct cgcpuset_plan *p, char *err,
	   size_t errlen)
{
	const char *group = p->rq->group;
	char *cl = cpuset_to_list(&p->cpus), *ml = cpuset_to_list(&p->mems);
	int r = -ENOMEM;

	if (cl && ml) {
		r = cg_write(h, CG_CPUSET, group, p->files.cpus, cl, err,
			     errlen);
		if (r == 0)
			r = cg_write(h, CG_CPUSET, group, p->files.mems, ml, err,
				     errlen);
		if (r == 0 && p->rq->exclusive && p->version == 1)
			r = cg_write(h, CG_CPUSET, group, p->files.exclusive,
				     p->files.exclusive_on, err, errlen);
	} else {
		err_ret(err, errlen, r, "out of memory");
	}
	free(cl);
	free(ml);
	/* Do not leave a half-made group behind. */
	if (r < 0 && !p->exists)
		cg_remove(h, CG_CPUSET, group, NULL, 0);
	/* v1 refuses an exclusive child of a group that is not exclusive
	 * with EACCES, and an overlap with a sibling with EINVAL. */
	if ((r == -EINVAL || (r == -EACCES && p->version == 1)) &&
	    p->rq->exclusive) {
		char why[CG_PATH_MAX + 64];
		size_t n = strlen(err);

		if (p->version == 1)
			exclusive_blocker(h, p, why, sizeof(why));
		else
			*why = '\0';
		snprintf(err + n, errlen - n, " (an exclusive cpuset needs an "
			 "exclusive parent, and no sibling may share its "
			 "CPUs%s%s)", *why ? ": " : "", why);
	}
	return r;
}

/* Read back: what was written, then what is in effect. */
static int
verify(const struct cg_hier *h, const struct cgcpuset_plan *p, char *err,
       size_t errlen)
{
	const char *group = p->rq->group;
	struct cpuset got = CPUSET_INIT;
	char buf[256];
	ssize_t n;
	int r;

	r = cgcpuset_read_list(h, group, p->files.cpus, &got, err, errlen);
	if (r == 0 && !cpuset_equal(&got, &p->cpus))
		r = pin_mismatch(p->files.cpus, &p->cpus, &got, err, errlen);
	if (r == 0)
		r = cgcpuset_read_list(h, group, p->files.mems, &got, err,
				       errlen);
	if (r == 0 && !cpuset_equal(&got, &p->mems))
		r = pin_mismatch(p->files.mems, &p->mems, &got, err, errlen);
	/* Only the kernel computes the effective set. */
	if (r == 0 && h->live) {
		r = cgcpuset_read_list(h, group, p->files.eff_cpus, &got, err,
				       errlen);
		if (r == 0 && !cpuset_equal(&got, &p->cpus))
			r = pin_mismatch(p->files.eff_cpus, &p->cpus, &got,
					 err, errlen);
		if (r == -ENOENT)
			r = 0;
	}
	cpuset_free(&got);
	/* v2: part_make() read the partition back. */
	if (r < 0 || !p->rq->exclusive || p->version == 2)
		return r;
	n = cg_read(h, CG_CPUSET, group, p->files.exclusive, buf, sizeof(buf),
		    err, errlen);
	if (n < 0)
		return (int)n;
	if (strcmp(strstrip(buf), p->files.exclusive_on) != 0)
		return err_ret(err, errlen, -EIO, "cgroup '%s' is not exclusive: "
			    "%s reads '%s'", cg_display(group),
			    p->files.exclusive, buf);
	return 0;
}

/* Move pid in and check, from the process's own view, that it is there. */
static int
attach(const struct cg_hier *h, const struct sysroot *live,
       const struct cgcpuset_plan *p, pid_t pid, char *err, size_t errlen)
{
	const char *group = p->rq->group;
	char cs[CG_PATH_MAX], canon[CG_PATH_MAX], what[64];
	struct cpuset got = CPUSET_INIT;
	int r;

	r = cg_attach(h, CG_CPUSET, group, pid, err, errlen);
	if (r < 0 || !h->live)
		return r;
	if (proc_cpuset(live, pid, cs, sizeof(cs)) >= 0 &&
	    cg_path_check(cs, canon, sizeof(canon), NULL, 0) == 0 &&
	    strcmp(canon, group) != 0)
		return err_ret(err, errlen, -EIO, "process %d is in cpuset '%s', "
			    "not '%s'", (int)pid, cs, cg_display(group));
	r = proc_status_list(live, pid, "Cpus_allowed_list", &got);
	if (r == 0 && !cpuset_subset(&got, &p->cpus)) {
		snprintf(what, sizeof(what), "the affinity of process %d",
			 (int)pid);
		r = pin_mismatch(what, &p->cpus, &got, err, errlen);
	} else {
		r = 0;
	}
	cpuset_free(&got);
	return r;
}

/* An existing group's list file, to put back on failure (NULL: unread). */
static char *
snapshot(const struct cg_hier *h, const char *group, const char *file)
{
	char buf[65536];

	if (cg_read(h, CG_CPUSET, group, file, buf, sizeof(buf), NULL, 0) < 0)
		return NULL;
	strstrip(buf);
	/* An empty v2 list is written back as a bare newline. */
	return strdup(buf[0] ? buf : "\n");
}

/*
 * The length of the longest leading part of group, ending before a '/',
 * that names a group now: the groups below it down to group are the ones
 * creating group makes (0: all of them, from the hierarchy root).
 */
static size_t
existing_prefix(const struct cg_hier *h, const char *group)
{
	char sub[CG_PATH_MAX];
	size_t n = strlen(group);

	if (n >= sizeof(sub))
		return 0;
	memcpy(sub, group, n + 1);
	while (n > 0) {
		while (n > 0 && sub[n] != '/')
			n--;
		if (n == 0)
			break;
		sub[n] = '\0';
		if (cg_exists(h, CG_CPUSET, sub))
			return n;
	}
	return 0;
}

/*
 * Remove the ancestors of group that this call made, those longer than
 * keep (existing_prefix()), the deepest first; group itself is gone
 * already.  A plain rmdir each: one something else has since put a
 * group or a process in stays, and so do those above it.
 */
static void
remove_made_parents(const struct cg_hier *h, const char *group, size_t keep)
{
	char sub[CG_PATH_MAX];
	size_t n = strlen(group);

	if (n >= sizeof(sub))
		return;
	memcpy(sub, group, n + 1);
	for (;;) {
		while (n > keep && sub[n] != '/')
			n--;
		if (n <= keep)
			return;
		sub[n] = '\0';
		if (cg_exists(h, CG_CPUSET, sub) &&
		    cg_remove(h, CG_CPUSET, sub, NULL, 0) < 0)
			return;
	}
}

int
cgcpuset_apply(const struct cg_hier *h, const struct sysroot *live,
	       const struct cgcpuset_plan *p, char *err, size_t errlen)
{
	enum { UNDO_MAX = 64 };
	static char was[UNDO_MAX][CG_PATH_MAX];
	const char *group = p->rq->group;
	bool known[UNDO_MAX];
	bool part = p->version == 2 && (p->rq->exclusive || p->rq->isolated);
	char *old_cpus = NULL, *old_mems = NULL;
	struct part_undo pu;
	size_t i, nattached = 0, keep = 0;
	int r;

	memset(&pu, 0, sizeof(pu));
	if (p->exists) {
		old_cpus = snapshot(h, group, p->files.cpus);
		old_mems = snapshot(h, group, p->files.mems);
	} else {
		keep = existing_prefix(h, group);
	}
	r = make_group(h, p, err, errlen);
	if (r == 0)
		r = write_sets(h, p, err, errlen);
	if (r == 0 && part)
		r = part_make(h, group, p->rq->isolated ? PART_ISOLATED :
			      PART_ROOT, &p->cpus, &pu, err, errlen);
	if (r == 0)
		r = verify(h, p, err, errlen);
	for (i = 0; r == 0 && i < p->rq->nattach; i++) {
		/* Where each process was, to put it back on failure. */
		known[i % UNDO_MAX] = !p->exists && h->live &&
			proc_cpuset(live, p->rq->attach[i], was[i % UNDO_MAX],
				    sizeof(was[0])) >= 0 &&
			cg_path_check(was[i % UNDO_MAX], was[i % UNDO_MAX],
				      sizeof(was[0]), NULL, 0) == 0;
		r = attach(h, live, p, p->rq->attach[i], err, errlen);
		nattached = i + 1;
	}
	/*
	 * Any failure undoes what the call changed: the processes moved go
	 * back where they were (a zombie, or one that exited, never moved),
	 * the partition and the ancestors' exclusive CPUs are put back, and
	 * then the new group is removed or the existing one gets its CPUs
	 * and memory nodes back.
	 */
	if (r < 0 && !p->exists && cg_exists(h, CG_CPUSET, group))
		for (i = 0; i < nattached && i < UNDO_MAX; i++)
			if (known[i])
				cg_attach(h, CG_CPUSET, was[i],
					  p->rq->attach[i], NULL, 0);
	if (r < 0)
		part_undo(h, group, &pu);
	else
		part_undo_free(&pu);
	if (r < 0 && !p->exists && cg_exists(h, CG_CPUSET, group))
		cg_remove(h, CG_CPUSET, group, NULL, 0);
	/* and every parent group the call made, newest first */
	if (r < 0 && !p->exists && !cg_exists(h, CG_CPUSET, group))
		remove_made_parents(h, group, keep);
	if (r < 0 && p->exists) {
		if (old_cpus)
			cg_write(h, CG_CPUSET, group, p->files.cpus, old_cpus,
				 NULL, 0);
		if (old_mems)
			cg_write(h, CG_CPUSET, group, p->files.mems, old_mems,
				 NULL, 0);
	}
	free(old_cpus);
	free(old_mems);
	return r;
}

bool
cgcpuset_pid_allowed(const struct sysroot *live, pid_t pid,
		     const struct cpuset *online, struct cpuset *out)
{
	char group[CG_PATH_MAX], canon[CG_PATH_MAX];
	struct cgcpuset_files f;
	struct cg_hier h;
	bool ok = false;
	int r;

	r = pin_pid_allowed_cpus(live, pid, out);
	if (r == 0)
		return true;
	if (r != -ENODATA)
		return false;
	if (proc_cpuset(live, pid, group, sizeof(group)) < 0 ||
	    cg_path_check(group, canon, sizeof(canon), NULL, 0) < 0)
		return false;
	/* A live process lives in the live hierarchy, whatever tree a
	 * tool was given for its groups. */
	if (cg_open(&h, NULL, NULL, 0) < 0)
		return false;
	if (cg_has(&h, CG_CPUSET)) {
		cgcpuset_files(cg_version(&h, CG_CPUSET), &f);
		if (cgcpuset_read_list(&h, canon, f.eff_cpus, out, NULL,
				       0) == 0 && !cpuset_empty(out)) {
			cpuset_and(out, online);
			ok = true;
		}
	}
	cg_close(&h);
	return ok;
}
