// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tables: column definitions, cells holding text and JSON, and the
 * printers.  See table.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "base/num.h"
#include "base/strbuf.h"
#include "base/table.h"

#define TABLE_BLOCK_SIZE 16384

void
table_init(struct table *t, const struct table_column *cols, size_t ncols,
	   const char *sep)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	t->arena.block_size = TABLE_BLOCK_SIZE;
	t->cols = cols;
	t->ncols = ncols;
	t->sep = sep;
	for (i = 0; i < ncols && i < TABLE_MAX_SELECT; i++)
		t->sel[i] = i;
	t->nsel = i;
}

/*
 * The cells' strings live in blocks of one arena, freed together: a
 * table of 8,192 rows and ten columns made 160,000 malloc and free calls
 * when each string had its own.
 */
/* Room for len bytes and a NUL in the arena, or NULL (t->oom set). */
static char *
cell_alloc(struct table *t, size_t len)
{
	char *d = arena_alloc(&t->arena, len + 1, 1);

	if (d == NULL) {
		t->oom = true;
		return NULL;
	}
	d[len] = '\0';
	return d;
}

static char *
arena_dup(struct table *t, const char *s)
{
	size_t len;
	char *d;

	if (s == NULL)
		return NULL;
	len = strlen(s);
	d = cell_alloc(t, len);
	if (d)
		memcpy(d, s, len);
	return d;
}

void
table_free(struct table *t)
{
	arena_free(&t->arena);
	free(t->cells);
	t->cells = NULL;
	t->nrows = t->cap = 0;
}

int
table_column(const struct table *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		if (strcasecmp(t->cols[i].name, name) == 0)
			return (int)i;
	return -1;
}

void
table_column_names(const struct table *t, struct strbuf *sb)
{
	size_t i;

	for (i = 0; i < t->ncols; i++)
		strbuf_printf(sb, "%s%s", i ? ", " : "", t->cols[i].name);
}

int
table_select(struct table *t, const char *list, char *err, size_t errlen)
{
	size_t sel[TABLE_MAX_SELECT], n = 0;
	const char *p = list;

	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char name[64];
		int col;

		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0) {
			snprintf(err, errlen, "empty column name in '%s'", list);
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		col = len < sizeof(name) ? table_column(t, name) : -1;
		if (col < 0) {
			struct strbuf sb;

			strbuf_init(&sb);
			table_column_names(t, &sb);
			snprintf(err, errlen, "unknown column '%.*s' (valid: %s)",
				 (int)(len > 40 ? 40 : len), p,
				 sb.buf ? sb.buf : "");
			strbuf_free(&sb);
			return -EINVAL;
		}
		if (n == TABLE_MAX_SELECT) {
			snprintf(err, errlen, "too many columns (at most %d)",
				 TABLE_MAX_SELECT);
			return -EINVAL;
		}
		sel[n++] = (size_t)col;
		if (end == NULL)
			break;
		p = end + 1;
	}
	memcpy(t->sel, sel, n * sizeof(sel[0]));
	t->nsel = n;
	return 0;
}

int
table_add_row(struct table *t)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct table_cell *c;

		c = reallocarray(t->cells, cap * t->ncols, sizeof(*c));
		if (c == NULL) {
			t->oom = true;
			return -ENOMEM;
		}
		t->cells = c;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0,
	       t->ncols * sizeof(*t->cells));
	return (int)t->nrows++;
}

void
table_clear_rows(struct table *t)
{
	t->nrows = 0;
	arena_reset(&t->arena);
}

void
table_set(struct table *t, size_t row, size_t col, const char *text,
	  const char *json)
{
	struct table_cell *c;

	if (row >= t->nrows || col >= t->ncols)
		return;
	c = &t->cells[row * t->ncols + col];
	c->text = arena_dup(t, text);
	/* Numbers read the same in both: one copy. */
	if (json && text && (json == text || strcmp(json, text) == 0))
		c->json = c->text;
	else
		c->json = arena_dup(t, json);
}

/* Bytes a JSON string may hold as they are (json_quote() leaves them). */
static bool
json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

void
table_set_str(struct table *t, size_t row, size_t col, const char *s)
{
	struct table_cell *c;
	struct strbuf q;
	size_t len;
	char *d;

	if (s == NULL || row >= t->nrows || col >= t->ncols) {
		table_set(t, row, col, NULL, NULL);
		return;
	}
	for (len = 0; json_plain((unsigned char)s[len]); len++)
		;
	if (s[len] == '\0') {
		/* Plain text: its JSON is itself in quotes, made here. */
		c = &t->cells[row * t->ncols + col];
		c->text = arena_dup(t, s);
		d = cell_alloc(t, len + 2);
		if (d) {
			d[0] = '"';
			memcpy(d + 1, s, len);
			d[len + 1] = '"';
		}
		c->json = d;
		return;
	}
	strbuf_init(&q);
	json_quote(&q, s);
	if (q.oom)
		t->oom = true;
	else
		table_set(t, row, col, s, q.buf);
	strbuf_free(&q);
}

void
table_set_int(struct table *t, size_t row, size_t col, int64_t v)
{
	char buf[32];

	fmt_int(buf, (long long)v);
	table_set(t, row, col, buf, buf);
}

void
table_set_uint(struct table *t, size_t row, size_t col, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	table_set(t, row, col, buf, buf);
}

void
table_set_id(struct table *t, size_t row, size_t col, int64_t id)
{
	if (id < 0)
		table_set(t, row, col, NULL, NULL);
	else
		table_set_int(t, row, col, id);
}

void
table_set_bool(struct table *t, size_t row, size_t col, bool v)
{
	table_set(t, row, col, v ? "yes" : "no", v ? "true" : "false");
}

static bool
must_escape(unsigned char c, enum table_format fmt)
{
	return c < 0x20 || c == 0x7f ||
	       (fmt == TABLE_RAW && (c == ' ' || c == '\\'));
}

/* Characters the escaped text takes on a terminal (UTF-8 aware). */
static size_t
text_width(const char *s, enum table_format fmt)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t w = 0;

	for (; *p; p++) {
		if (must_escape(*p, fmt))
			w += 4;
		else if ((*p & 0xc0) != 0x80)
			w++;
	}
	return w;
}

/* s, escaped: the runs between escapes are added whole. */
static void
put_text(struct strbuf *sb, const char *s, enum table_format fmt)
{
	const unsigned char *p = (const unsigned char *)s, *run = p;

	for (; *p; p++) {
		if (!must_escape(*p, fmt))
			continue;
		strbuf_add(sb, (const char *)run, (size_t)(p - run));
		strbuf_printf(sb, "\\x%02x", *p);
		run = p + 1;
	}
	strbuf_add(sb, (const char *)run, (size_t)(p - run));
}

static void
put_spaces(struct strbuf *sb, size_t n)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		strbuf_add(sb, spaces, k);
		n -= k;
	}
}

static const char *
cell_text(const struct table *t, size_t row, size_t col)
{
	const char *s = t->cells[row * t->ncols + col].text;

	return s ? s : "-";
}

/*
 * The length of s in *len, and whether it is plain: no byte any text
 * format escapes (must_escape(), with TABLE_RAW's space and backslash)
 * and none past ASCII, so that it prints as it is, one column a byte.
 */
static bool
plain_text(const char *s, size_t *len)
{
	bool plain = true;
	size_t n;

	for (n = 0; s[n] != '\0'; n++) {
		unsigned char c = (unsigned char)s[n];

		if (c <= ' ' || c >= 0x7f || c == '\\')
			plain = false;
	}
	*len = n;
	return plain;
}

/*
 * One line: the header when row == nrows, else that row; sep (seplen
 * bytes) between cells.
 */
static void
put_line(const struct table *t, size_t row, enum table_format fmt,
	 const size_t *width, const char *sep, size_t seplen,
	 struct strbuf *sb)
{
	const char *text[TABLE_MAX_SELECT];
	size_t len[TABLE_MAX_SELECT], i, need = 1;

	/*
	 * A row of plain cells (nearly every row) goes straight into room
	 * made once: a table of 10,000 rows made 70,000 strbuf_add() calls
	 * of a few bytes each, after a scan of every cell for escapes and,
	 * aligned, another for its width.
	 */
	for (i = 0; i < t->nsel && row < t->nrows; i++) {
		text[i] = cell_text(t, row, t->sel[i]);
		if (!plain_text(text[i], &len[i]))
			break;
		need += seplen + (fmt == TABLE_ALIGNED ? width[i] : len[i]);
	}
	if (row < t->nrows && i == t->nsel && t->nsel > 0) {
		char *p;

		if (!strbuf_reserve(sb, need))
			return;
		p = sb->buf + sb->len;
		for (i = 0; i < t->nsel; i++) {
			unsigned int flags = t->cols[t->sel[i]].flags;
			size_t pad = fmt == TABLE_ALIGNED ? width[i] - len[i] : 0;

			if (i > 0 && seplen == 1) {
				*p++ = *sep;
			} else if (i > 0) {
				memcpy(p, sep, seplen);
				p += seplen;
			}
			if (pad > 0 && (flags & TABLE_RIGHT)) {
				memset(p, ' ', pad);
				p += pad;
			}
			memcpy(p, text[i], len[i]);
			p += len[i];
			if (pad > 0 && !(flags & TABLE_RIGHT) && i + 1 < t->nsel) {
				memset(p, ' ', pad);
				p += pad;
			}
		}
		*p++ = '\n';
		*p = '\0';
		sb->len = (size_t)(p - sb->buf);
		return;
	}
	for (i = 0; i < t->nsel; i++) {
		const struct table_column *col = &t->cols[t->sel[i]];
		const char *s = row == t->nrows ? col->name :
				cell_text(t, row, t->sel[i]);
		bool last = i + 1 == t->nsel;
		size_t w = 0;

		if (i > 0)
			strbuf_add(sb, sep, seplen);
		if (fmt == TABLE_ALIGNED) {
			w = text_width(s, fmt);
			if (col->flags & TABLE_RIGHT)
				put_spaces(sb, width[i] - w);
		}
		put_text(sb, s, fmt);
		if (fmt == TABLE_ALIGNED && !(col->flags & TABLE_RIGHT) &&
		    !last)
			put_spaces(sb, width[i] - w);
	}
	strbuf_add(sb, "\n", 1);
}

/* Every row as KEY=text lines, rows apart by an empty line. */
static void
put_pairs(const struct table *t, struct strbuf *sb)
{
	size_t row, i;

	for (row = 0; row < t->nrows; row++) {
		if (row > 0)
			strbuf_add(sb, "\n", 1);
		for (i = 0; i < t->nsel; i++) {
			strbuf_puts(sb, t->cols[t->sel[i]].key);
			strbuf_add(sb, "=", 1);
			put_text(sb, cell_text(t, row, t->sel[i]), TABLE_PAIRS);
			strbuf_add(sb, "\n", 1);
		}
	}
}

/* The column's name in lower case, as TABLE_LABELLED names a line. */
static void
put_lower_name(struct strbuf *sb, const struct table_column *col)
{
	const char *p;

	for (p = col->name; *p; p++) {
		char c = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;

		strbuf_add(sb, &c, 1);
	}
}

/* One row as TABLE_LABELLED lines. */
static void
put_labelled(const struct table *t, size_t row, struct strbuf *sb)
{
	const struct table_column *label = NULL;
	size_t i, label_col = 0;

	for (i = 0; i < t->nsel; i++)
		if (t->cols[t->sel[i]].flags & TABLE_ROWLABEL) {
			label = &t->cols[t->sel[i]];
			label_col = t->sel[i];
		}
	for (i = 0; i < t->nsel; i++) {
		const struct table_column *col = &t->cols[t->sel[i]];

		if (col == label || ((col->flags & TABLE_OPTIONAL) &&
		    t->cells[row * t->ncols + t->sel[i]].text == NULL))
			continue;
		if (!(col->flags & TABLE_BARE)) {
			put_lower_name(sb, label ? label : col);
			if (label) {
				strbuf_add(sb, " ", 1);
				put_text(sb, cell_text(t, row, label_col),
					 TABLE_LABELLED);
			}
			strbuf_puts(sb, ": ");
		}
		put_text(sb, cell_text(t, row, t->sel[i]), TABLE_LABELLED);
		strbuf_add(sb, "\n", 1);
	}
}

int
table_print(const struct table *t, enum table_format fmt, bool headings,
	    struct strbuf *sb)
{
	size_t width[TABLE_MAX_SELECT], i, row, seplen;
	const char *sep;

	if (t->oom)
		return -ENOMEM;
	if (fmt == TABLE_PAIRS) {
		put_pairs(t, sb);
		return sb->oom ? -ENOMEM : 0;
	}
	if (fmt == TABLE_LABELLED) {
		for (row = 0; row < t->nrows; row++)
			put_labelled(t, row, sb);
		return sb->oom ? -ENOMEM : 0;
	}
	sep = fmt == TABLE_ALIGNED ? t->sep : fmt == TABLE_TSV ? "\t" : " ";
	seplen = strlen(sep);
	/* Only an aligned table pads to widths. */
	for (i = 0; i < t->nsel && fmt == TABLE_ALIGNED; i++) {
		const struct table_column *col = &t->cols[t->sel[i]];

		width[i] = col->min_width > 0 ? (size_t)col->min_width : 0;
		if (headings && strlen(col->name) > width[i])
			width[i] = strlen(col->name);
		for (row = 0; row < t->nrows; row++) {
			size_t w = text_width(cell_text(t, row, t->sel[i]), fmt);

			if (w > width[i])
				width[i] = w;
		}
	}
	if (headings)
		put_line(t, t->nrows, fmt, width, sep, seplen, sb);
	for (row = 0; row < t->nrows; row++)
		put_line(t, row, fmt, width, sep, seplen, sb);
	return sb->oom ? -ENOMEM : 0;
}

void
table_json_members(const struct table *t, size_t row, struct json *j)
{
	size_t i;

	for (i = 0; row < t->nrows && i < t->nsel; i++) {
		const char *v = t->cells[row * t->ncols + t->sel[i]].json;

		json_key(j, t->cols[t->sel[i]].key);
		if (v)
			json_raw(j, v);
		else
			json_null(j);
	}
}

void
table_json_row(const struct table *t, size_t row, struct json *j)
{
	json_obj_begin(j);
	table_json_members(t, row, j);
	json_obj_end(j);
}

void
table_json(const struct table *t, struct json *j)
{
	size_t row;

	json_arr_begin(j);
	for (row = 0; row < t->nrows; row++)
		table_json_row(t, row, j);
	json_arr_end(j);
}
