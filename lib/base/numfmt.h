/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers as text without printf: the same bytes as "%llu", "%lld" and
 * "%.Nf", for output paths that print tens of thousands of them (a
 * throttling report over 10,000 groups formats 80,000 numbers; printf's
 * floating-point path costs over a thousand instructions each).
 */
#ifndef CPM_NUMFMT_H
#define CPM_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any number these functions write, with its NUL. */
#define NUMFMT_MAX 48

/* Write v in decimal to buf (NUMFMT_MAX bytes); returns its length. */
size_t numfmt_u64(char *buf, uint64_t v);
size_t numfmt_i64(char *buf, int64_t v);

/*
 * Write v with decimals (0..9) digits after the point, byte for byte as
 * snprintf("%.*f", decimals, v) does in the default rounding mode: the
 * exact binary value rounded half to even.  Negative, huge (2^53 or
 * more) or non-finite values and other precisions are passed to
 * snprintf.  Returns the length.
 */
size_t numfmt_fixed(char *buf, double v, int decimals);

#endif
