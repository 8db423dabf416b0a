/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sorting and de-duplicating arrays of ints.
 */
#ifndef CPM_SORT_H
#define CPM_SORT_H

#include <stddef.h>

/*
 * Sort v[0..n) in ascending order: O(n) (a radix sort, or nothing when v
 * is sorted already) where qsort(3) costs O(n log n) comparison calls.
 * Falls back to qsort(3) when it cannot allocate its buffer.
 */
void sort_ints(int *v, size_t n);

/*
 * Sort v[0..n) and drop repeated values; returns how many are left.
 * O(n + largest value) for small non-negative ids (a bitmap), else a
 * sort_ints() and one pass.
 */
size_t uniq_ints(int *v, size_t n);

#endif
