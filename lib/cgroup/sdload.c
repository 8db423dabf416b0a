// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsystemd, loaded when the first sd-bus call is made rather than when
 * a tool starts.  Linking it made every cpm-pin and cpm-quota run map
 * libsystemd and the seven libraries it needs (libgcrypt, libzstd, ...)
 * and resolve their symbols: some 850,000 instructions before cpm-pin
 * could exec its command, three times what cpm-pin itself does, even
 * though only --cgroup on a systemd host talks to systemd.
 *
 * These definitions stand in for the sd-bus functions lib/cgroup/sdbus.c uses and
 * forward to libsystemd.so.0, opened on first use.  Without it every call
 * fails with -ENOSYS, as a call without a bus would.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <systemd/sd-bus.h>

static void *
sym(const char *name)
{
	static void *lib;
	static bool tried;

	if (!tried) {
		tried = true;
		lib = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
	}
	return lib ? dlsym(lib, name) : NULL;
}

/* real: the library's NAME, looked up once. */
#define REAL(name) \
	static __typeof__(name) *real; \
	if (real == NULL) \
		real = (__typeof__(name) *)sym(#name)

#define FORWARD_INT(name, params, args) \
	int name params \
	{ \
		REAL(name); \
		return real ? real args : -ENOSYS; \
	}

#define FORWARD_PTR(type, name, params, args) \
	type *name params \
	{ \
		REAL(name); \
		return real ? real args : NULL; \
	}

FORWARD_INT(sd_bus_new, (sd_bus **ret), (ret))
FORWARD_INT(sd_bus_open_system, (sd_bus **ret), (ret))
FORWARD_INT(sd_bus_set_address, (sd_bus *bus, const char *address), (bus, address))
FORWARD_INT(sd_bus_start, (sd_bus *bus), (bus))
FORWARD_INT(sd_bus_wait, (sd_bus *bus, uint64_t timeout_usec), (bus, timeout_usec))
FORWARD_INT(sd_bus_process, (sd_bus *bus, sd_bus_message **r), (bus, r))
FORWARD_PTR(sd_bus, sd_bus_unref, (sd_bus *bus), (bus))
FORWARD_PTR(sd_bus, sd_bus_flush_close_unref, (sd_bus *bus), (bus))
FORWARD_PTR(sd_bus_slot, sd_bus_slot_unref, (sd_bus_slot *slot), (slot))
FORWARD_PTR(sd_bus_message, sd_bus_message_unref, (sd_bus_message *m), (m))
FORWARD_INT(sd_bus_path_encode,
	    (const char *prefix, const char *external_id, char **ret_path),
	    (prefix, external_id, ret_path))
FORWARD_INT(sd_bus_message_new_method_call,
	    (sd_bus *bus, sd_bus_message **m, const char *destination,
	     const char *path, const char *interface, const char *member),
	    (bus, m, destination, path, interface, member))
FORWARD_INT(sd_bus_message_open_container,
	    (sd_bus_message *m, char type, const char *contents),
	    (m, type, contents))
FORWARD_INT(sd_bus_message_close_container, (sd_bus_message *m), (m))
FORWARD_INT(sd_bus_message_append_array,
	    (sd_bus_message *m, char type, const void *ptr, size_t size),
	    (m, type, ptr, size))
FORWARD_INT(sd_bus_call,
	    (sd_bus *bus, sd_bus_message *m, uint64_t usec,
	     sd_bus_error *ret_error, sd_bus_message **reply),
	    (bus, m, usec, ret_error, reply))
FORWARD_INT(sd_bus_match_signal,
	    (sd_bus *bus, sd_bus_slot **ret, const char *sender,
	     const char *path, const char *interface, const char *member,
	     sd_bus_message_handler_t callback, void *userdata),
	    (bus, ret, sender, path, interface, member, callback, userdata))
FORWARD_INT(sd_bus_get_property_string,
	    (sd_bus *bus, const char *destination, const char *path,
	     const char *interface, const char *member,
	     sd_bus_error *ret_error, char **ret),
	    (bus, destination, path, interface, member, ret_error, ret))
FORWARD_INT(sd_bus_message_read_array,
	    (sd_bus_message *m, char type, const void **ptr, size_t *size),
	    (m, type, ptr, size))
FORWARD_INT(sd_bus_get_property,
	    (sd_bus *bus, const char *destination, const char *path,
	     const char *interface, const char *member,
	     sd_bus_error *ret_error, sd_bus_message **reply,
	     const char *type),
	    (bus, destination, path, interface, member, ret_error, reply,
	     type))

/* The variadic ones go through their va_list forms. */
int
sd_bus_message_append(sd_bus_message *m, const char *types, ...)
{
	REAL(sd_bus_message_appendv);
	va_list ap;
	int r;

	if (real == NULL)
		return -ENOSYS;
	va_start(ap, types);
	r = real(m, types, ap);
	va_end(ap);
	return r;
}

int
sd_bus_message_read(sd_bus_message *m, const char *types, ...)
{
	REAL(sd_bus_message_readv);
	va_list ap;
	int r;

	if (real == NULL)
		return -ENOSYS;
	va_start(ap, types);
	r = real(m, types, ap);
	va_end(ap);
	return r;
}

int
sd_bus_call_method(sd_bus *bus, const char *destination, const char *path,
		   const char *interface, const char *member,
		   sd_bus_error *ret_error, sd_bus_message **reply,
		   const char *types, ...)
{
	REAL(sd_bus_call_methodv);
	va_list ap;
	int r;

	if (real == NULL)
		return -ENOSYS;
	va_start(ap, types);
	r = real(bus, destination, path, interface, member, ret_error, reply,
		 types, ap);
	va_end(ap);
	return r;
}

/* Errors: only the library sets them, so without it none is set. */
void
sd_bus_error_free(sd_bus_error *e)
{
	REAL(sd_bus_error_free);
	if (real)
		real(e);
}

int
sd_bus_error_is_set(const sd_bus_error *e)
{
	REAL(sd_bus_error_is_set);
	return real ? real(e) : e != NULL && e->name != NULL;
}

int
sd_bus_error_has_name(const sd_bus_error *e, const char *name)
{
	REAL(sd_bus_error_has_name);
	return real ? real(e, name) :
	       e != NULL && e->name != NULL && strcmp(e->name, name) == 0;
}
