// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small, strict JSON reader for the kubelet's cpu_manager_state.  It
 * knows just enough JSON to walk the document: objects, strings (with
 * escapes; only ASCII is accepted, as CPU lists and Kubernetes names are
 * ASCII), numbers, and it skips values of fields it does not know.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstate.h"
#include "state.h"
#include "util.h"

struct jp {
	const char *start, *p, *end;
	char *err;
	size_t errlen;
	int depth;
};

static int
jerr(struct jp *j, const char *what)
{
	if (j->errlen)
		snprintf(j->err, j->errlen, "%s at byte %zu", what,
			 (size_t)(j->p - j->start));
	return -EINVAL;
}

static void
ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool
eat(struct jp *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return true;
	}
	return false;
}

/* Parse a string into a malloc'ed buffer. */
static int
jstring(struct jp *j, char **out)
{
	struct strbuf sb;

	*out = NULL;
	if (!eat(j, '"'))
		return jerr(j, "expected a string");
	strbuf_init(&sb);
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p++;

		if (c < 0x20 || c >= 0x80) {
			strbuf_free(&sb);
			return jerr(j, "control or non-ASCII character in a string");
		}
		if (c == '\\') {
			if (j->p >= j->end)
				break;
			c = (unsigned char)*j->p++;
			switch (c) {
			case '"': case '\\': case '/':
				break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'n': c = '\n'; break;
			case 'r': c = '\r'; break;
			case 't': c = '\t'; break;
			case 'u': {
				unsigned int v = 0;
				int i;

				for (i = 0; i < 4; i++) {
					char h = j->p < j->end ? *j->p++ : 0;

					v <<= 4;
					if (h >= '0' && h <= '9')
						v |= (unsigned int)(h - '0');
					else if (h >= 'a' && h <= 'f')
						v |= (unsigned int)(h - 'a' + 10);
					else if (h >= 'A' && h <= 'F')
						v |= (unsigned int)(h - 'A' + 10);
					else {
						strbuf_free(&sb);
						return jerr(j, "bad \\u escape");
					}
				}
				if (v == 0 || v >= 0x80) {
					strbuf_free(&sb);
					return jerr(j, "non-ASCII \\u escape");
				}
				c = (unsigned char)v;
				break;
			}
			default:
				strbuf_free(&sb);
				return jerr(j, "bad escape in a string");
			}
		}
		strbuf_add(&sb, (const char *)&c, 1);
	}
	if (j->p >= j->end) {
		strbuf_free(&sb);
		return jerr(j, "unterminated string");
	}
	j->p++;
	if (sb.oom)
		return -ENOMEM;
	*out = sb.buf ? sb.buf : strdup("");
	return *out ? 0 : -ENOMEM;
}

static int
jnumber(struct jp *j, uint64_t *v, bool *is_uint)
{
	const char *s;
	uint64_t n = 0;
	bool ok = true;

	ws(j);
	s = j->p;
	if (j->p < j->end && *j->p == '-') {
		ok = false;
		j->p++;
	}
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return jerr(j, "expected a number");
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9') {
		if (n > (UINT64_MAX - 9) / 10)
			ok = false;
		n = n * 10 + (uint64_t)(*j->p++ - '0');
	}
	if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E')) {
		ok = false;
		while (j->p < j->end && *j->p && strchr("0123456789.eE+-", *j->p))
			j->p++;
	}
	if (s[0] == '0' && j->p - s > 1 && s[1] >= '0' && s[1] <= '9')
		return jerr(j, "number with a leading zero");
	*v = n;
	*is_uint = ok;
	return 0;
}

static int jskip(struct jp *j);

static int
jskip_container(struct jp *j, char close, bool object)
{
	int r;

	if (++j->depth > 64)
		return jerr(j, "nesting too deep");
	if (eat(j, close)) {
		j->depth--;
		return 0;
	}
	do {
		if (object) {
			char *k;

			if ((r = jstring(j, &k)) < 0)
				return r;
			free(k);
			if (!eat(j, ':'))
				return jerr(j, "expected ':'");
		}
		if ((r = jskip(j)) < 0)
			return r;
	} while (eat(j, ','));
	if (!eat(j, close))
		return jerr(j, object ? "expected ',' or '}'" :
			    "expected ',' or ']'");
	j->depth--;
	return 0;
}

static int
jskip(struct jp *j)
{
	uint64_t v;
	bool u;
	char *s;
	int r;

	ws(j);
	if (j->p >= j->end)
		return jerr(j, "unexpected end");
	switch (*j->p) {
	case '"':
		r = jstring(j, &s);
		free(s);
		return r;
	case '{':
		j->p++;
		return jskip_container(j, '}', true);
	case '[':
		j->p++;
		return jskip_container(j, ']', false);
	case 't':
		if (j->end - j->p >= 4 && !memcmp(j->p, "true", 4)) {
			j->p += 4;
			return 0;
		}
		break;
	case 'f':
		if (j->end - j->p >= 5 && !memcmp(j->p, "false", 5)) {
			j->p += 5;
			return 0;
		}
		break;
	case 'n':
		if (j->end - j->p >= 4 && !memcmp(j->p, "null", 4)) {
			j->p += 4;
			return 0;
		}
		break;
	default:
		return jnumber(j, &v, &u);
	}
	return jerr(j, "unexpected character");
}

static int
add_entry(struct kstate *ks, char *pod, char *container, char *cpus)
{
	struct kstate_entry *n, *e;
	size_t len;

	n = realloc(ks->entries, (size_t)(ks->nentries + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	ks->entries = n;
	e = &n[ks->nentries++];
	e->pod = pod;
	e->container = container;
	e->cpus = cpus;
	len = strlen(pod) + (container ? strlen(container) + 1 : 0) + 1;
	e->name = malloc(len);
	if (!e->name)
		return -ENOMEM;
	if (container)
		snprintf(e->name, len, "%s/%s", pod, container);
	else
		snprintf(e->name, len, "%s", pod);
	return 0;
}

/* "entries": object of id -> cpulist (v1) or pod -> {container -> cpulist}. */
static int
parse_entries(struct jp *j, struct kstate *ks)
{
	int r;

	if (!eat(j, '{'))
		return jerr(j, "\"entries\" is not an object");
	if (eat(j, '}'))
		return 0;
	do {
		char *key, *val;

		if ((r = jstring(j, &key)) < 0)
			return r;
		if (!eat(j, ':')) {
			free(key);
			return jerr(j, "expected ':'");
		}
		ws(j);
		if (j->p < j->end && *j->p == '"') {
			if (ks->version == 2) {
				free(key);
				return jerr(j, "\"entries\" mixes the v1 and v2 forms");
			}
			ks->version = 1;
			if ((r = jstring(j, &val)) < 0) {
				free(key);
				return r;
			}
			if ((r = add_entry(ks, key, NULL, val)) < 0)
				return r;
			continue;
		}
		if (ks->version == 1) {
			free(key);
			return jerr(j, "\"entries\" mixes the v1 and v2 forms");
		}
		ks->version = 2;
		if (!eat(j, '{')) {
			free(key);
			return jerr(j, "an entry is neither a cpulist nor an object");
		}
		if (eat(j, '}')) {
			free(key);
			continue;
		}
		do {
			char *c, *pod;

			if ((r = jstring(j, &c)) < 0) {
				free(key);
				return r;
			}
			if (!eat(j, ':')) {
				free(c);
				free(key);
				return jerr(j, "expected ':'");
			}
			if ((r = jstring(j, &val)) < 0) {
				free(c);
				free(key);
				return r;
			}
			if (!(pod = strdup(key))) {
				free(c);
				free(val);
				free(key);
				return -ENOMEM;
			}
			if ((r = add_entry(ks, pod, c, val)) < 0) {
				free(key);
				return r;
			}
		} while (eat(j, ','));
		free(key);
		if (!eat(j, '}'))
			return jerr(j, "expected ',' or '}'");
	} while (eat(j, ','));
	if (!eat(j, '}'))
		return jerr(j, "expected ',' or '}'");
	return 0;
}

static int
entry_cmp(const void *a, const void *b)
{
	const struct kstate_entry *x = a, *y = b;
	int c = strcmp(x->pod, y->pod);

	if (c || !x->container)
		return c;
	return strcmp(x->container, y->container);
}

int
kstate_parse(struct kstate *ks, const char *text, size_t len, char *err,
	     size_t errlen)
{
	struct jp j = { text, text, text + len, err, errlen, 0 };
	int r = 0;

	memset(ks, 0, sizeof(*ks));
	if (!eat(&j, '{'))
		return jerr(&j, "not a JSON object");
	if (!eat(&j, '}')) {
		do {
			char *key;

			if ((r = jstring(&j, &key)) < 0)
				goto fail;
			if (!eat(&j, ':')) {
				free(key);
				r = jerr(&j, "expected ':'");
				goto fail;
			}
			if (strcmp(key, "policyName") == 0 && !ks->policy) {
				r = jstring(&j, &ks->policy);
			} else if (strcmp(key, "defaultCpuSet") == 0 &&
				   !ks->default_set) {
				r = jstring(&j, &ks->default_set);
			} else if (strcmp(key, "entries") == 0 &&
				   !ks->nentries && !ks->version) {
				r = parse_entries(&j, ks);
			} else if (strcmp(key, "checksum") == 0 &&
				   !ks->have_checksum) {
				bool u;

				r = jnumber(&j, &ks->checksum, &u);
				if (r == 0 && (!u || ks->checksum > UINT32_MAX))
					r = jerr(&j, "\"checksum\" is not a 32-bit unsigned number");
				ks->have_checksum = true;
			} else {
				ks->unknown_fields = true;
				r = jskip(&j);
			}
			free(key);
			if (r < 0)
				goto fail;
		} while (eat(&j, ','));
		if (!eat(&j, '}')) {
			r = jerr(&j, "expected ',' or '}'");
			goto fail;
		}
	}
	ws(&j);
	if (j.p != j.end) {
		r = jerr(&j, "trailing data after the JSON object");
		goto fail;
	}
	if (!ks->policy) {
		r = -EINVAL;
		snprintf(err, errlen, "no \"policyName\" field");
		goto fail;
	}
	if (!ks->default_set && !(ks->default_set = strdup(""))) {
		r = -ENOMEM;
		goto fail;
	}
	if (ks->nentries > 1)
		qsort(ks->entries, (size_t)ks->nentries, sizeof(*ks->entries),
		      entry_cmp);
	return 0;
fail:
	kstate_free(ks);
	return r;
}

void
kstate_free(struct kstate *ks)
{
	int i;

	for (i = 0; i < ks->nentries; i++) {
		free(ks->entries[i].name);
		free(ks->entries[i].pod);
		free(ks->entries[i].container);
		free(ks->entries[i].cpus);
	}
	free(ks->entries);
	free(ks->policy);
	free(ks->default_set);
	memset(ks, 0, sizeof(*ks));
}

int
kstate_verify(const struct kstate *ks, uint32_t *computed)
{
	struct strbuf sb;
	int i;

	*computed = 0;
	if (!ks->have_checksum || ks->checksum == 0)
		return 0;
	if (ks->unknown_fields)
		return -ENOTSUP;
	/*
	 * go-spew's %#v of a *CPUManagerCheckpoint: type annotations on
	 * the struct and its fields, none inside maps, map keys sorted,
	 * strings unquoted.  A v1 file is verified with the v1 map type
	 * under the current struct name, as the kubelet does.
	 */
	strbuf_init(&sb);
	strbuf_printf(&sb, "(*state.CPUManagerCheckpoint){PolicyName:(string)%s"
		      " DefaultCPUSet:(string)%s Entries:(%s)map[",
		      ks->policy, ks->default_set, ks->version == 1 ?
		      "map[string]string" : "map[string]map[string]string");
	for (i = 0; i < ks->nentries; i++) {
		const struct kstate_entry *e = &ks->entries[i];
		bool first_of_pod = i == 0 ||
			strcmp(ks->entries[i - 1].pod, e->pod) != 0;
		bool last_of_pod = i == ks->nentries - 1 ||
			strcmp(ks->entries[i + 1].pod, e->pod) != 0;

		if (!e->container) {
			strbuf_printf(&sb, "%s%s:%s", i ? " " : "", e->pod,
				      e->cpus);
			continue;
		}
		if (first_of_pod)
			strbuf_printf(&sb, "%s%s:map[", i ? " " : "", e->pod);
		else
			strbuf_puts(&sb, " ");
		strbuf_printf(&sb, "%s:%s", e->container, e->cpus);
		if (last_of_pod)
			strbuf_puts(&sb, "]");
	}
	strbuf_puts(&sb, "] Checksum:(checksum.Checksum)0}");
	if (sb.oom) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	*computed = fnv1a32(FNV32_INIT, sb.buf, sb.len);
	strbuf_free(&sb);
	return *computed == (uint32_t)ks->checksum ? 0 : -EBADMSG;
}

int
kstate_load(struct kstate *ks, const char *path, bool verify, char *err,
	    size_t errlen)
{
	char *text, perr[512];
	size_t len;
	uint32_t sum;
	int r;

	r = read_file_at(AT_FDCWD, path, &text, &len, true);
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 r == -EILSEQ ? "it holds a NUL byte" :
			 read_strerror(r));
		return r;
	}
	/* Any parse failure, even out of memory, says it is no checkpoint. */
	r = kstate_parse(ks, text, len, perr, sizeof(perr));
	free(text);
	if (r < 0) {
		snprintf(err, errlen, "'%s' is not a kubelet CPU manager "
			 "checkpoint: %s", path, perr);
		return -EINVAL;
	}
	r = verify ? kstate_verify(ks, &sum) : 0;
	if (r == -EBADMSG) {
		snprintf(err, errlen, "'%s': checksum mismatch (stored %llu, "
			 "computed %u): the file is damaged, or a kubelet "
			 "older than cpm knows wrote it (--no-verify imports it "
			 "anyway)", path, (unsigned long long)ks->checksum, sum);
		r = -EINVAL;
	} else if (r == -ENOMEM) {
		snprintf(err, errlen, "out of memory");
	} else if (strcmp(ks->policy, "static") != 0) {
		snprintf(err, errlen, "'%s' is a checkpoint of the '%s' policy: "
			 "it holds no CPU assignments", path, ks->policy);
		r = -EINVAL;
	} else {
		return 0;
	}
	kstate_free(ks);
	return r;
}
