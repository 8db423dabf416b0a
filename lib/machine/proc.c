// SPDX-License-Identifier: GPL-2.0-or-later
/* The files of /proc that cpm reads: see proc.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/strutils.h"
#include "machine/proc.h"

void
proc_path(char *buf, size_t size, pid_t pid, const char *file)
{
	if (pid == 0)
		snprintf(buf, size, "proc/self/%s", file);
	else
		snprintf(buf, size, "proc/%d/%s", (int)pid, file);
}

int
proc_start_time(const struct sysroot *root, pid_t pid, uint64_t *start)
{
	char path[64], buf[1024], *p, *save = NULL, *tok;
	ssize_t n;
	int field;

	*start = 0;
	proc_path(path, sizeof(path), pid, "stat");
	n = sysroot_read(root, path, buf, sizeof(buf));
	if (n == -ENOENT || n == -ESRCH)
		return -ESRCH;
	if (n < 0)
		return (int)n;
	/* The command name may hold spaces and ')': skip to the last ')'. */
	p = strrchr(buf, ')');
	if (p == NULL)
		return -EBADMSG;
	/* After ')' come field 3 (the state), 4, ...; 22 is the start. */
	for (field = 3, tok = strtok_r(p + 1, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 3 && (tok[0] == 'Z' || tok[0] == 'X'))
			return -ESRCH;
		if (field == 22)
			return parse_u64(tok, UINT64_MAX, start) < 0 ?
			       -EBADMSG : 0;
	}
	return -EBADMSG;
}

int
proc_cpu_times_parse(const char *text, struct proc_cpu_times *t)
{
	char buf[512], *save = NULL, *tok;
	size_t len = strcspn(text, "\n");
	uint64_t v;
	int field;

	memset(t, 0, sizeof(*t));
	if (strncmp(text, "cpu ", 4) != 0 || len >= sizeof(buf))
		return -EBADMSG;
	memcpy(buf, text + 4, len - 4);
	buf[len - 4] = '\0';
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	for (field = 0, tok = strtok_r(buf, " ", &save); tok && field < 8;
	     tok = strtok_r(NULL, " ", &save), field++) {
		if (parse_u64(tok, UINT64_MAX / 16, &v) < 0)
			return -EBADMSG;
		t->total += v;
		if (field == 3 || field == 4)
			t->idle += v;
	}
	/* kernels since 2.6 print at least user..irq..softirq */
	return field >= 4 ? 0 : -EBADMSG;
}

int
proc_cpu_times(const struct sysroot *root, struct proc_cpu_times *t)
{
	char buf[512];
	bool whole;
	ssize_t n;

	n = sysroot_read_head(root, "proc/stat", buf, sizeof(buf), &whole);
	if (n < 0)
		return (int)n;
	return proc_cpu_times_parse(buf, t);
}

int
proc_cpu_idle_pm(const struct proc_cpu_times *a,
		 const struct proc_cpu_times *b)
{
	uint64_t dt, di;

	if (b->total <= a->total || b->idle < a->idle)
		return -1;
	dt = b->total - a->total;
	di = b->idle - a->idle;
	if (di > dt)
		di = dt;
	return (int)(di * 1000 / dt);
}

int
proc_status_list(const struct sysroot *root, pid_t pid, const char *field,
		 struct cpuset *out)
{
	char path[64];
	char *text = NULL, *p, *nl;
	size_t flen = strlen(field);
	int ret;

	proc_path(path, sizeof(path), pid, "status");
	ret = sysroot_read_file(root, path, &text, NULL);
	if (ret == -ENOENT)
		return -ESRCH;
	if (ret < 0)
		return ret;
	ret = -ENOENT;
	for (p = text; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (strncmp(p, field, flen) == 0 && p[flen] == ':') {
			ret = cpuset_parse_list(strstrip(p + flen + 1), out,
						NULL, 0);
			if (ret < 0 && ret != -ENOMEM)
				ret = -EINVAL;
			break;
		}
	}
	free(text);
	return ret;
}

ssize_t
proc_cpuset(const struct sysroot *root, pid_t pid, char *buf, size_t size)
{
	char path[64];

	proc_path(path, sizeof(path), pid, "cpuset");
	return sysroot_read(root, path, buf, size);
}

/* Does the comma-separated list (of length len) hold name? */
static bool
list_has(const char *list, size_t len, const char *name)
{
	size_t nlen = strlen(name);

	while (len > 0) {
		const char *comma = memchr(list, ',', len);
		size_t l = comma ? (size_t)(comma - list) : len;

		if (l == nlen && memcmp(list, name, l) == 0)
			return true;
		if (!comma)
			break;
		len -= l + 1;
		list = comma + 1;
	}
	return false;
}

int
proc_cgroup_group(const char *text, const char *controller, char *out,
		  size_t size)
{
	const char *line = text;

	while (line && *line) {
		const char *c1 = strchr(line, ':'), *c2, *nl;
		size_t clen, pl;

		nl = strchr(line, '\n');
		if (c1 == NULL)
			break;
		c2 = strchr(c1 + 1, ':');
		if (c2 == NULL || (nl && c2 > nl))
			goto next;
		clen = (size_t)(c2 - c1 - 1);
		if (controller[0] == '\0' ? clen != 0 :
		    !list_has(c1 + 1, clen, controller))
			goto next;
		pl = nl ? (size_t)(nl - c2 - 1) : strlen(c2 + 1);
		if (pl >= size)
			return -ENAMETOOLONG;
		memcpy(out, c2 + 1, pl);
		out[pl] = '\0';
		return 0;
next:
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int
proc_cgroup_mount(const char *mounts, const char *controller, char *mnt,
		  size_t size, bool *noprefix)
{
	const char *line = mounts;

	while (line && *line) {
		char dev[256], dir[1024], type[64], opts[1024];
		const char *nl = strchr(line, '\n');

		if (sscanf(line, "%255s %1023s %63s %1023s", dev, dir, type,
			   opts) == 4) {
			bool hit = false;

			if (controller[0] == '\0')
				hit = strcmp(type, "cgroup2") == 0;
			else if (strcmp(type, "cgroup") == 0) {
				char *tok, *save = NULL;

				for (tok = strtok_r(opts, ",", &save); tok;
				     tok = strtok_r(NULL, ",", &save)) {
					if (strcmp(tok, controller) == 0)
						hit = true;
					if (strcmp(tok, "noprefix") == 0)
						*noprefix = true;
				}
			} else if (strcmp(type, controller) == 0) {
				hit = true;	/* the old "cpuset" file system */
				*noprefix = true;
			}
			if (hit) {
				const char *d = dir;

				while (*d == '/')
					d++;
				snprintf(mnt, size, "%s", d);
				return 0;
			}
			*noprefix = false;
		}
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}
