# SPDX-License-Identifier: GPL-2.0-or-later
# The files of examples/: the Prometheus rules pass promtool check rules
# and their unit tests (tests/prom/), and hold on the series cpm-throttle
# really prints for a kubepods tree (fake cgroup files written here, not a
# kernel); the systemd units pass systemd-analyze verify (offline, with the
# tools of this tree in place of /usr/bin), and their commands run as
# written against a fake cgroup tree.
. "$(dirname "$0")/lib.sh"

EX=$CPM_TOP/examples
RULES=$EX/cpm.rules.yml

if ! command -v promtool >/dev/null; then
	skip "Prometheus rules" "promtool not installed"
else
	run promtool check rules "$RULES"
	if [ "$rc" = 0 ]; then ok "promtool check rules accepts cpm.rules.yml"
	else not_ok "promtool check rules accepts cpm.rules.yml" "$(show)"; fi
	run promtool test rules "$CPM_TOP/tests/prom/cpm.rules.test.yml"
	if [ "$rc" = 0 ]; then ok "promtool test rules: the rules' unit tests pass"
	else not_ok "promtool test rules: the rules' unit tests pass" "$(show)"; fi

	# A kubepods tree of the cgroupfs driver and one plain group, as
	# cpm-throttle --k8s sees them; each counter's value becomes its
	# increase per minute in the rules' test.
	K=$T_TMP/k8s
	UID1=11111111-2222-3333-4444-555555555555
	POD=kubepods/burstable/pod$UID1
	v1grp() {
		mkdir -p "$K/cpu/$1" "$K/cpuacct/$1"
		echo "$2" >"$K/cpu/$1/cpu.cfs_quota_us"
		echo 100000 >"$K/cpu/$1/cpu.cfs_period_us"
		printf 'nr_periods %s\nnr_throttled %s\nthrottled_time %s\n' \
		    "$3" "$4" "$5" >"$K/cpu/$1/cpu.stat"
		echo 0 >"$K/cpuacct/$1/cpuacct.usage"
	}
	v1grp . -1 0 0 0
	v1grp kubepods -1 0 0 0
	v1grp kubepods/burstable -1 0 0 0
	v1grp "$POD" 100000 600 600 0
	v1grp "$POD/abcdef01" 50000 600 300 0
	v1grp "$POD/abcdef02" 50000 600 120 0
	v1grp batch 20000 100 50 6000000000
	run cpm-throttle --cgroup-root "$K" --k8s -o prom
	if [ "$rc" != 0 ]; then
		not_ok "cpm-throttle --k8s -o prom on the kubepods tree" "$(show)"
	fi
	{
		printf 'rule_files:\n  - %s\nevaluation_interval: 1m\ntests:\n' "$RULES"
		printf '  - interval: 1m\n    input_series:\n'
		printf '%s' "$out" | awk '!/^#/ && NF {
			v = $NF; s = $0; sub(/ [^ ]*$/, "", s); sub(/\{/, "{instance=\"n1\",", s)
			printf "      - series: '\''%s'\''\n        values: '\''0+%sx40'\''\n", s, v }'
		cat <<EOT
    promql_expr_test:
      - expr: cpm:pod_cpu_cfs_throttled_ratio:rate5m
        eval_time: 10m
        exp_samples:
          - labels: 'cpm:pod_cpu_cfs_throttled_ratio:rate5m{instance="n1",qos="Burstable",uid="$UID1"}'
            value: 0.35
      - expr: cpm:cpu_cfs_throttled_ratio:rate5m{cgroup="batch"}
        eval_time: 10m
        exp_samples:
          - labels: 'cpm:cpu_cfs_throttled_ratio:rate5m{instance="n1",cgroup="batch",id="/batch"}'
            value: 0.5
      - expr: cpm:cpu_cfs_throttled_seconds:rate5m{cgroup="batch"}
        eval_time: 10m
        exp_samples:
          - labels: 'cpm:cpu_cfs_throttled_seconds:rate5m{instance="n1",cgroup="batch",id="/batch"}'
            value: 0.1
    alert_rule_test:
      - alertname: CpmPodCPUThrottlingHigh
        eval_time: 20m
        exp_alerts:
          - exp_labels: {severity: warning, instance: n1, qos: Burstable, uid: "$UID1"}
            exp_annotations:
              summary: "pod $UID1 on n1 is CPU-throttled"
              description: "35% of the CFS periods of the containers of pod $UID1 (Burstable) on n1 were throttled over the last 5 minutes, for 15 minutes: raise its CPU limits."
EOT
	} >"$T_TMP/real.test.yml"
	run promtool test rules "$T_TMP/real.test.yml"
	if [ "$rc" = 0 ]; then
		ok "the rules record and alert on cpm-throttle's real --k8s output"
	else
		not_ok "the rules record and alert on cpm-throttle's real --k8s output" \
		    "$(show)" "$(cat "$T_TMP/real.test.yml")"
	fi
fi

# --- systemd units ---
UNITS="cpm-throttle-report.service cpm-throttle-report.timer cpm-burst.service"
mkdir "$T_TMP/units"
for u in $UNITS; do
	sed "s|/usr/bin/cpm-|$CPM_TOP/bin/cpm-|g" "$EX/$u" >"$T_TMP/units/$u"
done
if ! command -v systemd-analyze >/dev/null; then
	skip "systemd-analyze verify accepts the units" "systemd-analyze not installed"
else
	# --man=no: the pages are cpm's own, not installed here (checked below).
	run systemd-analyze verify --man=no "$T_TMP"/units/*
	if [ "$rc" = 0 ] && [ -z "$out$err" ]; then
		ok "systemd-analyze verify accepts the units, without a warning"
	else
		not_ok "systemd-analyze verify accepts the units, without a warning" "$(show)"
	fi
fi
missing=
for m in $(sed -n 's/^Documentation=//p' "$EX"/*.service "$EX"/*.timer | tr ' ' '\n' | sort -u); do
	p=${m#man:}; n=${p%%(*}; s=${p#*(}; s=${s%)}
	[ -f "$CPM_TOP/man/$n.$s" ] || missing="$missing $m"
done
assert "the units' Documentation= pages are cpm's manuals" "$missing" ""
assert "the timer starts the report service" \
    "$(sed -n 's/^OnCalendar=//p' "$EX/cpm-throttle-report.timer"):$(ls "$EX/cpm-throttle-report.service")" \
    "minutely:$EX/cpm-throttle-report.service"

# The units' commands, as systemd would run them (continuation lines
# joined), with /var/lib paths moved into $T_TMP and a fake cgroup tree.
# exec_lines UNIT KEY: the command lines of KEY= in UNIT.
exec_lines() {
	awk -v k="$2" '
		cont { line = line " " $0; sub(/\\$/, "", line) }
		!cont && index($0, k "=") == 1 { line = substr($0, length(k) + 2) }
		{ if (line != "" && /\\$/) { sub(/\\$/, "", line); cont = 1; next }
		  if (line != "") { print line; line = "" } cont = 0 }' "$T_TMP/units/$1" |
	    sed "s|/var/lib/prometheus/node-exporter|$T_TMP/textfile|g; s|/var/lib/cpm|$T_TMP/state|g"
}
# run_exec NAME UNIT KEY WANT_RC [TIMEOUT]
run_exec() {
	_c=$(exec_lines "$2" "$3")
	if [ -z "$_c" ]; then not_ok "$1" "no $3= in $2"; return; fi
	if [ -n "${5:-}" ]; then run timeout "$5" sh -c "$_c"
	else run sh -c "$_c"; fi
	if [ "$rc" = "$4" ] && [ -z "$err" ]; then ok "$1"
	else not_ok "$1" "command: $_c" "want exit $4 and nothing on stderr" "$(show)"; fi
}
F=$T_TMP/cg
mkdir -p "$F/cpu/web" "$F/cpuacct/web"
echo 50000 >"$F/cpu/web/cpu.cfs_quota_us"
echo 100000 >"$F/cpu/web/cpu.cfs_period_us"
printf 'nr_periods 10\nnr_throttled 4\nthrottled_time 0\n' >"$F/cpu/web/cpu.stat"
echo 0 >"$F/cpuacct/web/cpuacct.usage"
mkdir -p "$T_TMP/state"
export CPM_CGROUP_ROOT="$F"
run_exec "cpm-throttle-report.service: ExecStartPre makes the textfile directory" \
    cpm-throttle-report.service ExecStartPre 0
run_exec "cpm-throttle-report.service: ExecStart writes the textfile" \
    cpm-throttle-report.service ExecStart 0
assert "the textfile has cpm's counters and the snapshot is taken" \
    "$(grep -c '^cpm_cpu_cfs_throttled_periods_total{cgroup="web",id="/web"} 4$' "$T_TMP/textfile/cpm.prom" 2>&1):$(test -s "$T_TMP/state/throttle.snap" && echo snap)" \
    "1:snap"
run_exec "cpm-throttle-report.service: a second run reports a window" \
    cpm-throttle-report.service ExecStart 0
assert "the second textfile has the ratio gauge" \
    "$(grep -c '^cpm_cpu_cfs_throttled_ratio{cgroup="web",id="/web"} ' "$T_TMP/textfile/cpm.prom" 2>&1)" 1
export CPM_BURST_JOURNAL="$T_TMP/state/burst.journal"
run_exec "cpm-burst.service: ExecStartPre restores what a killed run left" \
    cpm-burst.service ExecStartPre 0
# web is throttled in every period from now on: the pipeline raises its
# quota (a sampler notes what it sees).  Killed by timeout's SIGTERM (to
# the whole process group), as systemd stops it: exit 124, no error, and
# the quota is back.
(
	n=10
	while [ ! -f "$T_TMP/stop" ]; do
		n=$((n + 10))
		printf 'nr_periods %s\nnr_throttled %s\nthrottled_time 0\n' "$n" "$n" \
		    >"$F/cpu/web/cpu.stat.new" && mv "$F/cpu/web/cpu.stat.new" "$F/cpu/web/cpu.stat"
		cat "$F/cpu/web/cpu.cfs_quota_us" >>"$T_TMP/quotas"
		sleep 0.1
	done
) &
feeder=$!
at_exit "touch '$T_TMP/stop'; wait $feeder"
run_exec "cpm-burst.service: the pipeline runs until stopped" \
    cpm-burst.service ExecStart 124 3
touch "$T_TMP/stop"
wait $feeder
assert "cpm-burst.service raised the throttled group's quota" \
    "$(grep -c '^100000$' "$T_TMP/quotas" | sed 's/^[1-9][0-9]*$/yes/')" yes
run_exec "cpm-burst.service: ExecStopPost restores" \
    cpm-burst.service ExecStopPost 0
assert "the burst left the quota as it was" "$(cat "$F/cpu/web/cpu.cfs_quota_us")" 50000

# The hooks.d files: oci-hooks(5) version 1.0.0, run for every container
# at prestart and poststop (podman itself runs cpm.json in t-oci-hook).
for f in "$EX"/oci-hooks.d/*.json; do
	run python3 -c '
import json, sys
h = json.load(open(sys.argv[1]))
assert h["version"] == "1.0.0", "version"
assert h["hook"]["path"] == "/usr/bin/cpm-alloc", "path"
a = h["hook"]["args"]
assert a[:2] == ["cpm-alloc", "oci-hook"], "args"
# What containers may ask for is for the operator to say, never open.
assert "--allow-annotations" in a and "--allow-parent" in a, "limits"
assert "isolate-irqs" not in a[a.index("--allow-annotations") + 1], "irqs"
assert h["when"] == {"always": True}, "when"
assert h["stages"] == ["prestart", "poststop"], "stages"
assert h["hook"]["timeout"] > 10, "timeout above the lock wait"
' "$f"
	if [ "$rc" = 0 ]; then ok "${f##*/} runs cpm-alloc oci-hook for every container"
	else not_ok "${f##*/} runs cpm-alloc oci-hook for every container" "$(show)"; fi
done
