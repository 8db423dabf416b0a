// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * String trimming and prefix tests (strutils.h).
 */

#include <stdbool.h>
#include <string.h>

#include "base/strutils.h"

char *
strstrip(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' ||
			 e[-1] == '\r'))
		*--e = '\0';
	return s;
}

bool
startswith(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}
