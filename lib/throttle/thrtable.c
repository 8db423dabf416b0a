// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/numfmt.h"
#include "base/strbuf.h"
#include "cgroup/cgroup.h"
#include "throttle/thrtable.h"

enum { C_GROUP, C_PERIODS, C_THROTTLED, C_RATIO, C_THROTTLED_S, C_LIMIT,
       C_USAGE, C_RESET, C_PINNED, C_QOS, C_POD, C_CONTAINER, C_UNIT,
       C_BURSTS, C_BURST_S, C_PSI, C_NCOLS = C_PSI + 2 * THR_PSI_NRES };

const struct table_column thr_columns[] = {
	[C_GROUP] = { "GROUP", "group", 0, 0 },
	[C_PERIODS] = { "PERIODS", "periods", TABLE_RIGHT, 0 },
	[C_THROTTLED] = { "THROTTLED", "throttled", TABLE_RIGHT, 0 },
	[C_RATIO] = { "RATIO", "ratio", TABLE_RIGHT, 0 },
	[C_THROTTLED_S] = { "THROTTLED_S", "throttled_s", TABLE_RIGHT, 0 },
	[C_LIMIT] = { "LIMIT", "limit", TABLE_RIGHT, 0 },
	[C_USAGE] = { "USAGE", "usage", TABLE_RIGHT, 0 },
	[C_RESET] = { "RESET", "reset", 0, 0 },
	[C_PINNED] = { "PINNED_THROTTLED", "pinned_throttled", 0, 0 },
	[C_QOS] = { "QOS", "qos", 0, 0 },
	[C_POD] = { "POD", "pod", 0, 0 },
	[C_CONTAINER] = { "CONTAINER", "container", 0, 0 },
	[C_UNIT] = { "UNIT", "unit", 0, 0 },
	[C_BURSTS] = { "BURSTS", "bursts", TABLE_RIGHT, 0 },
	[C_BURST_S] = { "BURST_S", "burst_s", TABLE_RIGHT, 0 },
	[C_PSI] = { "PSI_SOME", "psi_some", TABLE_RIGHT, 0 },
	[C_PSI + 1] = { "PSI_FULL", "psi_full", TABLE_RIGHT, 0 },
	[C_PSI + 2] = { "PSI_MEM_SOME", "psi_mem_some", TABLE_RIGHT, 0 },
	[C_PSI + 3] = { "PSI_MEM_FULL", "psi_mem_full", TABLE_RIGHT, 0 },
	[C_PSI + 4] = { "PSI_IO_SOME", "psi_io_some", TABLE_RIGHT, 0 },
	[C_PSI + 5] = { "PSI_IO_FULL", "psi_io_full", TABLE_RIGHT, 0 },
};

const size_t thr_ncolumns = C_NCOLS;

const char *
thr_default_columns(bool k8s, bool systemd, bool json)
{
	static const char *const lists[8] = {
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE",
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE,QOS,POD,CONTAINER",
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE,UNIT",
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE,QOS,POD,CONTAINER,UNIT",
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE,RESET,PINNED_THROTTLED",
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE,RESET,PINNED_THROTTLED,QOS,POD,CONTAINER",
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE,RESET,PINNED_THROTTLED,UNIT",
		"GROUP,PERIODS,THROTTLED,RATIO,THROTTLED_S,LIMIT,USAGE,RESET,PINNED_THROTTLED,QOS,POD,CONTAINER,UNIT",
	};

	return lists[(json ? 4 : 0) + (systemd ? 2 : 0) + (k8s ? 1 : 0)];
}

const char *
thr_json_columns(bool k8s, bool systemd, unsigned int psi, char *buf,
		 size_t size)
{
	snprintf(buf, size, "%s,BURSTS,BURST_S%s%s%s",
		 thr_default_columns(k8s, systemd, true),
		 psi & (1u << THR_PSI_CPU) ? ",PSI_SOME,PSI_FULL" : "",
		 psi & (1u << THR_PSI_MEMORY) ? ",PSI_MEM_SOME,PSI_MEM_FULL" : "",
		 psi & (1u << THR_PSI_IO) ? ",PSI_IO_SOME,PSI_IO_FULL" : "");
	return buf;
}

unsigned int
thr_columns_psi(const char *columns)
{
	struct table tab;
	unsigned int m = 0;
	char err[256];

	if (columns == NULL)
		return 0;
	table_init(&tab, thr_columns, C_NCOLS, " ");
	if (table_select(&tab, columns, err, sizeof(err)) < 0)
		return 0;
	for (size_t i = 0; i < tab.nsel; i++)
		if (tab.sel[i] >= C_PSI)
			m |= 1u << ((tab.sel[i] - C_PSI) / 2);
	table_free(&tab);
	return m;
}

/*
 * A fraction: text with 3 decimals, JSON with json_decimals; in CPUs
 * (cpus) the text drops trailing zeros.  Negative: none and null.
 */
static void
set_fraction(struct table *tab, size_t row, size_t col, double v,
	     int json_decimals, bool cpus, const char *none, bool with_json)
{
	char text[NUMFMT_MAX], json[NUMFMT_MAX];
	char *e;

	if (v < 0 || !isfinite(v)) {
		table_set(tab, row, col, none, NULL);
		return;
	}
	e = text + numfmt_fixed(text, v, 3);
	if (cpus) {
		while (e > text && e[-1] == '0')
			*--e = '\0';
		if (e > text && e[-1] == '.')
			*--e = '\0';
	}
	if (with_json)
		numfmt_fixed(json, v, json_decimals);
	table_set(tab, row, col, text, with_json ? json : NULL);
}

static void
set_count(struct table *tab, size_t row, size_t col, uint64_t v,
	  bool with_json)
{
	char buf[NUMFMT_MAX];

	numfmt_u64(buf, v);
	table_set(tab, row, col, buf, with_json ? buf : NULL);
}

/* A string cell; its JSON literal only when with_json. */
static void
set_str(struct table *tab, size_t row, size_t col, const char *v,
	bool with_json)
{
	if (with_json)
		table_set_str(tab, row, col, v);
	else
		table_set(tab, row, col, v, NULL);
}

static void
set_bool(struct table *tab, size_t row, size_t col, bool v, bool with_json)
{
	if (with_json)
		table_set_bool(tab, row, col, v);
	else
		table_set(tab, row, col, v ? "yes" : "no", NULL);
}

#define WANT(c) (want == NULL || want[c])

/* The burst and pressure cells of fill(). */
static void
fill_more(struct table *tab, size_t row, const struct thr_row *tr,
	  const bool *want, bool js)
{
	if (WANT(C_BURSTS)) {
		if (tr->has_burst)
			set_count(tab, row, C_BURSTS, tr->bursts, js);
		else
			table_set(tab, row, C_BURSTS, "-", NULL);
	}
	if (WANT(C_BURST_S))
		set_fraction(tab, row, C_BURST_S,
			     tr->has_burst ? tr->burst_s : -1.0, 9, false, "-",
			     js);
	for (size_t k = 0; k < THR_PSI_NRES; k++) {
		if (WANT(C_PSI + 2 * k))
			set_fraction(tab, row, C_PSI + 2 * k, tr->psi_some[k],
				     6, false, "-", js);
		if (WANT(C_PSI + 2 * k + 1))
			set_fraction(tab, row, C_PSI + 2 * k + 1,
				     tr->psi_full[k], 6, false, "-", js);
	}
}

/*
 * Fill the cells of the columns in want[] (all when want is NULL), with
 * their JSON values when js.
 */
static int
fill(const struct thr_row *rows, size_t n, const bool *want, bool js,
     struct table *tab)
{
	size_t i;
	int r;

	for (i = 0; i < n; i++) {
		const struct thr_row *tr = &rows[i];
		const struct thr_ident *id = thr_row_ident(tr);
		size_t row;

		if ((r = table_add_row(tab)) < 0)
			break;
		row = (size_t)r;
		if (WANT(C_GROUP))
			set_str(tab, row, C_GROUP, cg_display(tr->group), js);
		if (WANT(C_PERIODS))
			set_count(tab, row, C_PERIODS, tr->periods, js);
		if (WANT(C_THROTTLED))
			set_count(tab, row, C_THROTTLED, tr->throttled, js);
		if (WANT(C_RATIO))
			set_fraction(tab, row, C_RATIO, tr->ratio, 6, false,
				     "-", js);
		if (WANT(C_THROTTLED_S))
			set_fraction(tab, row, C_THROTTLED_S, tr->throttled_s,
				     9, false, "-", js);
		if (WANT(C_LIMIT))
			set_fraction(tab, row, C_LIMIT, tr->limit, 6, true,
				     "max", js);
		if (WANT(C_USAGE))
			set_fraction(tab, row, C_USAGE, tr->usage, 6, true,
				     "-", js);
		if (WANT(C_RESET))
			set_bool(tab, row, C_RESET, tr->reset, js);
		if (WANT(C_PINNED))
			set_bool(tab, row, C_PINNED, tr->pinned, js);
		if (WANT(C_QOS))
			set_str(tab, row, C_QOS,
				id->k8s.qos[0] ? id->k8s.qos : NULL, js);
		if (WANT(C_POD))
			set_str(tab, row, C_POD,
				id->k8s.pod[0] ? id->k8s.pod : NULL, js);
		if (WANT(C_CONTAINER))
			set_str(tab, row, C_CONTAINER,
				id->k8s.container[0] ? id->k8s.container : NULL,
				js);
		if (WANT(C_UNIT))
			set_str(tab, row, C_UNIT, id->unit[0] ? id->unit : NULL,
				js);
		fill_more(tab, row, tr, want, js);
	}
#undef WANT
	if (tab->oom) {
		table_free(tab);
		return -ENOMEM;
	}
	return 0;
}

int
thr_table(const struct thr_row *rows, size_t n, struct table *tab)
{
	char err[256];

	table_init(tab, thr_columns, C_NCOLS, "  ");
	table_select(tab, thr_default_columns(false, false, false), err,
		     sizeof(err));
	return fill(rows, n, NULL, true, tab);
}

/* tab with the report's columns and the list columns selected; want[]
 * tells which those are.  Returns 0 or -EINVAL (message in err). */
static int
select_columns(struct table *tab, const char *columns, bool *want, char *err,
	       size_t errlen)
{
	int r;

	table_init(tab, thr_columns, C_NCOLS, "  ");
	r = table_select(tab, columns, err, errlen);
	if (r < 0)
		return r;
	for (size_t i = 0; i < tab->nsel; i++)
		want[tab->sel[i]] = true;
	return 0;
}

int
thr_table_select(const struct thr_row *rows, size_t n, const char *columns,
		 bool json, struct table *tab, char *err, size_t errlen)
{
	bool want[C_NCOLS] = { false };
	int r;

	r = select_columns(tab, columns, want, err, errlen);
	if (r < 0)
		return r;
	return fill(rows, n, want, json, tab);
}

int
thr_table_text(const struct thr_row *rows, size_t n, const char *columns,
	       enum table_format fmt, bool headings, struct strbuf *sb,
	       int (*flush)(struct strbuf *sb, void *arg), void *arg,
	       char *err, size_t errlen)
{
	size_t slice = fmt == TABLE_ALIGNED ? n : THR_SLICE, i = 0;
	bool want[C_NCOLS] = { false };
	struct table tab;
	int r;

	r = select_columns(&tab, columns, want, err, errlen);
	if (r < 0)
		return r;
	/* Once with no rows: the header alone. */
	do {
		size_t m = n - i < slice ? n - i : slice;

		r = fill(rows + i, m, want, false, &tab);
		if (r < 0)
			return r;	/* tab was freed */
		r = table_print(&tab, fmt, headings && i == 0, sb);
		table_clear_rows(&tab);
		if (r == 0 && flush)
			r = flush(sb, arg);
		i += m;
	} while (r == 0 && i < n);
	table_free(&tab);
	return r;
}
