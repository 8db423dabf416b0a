/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Macros of the C language every part of cpm may use.
 */
#ifndef CPM_MACROS_H
#define CPM_MACROS_H

/* The number of elements of array a (not of a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
