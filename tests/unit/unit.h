/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny unit-test helper: each CHECK prints "ok - NAME" or "not ok". */
#ifndef CPM_UNIT_H
#define CPM_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failed;

#define CHECK(name, cond) do {						\
	if (cond) {							\
		printf("ok - %s\n", name);				\
	} else {							\
		printf("not ok - %s\n# %s:%d: %s\n", name, __FILE__,	\
		       __LINE__, #cond);				\
		unit_failed = 1;					\
	}								\
} while (0)

#define CHECK_STR(name, got, want) do {					\
	const char *g_ = (got), *w_ = (want);				\
	if (g_ && w_ && strcmp(g_, w_) == 0) {				\
		printf("ok - %s\n", name);				\
	} else {							\
		printf("not ok - %s\n# got:  '%s'\n# want: '%s'\n",	\
		       name, g_ ? g_ : "(null)", w_ ? w_ : "(null)");	\
		unit_failed = 1;					\
	}								\
} while (0)

/* Write text into dir/file, as a fake kernel file. */
static inline void
unit_put(const char *dir, const char *file, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/*
 * The first line of dir/file without its newline, or "(missing)"; the
 * last four answers stay valid, so several can be compared at once.
 */
static inline const char *
unit_get(const char *dir, const char *file)
{
	static char buf[4][256];
	static int i;
	char path[1024];
	FILE *f;

	i = (i + 1) % 4;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f)
		return "(missing)";
	if (!fgets(buf[i], sizeof(buf[i]), f))
		buf[i][0] = '\0';
	fclose(f);
	buf[i][strcspn(buf[i], "\n")] = '\0';
	return buf[i];
}

/* Whether a library whose file name contains name is mapped here: 1, 0, or
 * -1 when /proc/self/maps cannot be read. */
static inline int
unit_lib_mapped(const char *name)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int found = 0;

	if (f == NULL)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, name))
			found = 1;
	fclose(f);
	return found;
}

#endif
