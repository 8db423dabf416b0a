/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The throttle report as a table: the rows of cpm-throttle's table and
 * TSV output and the "groups" array of its JSON, defined once.
 *
 * Columns: GROUP PERIODS THROTTLED RATIO THROTTLED_S LIMIT USAGE RESET
 * PINNED_THROTTLED QOS POD CONTAINER UNIT BURSTS BURST_S PSI_SOME PSI_FULL
 * PSI_MEM_SOME PSI_MEM_FULL PSI_IO_SOME PSI_IO_FULL (pressure: the share
 * of the window, "-" and null where unknown).  Text shows RATIO and THROTTLED_S
 * with 3 decimals and LIMIT and USAGE in CPUs without trailing zeros
 * ("max" and "-" when unlimited or unknown); JSON carries 6 (THROTTLED_S:
 * 9) decimals and null.
 */
#ifndef CPM_THRTABLE_H
#define CPM_THRTABLE_H

#include <stdbool.h>

#include "base/strbuf.h"
#include "base/table.h"
#include "throttle/throttle.h"

extern const struct table_column thr_columns[];
extern const size_t thr_ncolumns;

/*
 * The default column list of the table and TSV, or of the JSON groups,
 * with the Kubernetes columns when k8s and UNIT when systemd.
 */
const char *thr_default_columns(bool k8s, bool systemd, bool json);

/*
 * The default members of the JSON groups: thr_default_columns()'s, the
 * burst counters, and the pressure of the resources in psi (bits
 * 1 << enum thr_psi_res), in buf.
 */
const char *thr_json_columns(bool k8s, bool systemd, unsigned int psi,
			     char *buf, size_t size);

/* The pressure resources the list columns names (0: none, or a bad list). */
unsigned int thr_columns_psi(const char *columns);

/*
 * Initialise tab with the report's columns (the default text selection
 * without k8s columns) and one row per row of rows.  Returns 0 or
 * -ENOMEM (tab is then freed).
 */
int thr_table(const struct thr_row *rows, size_t n, struct table *tab);

/*
 * The same with the columns of the list columns selected, and only their
 * cells filled, with their JSON values only when json (table_json() then
 * prints null for the rest): what printing the table needs, a fraction
 * of the work of thr_table().  Returns 0, -EINVAL (a bad list; message
 * in err, tab needs no freeing) or -ENOMEM (tab is freed).
 */
int thr_table_select(const struct thr_row *rows, size_t n,
		     const char *columns, bool json, struct table *tab,
		     char *err, size_t errlen);

/*
 * Append rows as text in fmt (aligned, raw or TSV) to sb, the columns of
 * the list columns, a header line first when headings: what
 * thr_table_select() and table_print() make, with less memory.  Raw and
 * TSV rows are filled and printed THR_SLICE at a time through one table
 * whose cells and text are reused, so that only the printed text grows
 * with the rows (10,000 groups: 2.5 MB of cells and their copies less);
 * an aligned table needs every row's width first and is filled whole.
 * With flush, the text in sb is handed to flush(sb, arg) after each
 * slice (which may empty sb), so that it need not be held whole either.
 * Returns 0, -EINVAL (a bad list; message in err, before any flush),
 * -ENOMEM or what flush returned when not 0.
 */
#define THR_SLICE 256
int thr_table_text(const struct thr_row *rows, size_t n,
		   const char *columns, enum table_format fmt, bool headings,
		   struct strbuf *sb, int (*flush)(struct strbuf *sb, void *arg),
		   void *arg, char *err, size_t errlen);

#endif
