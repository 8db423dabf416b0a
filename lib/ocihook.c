// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The OCI state and config.json a hook is given, the cpm.io/ annotations,
 * and the container's cpuset group.  See ocihook.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgcpuset.h"
#include "pingroup.h"
#include "cgowner.h"
#include "ocihook.h"
#include "proc.h"
#include "sdapply.h"
#include "sdbus.h"
#include "util.h"

/*
 * A small JSON reader: the whole document as a tree of values.  The OCI
 * documents are small (a state is a few KB, a config.json rarely more
 * than 100 KB) and read once, so a tree is simplest.
 */
enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jval {
	enum jtype type;
	char *s;		/* J_STR: the text; J_NUM: as written */
	bool b;
	size_t n;		/* members or elements */
	char **keys;		/* J_OBJ */
	struct jval *v;
};

struct jp {
	const char *start, *p, *end;
	char *err;
	size_t errlen;
	int depth;
};

#define JP_MAX_DEPTH 64

static int
jp_fail(struct jp *j, const char *what)
{
	return err_ret(j->err, j->errlen, -EINVAL, "%s at byte %zu", what,
		       (size_t)(j->p - j->start));
}

static void
jp_ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int
hex4(const char *p, unsigned int *out)
{
	unsigned int v = 0;
	int i;

	for (i = 0; i < 4; i++) {
		char c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned int)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static void
put_utf8(struct strbuf *sb, unsigned int c)
{
	char b[4];
	size_t n;

	if (c < 0x80) {
		b[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		b[0] = (char)(0xc0 | (c >> 6));
		b[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		b[0] = (char)(0xe0 | (c >> 12));
		b[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		b[0] = (char)(0xf0 | (c >> 18));
		b[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		b[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	strbuf_add(sb, b, n);
}

/* A string after its opening quote; NUL bytes (\u0000) are refused. */
static int
jp_string(struct jp *j, char **out)
{
	struct strbuf sb;
	unsigned int c, lo;

	strbuf_init(&sb);
	strbuf_puts(&sb, "");
	for (;;) {
		if (j->p >= j->end) {
			strbuf_free(&sb);
			return jp_fail(j, "unterminated string");
		}
		if (*j->p == '"') {
			j->p++;
			break;
		}
		if ((unsigned char)*j->p < 0x20) {
			strbuf_free(&sb);
			return jp_fail(j, "control character in a string");
		}
		if (*j->p != '\\') {
			strbuf_add(&sb, j->p++, 1);
			continue;
		}
		if (j->end - j->p < 2)
			goto bad;
		switch (j->p[1]) {
		case '"': case '\\': case '/':
			strbuf_add(&sb, j->p + 1, 1);
			break;
		case 'b': strbuf_puts(&sb, "\b"); break;
		case 'f': strbuf_puts(&sb, "\f"); break;
		case 'n': strbuf_puts(&sb, "\n"); break;
		case 'r': strbuf_puts(&sb, "\r"); break;
		case 't': strbuf_puts(&sb, "\t"); break;
		case 'u':
			if (j->end - j->p < 6 || hex4(j->p + 2, &c) < 0 ||
			    c == 0)
				goto bad;
			if (c >= 0xd800 && c < 0xdc00) {
				if (j->end - j->p < 12 || j->p[6] != '\\' ||
				    j->p[7] != 'u' || hex4(j->p + 8, &lo) < 0 ||
				    lo < 0xdc00 || lo > 0xdfff)
					goto bad;
				c = 0x10000 + ((c - 0xd800) << 10) +
				    (lo - 0xdc00);
				j->p += 6;
			} else if (c >= 0xdc00 && c <= 0xdfff) {
				goto bad;
			}
			put_utf8(&sb, c);
			j->p += 4;
			break;
		default:
			goto bad;
		}
		j->p += 2;
	}
	if (!sb.buf) {
		strbuf_free(&sb);
		return -ENOMEM;
	}
	*out = sb.buf;
	return 0;
bad:
	strbuf_free(&sb);
	return jp_fail(j, "invalid escape in a string");
}

static void
jval_free(struct jval *v)
{
	size_t i;

	if (!v)
		return;
	free(v->s);
	for (i = 0; i < v->n; i++) {
		if (v->keys)
			free(v->keys[i]);
		jval_free(&v->v[i]);
	}
	free(v->keys);
	free(v->v);
	memset(v, 0, sizeof(*v));
}

static int jp_value(struct jp *j, struct jval *v);

/* Append one element (and key) to a container value. */
static int
jp_push(struct jval *v, char *key, struct jval *elem)
{
	struct jval *nv = realloc(v->v, (v->n + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	v->v = nv;
	if (v->type == J_OBJ) {
		char **nk = realloc(v->keys, (v->n + 1) * sizeof(*nk));

		if (!nk)
			return -ENOMEM;
		v->keys = nk;
		v->keys[v->n] = key;
	}
	v->v[v->n++] = *elem;
	return 0;
}

static int
jp_container(struct jp *j, struct jval *v, bool object)
{
	char close = object ? '}' : ']';
	int r;

	if (++j->depth > JP_MAX_DEPTH)
		return jp_fail(j, "nested too deeply");
	v->type = object ? J_OBJ : J_ARR;
	jp_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		struct jval elem;
		char *key = NULL;

		memset(&elem, 0, sizeof(elem));
		if (object) {
			jp_ws(j);
			if (j->p >= j->end || *j->p != '"')
				return jp_fail(j, "expected a member name");
			j->p++;
			if ((r = jp_string(j, &key)) < 0)
				return r;
			jp_ws(j);
			if (j->p >= j->end || *j->p != ':') {
				free(key);
				return jp_fail(j, "expected ':'");
			}
			j->p++;
		}
		r = jp_value(j, &elem);
		if (r == 0)
			r = jp_push(v, key, &elem);
		if (r < 0) {
			free(key);
			jval_free(&elem);
			return r;
		}
		jp_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return 0;
		}
		return jp_fail(j, object ? "expected ',' or '}'" :
			       "expected ',' or ']'");
	}
}

static int
jp_value(struct jp *j, struct jval *v)
{
	const char *q;

	memset(v, 0, sizeof(*v));
	jp_ws(j);
	if (j->p >= j->end)
		return jp_fail(j, "unexpected end");
	switch (*j->p) {
	case '{':
		j->p++;
		return jp_container(j, v, true);
	case '[':
		j->p++;
		return jp_container(j, v, false);
	case '"':
		j->p++;
		v->type = J_STR;
		return jp_string(j, &v->s);
	}
	if (j->end - j->p >= 4 && memcmp(j->p, "true", 4) == 0) {
		v->type = J_BOOL;
		v->b = true;
		j->p += 4;
		return 0;
	}
	if (j->end - j->p >= 5 && memcmp(j->p, "false", 5) == 0) {
		v->type = J_BOOL;
		j->p += 5;
		return 0;
	}
	if (j->end - j->p >= 4 && memcmp(j->p, "null", 4) == 0) {
		v->type = J_NULL;
		j->p += 4;
		return 0;
	}
	q = j->p;
	if (q < j->end && *q == '-')
		q++;
	while (q < j->end && ((*q >= '0' && *q <= '9') || *q == '.' ||
			      *q == 'e' || *q == 'E' || *q == '+' ||
			      *q == '-'))
		q++;
	if (q == j->p || (q == j->p + 1 && *j->p == '-'))
		return jp_fail(j, "invalid value");
	v->type = J_NUM;
	if (!(v->s = strndup(j->p, (size_t)(q - j->p))))
		return -ENOMEM;
	j->p = q;
	return 0;
}

static int
json_parse_doc(const char *text, size_t len, struct jval *v, char *err,
	       size_t errlen)
{
	struct jp j = { text, text, text + len, err, errlen, 0 };
	int r = jp_value(&j, v);

	if (r == 0) {
		jp_ws(&j);
		if (j.p != j.end)
			r = jp_fail(&j, "trailing data");
	}
	if (r == 0 && v->type != J_OBJ)
		r = err_ret(err, errlen, -EINVAL, "not a JSON object");
	if (r < 0)
		jval_free(v);
	return r;
}

static const struct jval *
jmember(const struct jval *o, const char *key)
{
	size_t i;

	if (!o || o->type != J_OBJ)
		return NULL;
	/* The last of duplicate members, as most readers do. */
	for (i = o->n; i-- > 0;)
		if (strcmp(o->keys[i], key) == 0)
			return &o->v[i];
	return NULL;
}

/* The state */

/* Put prefix before the message in err. */
static void
prefix_err(char *err, size_t errlen, const char *prefix)
{
	char msg[512];

	snprintf(msg, sizeof(msg), "%s", err);
	snprintf(err, errlen, "%s%s", prefix, msg);
}

static int
add_annotations(struct oci_state *s, const struct jval *ann, const char *doc,
		char *err, size_t errlen)
{
	size_t i;

	if (!ann || ann->type == J_NULL)
		return 0;
	if (ann->type != J_OBJ)
		return err_ret(err, errlen, -EINVAL, "%s: \"annotations\" is "
			       "not an object", doc);
	for (i = 0; i < ann->n; i++) {
		struct oci_annotation *na;

		if (ann->v[i].type != J_STR)
			return err_ret(err, errlen, -EINVAL, "%s: annotation "
				       "'%s' is not a string", doc,
				       ann->keys[i]);
		if (oci_annotation(s, ann->keys[i]))
			continue;
		na = realloc(s->ann, (s->nann + 1) * sizeof(*na));
		if (!na)
			return -ENOMEM;
		s->ann = na;
		na[s->nann].key = strdup(ann->keys[i]);
		na[s->nann].value = strdup(ann->v[i].s);
		s->nann++;
		if (!na[s->nann - 1].key || !na[s->nann - 1].value)
			return -ENOMEM;
	}
	return 0;
}

static int
dup_str(const struct jval *v, const char *doc, const char *name, char **out,
	char *err, size_t errlen)
{
	if (!v || v->type == J_NULL)
		return 0;
	if (v->type != J_STR)
		return err_ret(err, errlen, -EINVAL, "%s: \"%s\" is not a "
			       "string", doc, name);
	if (!(*out = strdup(v->s)))
		return -ENOMEM;
	return 0;
}

int
oci_state_parse(struct oci_state *s, const char *text, size_t len, char *err,
		size_t errlen)
{
	struct jval doc;
	const struct jval *pid;
	unsigned int u;
	int r;

	memset(s, 0, sizeof(*s));
	r = json_parse_doc(text, len, &doc, err, errlen);
	if (r == -EINVAL)
		prefix_err(err, errlen, "invalid OCI state on stdin: ");
	if (r < 0)
		return r;
	if ((r = dup_str(jmember(&doc, "id"), "OCI state", "id", &s->id, err,
			 errlen)) < 0 ||
	    (r = dup_str(jmember(&doc, "status"), "OCI state", "status",
			 &s->status, err, errlen)) < 0 ||
	    (r = dup_str(jmember(&doc, "bundle"), "OCI state", "bundle",
			 &s->bundle, err, errlen)) < 0)
		goto out;
	if (!s->id || !*s->id) {
		r = err_ret(err, errlen, -EINVAL, "OCI state has no container "
			    "\"id\"");
		goto out;
	}
	pid = jmember(&doc, "pid");
	if (pid && pid->type != J_NULL) {
		if (pid->type != J_NUM || parse_uint(pid->s, INT_MAX, &u) < 0) {
			r = err_ret(err, errlen, -EINVAL, "OCI state: invalid "
				    "\"pid\"");
			goto out;
		}
		s->pid = (pid_t)u;
	}
	r = add_annotations(s, jmember(&doc, "annotations"), "OCI state", err,
			    errlen);
out:
	jval_free(&doc);
	return r;
}

int
oci_config_load(struct oci_state *s, char *err, size_t errlen)
{
	struct jval doc;
	char path[PATH_MAX];
	char *buf;
	size_t len;
	int r;

	if (!s->bundle || !*s->bundle)
		return 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/config.json", s->bundle) >=
	    sizeof(path))
		return err_ret(err, errlen, -EINVAL, "bundle path too long");
	r = read_file_max_at(AT_FDCWD, path, OCI_CONFIG_MAX, &buf, &len, true);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return err_ret(err, errlen, r, "cannot read '%s': %s", path,
			       read_strerror(r));
	r = json_parse_doc(buf, len, &doc, err, errlen);
	free(buf);
	if (r == -EINVAL) {
		char what[PATH_MAX + 16];

		snprintf(what, sizeof(what), "invalid '%s': ", path);
		prefix_err(err, errlen, what);
	}
	if (r < 0)
		return r;
	r = dup_str(jmember(jmember(&doc, "linux"), "cgroupsPath"), path,
		    "linux.cgroupsPath", &s->cgroups_path, err, errlen);
	if (r == 0)
		r = add_annotations(s, jmember(&doc, "annotations"), path, err,
				    errlen);
	jval_free(&doc);
	return r;
}

void
oci_state_free(struct oci_state *s)
{
	size_t i;

	for (i = 0; i < s->nann; i++) {
		free(s->ann[i].key);
		free(s->ann[i].value);
	}
	free(s->ann);
	free(s->id);
	free(s->status);
	free(s->bundle);
	free(s->cgroups_path);
	memset(s, 0, sizeof(*s));
}

const char *
oci_annotation(const struct oci_state *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->nann; i++)
		if (s->ann[i].key && strcmp(s->ann[i].key, key) == 0)
			return s->ann[i].value;
	return NULL;
}

/* The request */

static int
bad_annotation(const char *key, const char *value, const char *takes,
	       char *err, size_t errlen)
{
	return err_ret(err, errlen, -EINVAL, "invalid annotation %s='%s' "
		       "(%s)", key, value, takes);
}

int
oci_request_parse(const struct oci_state *s, struct oci_request *rq,
		  char *err, size_t errlen)
{
	const char *other = NULL;
	size_t i;

	memset(rq, 0, sizeof(*rq));
	for (i = 0; i < s->nann; i++) {
		const char *k = s->ann[i].key, *v = s->ann[i].value;
		const char *name = k + strlen(OCI_ANNOTATION_PREFIX);

		if (!startswith(k, OCI_ANNOTATION_PREFIX))
			continue;
		if (strcmp(name, "cpus") == 0) {
			if (parse_uint(v, CPUSET_MAX_CPUS, &rq->n) < 0)
				return bad_annotation(k, v, "a CPU count",
						      err, errlen);
			rq->have_cpus = true;
			continue;
		}
		if (strcmp(name, "mode") == 0) {
			if (strcmp(v, "share") == 0)
				rq->share = true;
			else if (strcmp(v, "exclusive") != 0)
				return bad_annotation(k, v, "exclusive or "
						      "share", err, errlen);
		} else if (strcmp(name, "numa-policy") == 0) {
			if (tm_policy_parse(v, &rq->policy) < 0)
				return bad_annotation(k, v, "none, "
						      "best-effort, restricted "
						      "or single-numa-node",
						      err, errlen);
			rq->have_policy = true;
		} else if (strcmp(name, "mem") == 0) {
			if (parse_size_bytes(v, &rq->mem) < 0)
				return bad_annotation(k, v, "a size such as "
						      "512M or 2G", err,
						      errlen);
			rq->have_mem = true;
		} else if (strcmp(name, "core-type") == 0) {
			if (!*v)
				return bad_annotation(k, v, "a core type",
						      err, errlen);
			rq->core_type = v;
		} else if (strcmp(name, "isolate-irqs") == 0) {
			if (strcmp(v, "true") == 0)
				rq->isolate_irqs = true;
			else if (strcmp(v, "false") != 0)
				return bad_annotation(k, v, "true or false",
						      err, errlen);
		} else {
			return err_ret(err, errlen, -EINVAL, "unknown "
				       "annotation '%s' (cpm.io/cpus, mode, "
				       "numa-policy, mem, core-type, "
				       "isolate-irqs)", k);
		}
		other = k;
	}
	if (other && !rq->have_cpus)
		return err_ret(err, errlen, -EINVAL, "annotation %s needs "
			       "cpm.io/cpus", other);
	if (rq->have_cpus && rq->n == 0 && other)
		return err_ret(err, errlen, -EINVAL, "annotation %s needs "
			       "cpm.io/cpus of at least 1", other);
	return 0;
}

/* The group */

/*
 * systemd's "SLICE:PREFIX:NAME" as the group runc and crun make: the
 * slice's path (each '-' a level: "a-b.slice" is "a.slice/a-b.slice"),
 * then "PREFIX-NAME.scope".  Returns 0 or -EINVAL.
 */
static int
systemd_group(const char *path, char *out, size_t outlen)
{
	const char *c1 = strchr(path, ':'), *c2;
	char slice[NAME_MAX + 1];
	struct strbuf sb;
	size_t n, i;
	int r = 0;

	if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
		return -EINVAL;
	n = (size_t)(c1 - path);
	if (n == 0) {
		strcpy(slice, "system.slice");
	} else {
		if (n >= sizeof(slice))
			return -EINVAL;
		memcpy(slice, path, n);
		slice[n] = '\0';
	}
	if (strlen(slice) < 7 ||
	    strcmp(slice + strlen(slice) - 6, ".slice") != 0)
		return -EINVAL;
	strbuf_init(&sb);
	if (strcmp(slice, "-.slice") != 0) {
		/* Each prefix ending before a '-' is a parent slice. */
		for (i = 0; slice[i] && slice[i] != '.'; i++)
			if (slice[i] == '-' && i > 0)
				strbuf_printf(&sb, "%.*s.slice/", (int)i,
					      slice);
		strbuf_printf(&sb, "%s/", slice);
	}
	if (c2 - c1 - 1 > 0)
		strbuf_printf(&sb, "%.*s-%s.scope", (int)(c2 - c1 - 1), c1 + 1,
			      c2 + 1);
	else
		strbuf_printf(&sb, "%s", c2 + 1);
	if (!sb.buf)
		r = -ENOMEM;
	else if (sb.len >= outlen)
		r = -EINVAL;
	else
		memcpy(out, sb.buf, sb.len + 1);
	strbuf_free(&sb);
	return r;
}

int
oci_container_group(const struct oci_state *s, const struct cg_hier *h,
		    const struct sysroot *live, char *out, size_t outlen,
		    char *err, size_t errlen)
{
	char raw[CG_PATH_MAX];
	bool v2 = cg_version(h, CG_CPUSET) == 2;
	int r;

	if (s->pid > 0) {
		char path[64], *text;
		size_t len;

		snprintf(path, sizeof(path), "proc/%d/cgroup", (int)s->pid);
		r = sysroot_read_file(live, path, &text, &len);
		if (r == 0) {
			r = proc_cgroup_group(text, v2 ? "" : "cpuset", raw,
					      sizeof(raw));
			free(text);
			if (r == 0 &&
			    cg_path_check(raw, out, outlen, err, errlen) == 0 &&
			    *out && cg_exists(h, CG_CPUSET, out))
				return 0;
		}
	}
	if (s->cgroups_path && *s->cgroups_path) {
		const char *p = s->cgroups_path;

		if (*p != '/' && strchr(p, ':')) {
			if (systemd_group(p, raw, sizeof(raw)) < 0)
				return err_ret(err, errlen, -EINVAL, "invalid "
					       "linux.cgroupsPath '%s'", p);
			p = raw;
		}
		r = cg_path_check(p, out, outlen, err, errlen);
		if (r < 0)
			return r;
		if (*out && cg_exists(h, CG_CPUSET, out))
			return 0;
		return err_ret(err, errlen, -ENOENT, "container %s: its cgroup "
			       "'%s' does not exist", s->id, cg_display(out));
	}
	return err_ret(err, errlen, -ENOENT, "container %s has no cgroup of "
		       "its own (no process in one, no linux.cgroupsPath)",
		       s->id);
}

/* The cpuset */

int
oci_cpuset_apply(const struct cg_hier *h, const struct sysroot *live,
		 const struct topo *t, const char *group,
		 const struct cpuset *cpus, const struct cpuset *mems,
		 char *err, size_t errlen)
{
	struct cgcpuset_request rq;
	struct cgcpuset_plan plan;
	struct cgowner o;
	struct sdbus *bus = NULL;
	int r;

	memset(&rq, 0, sizeof(rq));
	rq.group = group;
	rq.cpus = cpus;
	rq.mems = mems;
	r = cgcpuset_plan(h, t, &rq, &plan, err, errlen);
	if (r == 0) {
		r = sdapply_route(h, group, NULL, false, &o, &bus, err,
				  errlen);
		if (r == CGOWNER_VIA_SYSTEMD) {
			r = sdapply_cpuset(h, bus, o.unit, group, &plan.cpus,
					   &plan.mems, err, errlen);
			sdbus_close(bus);
		} else if (r >= 0) {
			r = cgcpuset_apply(h, live, &plan, err, errlen);
		}
	}
	cgcpuset_plan_free(&plan);
	return r;
}
