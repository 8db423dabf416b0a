/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Pressure stall information beside throttling: a group's cpu.pressure,
 * memory.pressure and io.pressure (cgroup v2, and v1 where the kernel
 * offers cgroup1 PSI), and the node's /proc/pressure files.  Each holds a
 * "some" line (time in which some task waited) and, but for the cpu file
 * of kernels before 5.13, a "full" line (time in which all did):
 *
 *   some avg10=1.53 avg60=0.87 avg300=0.25 total=2785403
 *
 * Totals are in microseconds; the averages are percentages.
 */
#ifndef CPM_THRPSI_H
#define CPM_THRPSI_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroup/cgroup.h"

enum thr_psi_res { THR_PSI_CPU, THR_PSI_MEMORY, THR_PSI_IO, THR_PSI_NRES };

/* The resources' names, as in "cpu.pressure" and /proc/pressure/cpu. */
extern const char *const thr_psi_name[THR_PSI_NRES];

#define THR_PSI_SOME 0x1u	/* the some line was there */
#define THR_PSI_FULL 0x2u	/* the full line was there */

/* One pressure file; has == 0: none (no file, or PSI off). */
struct thr_psi {
	uint64_t some_us;	/* total */
	uint64_t full_us;
	uint16_t some_avg10;	/* hundredths of a percent */
	uint16_t full_avg10;
	uint8_t has;		/* THR_PSI_SOME, THR_PSI_FULL */
};

/* The resources to read: bits 1 << enum thr_psi_res. */
#define THR_PSI_MASK_ALL 0x7u

/*
 * Parse a pressure file's text: 0, or -EBADMSG when a line is neither
 * "some" nor "full" with avg10=, avg60=, avg300= and total=, or a number
 * is malformed.  Other keys are ignored (as cpu.stat's are).
 */
int thr_psi_parse(const char *text, struct thr_psi *p);

/*
 * Read the pressure file of resource res of the group whose files are
 * where at says.  Returns 0, -ENOENT when there is none to read (no file,
 * or the kernel refuses to read it: PSI off, EOPNOTSUPP), -EBADMSG (with
 * a message naming group in err) or -errno.
 */
int thr_psi_read_at(const struct cg_at *at, enum thr_psi_res res,
		    const char *group, struct thr_psi *p, char *err,
		    size_t errlen);

/*
 * The node's pressure: /proc/pressure/RES below root ("" or NULL: /).
 * A missing file leaves its entry empty; a malformed one is -EBADMSG.
 */
int thr_psi_read_node(const char *root, struct thr_psi node[THR_PSI_NRES],
		      char *err, size_t errlen);

/*
 * A share of a window: the growth of a total from old to cur over
 * window_us, or, without a window (old NULL, window_us 0, or the line
 * missing from old), the kernel's avg10.  -1 when cur lacks the line.
 * Counters that went backwards (a recreated group) count from 0.
 * Capped at 1.
 */
double thr_psi_share(const struct thr_psi *old, const struct thr_psi *cur,
		     bool full, uint64_t window_us);

/*
 * The growth of a total in µs from old (NULL: from 0) to cur; a total
 * that went backwards counts from 0.
 */
uint64_t thr_psi_delta(const struct thr_psi *old, const struct thr_psi *cur,
		       bool full);

/*
 * A --min-pressure or --fail-above pressure share: what
 * thr_ratio_parse() takes.  List parsing for --pressure: comma-separated
 * resource names ("cpu,memory", "all", "none") into a mask; 0 or -EINVAL.
 */
int thr_psi_mask_parse(const char *s, unsigned int *mask);

#endif
