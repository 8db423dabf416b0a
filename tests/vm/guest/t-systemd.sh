# SPDX-License-Identifier: GPL-2.0-or-later
# cpm on a host as operators run them: systemd as PID 1 owning a pure
# cgroup v2 tree (the systemd topology of tests/vm/run), with real units:
# a transient one from systemd-run and cpmvm-sleep.service in cpmvm.slice
# (tests/vm/systemd/).  Skips itself under any other PID 1.
. /cpm/tests/vm/guest/common.sh
if [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ]; then
	skip "systemd tests" "PID 1 is not systemd"
	exit 0
fi
assert "systemd runs on a pure cgroup v2 hierarchy" \
    "$(stat -f -c %T $CG) $(systemctl --version | awk 'NR == 1 { print $1 }')" "cgroup2fs systemd"

# unit_cg UNIT: the unit's cgroup, relative to the hierarchy's root.
unit_cg() { systemctl show -P ControlGroup "$1" | sed 's,^/,,'; }

# --- a transient service from systemd-run ----------------------------------
R=cpmvm-run
systemctl stop $R.service 2>/dev/null
systemctl reset-failed $R.service 2>/dev/null
at_exit "systemctl stop $R.service 2>/dev/null"
run systemd-run --quiet --unit=$R -p CPUQuota=150% -p CPUWeight=300 /bin/sleep 600
rg=$(unit_cg $R.service)
assert "systemd-run starts a transient service in system.slice" "$rc $rg" "0 system.slice/$R.service"
assert "systemd writes the transient unit's CPUQuota into cpu.max" \
    "$(kfile $CG/$rg/cpu.max)" "150000 100000"
if have cpm-quota; then
	run cpm-quota get "$rg"
	if [ "$rc $(printf '%s' "$out" | sed -n 's/^limit=//p') $(printf '%s' "$out" | sed -n 's/^period_us=//p')" = "0 1.5 100000" ]; then
		ok "cpm-quota get reads a transient unit's limit and period"
	else not_ok "cpm-quota get reads a transient unit's limit and period" "$(show)"; fi
fi

# --- a service in a slice of its own ----------------------------------------
S=cpmvm-sleep
at_exit "systemctl stop $S.service cpmvm.slice 2>/dev/null"
run systemctl start $S.service
sg=$(unit_cg $S.service)
assert "the test service runs in the test slice" "$rc $sg" "0 cpmvm.slice/$S.service"
assert "the slice's CPUWeight is in its cpu.weight" "$(kfile $CG/cpmvm.slice/cpu.weight)" "50"
if have cpm-quota; then
	run cpm-quota get "$sg" --json
	case $out in
	*'"version":2'*'"limit":0.5'*'"period_us":100000'*) ok "cpm-quota get --json reads the service's CPUQuota=50% as a v2 limit of 0.5" ;;
	*) not_ok "cpm-quota get --json reads the service's CPUQuota=50% as a v2 limit of 0.5" "$(show)" ;;
	esac
fi
if have cpm-throttle; then
	run cpm-throttle cpmvm.slice -o tsv
	row=$(printf '%s' "$out" | awk -F'\t' -v g="$sg" '$1 == g || $1 == "/" g { print $6 }')
	assert "cpm-throttle reports the service below the slice with its limit" "$rc $row" "0 0.5"
	run cpm-throttle -o names
	if [ "$rc" = 0 ] && printf '%s\n' "$out" | grep -qx "/*$sg" &&
	    printf '%s\n' "$out" | grep -qx "/*$rg"; then
		ok "cpm-throttle finds both limited units walking the whole tree"
	else not_ok "cpm-throttle finds both limited units walking the whole tree" "$(show)"; fi
fi

# --- the problem: systemd owns these files ---------------------------------
# A value written straight into a unit's cgroup file lasts only until
# systemd next applies the unit's properties: daemon-reload puts it back.
echo "max 100000" >$CG/$sg/cpu.max
assert "a value written straight into the service's cpu.max is there at first" \
    "$(kfile $CG/$sg/cpu.max)" "max 100000"
systemctl daemon-reload
assert "systemctl daemon-reload puts the unit's CPUQuota back into cpu.max" \
    "$(kfile $CG/$sg/cpu.max)" "50000 100000"
run systemctl set-property --runtime $S.service CPUQuota=25%
assert "systemctl set-property --runtime writes cpu.max" "$rc $(kfile $CG/$sg/cpu.max)" "0 25000 100000"
systemctl daemon-reload
assert "a runtime property survives daemon-reload" "$(kfile $CG/$sg/cpu.max)" "25000 100000"
