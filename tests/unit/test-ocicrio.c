// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CRI-O's high-performance annotations as the OCI hook reads them: their
 * values checked as CRI-O checks them, each honoured only where the
 * operator's allowed list names it, and config.json's CPU quota read
 * for the restore.
 */
#include <stdio.h>
#include <unistd.h>
#include <errno.h>
#include <string.h>

#include "pin/ocihook.h"
#include "unit.h"

#define ALL "cpus,cpu-quota.crio.io,irq-load-balancing.crio.io," \
	"cpu-c-states.crio.io,cpu-freq-governor.crio.io," \
	"cpu-load-balancing.crio.io"

static char err[256];

/* Parse the annotations ann (JSON members) under allowed into rq. */
static int
parse(const char *ann, const char *allowed, struct oci_request *rq)
{
	char doc[1024];
	struct oci_state s;
	int r;

	snprintf(doc, sizeof(doc), "{\"id\":\"c1\",\"annotations\":{%s}}",
		 ann);
	*err = '\0';
	r = oci_state_parse(&s, doc, strlen(doc), err, sizeof(err));
	if (r == 0)
		r = oci_request_parse(&s, allowed, rq, err, sizeof(err));
	/* rq's strings point into s: compare only what the tests need. */
	if (r == 0 && rq->unsupported)
		rq->unsupported = strstr(ALL, rq->unsupported);
	if (r == 0 && rq->ignored)
		rq->ignored = "";
	oci_state_free(&s);
	return r;
}

static void
test_values(void)
{
	struct oci_request rq;

	CHECK("cpu-quota.crio.io=disable removes the quota",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-quota.crio.io\":\"disable\"",
		    ALL, &rq) == 0 && rq.no_quota && !rq.unsupported);
	CHECK("CRI-O's older \"true\" means disable",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-quota.crio.io\":\"true\"",
		    ALL, &rq) == 0 && rq.no_quota);
	CHECK("irq-load-balancing.crio.io=disable moves interrupts away",
	      parse("\"cpm.io/cpus\":\"1\",\"irq-load-balancing.crio.io\":"
		    "\"disable\"", ALL, &rq) == 0 && rq.isolate_irqs);
	CHECK("irq-load-balancing.crio.io=housekeeping is refused",
	      parse("\"cpm.io/cpus\":\"1\",\"irq-load-balancing.crio.io\":"
		    "\"housekeeping\"", ALL, &rq) == -EINVAL &&
	      strstr(err, "not supported"));
	CHECK("cpu-quota.crio.io=off is refused",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-quota.crio.io\":\"off\"",
		    ALL, &rq) == -EINVAL &&
	      strstr(err, "invalid annotation cpu-quota.crio.io='off'"));
	CHECK("cpu-c-states.crio.io=max_latency:10 is checked, not carried out",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-c-states.crio.io\":"
		    "\"max_latency:10\"", ALL, &rq) == 0 && rq.unsupported &&
	      strncmp(rq.unsupported, "cpu-c-states", 12) == 0);
	CHECK("cpu-c-states.crio.io=max_latency:0 is refused",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-c-states.crio.io\":"
		    "\"max_latency:0\"", ALL, &rq) == -EINVAL);
	CHECK("cpu-freq-governor.crio.io takes a governor's name",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-freq-governor.crio.io\":"
		    "\"../x\"", ALL, &rq) == -EINVAL);
	CHECK("cpu-load-balancing.crio.io=enable is refused",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-load-balancing.crio.io\":"
		    "\"enable\"", ALL, &rq) == -EINVAL);
}

static void
test_allowed(void)
{
	struct oci_request rq;

	CHECK("not allowed, cpu-quota.crio.io is dropped and noted",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-quota.crio.io\":\"disable\"",
		    "cpus", &rq) == 0 && !rq.no_quota && rq.ignored &&
	      rq.have_cpus);
	CHECK("not allowed, irq-load-balancing.crio.io moves nothing",
	      parse("\"cpm.io/cpus\":\"1\",\"irq-load-balancing.crio.io\":"
		    "\"disable\"", "cpus", &rq) == 0 && !rq.isolate_irqs);
	CHECK("not allowed, an unsupported one is not warned about as such",
	      parse("\"cpm.io/cpus\":\"1\",\"cpu-c-states.crio.io\":"
		    "\"disable\"", "cpus", &rq) == 0 && !rq.unsupported &&
	      rq.ignored);
	CHECK("the allowed list takes CRI-O's keys",
	      oci_allowed_check(ALL, err, sizeof(err)) == 0);
	CHECK("and refuses a misspelt one",
	      oci_allowed_check("cpu-quota.crio", err, sizeof(err)) ==
	      -EINVAL);
}

static void
test_config_quota(void)
{
	char dir[] = "/tmp/cpm-ocicrio.XXXXXX", path[64], doc[128];
	struct oci_state s;
	FILE *f;

	if (!mkdtemp(dir)) {
		CHECK("a temporary directory", 0);
		return;
	}
	snprintf(path, sizeof(path), "%s/config.json", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("{\"linux\":{\"resources\":{\"cpu\":{\"quota\":50000,"
		      "\"period\":100000}}}}\n", f);
		fclose(f);
	}
	snprintf(doc, sizeof(doc), "{\"id\":\"c1\",\"bundle\":\"%s\"}", dir);
	CHECK("config.json's quota and period are read",
	      oci_state_parse(&s, doc, strlen(doc), err, sizeof(err)) == 0 &&
	      s.quota == -1 && oci_config_load(&s, err, sizeof(err)) == 0 &&
	      s.quota == 50000 && s.period == 100000);
	oci_state_free(&s);
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	test_values();
	test_allowed();
	test_config_quota();
	return unit_failed;
}
