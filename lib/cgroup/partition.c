// SPDX-License-Identifier: GPL-2.0-or-later
/* cgroup v2 cpuset partitions: see partition.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/strutils.h"
#include "cgroup/partition.h"

#define PART_FILE "cpuset.cpus.partition"
#define EXCL_FILE "cpuset.cpus.exclusive"

const char *
part_type_name(enum part_type type)
{
	switch (type) {
	case PART_ROOT:
		return "root";
	case PART_ISOLATED:
		return "isolated";
	default:
		return "member";
	}
}

int
part_parse(const char *text, struct part_state *st)
{
	static const struct { const char *name; enum part_type type; } t[] = {
		{ "member", PART_MEMBER },
		{ "root", PART_ROOT },
		{ "isolated", PART_ISOLATED },
	};
	const char *s = text, *end;
	size_t i, n;

	memset(st, 0, sizeof(*st));
	while (*s == ' ' || *s == '\t')
		s++;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		n = strlen(t[i].name);
		if (strncmp(s, t[i].name, n) == 0 &&
		    (s[n] == '\0' || s[n] == ' ' || s[n] == '\n'))
			break;
	}
	if (i == sizeof(t) / sizeof(t[0]))
		return -EBADMSG;
	st->type = t[i].type;
	st->valid = true;
	s += n;
	while (*s == ' ')
		s++;
	if (strncmp(s, "invalid", 7) == 0 &&
	    (s[7] == '\0' || s[7] == ' ' || s[7] == '\n')) {
		st->valid = false;
		s += 7;
		while (*s == ' ')
			s++;
	}
	if (*s == '(') {
		end = strrchr(s, ')');
		if (end == NULL || st->valid)
			return -EBADMSG;
		n = (size_t)(end - s - 1);
		if (n >= sizeof(st->reason))
			n = sizeof(st->reason) - 1;
		memcpy(st->reason, s + 1, n);
		st->reason[n] = '\0';
		s = end + 1;
	}
	while (*s == ' ' || *s == '\n')
		s++;
	return *s ? -EBADMSG : 0;
}

int
part_read(const struct cg_hier *h, const char *group, struct part_state *st,
	  char *err, size_t errlen)
{
	char buf[512];
	ssize_t n;

	if (group[0] == '\0') {
		memset(st, 0, sizeof(*st));
		st->type = PART_ROOT;
		st->valid = true;
		return 0;
	}
	n = cg_read(h, CG_CPUSET, group, PART_FILE, buf, sizeof(buf), err,
		    errlen);
	if (n < 0)
		return (int)n;
	if (part_parse(buf, st) < 0)
		return err_ret(err, errlen, -EBADMSG, "%s of cgroup '%s' holds "
			    "'%.100s'", PART_FILE, cg_display(group), buf);
	return 0;
}

/* Read a list file into a new string and a set. */
static int
read_excl(const struct cg_hier *h, const char *group, char **text,
	  struct cpuset *set, char *err, size_t errlen)
{
	char buf[65536];
	ssize_t n;

	n = cg_read(h, CG_CPUSET, group, EXCL_FILE, buf, sizeof(buf), err,
		    errlen);
	if (n < 0)
		return (int)n;
	strstrip(buf);
	if (cpuset_parse_list(buf, set, NULL, 0) < 0)
		return err_ret(err, errlen, -EBADMSG, "%s of cgroup '%s' holds "
			    "'%.100s', not a list", EXCL_FILE,
			    cg_display(group), buf);
	*text = strdup(buf);
	return *text ? 0 : err_ret(err, errlen, -ENOMEM, "out of memory");
}

/* Write set into group's cpuset.cpus.exclusive. */
static int
write_excl(const struct cg_hier *h, const char *group,
	   const struct cpuset *set, char *err, size_t errlen)
{
	char *l = cpuset_to_list(set);
	int r;

	if (l == NULL)
		return err_ret(err, errlen, -ENOMEM, "out of memory");
	r = cg_write(h, CG_CPUSET, group, EXCL_FILE, l, err, errlen);
	free(l);
	return r;
}

/*
 * The ancestors of group below its nearest partition root, top-down,
 * into u->group (not yet their old values).  Returns their number.
 */
static int
chain(const struct cg_hier *h, const char *group, struct part_undo *u,
      char *err, size_t errlen)
{
	char anc[CG_PATH_MAX];
	char *list[PART_DEPTH_MAX];
	struct part_state st;
	int n = 0, i, r;

	snprintf(anc, sizeof(anc), "%s", group);
	for (;;) {
		char *slash = strrchr(anc, '/');

		if (slash == NULL)
			break;		/* the parent is the root group */
		*slash = '\0';
		r = part_read(h, anc, &st, err, errlen);
		if (r < 0 && r != -ENOENT)
			goto out;
		if (r == 0 && st.valid && st.type != PART_MEMBER)
			break;
		if (n == PART_DEPTH_MAX) {
			r = err_ret(err, errlen, -E2BIG, "cgroup '%s' is nested "
				 "too deeply", cg_display(group));
			goto out;
		}
		list[n] = strdup(anc);
		if (list[n] == NULL) {
			r = err_ret(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		u->group[i] = list[n - 1 - i];
	return n;
out:
	while (n > 0)
		free(list[--n]);
	return r;
}

int
part_make(const struct cg_hier *h, const char *group, enum part_type type,
	  const struct cpuset *cpus, struct part_undo *u, char *err,
	  size_t errlen)
{
	struct cpuset set = CPUSET_INIT;
	struct part_state st;
	char *self = NULL;
	int n, i, r;

	memset(u, 0, sizeof(*u));
	r = part_read(h, group, &st, err, errlen);
	if (r == -ENOENT)
		return err_ret(err, errlen, r, "cgroup '%s' has no %s (cgroup v2 "
			    "with the cpuset controller enabled for it is "
			    "needed)", cg_display(group), PART_FILE);
	if (r < 0)
		return r;
	u->old_type = st.type;
	/*
	 * A remote partition: only where the kernel has exclusive CPU
	 * lists (6.7+); elsewhere the kernel says what it thinks of a
	 * partition below a member.
	 */
	r = read_excl(h, group, &self, &set, NULL, 0);
	if (r == 0) {
		n = chain(h, group, u, err, errlen);
		if (n < 0) {
			r = n;
			goto out;
		}
		for (i = 0; i < n; i++) {
			r = read_excl(h, u->group[i], &u->old[i], &set, err,
				      errlen);
			if (r < 0)
				goto out;
			u->n = i + 1;
			if (cpuset_subset(cpus, &set))
				continue;
			r = cpuset_or(&set, cpus);
			if (r == 0)
				r = write_excl(h, u->group[i], &set, err,
					       errlen);
			if (r < 0)
				goto out;
		}
		/* Free the names of ancestors listed but not reached. */
		for (i = u->n; i < n; i++) {
			free(u->group[i]);
			u->group[i] = NULL;
		}
		if (n > 0 && (cpuset_parse_list(self, &set, NULL, 0) < 0 ||
			      !cpuset_equal(&set, cpus))) {
			u->self_old = self;
			self = NULL;
			r = write_excl(h, group, cpus, err, errlen);
			if (r < 0)
				goto out;
		}
	} else if (r != -ENOENT) {
		goto out;
	}
	u->type_changed = true;
	r = cg_write(h, CG_CPUSET, group, PART_FILE, part_type_name(type),
		     err, errlen);
	if (r < 0)
		goto out;
	r = part_read(h, group, &st, err, errlen);
	if (r < 0)
		goto out;
	if (!st.valid)
		r = err_ret(err, errlen, -EIO, "cgroup '%s' is an invalid %s "
			 "partition: %s", cg_display(group),
			 part_type_name(type),
			 st.reason[0] ? st.reason : "the kernel gives no reason");
	else if (st.type != type)
		r = err_ret(err, errlen, -EIO, "cgroup '%s' is a %s partition, "
			 "not %s", cg_display(group), part_type_name(st.type),
			 part_type_name(type));
out:
	free(self);
	cpuset_free(&set);
	return r;
}

void
part_undo_free(struct part_undo *u)
{
	int i;

	for (i = 0; i < PART_DEPTH_MAX; i++) {
		free(u->group[i]);
		free(u->old[i]);
		u->group[i] = u->old[i] = NULL;
	}
	free(u->self_old);
	u->self_old = NULL;
	u->n = 0;
}

void
part_undo(const struct cg_hier *h, const char *group, struct part_undo *u)
{
	int i;

	if (u->type_changed)
		cg_write(h, CG_CPUSET, group, PART_FILE,
			 part_type_name(u->old_type), NULL, 0);
	if (u->self_old)
		cg_write(h, CG_CPUSET, group, EXCL_FILE, u->self_old, NULL, 0);
	for (i = u->n - 1; i >= 0; i--)
		if (u->old[i])
			cg_write(h, CG_CPUSET, u->group[i], EXCL_FILE,
				 u->old[i], NULL, 0);
	part_undo_free(u);
}
