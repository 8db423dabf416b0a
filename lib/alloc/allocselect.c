// SPDX-License-Identifier: GPL-2.0-or-later
/* The selector alloc:NAME: see allocselect.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc/allocselect.h"
#include "alloc/state.h"
#include "base/err.h"

bool
alloc_is_selector(const char *sel)
{
	return strncmp(sel, "alloc:", 6) == 0;
}

/* The policy's name as a string that outlives the state. */
static const char *
mempol_name(const char *p)
{
	static const char *const names[] = { "local", "interleave", "bind" };
	size_t i;

	for (i = 0; p && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(p, names[i]) == 0)
			return names[i];
	return NULL;
}

int
alloc_select(const char *path, const char *sel, struct cpuset *cpus,
	     struct cpuset *mem_nodes, const char **mempol, char *err,
	     size_t errlen)
{
	const char *name = sel + 6, *env = getenv("CPM_STATE");
	const struct alloc_entry *e;
	struct alloc_state st;
	char why[512];
	int fd = -1, r, k;

	if (path == NULL)
		path = env && *env ? env : STATE_DEFAULT_PATH;
	cpuset_zero(cpus);
	if (mem_nodes)
		cpuset_zero(mem_nodes);
	if (mempol)
		*mempol = NULL;
	if (!state_name_valid(name))
		return err_ret(err, errlen, -EINVAL, "invalid selector '%s': "
			       "not an allocation name", sel);
	if (access(path, F_OK) < 0)
		return err_ret(err, errlen, -EINVAL, "invalid selector '%s': "
			       "no state file '%s' (cpm-alloc init makes it)",
			       sel, path);
	/* Under the lock, so that no writer is half-way; a reader that
	 * may not take it reads the file rename(2) put in place. */
	fd = state_lock_wait(path, 5000, why, sizeof(why));
	if (fd == -ETIMEDOUT)
		return err_ret(err, errlen, -EINVAL, "invalid selector '%s': "
			       "%s", sel, why);
	state_init(&st);
	r = state_load(&st, path, why, sizeof(why));
	if (r == -ENOMEM)
		goto out;
	if (r < 0) {
		r = err_ret(err, errlen, -EINVAL, "invalid selector '%s': "
			    "state file '%s': %s", sel, path, why);
		goto out;
	}
	if ((e = state_find(&st, name)) == NULL) {
		r = err_ret(err, errlen, -EINVAL, "invalid selector '%s': no "
			    "allocation named '%s' in '%s'", sel, name, path);
		goto out;
	}
	r = cpuset_copy(cpus, &e->cpus);
	for (k = 0; r == 0 && mem_nodes && k < e->nmem; k++)
		if (e->mem[k].bytes)
			r = cpuset_set(mem_nodes, (unsigned int)e->mem[k].node);
	for (k = 0; r == 0 && mem_nodes && k < e->nhuge; k++)
		if (e->huge[k].bytes)
			r = cpuset_set(mem_nodes, (unsigned int)e->huge[k].node);
	if (mempol)
		*mempol = mempol_name(e->mempol);
out:
	state_free(&st);
	if (fd >= 0)
		state_unlock(fd);
	return r;
}
