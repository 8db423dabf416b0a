/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small operations on strings: trimming, prefixes, UTF-8 sequences.
 */
#ifndef CPM_STRUTILS_H
#define CPM_STRUTILS_H

#include <stdbool.h>
#include <stddef.h>

/* Strip leading and trailing white space in place; returns s. */
char *strstrip(char *s);

/* True when s starts with prefix. */
bool startswith(const char *s, const char *prefix);

/*
 * The length of the well-formed UTF-8 sequence at p, of at most avail
 * bytes (Unicode's table 3-7, RFC 3629: no overlong forms, no surrogates,
 * nothing above U+10FFFF): 1 for ASCII, 2 to 4, or 0 when it is not one.
 * On a NUL-terminated string avail may be SIZE_MAX: a NUL ends the check.
 */
size_t utf8_seq_len(const unsigned char *p, size_t avail);

#endif
