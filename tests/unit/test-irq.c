// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/interrupts parsing and the per-CPU load findings, on texts laid
 * out as the kernel prints them; steering against isolation and the
 * check of a device's own interrupts, on a fake proc/irq. */
#include <stdio.h>
#include <stdlib.h>
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

/* The affinity of IRQ n below dir, as the file says it. */
static const char *
aff(const char *dir, int n)
{
	static char buf[64];
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/irq/%d/smp_affinity_list", dir, n);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof(buf), f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}

/*
 * A fake machine of 8 online CPUs: IRQs 40-41 a device's (eth1), 30 on
 * all CPUs.  Steering 40-41 onto CPUs kept free of interrupts puts them
 * there; releases in either order end on the originals.
 */
static void
steering(void)
{
	char dir[] = "/tmp/cpm-irq.XXXXXX", cmd[1024], journal[600], err[256];
	struct cpuset online = CPUSET_INIT, away = CPUSET_INIT,
		      irqs = CPUSET_INIT, to = CPUSET_INIT;
	struct irq_owner own = { "eth1", &irqs };
	struct irq_report rep;
	struct sysroot root;
	struct strbuf sb;
	bool found;
	int order;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		unit_failed = 1;
		return;
	}
	snprintf(journal, sizeof(journal), "%s/irq.journal", dir);
	cpuset_parse_list("0-7", &online, err, sizeof(err));
	cpuset_parse_list("4-7", &away, err, sizeof(err));
	cpuset_parse_list("40-41", &irqs, err, sizeof(err));
	cpuset_parse_list("4-7", &to, err, sizeof(err));
	for (order = 0; order < 2; order++) {
		snprintf(cmd, sizeof(cmd), "cd %s && mkdir -p proc/irq/30/x "
			 "proc/irq/40/eth1-0 proc/irq/41/eth1-1 && "
			 "echo 0-7 >proc/irq/30/smp_affinity_list && "
			 "echo 0-7 >proc/irq/40/smp_affinity_list && "
			 "echo 0-3 >proc/irq/41/smp_affinity_list && "
			 "echo ff >proc/irq/default_smp_affinity && "
			 "printf '  CPU0\\nLOC: 1\\n' >proc/interrupts", dir);
		CHECK("the fake proc/irq is written", system(cmd) == 0);
		CHECK("it opens", sysroot_open(&root, dir) == 0);
		CHECK("isolating 4-7 works", irq_isolate(&root, journal, "alloc:fwd",
		      &away, &online, &rep, err, sizeof(err)) == 0);
		irq_report_free(&rep);
		CHECK("steering onto the isolated CPUs works", irq_steer(&root,
		      journal, "irqs-to:eth1", &irqs, &to, &online, &rep, err,
		      sizeof(err)) == 0);
		CHECK("none is left unsteered", cpuset_empty(&rep.unsteered));
		CHECK("the steered IRQs are named as reaching the away set",
		      cpuset_equal(&rep.kept, &irqs));
		irq_report_free(&rep);
		CHECK_STR("steering wins over isolation", aff(dir, 40), "4-7");
		CHECK_STR("for every vector", aff(dir, 41), "4-7");
		CHECK_STR("the others stay off", aff(dir, 30), "0-3");
		strbuf_init(&sb);
		CHECK("the check of 4-7 with eth1 finds nothing",
		      irq_check(&root, &to, &own, 1, 8, 0, &sb, err,
				sizeof(err)) == 0);
		CHECK_STR("and confirms eth1's IRQs are there", sb.buf,
			  "note: eth1's IRQs 40-41 are on CPUs 4-7\n");
		strbuf_free(&sb);
		CHECK("the first release", irq_release(&root, journal,
		      order ? "irqs-to:eth1" : "alloc:fwd", &online, &found,
		      &rep, err, sizeof(err)) == 0 && found);
		irq_report_free(&rep);
		CHECK_STR("leaves each IRQ as the holder left asks",
			  aff(dir, 40), order ? "0-3" : "4-7");
		CHECK("the second release", irq_release(&root, journal,
		      order ? "alloc:fwd" : "irqs-to:eth1", &online, &found,
		      &rep, err, sizeof(err)) == 0 && found);
		irq_report_free(&rep);
		CHECK_STR("puts back the originals", aff(dir, 40), "0-7");
		CHECK_STR("exactly", aff(dir, 41), "0-3");
		CHECK_STR("all of them", aff(dir, 30), "0-7");
		sysroot_close(&root);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		printf("# cannot remove %s\n", dir);
	cpuset_free(&online);
	cpuset_free(&away);
	cpuset_free(&irqs);
	cpuset_free(&to);
}

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
	steering();
	return unit_failed;
}
