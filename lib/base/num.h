/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers: strict parsing of decimal numbers, durations and sizes
 * (full range checks, no octal, no sign where none belongs) and
 * formatting of integers without printf.
 */
#ifndef CPM_NUM_H
#define CPM_NUM_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a whole string as an unsigned decimal number no larger than max.
 * No sign, no leading/trailing space, no "0x", no leading zeros except "0"
 * itself.  Returns 0, -EINVAL (not a number) or -ERANGE (above max).
 */
int parse_u64(const char *s, uint64_t max, uint64_t *out);

/* Like parse_u64() but for a signed value within [min, max]. */
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);

/* parse_u64() into an unsigned int no larger than max. */
int parse_uint(const char *s, unsigned int max, unsigned int *out);

/*
 * Parse a duration with a mandatory unit "us", "ms" or "s"; the number may
 * have a fraction ("1.5s").  Result in microseconds.  Returns 0, -EINVAL
 * or -ERANGE.
 */
int parse_duration_us(const char *s, uint64_t *out_us);

/*
 * Parse a memory size: a whole number with an optional binary suffix
 * K/M/G/T (also Ki/Mi/Gi/Ti, KiB/MiB/...), or Kubernetes decimal k/M/G/T.
 * Plain numbers are bytes.  Returns 0, -EINVAL or -ERANGE.
 */
int parse_size_bytes(const char *s, uint64_t *out);

/*
 * fmt_int() writes v into buf (at least 21 bytes, NUL-terminated) in
 * decimal and returns its length: for output of thousands of numbers.
 */
size_t fmt_int(char *buf, long long v);

#endif
