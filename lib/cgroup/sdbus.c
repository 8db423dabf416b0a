// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Talking to systemd over D-Bus; see sdbus.h.  The calls are those of
 * systemctl set-property --runtime and systemd-run --scope.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-bus.h>

#include "cgroup/sdbus.h"

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_MANAGER "org.freedesktop.systemd1.Manager"
#define JOB_TIMEOUT_US (60ULL * 1000000ULL)

struct sdbus {
	sd_bus *bus;
};

static int __attribute__((format(printf, 5, 6)))
fail(int r, const sd_bus_error *e, char *err, size_t errlen,
     const char *fmt, ...)
{
	va_list ap;

	char what[256];

	if (err == NULL || errlen == 0)
		return r;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (e && sd_bus_error_is_set(e))
		snprintf(err, errlen, "%s: %s", what,
			 e->message ? e->message : e->name);
	else
		snprintf(err, errlen, "%s: %s", what, strerror(-r));
	return r;
}

static int
open_private(sd_bus **out)
{
	sd_bus *bus = NULL;
	int r;

	r = sd_bus_new(&bus);
	if (r < 0)
		return r;
	r = sd_bus_set_address(bus, "unix:path=/run/systemd/private");
	if (r >= 0)
		r = sd_bus_start(bus);
	if (r < 0) {
		sd_bus_unref(bus);
		return r;
	}
	*out = bus;
	return 0;
}

int
sdbus_open(struct sdbus **out, char *err, size_t errlen)
{
	struct sdbus *b;
	int r = -EACCES;

	*out = NULL;
	b = calloc(1, sizeof(*b));
	if (b == NULL)
		return -ENOMEM;
	if (geteuid() == 0)
		r = open_private(&b->bus);
	if (r < 0)
		r = sd_bus_open_system(&b->bus);
	if (r < 0) {
		free(b);
		return fail(r, NULL, err, errlen, "%s",
			    "cannot reach systemd over D-Bus");
	}
	*out = b;
	return 0;
}

void
sdbus_close(struct sdbus *b)
{
	if (b == NULL)
		return;
	sd_bus_flush_close_unref(b->bus);
	free(b);
}

int
sdbus_unit_by_cgroup(struct sdbus *b, const char *group, char *unit,
		     size_t unitlen, char *err, size_t errlen)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	char path[4200], *id = NULL;
	const char *obj;
	int r;

	snprintf(path, sizeof(path), "/%s", group);
	r = sd_bus_call_method(b->bus, SD_DEST, SD_PATH, SD_MANAGER,
			       "GetUnitByControlGroup", &e, &reply, "s", path);
	if (r < 0) {
		if (sd_bus_error_has_name(&e, "org.freedesktop.systemd1.NoUnitForControlGroup"))
			r = -ENOENT;
		fail(r, &e, err, errlen, "no systemd unit for cgroup '%s'", path);
		goto out;
	}
	r = sd_bus_message_read(reply, "o", &obj);
	if (r < 0) {
		fail(r, NULL, err, errlen, "bad answer for cgroup '%s'", path);
		goto out;
	}
	r = sd_bus_get_property_string(b->bus, SD_DEST, obj,
				       "org.freedesktop.systemd1.Unit", "Id",
				       &e, &id);
	if (r < 0) {
		fail(r, &e, err, errlen, "cannot read the unit of '%s'", path);
		goto out;
	}
	snprintf(unit, unitlen, "%s", id);
	r = 0;
out:
	free(id);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r;
}

/* Append props as a(sv) to m (the array is opened here). */
static int
append_props(sd_bus_message *m, const struct sdprops *props)
{
	size_t i;
	int r;

	for (i = 0; i < props->n; i++) {
		const struct sdprop *p = &props->v[i];

		r = sd_bus_message_open_container(m, 'r', "sv");
		if (r < 0)
			return r;
		r = sd_bus_message_append(m, "s", p->name);
		if (r < 0)
			return r;
		if (p->type == 't') {
			r = sd_bus_message_append(m, "v", "t", p->u);
		} else {
			r = sd_bus_message_open_container(m, 'v', "ay");
			if (r >= 0)
				r = sd_bus_message_append_array(m, 'y',
						p->bytes, p->nbytes);
			if (r >= 0)
				r = sd_bus_message_close_container(m);
		}
		if (r < 0)
			return r;
		r = sd_bus_message_close_container(m);
		if (r < 0)
			return r;
	}
	return 0;
}

int
sdbus_set_properties(struct sdbus *b, const char *unit, bool runtime,
		     const struct sdprops *props, char *err, size_t errlen)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL, *reply = NULL;
	int r;

	r = sd_bus_message_new_method_call(b->bus, &m, SD_DEST, SD_PATH,
					   SD_MANAGER, "SetUnitProperties");
	if (r >= 0)
		r = sd_bus_message_append(m, "sb", unit, (int)runtime);
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'a', "(sv)");
	if (r >= 0)
		r = append_props(m, props);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r < 0) {
		fail(r, NULL, err, errlen, "cannot build the request for %s",
		     unit);
		goto out;
	}
	r = sd_bus_call(b->bus, m, 0, &e, &reply);
	if (r < 0)
		fail(r, &e, err, errlen, "systemd refused the properties of %s",
		     unit);
	else
		r = 0;
out:
	sd_bus_message_unref(m);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r;
}

int
sdbus_reload(struct sdbus *b, char *err, size_t errlen)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	int r;

	r = sd_bus_call_method(b->bus, SD_DEST, SD_PATH, SD_MANAGER, "Reload",
			       &e, NULL, NULL);
	if (r < 0)
		fail(r, &e, err, errlen, "%s", "systemd did not reload");
	else
		r = 0;
	sd_bus_error_free(&e);
	return r;
}

/* The D-Bus interface of unit's type: "Service" for db.service. */
static const char *
unit_iface(const char *unit, char *buf, size_t len)
{
	const char *dot = strrchr(unit, '.');

	if (dot == NULL || dot[1] == '\0')
		return NULL;
	snprintf(buf, len, "org.freedesktop.systemd1.%c%s",
		 dot[1] - 'a' + 'A', dot + 2);
	return buf;
}

/*
 * Unit property prop, of D-Bus type sig, into *reply (unref it); 0, or
 * -errno with err set ("cannot read PROP of UNIT").
 */
static int
get_property(struct sdbus *b, const char *unit, const char *prop,
	     const char *sig, sd_bus_message **reply, char *err,
	     size_t errlen)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	char *obj = NULL, iface[96];
	int r;

	*reply = NULL;
	if (unit_iface(unit, iface, sizeof(iface)) == NULL)
		return fail(-EINVAL, NULL, err, errlen, "'%s' is no unit name",
			    unit);
	r = sd_bus_path_encode(SD_PATH "/unit", unit, &obj);
	if (r < 0)
		return fail(r, NULL, err, errlen, "cannot name unit %s", unit);
	r = sd_bus_get_property(b->bus, SD_DEST, obj, iface, prop, &e, reply,
				sig);
	if (r < 0)
		fail(r, &e, err, errlen, "cannot read %s of %s", prop, unit);
	free(obj);
	sd_bus_error_free(&e);
	return r < 0 ? r : 0;
}

int
sdbus_get_set(struct sdbus *b, const char *unit, const char *prop,
	      struct cpuset *s, char *err, size_t errlen)
{
	sd_bus_message *reply;
	const void *bytes = NULL;
	size_t n = 0;
	int r = get_property(b, unit, prop, "ay", &reply, err, errlen);

	if (r == 0)
		r = sd_bus_message_read_array(reply, 'y', &bytes, &n);
	if (r >= 0 && reply)
		r = sdprop_bytes_set(bytes, n, s);
	if (r < 0 && reply)
		fail(r, NULL, err, errlen, "cannot read %s of %s", prop, unit);
	sd_bus_message_unref(reply);
	return r < 0 ? r : 0;
}

/* Waiting for our job: JobRemoved(u id, o job, s unit, s result). */
struct job_wait {
	const char *job;
	bool done;
	char result[32];
};

static int
on_job_removed(sd_bus_message *m, void *userdata, sd_bus_error *ret_error)
{
	struct job_wait *w = userdata;
	const char *path, *unit, *result;
	uint32_t id;

	if (w->job == NULL)
		return 0;
	if (sd_bus_message_read(m, "uoss", &id, &path, &unit, &result) < 0)
		return 0;
	if (strcmp(path, w->job) == 0) {
		w->done = true;
		snprintf(w->result, sizeof(w->result), "%s", result);
	}
	return 0;
}

static uint64_t
mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000;
}

int
sdbus_start_scope(struct sdbus *b, const char *unit, pid_t pid,
		  const char *description, const struct sdprops *props,
		  char *err, size_t errlen)
{
	sd_bus_error e = SD_BUS_ERROR_NULL;
	sd_bus_message *m = NULL, *reply = NULL;
	sd_bus_slot *slot = NULL;
	struct job_wait w = { NULL, false, "" };
	const char *job;
	char *jobcopy = NULL;
	uint64_t deadline;
	int r;

	r = sd_bus_match_signal(b->bus, &slot, SD_DEST, SD_PATH, SD_MANAGER,
				"JobRemoved", on_job_removed, &w);
	if (r < 0) {
		fail(r, NULL, err, errlen, "cannot watch the job of %s", unit);
		goto out;
	}
	r = sd_bus_message_new_method_call(b->bus, &m, SD_DEST, SD_PATH,
					   SD_MANAGER, "StartTransientUnit");
	if (r >= 0)
		r = sd_bus_message_append(m, "ss", unit, "fail");
	if (r >= 0)
		r = sd_bus_message_open_container(m, 'a', "(sv)");
	if (r >= 0)
		r = sd_bus_message_append(m, "(sv)", "Description", "s",
					  description);
	if (r >= 0)
		r = sd_bus_message_append(m, "(sv)", "PIDs", "au", 1,
					  (uint32_t)pid);
	if (r >= 0)
		r = append_props(m, props);
	if (r >= 0)
		r = sd_bus_message_close_container(m);
	if (r >= 0)
		r = sd_bus_message_append(m, "a(sa(sv))", 0);
	if (r < 0) {
		fail(r, NULL, err, errlen, "cannot build the request for %s",
		     unit);
		goto out;
	}
	r = sd_bus_call(b->bus, m, 0, &e, &reply);
	if (r < 0) {
		if (sd_bus_error_has_name(&e, "org.freedesktop.systemd1.UnitExists"))
			r = -EEXIST;
		fail(r, &e, err, errlen, "systemd did not start %s", unit);
		goto out;
	}
	r = sd_bus_message_read(reply, "o", &job);
	if (r < 0) {
		fail(r, NULL, err, errlen, "bad answer starting %s", unit);
		goto out;
	}
	jobcopy = strdup(job);
	if (jobcopy == NULL) {
		r = -ENOMEM;
		goto out;
	}
	w.job = jobcopy;
	deadline = mono_us() + JOB_TIMEOUT_US;
	while (!w.done) {
		uint64_t t = mono_us();

		if (t >= deadline) {
			r = fail(-ETIMEDOUT, NULL, err, errlen,
				 "systemd did not finish starting %s", unit);
			goto out;
		}
		r = sd_bus_process(b->bus, NULL);
		if (r < 0) {
			fail(r, NULL, err, errlen, "lost systemd starting %s",
			     unit);
			goto out;
		}
		if (r > 0)
			continue;
		r = sd_bus_wait(b->bus, deadline - t);
		if (r < 0) {
			fail(r, NULL, err, errlen, "lost systemd starting %s",
			     unit);
			goto out;
		}
	}
	if (strcmp(w.result, "done") != 0) {
		r = -EIO;
		if (err && errlen)
			snprintf(err, errlen, "systemd could not start %s "
				 "(job %s)", unit, w.result);
		goto out;
	}
	r = 0;
out:
	free(jobcopy);
	sd_bus_slot_unref(slot);
	sd_bus_message_unref(m);
	sd_bus_message_unref(reply);
	sd_bus_error_free(&e);
	return r;
}
