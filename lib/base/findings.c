// SPDX-License-Identifier: GPL-2.0-or-later
/* Findings as JSON: see findings.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/findings.h"

/* A level is one lower-case word before ": ". */
static size_t
level_len(const char *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] >= 'a' && p[i] <= 'z')
		i++;
	return i > 0 && i + 1 < n && p[i] == ':' && p[i + 1] == ' ' ? i : 0;
}

int
findings_json(const char *text, size_t len, struct json *j)
{
	const char *p = text, *end = text + len;

	json_arr_begin(j);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl : end) - p), k = level_len(p, n);
		char *level = strndup(k ? p : "warning", k ? k : 7);
		char *msg = strndup(k ? p + k + 2 : p, k ? n - k - 2 : n);

		if (level == NULL || msg == NULL) {
			free(level);
			free(msg);
			return -ENOMEM;
		}
		json_obj_begin(j);
		json_key(j, "level");
		json_str(j, level);
		json_key(j, "message");
		json_str(j, msg);
		json_obj_end(j);
		free(level);
		free(msg);
		p = nl ? nl + 1 : end;
	}
	json_arr_end(j);
	return j->sb->oom ? -ENOMEM : 0;
}
