// SPDX-License-Identifier: GPL-2.0-or-later
/* Every thread below a sysroot's proc, with its affinity and flags. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/num.h"
#include "base/strutils.h"
#include "machine/tasks.h"

int
task_stat_parse(const char *line, char *comm, size_t commlen, pid_t *ppid,
		unsigned long *flags, uint64_t *start)
{
	const char *open = strchr(line, '('), *close = strrchr(line, ')');
	unsigned long long v[20];
	size_t len;
	char state;
	int i, n;

	if (open == NULL || close == NULL || close < open)
		return -EBADMSG;
	len = (size_t)(close - open - 1);
	if (len >= commlen)
		len = commlen - 1;
	memcpy(comm, open + 1, len);
	comm[len] = '\0';
	/* After ") ": state, then fields 4 (ppid) to 22 (starttime). */
	n = sscanf(close + 1, " %c %llu %*u %*u %*u %*d %llu %*u %*u %*u %*u "
		   "%*u %*u %*d %*d %*d %*d %*d %*d %llu", &state, &v[0], &v[1],
		   &v[2]);
	if (n != 4)
		return -EBADMSG;
	for (i = 0; i < 3; i++)
		if (v[i] > (unsigned long long)UINT64_MAX)
			return -EBADMSG;
	*ppid = (pid_t)v[0];
	*flags = (unsigned long)v[1];
	*start = v[2];
	return 0;
}

/* The numeric entries of dir below root, sorted.  Count or -errno. */
static ssize_t
list_ids(const struct sysroot *root, const char *dir, pid_t **ids)
{
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd = sysroot_open_dir(root, dir);

	*ids = NULL;
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return -ENOMEM;
	}
	while ((de = readdir(d)) != NULL) {
		unsigned int v;

		if (parse_uint(de->d_name, INT_MAX, &v) < 0 || v == 0)
			continue;
		if (n == cap) {
			pid_t *nv = realloc(*ids, (cap = cap ? cap * 2 : 256) *
					    sizeof(*nv));

			if (nv == NULL) {
				closedir(d);
				free(*ids);
				*ids = NULL;
				return -ENOMEM;
			}
			*ids = nv;
		}
		(*ids)[n++] = (pid_t)v;
	}
	closedir(d);
	return (ssize_t)n;
}

static int
cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

static int
cmp_task(const void *a, const void *b)
{
	return cmp_pid(&((const struct task_info *)a)->tid,
		       &((const struct task_info *)b)->tid);
}

/* Read one thread; 1 when it is there, 0 when gone, -ENOMEM. */
static int
read_task(const struct sysroot *root, pid_t pid, pid_t tid,
	  struct task_info *x)
{
	char path[96], buf[1024], perr[64];
	ssize_t n;
	int r;

	memset(x, 0, sizeof(*x));
	cpuset_init(&x->allowed);
	x->pid = pid;
	x->tid = tid;
	snprintf(path, sizeof(path), "proc/%d/task/%d/stat", (int)pid, (int)tid);
	n = sysroot_read(root, path, buf, sizeof(buf));
	if (n < 0 || task_stat_parse(buf, x->comm, sizeof(x->comm), &x->ppid,
				     &x->flags, &x->start) < 0)
		return 0;
	x->kthread = (x->flags & PF_KTHREAD_BIT) != 0;
	x->percpu = (x->flags & PF_NO_SETAFFINITY_BIT) != 0;
	snprintf(path, sizeof(path), "proc/%d/task/%d/status", (int)pid,
		 (int)tid);
	{
		char *text = NULL, *p;

		r = sysroot_read_file(root, path, &text, NULL);
		if (r < 0)
			return r == -ENOMEM ? r : 0;
		p = strstr(text, "\nCpus_allowed_list:");
		if (p != NULL)
			*strchrnul(p + 1, '\n') = '\0';
		r = p == NULL ? -ENOENT :
		    cpuset_parse_list(strstrip(p + 19), &x->allowed, perr,
				      sizeof(perr));
		free(text);
	}
	if (r == -ENOMEM)
		return r;
	return r == 0;
}

/* Whether pid lies in scope's tree, by the parents of ppids[]. */
static bool
in_scope(pid_t pid, pid_t scope, const pid_t *pids, const pid_t *ppids,
	 size_t n)
{
	int depth;

	for (depth = 0; depth < 4096 && pid > 0; depth++) {
		pid_t *at;

		if (pid == scope)
			return true;
		at = bsearch(&pid, pids, n, sizeof(*pids), cmp_pid);
		if (at == NULL)
			return false;
		pid = ppids[at - pids];
	}
	return false;
}

/* The parent of every process of pids (0 when gone). */
static int
parents(const struct sysroot *root, const pid_t *pids, size_t n,
	pid_t **ppids)
{
	size_t i;

	*ppids = calloc(n ? n : 1, sizeof(**ppids));
	if (*ppids == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		char path[64], buf[1024], comm[32];
		unsigned long flags;
		uint64_t start;

		snprintf(path, sizeof(path), "proc/%d/stat", (int)pids[i]);
		if (sysroot_read(root, path, buf, sizeof(buf)) < 0 ||
		    task_stat_parse(buf, comm, sizeof(comm), &(*ppids)[i],
				    &flags, &start) < 0)
			(*ppids)[i] = 0;
	}
	return 0;
}

static int
scan_process(const struct sysroot *root, pid_t pid, struct task_table *t,
	     size_t *cap)
{
	pid_t *tids;
	char dir[64];
	ssize_t n, k;
	int r = 0;

	snprintf(dir, sizeof(dir), "proc/%d/task", (int)pid);
	n = list_ids(root, dir, &tids);
	if (n == -ENOMEM)
		return -ENOMEM;
	if (n > 1)
		qsort(tids, (size_t)n, sizeof(*tids), cmp_pid);
	for (k = 0; k < n && r >= 0; k++) {
		if (t->n == *cap) {
			size_t nc = *cap ? *cap * 2 : 256;
			struct task_info *nv = realloc(t->v, nc * sizeof(*nv));

			if (nv == NULL) {
				r = -ENOMEM;
				break;
			}
			t->v = nv;
			*cap = nc;
		}
		r = read_task(root, pid, tids[k], &t->v[t->n]);
		if (r > 0)
			t->n++;
		else
			cpuset_free(&t->v[t->n].allowed);
	}
	free(tids);
	return r < 0 ? r : 0;
}

int
task_scan(const struct sysroot *root, pid_t scope, struct task_table *t,
	  char *err, size_t errlen)
{
	pid_t *pids, *ppids = NULL;
	size_t cap = 0, i;
	ssize_t n;
	int r = 0;

	memset(t, 0, sizeof(*t));
	n = list_ids(root, "proc", &pids);
	if (n < 0) {
		err_set(err, errlen, n == -ENOMEM ? "out of memory" :
			"no %s/proc: threads cannot be seen",
			strcmp(root->path, "/") ? root->path : "");
		return n == -ENOMEM ? -ENOMEM : -ENOENT;
	}
	if (n > 1)
		qsort(pids, (size_t)n, sizeof(*pids), cmp_pid);
	if (scope > 0)
		r = parents(root, pids, (size_t)n, &ppids);
	for (i = 0; r == 0 && i < (size_t)n; i++)
		if (scope <= 0 || in_scope(pids[i], scope, pids, ppids,
					   (size_t)n))
			r = scan_process(root, pids[i], t, &cap);
	free(pids);
	free(ppids);
	if (r == 0 && t->n > 1)
		qsort(t->v, t->n, sizeof(*t->v), cmp_task);
	if (r < 0) {
		task_table_free(t);
		err_set(err, errlen, "out of memory");
	}
	return r;
}

void
task_table_free(struct task_table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		cpuset_free(&t->v[i].allowed);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

const struct task_info *
task_find(const struct task_table *t, pid_t tid)
{
	struct task_info key = { .tid = tid };

	if (t->n == 0)
		return NULL;
	return bsearch(&key, t->v, t->n, sizeof(*t->v), cmp_task);
}
