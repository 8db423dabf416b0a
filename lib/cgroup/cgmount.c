// SPDX-License-Identifier: GPL-2.0-or-later
/* The cgroup mounts of /proc/self/mountinfo: see cgmount.h. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "cgroup/cgmount.h"

/* The next space-separated field of line [*p, end): its start, length. */
static bool
field(const char **p, const char *end, const char **f, size_t *n)
{
	const char *s = *p, *e;

	while (s < end && *s == ' ')
		s++;
	if (s >= end)
		return false;
	e = memchr(s, ' ', (size_t)(end - s));
	if (e == NULL)
		e = end;
	*f = s;
	*n = (size_t)(e - s);
	*p = e;
	return true;
}

/* Whether the comma-separated list [s, s + n) holds word. */
static bool
listed(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word);
	const char *end = s + n;

	while (s < end) {
		const char *c = memchr(s, ',', (size_t)(end - s));
		size_t len = (size_t)((c ? c : end) - s);

		if (len == w && memcmp(s, word, w) == 0)
			return true;
		s += len + 1;
	}
	return false;
}

/* The kernel's octal escapes ("\040") of [s, s + n) undone into out. */
static int
unescape(const char *s, size_t n, char *out, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\' && i + 3 < n &&
		    s[i + 1] >= '0' && s[i + 1] <= '3' &&
		    s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			c = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
				   (s[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= size)
			return -ENAMETOOLONG;
		out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

int
cg_mountinfo_find(const char *text, const char *ctrl, char *path,
		  size_t size)
{
	const char *line = text;

	while (*line != '\0') {
		const char *eol = strchr(line, '\n');
		const char *end = eol ? eol : line + strlen(line);
		const char *p = line, *f, *mnt = NULL, *type, *opts;
		size_t n, mntn = 0, typen, optsn;
		int i;
		bool dash = false;

		/* ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS [TAGS...] -
		 * TYPE SOURCE SUPER-OPTIONS */
		for (i = 0; field(&p, end, &f, &n); i++) {
			if (i == 4) {
				mnt = f;
				mntn = n;
			}
			if (i >= 6 && n == 1 && *f == '-') {
				dash = true;
				break;
			}
		}
		line = eol ? eol + 1 : end;
		if (!dash || mnt == NULL || !field(&p, end, &type, &typen) ||
		    !field(&p, end, &f, &n) || !field(&p, end, &opts, &optsn))
			continue;
		if (ctrl == NULL
			    ? typen == 7 && memcmp(type, "cgroup2", 7) == 0
			    : typen == 6 && memcmp(type, "cgroup", 6) == 0 &&
				      listed(opts, optsn, ctrl))
			return unescape(mnt, mntn, path, size) < 0
				       ? -ENAMETOOLONG : 1;
	}
	return 0;
}
