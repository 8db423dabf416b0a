// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Error wording: err_set() and err_ret() fill a caller's message
 * buffer, read_strerror() names the errors of cpm's file readers.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"

const char *
read_strerror(int r)
{
	switch (r) {
	case -EFTYPE_CPM:
		return "not a regular file";
	case -EFBIG:
		return "file too large";
	case -EILSEQ:
		return "holds a NUL byte";
	case -EMLINK:
		return "a file hard-linked from elsewhere";
	default:
		return strerror(-r);
	}
}

void
err_vset(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (err != NULL && errlen > 0)
		vsnprintf(err, errlen, fmt, ap);
}

void
err_set(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, errlen, fmt, ap);
	va_end(ap);
}

int
err_ret(char *err, size_t errlen, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, errlen, fmt, ap);
	va_end(ap);
	return r;
}
