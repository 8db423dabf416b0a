// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/interrupts parsing and the per-CPU load findings, on texts laid
 * out as the kernel prints them. */
#include <string.h>

#include "base/strbuf.h"
#include "machine/irq.h"
#include "unit.h"

/* CPU 2 is offline: the kernel prints no column for it. */
static const char sample1[] =
	"           CPU0       CPU1       CPU3       \n"
	"  0:         46          0          0   IO-APIC   2-edge      timer\n"
	" 24:        100          7          0   PCI-MSI 49152-edge      virtio0-config\n"
	" 25:          1       2000          5   PCI-MSI 49153-edge      virtio0-virtqueues\n"
	"NMI:          0          0          0   Non-maskable interrupts\n"
	"LOC:       5000       6000       7000   Local timer interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";
static const char sample2[] =
	"           CPU0       CPU1       CPU3       \n"
	"  0:         46          0          0   IO-APIC   2-edge      timer\n"
	" 24:        100          7          0   PCI-MSI 49152-edge      virtio0-config\n"
	" 25:          1       2600          5   PCI-MSI 49153-edge      virtio0-virtqueues\n"
	"NMI:          0          0          0   Non-maskable interrupts\n"
	"LOC:       5100       6000       7250   Local timer interrupts\n"
	"ERR:          0\n"
	"MIS:          0\n";

int
main(void)
{
	uint64_t a[4], b[4], c[4];
	struct cpuset cpus = CPUSET_INIT;
	struct strbuf sb;
	char err[64];

	CHECK("parses a sample", irq_counts_parse(sample1, a, 4) == 0);
	CHECK("sums every line with a column per CPU, by the header's CPU numbers",
	      a[0] == 46 + 100 + 1 + 5000 && a[1] == 7 + 2000 + 6000 &&
	      a[2] == 0 && a[3] == 5 + 7000);
	CHECK("parses a later sample", irq_counts_parse(sample2, b, 4) == 0);
	CHECK("a text without a header is refused",
	      irq_counts_parse(" 24: 1 2\n", c, 4) < 0);
	cpuset_parse_list("1-3", &cpus, err, sizeof(err));
	strbuf_init(&sb);
	CHECK("one finding per CPU of the list whose count rose",
	      irq_load_findings(a, b, 4, &cpus, 2000000, &sb) == 2);
	CHECK_STR("findings name the count and the rate", sb.buf,
		  "warning: CPU 1 took 600 interrupts in 2.0 s (300/s)\n"
		  "warning: CPU 3 took 250 interrupts in 2.0 s (125/s)\n");
	strbuf_free(&sb);
	cpuset_free(&cpus);
	return unit_failed;
}
