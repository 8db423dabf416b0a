// SPDX-License-Identifier: GPL-2.0-or-later
#include <dlfcn.h>
#include <stdio.h>

#include "pin/numaload.h"

static struct numaload api;
static int loaded;		/* 1 opened, -1 failed */
static char failure[256];

/* Look up one function; false (and failure says which) when missing. */
static int
lookup(void *lib, void *slot, const char *name)
{
	void *f = dlsym(lib, name);

	if (f == NULL) {
		snprintf(failure, sizeof(failure), "%s has no %s",
			 NUMALOAD_SONAME, name);
		return 0;
	}
	*(void **)slot = f;
	return 1;
}

#define LOOKUP(field, name) lookup(lib, &api.field, name)

const struct numaload *
numaload(char *err, size_t errlen)
{
	void *lib;
	const char *why;

	if (loaded == 0) {
		loaded = -1;
		/* Lazily: of its 93 functions' slots cpm calls a handful;
		 * binding them all cost 42,000 instructions. */
		lib = dlopen(NUMALOAD_SONAME, RTLD_LAZY | RTLD_LOCAL);
		if (lib == NULL) {
			why = dlerror();
			snprintf(failure, sizeof(failure), "cannot load %s: %s",
				 NUMALOAD_SONAME, why ? why : "unknown error");
		} else if (LOOKUP(available, "numa_available") &&
			   LOOKUP(allocate_nodemask, "numa_allocate_nodemask") &&
			   LOOKUP(bitmask_setbit, "numa_bitmask_setbit") &&
			   LOOKUP(bitmask_free, "numa_bitmask_free") &&
			   LOOKUP(set_localalloc, "numa_set_localalloc") &&
			   LOOKUP(set_membind, "numa_set_membind") &&
			   LOOKUP(set_interleave_mask,
				  "numa_set_interleave_mask") &&
			   LOOKUP(set_preferred, "numa_set_preferred") &&
			   LOOKUP(has_preferred_many,
				  "numa_has_preferred_many") &&
			   LOOKUP(set_preferred_many,
				  "numa_set_preferred_many") &&
			   LOOKUP(migrate_pages, "numa_migrate_pages")) {
			loaded = 1;
		}
	}
	if (loaded < 0) {
		snprintf(err, errlen, "%s", failure);
		return NULL;
	}
	return &api;
}

int
numaload_loaded(void)
{
	return loaded > 0;
}
