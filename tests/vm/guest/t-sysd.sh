# SPDX-License-Identifier: GPL-2.0-or-later
# cpm's systemd features on the real thing (the systemd machine of
# tests/vm/run: systemd as PID 1 on a pure cgroup v2 tree, node N = CPUs
# 4N..4N+3): who owns a group, changes made through systemd that outlive
# daemon-reload, refusals that change nothing, burst and restore that
# leave 'systemctl show' as it was, and cpm-pin --scope.  Skips itself
# under any other PID 1.
. /cpm/tests/vm/guest/common.sh
if [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ]; then
	skip "cpm on systemd" "PID 1 is not systemd"
	exit 0
fi
have cpm-quota && have cpm-pin && have cpm-throttle || exit 0

unit_cg() { systemctl show -P ControlGroup "$1" | sed 's,^/,,'; }
show_cpu() { systemctl show -p CPUQuotaPerSecUSec -p CPUQuotaPeriodUSec -p CPUWeight -p AllowedCPUs -p AllowedMemoryNodes "$1"; }
# wait_for CMD...: up to 20s for CMD to succeed.
wait_for() {
	_w=0
	while ! "$@" >/dev/null 2>&1; do
		_w=$((_w + 1))
		[ $_w -gt 100 ] && return 1
		sleep 0.2
	done
}

U=cpmsd-svc
systemctl stop $U.service 2>/dev/null
systemctl reset-failed $U.service 2>/dev/null
at_exit "systemctl stop $U.service 2>/dev/null; systemctl revert $U.service >/dev/null 2>&1"
run systemd-run --quiet --unit=$U -p CPUQuota=50% /bin/sleep 3600
g=$(unit_cg $U.service)
assert "a transient service to change" "$rc $g" "0 system.slice/$U.service"

# --- sysd: who owns a group ------------------------------------------------
run cpm-quota get "$g"
assert "cpm-quota get names the service's group as its unit's" \
    "$rc $(printf '%s' "$out" | sed -n 's/^owner=//p') $(printf '%s' "$out" | sed -n 's/^unit=//p')" \
    "0 unit $U.service"
run cpm-quota get system.slice --json
case $out in
*'"owner":"unit","unit":"system.slice"'*) ok "cpm-quota get --json names a slice" ;;
*) not_ok "cpm-quota get --json names a slice" "$(show)" ;;
esac
run cpm-throttle "$g" -o tsv
assert "cpm-throttle adds the UNIT column by itself under systemd" \
    "$rc $(printf '%s' "$out" | head -1 | awk -F'\t' '{ print $NF }') $(printf '%s' "$out" | sed -n 2p | awk -F'\t' '{ print $NF }')" \
    "0 UNIT $U.service"
run cpm-throttle "$g" -o prom
case $out in
*"unit=\"$U.service\""*) ok "cpm-throttle labels the unit in Prometheus text" ;;
*) not_ok "cpm-throttle labels the unit in Prometheus text" "$(show)" ;;
esac

# --- sysd: cpm-quota set through systemd outlives daemon-reload -------------
run cpm-quota set "$g" --limit 1.5 --request 1
assert "set on a unit's group applies through systemd" \
    "$rc $(kfile $CG/$g/cpu.max) $(systemctl show -P CPUQuotaPerSecUSec $U.service) $err" \
    "0 150000 100000 1.500000s "
w=$(kfile $CG/$g/cpu.weight)
assert "... the weight too" "$(systemctl show -P CPUWeight $U.service)" "$w"
systemctl daemon-reload
assert "after daemon-reload the kernel still has cpm's quota and weight" \
    "$(kfile $CG/$g/cpu.max) $(kfile $CG/$g/cpu.weight)" "150000 100000 $w"
run cpm-quota set "$g" --limit 250m --period 20ms
systemctl daemon-reload
assert "a period set through systemd outlives daemon-reload too" \
    "$rc $(kfile $CG/$g/cpu.max)" "0 5000 20000"
assert "only runtime properties: no persistent drop-in" \
    "$(ls /etc/systemd/system.control/$U.service.d 2>/dev/null | wc -l)" "0"

# --- sysd: cpm-pin --cgroup through systemd outlives daemon-reload ----------
run cpm-pin --cgroup "$g" 2-3 --mems 0
assert "cpm-pin --cgroup on a unit sets AllowedCPUs and AllowedMemoryNodes" \
    "$rc $(kfile $CG/$g/cpuset.cpus) $(systemctl show -P AllowedCPUs $U.service) $(systemctl show -P AllowedMemoryNodes $U.service) $err" \
    "0 2-3 2-3 0 "
systemctl daemon-reload
assert "after daemon-reload the kernel still has cpm's cpuset" \
    "$(kfile $CG/$g/cpuset.cpus) $(kfile $CG/$g/cpuset.cpus.effective) $(kfile $CG/$g/cpuset.mems)" \
    "2-3 2-3 0"

# --- sysd: direct writes into a non-delegated unit are refused --------------
before="$(kfile $CG/$g/cpu.max) $(kfile $CG/$g/cpuset.cpus) $(kfile $CG/$g/cpuset.cpus.partition)"
run cpm-quota set "$g/sub" --create --limit 1
assert "set --create inside a non-delegated unit is refused with exit 3" \
    "$rc $(test -d $CG/$g/sub && echo made)" "3 "
run cpm-pin --cgroup "$g" 2-3 --exclusive
assert "cpm-pin --exclusive on a unit's group is refused with exit 3" "$rc $err" \
    "3 cpm-pin: cgroup '$g' belongs to systemd unit $U.service, and systemd has no property for a cpuset partition: use systemd-run or 'cpm-pin --scope', or --force to write it anyway
"
run cpm-pin --cgroup "$g" 1 --attach $$
assert "cpm-pin --attach into a unit's group is refused with exit 3" "$rc" "3"
assert "... and nothing changed" \
    "$(kfile $CG/$g/cpu.max) $(kfile $CG/$g/cpuset.cpus) $(kfile $CG/$g/cpuset.cpus.partition)" "$before"

# --- sysd: a delegated subtree is written directly --------------------------
D=cpmsd-dlg
systemctl stop $D.service 2>/dev/null
systemctl reset-failed $D.service 2>/dev/null
at_exit "systemctl stop $D.service 2>/dev/null"
run systemd-run --quiet --unit=$D -p Delegate=yes /bin/sleep 3600
dg=$(unit_cg $D.service)
pid=$(systemctl show -P MainPID $D.service)
mkdir -p "$CG/$dg/leaf" && echo "$pid" >"$CG/$dg/leaf/cgroup.procs" &&
    echo +cpu >"$CG/$dg/cgroup.subtree_control"
run cpm-quota get "$dg/leaf"
assert "a group below Delegate=yes is delegated" \
    "$rc $(printf '%s' "$out" | sed -n 's/^owner=//p') $err" "0 delegated "
run cpm-quota set "$dg/inner" --create --limit 500m
assert "set --create inside a delegated subtree writes the files" \
    "$rc $(kfile $CG/$dg/inner/cpu.max)" "0 50000 100000"
rmdir "$CG/$dg/inner" 2>/dev/null

# --- sysd: burst and restore leave 'systemctl show' as it was ---------------
cpm-quota set "$g" --limit 1 --period 100ms >/dev/null
was=$(show_cpu $U.service)
J=/tmp/cpmsd-burst.journal
rm -f $J
# Long boosts, ended by SIGTERM (which restores) or SIGKILL (which leaves
# the raise for restore): daemon-reload alone takes seconds under TCG.
cpm-quota burst --journal $J --factor 2 --for 120s "$g" 2>$T_TMP/burst.err &
bp=$!
wait_for grep -qx "200000 100000" $CG/$g/cpu.max
assert "a burst raises a unit's quota through systemd" \
    "$(kfile $CG/$g/cpu.max) $(systemctl show -P CPUQuotaPerSecUSec $U.service) $(cat $T_TMP/burst.err)" \
    "200000 100000 2s "
systemctl daemon-reload
assert "... and the raise outlives daemon-reload" "$(kfile $CG/$g/cpu.max)" "200000 100000"
tdir=/run/systemd/transient/$U.service.d
dropins=$(ls -A $tdir 2>/dev/null)
kill -TERM $bp
wait $bp
assert "after the burst the kernel and systemctl show are as before" \
    "$(kfile $CG/$g/cpu.max) $(show_cpu $U.service)" "100000 100000 $was"
assert "... and the unit's drop-ins, which set made, are as before" \
    "$(ls -A $tdir 2>/dev/null)" "$dropins"
cpm-quota burst --journal $J --factor 3 --for 120s "$g" &
bp=$!
wait_for grep -qx "300000 100000" $CG/$g/cpu.max
assert "a second burst raises it again" "$(kfile $CG/$g/cpu.max)" "300000 100000"
kill -9 $bp
wait $bp 2>/dev/null
run cpm-quota restore --journal $J
systemctl daemon-reload
assert "restore after a killed burst puts systemctl show back as before" \
    "$rc $(kfile $CG/$g/cpu.max) $(show_cpu $U.service)" "0 100000 100000 $was"
assert "burst and restore leave no persistent drop-in" \
    "$(ls /etc/systemd/system.control/$U.service.d 2>/dev/null | wc -l)" "0"

# --- sysd: pressure beside throttling, and the burst counters --------------
# Two busy loops on one CPU under a fifth of it: the group is throttled in
# most periods, and each loop waits for the CPU the other holds, so its
# cpu.pressure rises with its throttling.  Beside it a loop that rests
# and then spins, under the same quota with cpu.max.burst (Linux 5.14):
# the runtime it leaves unused while it rests carries over, and the
# kernel counts the periods that use it in nr_bursts and burst_usec.
PB=cpmsd-busy PR=cpmsd-bursty
for u in $PB $PR; do
	systemctl stop $u.service 2>/dev/null
	systemctl reset-failed $u.service 2>/dev/null
done
at_exit "systemctl stop $PB.service $PR.service 2>/dev/null"
systemd-run --quiet --unit=$PB -p CPUQuota=20% -p AllowedCPUs=1 \
    /bin/sh -c 'while :; do :; done & while :; do :; done'
systemd-run --quiet --unit=$PR -p CPUQuota=20% -p AllowedCPUs=2 \
    /bin/sh -c 'while :; do i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done; sleep 0.3; done'
pb=$(unit_cg $PB.service) pr=$(unit_cg $PR.service)
if [ -f "$CG/$pr/cpu.max.burst" ]; then
	echo 20000 >"$CG/$pr/cpu.max.burst"
fi
S=$T_TMP/psi.snap
cpm-throttle --since $S -o tsv "$pb" "$pr" >/dev/null 2>&1
sleep 4
run cpm-throttle --since $S -o json \
    -O GROUP,THROTTLED,PSI_SOME,BURSTS,BURST_S "$pb" "$pr"
# member GROUP NAME: NAME's value in GROUP's object of the JSON report.
member() {
	printf '%s' "$out" | tr '{' '\n' | grep "^\"group\":\"$1\"," |
	    sed -n "s/.*\"$2\":\([^,}]*\).*/\1/p"
}
positive() { awk -v v="$1" 'BEGIN { print (v != "" && v != "null" && v > 0) ? 1 : 0 }'; }
if [ -f "$CG/$pb/cpu.pressure" ]; then
	assert "a throttled group's cpu.pressure rises with its throttling" \
	    "$rc $(positive "$(member "$pb" throttled)")$(positive "$(member "$pb" psi_some)")" "0 11"
else
	skip "a throttled group's cpu.pressure" "no cpu.pressure (PSI off)"
fi
if [ -f "$CG/$pr/cpu.max.burst" ]; then
	assert "a burst shows in nr_bursts and burst_usec" \
	    "$rc $(positive "$(member "$pr" bursts)")$(positive "$(member "$pr" burst_s)")" "0 11"
else
	skip "the burst counters" "no cpu.max.burst (Linux 5.14)"
fi
run cpm-throttle -o prom "$pb"
assert "the textfile carries the group's pressure and the node's" \
    "$rc $(printf '%s' "$out" | grep -c "^cpm_pressure_cpu_waiting_seconds_total{.*$PB") $(printf '%s' "$out" | grep -c '^cpm_node_pressure_cpu_waiting_seconds_total')" \
    "0 1 1"
systemctl stop $PB.service $PR.service 2>/dev/null

# --- sysd: the node's headroom: no raise while the VM is saturated ---------
# One busy loop a CPU, started beforehand (stress-ng's CPU methods die of
# SIGILL under TCG): the guard reads the node's idle CPU from /proc/stat
# over its first interval and refuses.  --for is short, so that a raise
# (the bug) ends the burst soon.
hogs=
for c in $(seq "$(nproc)"); do
	sh -c 'while :; do :; done' &
	hogs="$hogs $!"
done
at_exit "kill $hogs 2>/dev/null"
sleep 1
run cpm-quota burst --journal $J --node-headroom 20 --for 5s -v "$g"
kill $hogs 2>/dev/null
wait $hogs 2>/dev/null
n=$(printf '%s' "$err" | grep -c "not raising '$g': the node's idle CPU was .* below --node-headroom 20%")
[ "$n" = 1 ] || n="$n $(printf '%s' "$err" | tr '\n' ' ')"
assert "on a saturated node the headroom guard refuses to raise a unit's quota, and says why" \
    "$rc $(kfile $CG/$g/cpu.max) $n" "0 100000 100000 1"

# --- sysd: a restored burst leaves no drop-in; set keeps the unit's period --
# A unit from a unit file, without runtime properties: the burst's
# runtime drop-in (system.control/UNIT.d/50-CPUQuota.conf) must go with
# the restore, or it would hide every later edit of the unit file.
P=cpmvm-sleep.service
systemctl stop $P 2>/dev/null
systemctl revert $P >/dev/null 2>&1
at_exit "systemctl stop $P 2>/dev/null; systemctl revert $P >/dev/null 2>&1"
systemctl start $P
pg=$(unit_cg $P)
ctl=/run/systemd/system.control/$P.d
was=$(show_cpu $P)
assert "a unit file's service without runtime drop-ins" \
    "$(ls -A $ctl 2>/dev/null | wc -l) $(kfile $CG/$pg/cpu.max)" "0 50000 100000"
cpm-quota burst --journal $J --factor 2 --for 120s "$pg" 2>$T_TMP/burst2.err &
bp=$!
wait_for grep -qx "100000 100000" $CG/$pg/cpu.max
assert "a burst raises it through a runtime drop-in" \
    "$(kfile $CG/$pg/cpu.max) $(ls -A $ctl 2>/dev/null)" "100000 100000 50-CPUQuota.conf"
kill -TERM $bp
wait $bp
assert "after the burst no runtime drop-in is left, systemctl show as before" \
    "$(kfile $CG/$pg/cpu.max) $(ls -A $ctl 2>/dev/null | wc -l) $(test -d $ctl && echo dir) $(show_cpu $P) $(systemctl show -P NeedDaemonReload $P) $(cat $T_TMP/burst2.err)" \
    "50000 100000 0  $was no "
mkdir -p /etc/systemd/system/$P.d
at_exit "rm -rf /etc/systemd/system/$P.d; systemctl daemon-reload"
# named to sort before 50-CPUQuota.conf: a drop-in left behind would win
printf '[Service]\nCPUQuota=30%%\n' >/etc/systemd/system/$P.d/10-cpm-edit.conf
systemctl daemon-reload
assert "... so an edit of the unit's configuration takes effect" \
    "$(systemctl show -P CPUQuotaPerSecUSec $P) $(kfile $CG/$pg/cpu.max)" \
    "300ms 30000 100000"
rm -rf /etc/systemd/system/$P.d
systemctl daemon-reload
period=$(systemctl show -P CPUQuotaPeriodUSec $P)
run cpm-quota set "$pg" --limit 750m
assert "set --limit without --period leaves CPUQuotaPeriodUSec as it was" \
    "$rc $(kfile $CG/$pg/cpu.max) $(systemctl show -P CPUQuotaPeriodUSec $P) $(ls -A $ctl 2>/dev/null)" \
    "0 75000 100000 $period 50-CPUQuota.conf"
run cpm-quota set "$pg" --limit 750m --period 50ms
assert "... while --period sets it" \
    "$rc $(kfile $CG/$pg/cpu.max) $(systemctl show -P CPUQuotaPeriodUSec $P)" \
    "0 37500 50000 50ms"
systemctl stop $P
systemctl revert $P >/dev/null 2>&1

# --- sysd: cpm-pin --scope ---------------------------------------------------
S=cpmsd-scope
systemctl stop $S.scope 2>/dev/null || :
at_exit "systemctl stop $S.scope 2>/dev/null"
cpm-pin --scope --unit $S --nodes 1 4-5 -- /bin/sleep 3600 &
sp=$!
if wait_for systemctl is-active --quiet $S.scope; then
	sg=$(unit_cg $S.scope)
	assert "cpm-pin --scope shows the CPUs in systemctl show -p AllowedCPUs" \
	    "$(systemctl show -p AllowedCPUs $S.scope) $(systemctl show -P AllowedMemoryNodes $S.scope)" \
	    "AllowedCPUs=4-5 1"
	assert "... and in the scope's cpuset.cpus.effective" \
	    "$(kfile $CG/$sg/cpuset.cpus.effective)" "4-5"
	assert "... with the command in it, on those CPUs" \
	    "$(grep -c "^$sp\$" $CG/$sg/cgroup.procs) $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$sp/status)" "1 4-5"
	run cpm-pin --scope --unit $S 4-5 -- true
	assert "cpm-pin --scope refuses a name in use, exit 1" "$rc" "1"
else
	not_ok "cpm-pin --scope starts a scope unit" "$(systemctl status $S.scope 2>&1 | head -5)"
fi
kill $sp 2>/dev/null
wait $sp 2>/dev/null
systemctl stop $S.scope 2>/dev/null || :
