/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A tiny unit-test helper: each CHECK prints "ok - NAME" or "not ok". */
#ifndef CPM_UNIT_H
#define CPM_UNIT_H

#include <stdio.h>
#include <stdlib.h>

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

#endif
