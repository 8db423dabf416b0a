#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-quota convert and class: the kubelet's arithmetic, the QoS rules,
# and the command-line conventions.
. "$(dirname "$0")/lib.sh"

Q=cpm-quota

# The expected values are computed here by a separate implementation of
# the kubelet's formulas (helpers_linux.go) and crun's
# convert_shares_to_weight, not taken from cpm: one file per
# MILLICPU.PERIOD_US in $T_TMP/exp.
ROWS="0:0 1m:1 9m:9 10m:10 100m:100 250m:250 999m:999 1:1000 1.5:1500 \
2:2000 0.5:500 1e3m:1000 1e-3:1 3.7:3700 64:64000 256:256000 257:257000 \
0.0001:1 1.0001:1001 100001m:100001"
if command -v python3 >/dev/null; then
	mkdir "$T_TMP/exp"
	python3 - "$T_TMP/exp" 100000 $(for r in $ROWS; do echo "${r#*:}"; done) \
	    250:10000 1:1000000 <<'EOF2'
import math, sys
out, p0 = sys.argv[1], int(sys.argv[2])
for arg in sys.argv[3:]:
    m, p = (arg.split(":") + [p0])[:2]
    m, p = int(m), int(p)
    s = 2 if m == 0 else min(max(m * 1024 // 1000, 2), 262144)
    lin = 10000 if s >= 262144 else 1 + (s - 2) * 9999 // 262142
    if s <= 2:
        quad = 1
    elif s >= 262144:
        quad = 10000
    else:
        l = math.log2(s)
        quad = math.ceil(math.pow(10, (l * l + 125 * l) / 612.0 - 7.0 / 34.0))
    q = 0 if m == 0 else max(m * p // 1000, 1000)
    cm = ("%d %d" % (q, p)) if q > 0 else ("max %d" % p)
    with open("%s/%d.%d" % (out, m, p), "w") as f:
        f.write("millicpu=%d\nshares=%d\nweight=%d\nweight_runc=%d\n"
                "quota_us=%d\nperiod_us=%d\ncpu_max=%s" %
                (m, s, lin, quad, q, p, cm))
EOF2
	expect() { cat "$T_TMP/exp/$1.$2"; }
	for row in $ROWS; do
		q=${row%%:*} m=${row#*:}
		check "convert $q gives the kubelet's values" 0 "$(expect "$m" 100000)" \
		    $Q convert "$q"
	done
	check "convert 250m --period 10ms scales the quota" 0 "$(expect 250 10000)" \
	    $Q convert 250m --period 10ms
	check "convert 1m --period 1s keeps the kernel's minimum quota" 0 \
	    "$(expect 1 1000000)" $Q convert 1m --period 1s
else
	skip "convert matches the kubelet's formulas" "python3 missing"
fi

# Fixed anchors from the published table (shares, linear, log-quadratic).
check "convert 1 gives weight 39 and weight_runc 100" 0 "39 100" \
    sh -c "$Q convert 1 | awk -F= '/^weight=/{w=\$2} /^weight_runc=/{r=\$2} END{print w, r}'"
check "convert 4 gives weight 157 and weight_runc 303" 0 "157 303" \
    sh -c "$Q convert 4 | awk -F= '/^weight=/{w=\$2} /^weight_runc=/{r=\$2} END{print w, r}'"
check "convert 16 gives weight 625 and weight_runc 942" 0 "625 942" \
    sh -c "$Q convert 16 | awk -F= '/^weight=/{w=\$2} /^weight_runc=/{r=\$2} END{print w, r}'"
check "convert max is unlimited and saturates the weights" 0 \
"millicpu=max
shares=262144
weight=10000
weight_runc=10000
quota_us=-1
period_us=100000
cpu_max=max 100000" $Q convert max
check "convert --json prints one document" 0 \
    '{"millicpu":250,"shares":256,"weight":10,"weight_runc":35,"quota_us":25000,"period_us":100000,"cpu_max":"25000 100000"}' \
    $Q convert 250m --json
check "convert max --json has a null millicpu" 0 \
    '{"millicpu":null,"shares":262144,"weight":10000,"weight_runc":10000,"quota_us":-1,"period_us":100000,"cpu_max":"max 100000"}' \
    $Q --json convert max
run $Q convert 0.0001
if [ "$rc" = 0 ] && printf '%s' "$err" | grep -q 'rounded up to 1m'; then
	ok "convert warns when it rounds a quantity up to 1m"
else
	not_ok "convert warns when it rounds a quantity up to 1m" "$(show)"
fi

# Junk: exit 2, the bad part named, nothing on stdout.
check_fail "convert refuses an unknown suffix" 2 "invalid quantity '1x': unknown suffix 'x'" \
    $Q convert 1x
check_fail "convert refuses a capital K" 2 "unknown suffix 'K'" $Q convert 1K
# The kernel's largest quota is 2^44-1 us (kernel/sched/core.c, max_cfs_runtime).
check_fail "convert refuses a quota the kernel would refuse" 2 \
	"needs a quota above the kernel's largest, 17592186044415us" $Q convert 9223372036854775807m
check_fail "convert refuses a quota above the largest at a 1s period" 2 \
	"largest, 17592186044415us per 1000000us" $Q convert 17592187 --period 1s
check_fail "convert refuses a bare e" 2 "unknown suffix 'e'" $Q convert 1e
check_fail "convert refuses two decimal points" 2 "unknown suffix '\\.5'" \
    $Q convert 1.5.5
check_fail "convert refuses a word" 2 "'abc': not a number" $Q convert abc
check_fail "convert refuses an empty quantity" 2 "empty" $Q convert ''
check_fail "convert refuses a negative quantity" 2 "negative" $Q convert -- -1
check_fail "convert refuses a space" 2 "invalid quantity" $Q convert '1 '
check_fail "convert refuses an overflowing quantity" 2 "too large" \
    $Q convert 99999999999999999999
check_fail "convert refuses a period below 1ms" 2 "period '999us'" \
    $Q convert 1 --period 999us
check_fail "convert refuses a period above 1s" 2 "period '2s'" \
    $Q convert 1 --period 2s
check_fail "convert refuses a period without a unit" 2 "invalid period '100'" \
    $Q convert 1 --period 100
check_fail "convert needs a quantity" 2 "needs a QUANTITY" $Q convert
check "convert with several quantities prints a row each, in order" 0 \
"MILLICPU SHARES WEIGHT WEIGHT_RUNC QUOTA_US PERIOD_US CPU_MAX
     250    256     10          35    25000    100000 25000 100000
    1500   1536     59         138   150000    100000 150000 100000
     max 262144  10000       10000       -1    100000 max 100000" \
    $Q convert 250m 1.5 max
check "convert --json with several quantities prints an object a line, as for one" 0 \
    "$($Q convert 250m --json)
$($Q convert 2 --json)" $Q convert 250m 2 --json
check_fail "convert checks every quantity before printing any" 2 \
    "^cpm-quota: invalid quantity 'x'" $Q convert 1 x
check_fail "convert needs a quantity" 2 "^cpm-quota: convert needs a QUANTITY$" $Q convert

# class: the QoS rules of Kubernetes for one container.
cls() { "$Q" class "$@" | sed -n 's/^class=//p; s/^exclusive=//p; s/^cpus=//p' | tr '\n' ' '; }
check "class: equal integral requests and limits are Guaranteed and exclusive" 0 \
    "Guaranteed yes 2 " cls --request 2 --limit 2 --mem-request 1Gi --mem-limit 1Gi
check "class: a limit alone defaults the request (Guaranteed)" 0 \
    "Guaranteed yes 4 " cls --limit 4 --mem-limit 256Mi
check "class: 1.5 CPUs is Guaranteed but shared" 0 \
    "Guaranteed no 0 " cls --request 1.5 --limit 1.5 --mem-limit 1G
check "class: 2000m counts as integral" 0 \
    "Guaranteed yes 2 " cls --request 2000m --limit 2 --mem-limit 1G
check "class: 1e3m counts as one CPU" 0 \
    "Guaranteed yes 1 " cls --request 1e3m --limit 1 --mem-limit 1G
check "class: without a memory limit it is Burstable" 0 \
    "Burstable no 0 " cls --request 2 --limit 2
check "class: request below limit is Burstable" 0 \
    "Burstable no 0 " cls --request 1 --limit 2 --mem-limit 1G
check "class: memory request below limit is Burstable" 0 \
    "Burstable no 0 " cls --limit 2 --mem-request 512Mi --mem-limit 1Gi
check "class: a request alone is Burstable" 0 \
    "Burstable no 0 " cls --request 100m
check "class: an unlimited CPU limit is Burstable" 0 \
    "Burstable no 0 " cls --request 1 --limit max --mem-limit 1G
check "class: nothing at all is BestEffort" 0 "BestEffort no 0 " cls
check "class: zero requests are BestEffort" 0 "BestEffort no 0 " \
    cls --request 0 --limit 0
check "class: 1Gi equals 1073741824 for Guaranteed" 0 "Guaranteed yes 1 " \
    cls --limit 1 --mem-request 1073741824 --mem-limit 1Gi
run $Q class --request 1.5 --limit 1.5 --mem-limit 1G
if printf '%s' "$out" | grep -q '^reason=.*not a whole number'; then
	ok "class explains why 1.5 CPUs are not exclusive"
else
	not_ok "class explains why 1.5 CPUs are not exclusive" "$(show)"
fi
check "class --json prints one document" 0 \
    '{"class":"Burstable","exclusive":false,"cpus":0,"reason":"Burstable: no memory limit"}' \
    $Q class --request 1 --limit 1 --json
check_fail "class refuses a request above the limit" 2 "exceeds the CPU limit" \
    $Q class --request 2 --limit 1
check_fail "class refuses a bad memory quantity" 2 "invalid memory limit '1GB'" \
    $Q class --limit 1 --mem-limit 1GB
check_fail "class refuses a bad CPU quantity" 2 "invalid CPU request '2x'" \
    $Q class --request 2x

# Conventions shared by the tools.
run $Q --help
if [ "$rc" = 0 ] && printf '%s' "$out" | grep -q -- '--weight-formula' && [ -z "$err" ]; then
	ok "--help prints the usage on stdout"
else
	not_ok "--help prints the usage on stdout" "$(show)"
fi
check "--version prints the version" 0 "cpm-quota $(sed -n 's/^VERSION *= *//p' "$CPM_TOP/Makefile")" \
    $Q --version
check_fail "an unknown option is a usage error" 2 "unrecognized option '--bogus'" \
    $Q convert 1 --bogus
check_fail "a missing option argument is a usage error" 2 "option '--period' requires an argument" \
    $Q convert 1 --period
check_fail "an unknown command is a usage error" 2 "unknown command 'frob'" $Q frob
check_fail "a missing command is a usage error" 2 "missing COMMAND" $Q
check_fail "an option of another command is refused" 2 "'--factor' does not apply to 'convert'" \
    $Q convert 1 --factor 2
check_fail "an unknown weight formula is refused" 2 "unknown --weight-formula 'cubic'" \
    $Q get x --weight-formula cubic
