/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Error codes and messages: the library never prints and never exits;
 * a function returns 0 or a count on success and a negative errno-style
 * code on failure, and may word it in a caller's err buffer.
 */
#ifndef CPM_ERR_H
#define CPM_ERR_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

/*
 * Readers refuse what is not a regular file (a FIFO, a device, a socket
 * planted where a file belongs would block them or feed them forever):
 * -EFTYPE_CPM.  read_strerror() words a reader's error for a message.
 */
#define EFTYPE_CPM EMEDIUMTYPE
const char *read_strerror(int r);

/*
 * Format a one-line message into err (when err is not NULL and errlen is
 * not 0): the library's way of explaining a negative return code.
 */
void err_set(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void err_vset(char *err, size_t errlen, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/* err_set(), then return r: for 'return err_ret(err, errlen, -EINVAL, ...)'. */
int err_ret(char *err, size_t errlen, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
