/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small operations on NUL-terminated strings.
 */
#ifndef CPM_STRUTILS_H
#define CPM_STRUTILS_H

#include <stdbool.h>

/* Strip leading and trailing white space in place; returns s. */
char *strstrip(char *s);

/* True when s starts with prefix. */
bool startswith(const char *s, const char *prefix);

#endif
