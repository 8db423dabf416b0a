/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time: the monotonic clock cpm measures waits and runs with.
 */
#ifndef CPM_TIMEUTIL_H
#define CPM_TIMEUTIL_H

#include <stdint.h>

/* Monotonic clock in microseconds. */
uint64_t now_us(void);

#endif
