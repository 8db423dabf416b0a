// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The monotonic clock (timeutil.h).
 */

#include <time.h>

#include "base/timeutil.h"

uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}
