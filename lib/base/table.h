/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One output layer for every table cpm prints.  A tool defines its
 * columns once (header name, JSON key, alignment); it fills rows with
 * cells that carry both their text and their JSON value; the table then
 * prints the selected columns as an aligned table, raw (one space between
 * cells, no padding), TSV, key=value lines, or as JSON (an array of
 * objects, or one row's object).
 *
 * Column lists are comma-separated header names, case-insensitive, as
 * lsblk -o and lscpu -e=LIST take them.
 *
 * Text output escapes what would break a line apart: control bytes become
 * \xHH in every format; raw output also escapes the space and the
 * backslash (lsblk --raw's rule), so every raw row splits on spaces.
 */
#ifndef CPM_TABLE_H
#define CPM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/json.h"
#include "base/strbuf.h"

#define TABLE_RIGHT	0x1	/* right-align in aligned tables */
/* In TABLE_LABELLED output: */
#define TABLE_BARE	0x2	/* the text alone, without "name: " */
#define TABLE_OPTIONAL	0x4	/* no line when the text is unset */
#define TABLE_ROWLABEL	0x8	/* "name text" names the row's other lines */

#define TABLE_MAX_SELECT 64	/* columns one selection may name */

struct table_column {
	const char *name;	/* header: "CPU" */
	const char *key;	/* JSON key: "cpu" */
	unsigned int flags;	/* TABLE_RIGHT */
	int min_width;		/* aligned width at least this (0: none) */
};

struct table_cell {
	char *text;		/* NULL: "-" */
	char *json;		/* JSON literal; NULL: null */
};

enum table_format {
	TABLE_ALIGNED,		/* padded columns, separated by sep */
	TABLE_RAW,		/* one space between cells, no padding */
	TABLE_TSV,		/* one tab between cells, no padding */
	TABLE_PAIRS,		/* one KEY=text line per cell, KEY the JSON
				 * key; an empty line between rows */
	/*
	 * One "name: text" line per cell, the column's name in lower case
	 * ("mempolicy: bind 0"), rows one after the other; see the flags
	 * above: a row labelled by a TABLE_ROWLABEL column prints
	 * "thread 12: 0-1".  No heading.
	 */
	TABLE_LABELLED,
};

struct table {
	const struct table_column *cols;
	size_t ncols;
	const char *sep;	/* between aligned columns: " ", "  " */
	size_t sel[TABLE_MAX_SELECT];
	size_t nsel;
	struct table_cell *cells;	/* nrows * ncols */
	size_t nrows, cap;
	struct arena arena;	/* where the cells' strings live */
	bool oom;		/* a cell could not be stored */
};

/* A table of ncols columns with no rows and every column selected. */
void table_init(struct table *t, const struct table_column *cols,
		size_t ncols, const char *sep);
void table_free(struct table *t);

/*
 * Select the columns to print, in the order of list ("CPU,node").
 * Returns 0, or -EINVAL with a message naming the unknown column and the
 * valid ones (or the empty name, or too many columns) in err; the
 * selection is then unchanged.
 */
int table_select(struct table *t, const char *list, char *err, size_t errlen);

/* Index of the column named name (case-insensitive), or -1. */
int table_column(const struct table *t, const char *name);

/* "CPU, NODE, ..." : every column name, for help and messages. */
void table_column_names(const struct table *t, struct strbuf *sb);

/* Append a row of unset cells; returns its index, or -ENOMEM. */
int table_add_row(struct table *t);
/*
 * Drop every row, keeping the memory of the cells and of one block of
 * text for the rows that come next: a table printed a slice of rows at
 * a time does not grow with the rows.
 */
void table_clear_rows(struct table *t);

/*
 * Cell setters.  text NULL prints "-", json NULL is null.  A failed copy
 * sets t->oom, which table_print() reports.
 */
void table_set(struct table *t, size_t row, size_t col, const char *text,
	       const char *json);
/* A string: its text, a JSON string; NULL: "-" and null. */
void table_set_str(struct table *t, size_t row, size_t col, const char *s);
/* An integer; id < 0 means unknown ("-" and null) for table_set_id(). */
void table_set_int(struct table *t, size_t row, size_t col, int64_t v);
void table_set_uint(struct table *t, size_t row, size_t col, uint64_t v);
void table_set_id(struct table *t, size_t row, size_t col, int64_t id);
/* "yes"/"no" and true/false. */
void table_set_bool(struct table *t, size_t row, size_t col, bool v);

/*
 * Append the selected columns of every row to sb in fmt, with a header
 * line first when headings (never for TABLE_PAIRS or TABLE_LABELLED).
 * Returns 0, or
 * -ENOMEM.
 */
int table_print(const struct table *t, enum table_format fmt, bool headings,
		struct strbuf *sb);

/* Write the rows as a JSON array of objects of the selected columns. */
void table_json(const struct table *t, struct json *j);

/* Write row as one JSON object of the selected columns. */
void table_json_row(const struct table *t, size_t row, struct json *j);

/*
 * Write the selected columns of row as members of the JSON object being
 * written, for a record that has other members too.
 */
void table_json_members(const struct table *t, size_t row, struct json *j);

#endif
