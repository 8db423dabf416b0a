/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Findings: the "LEVEL: message" lines that cpm-topo check and cpm-alloc
 * check print, one a finding (LEVEL is warning or error), as JSON.
 */
#ifndef CPM_FINDINGS_H
#define CPM_FINDINGS_H

#include <stddef.h>

#include "base/json.h"

/*
 * Write the findings in text[0..len) to j as an array of objects
 * {"level": LEVEL, "message": the rest of the line}; a line without
 * "LEVEL: " is a warning with the whole line for message.  Returns 0 or
 * -ENOMEM.
 */
int findings_json(const char *text, size_t len, struct json *j);

#endif
