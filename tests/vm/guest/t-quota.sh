# SPDX-License-Identifier: GPL-2.0-or-later
# cpm-quota on real cgroup v2 groups: cpu.max, cpu.weight, cpu.max.burst
# as the kernel stores them, and the kernel's limits.
. /cpm/tests/vm/guest/common.sh
have cpm-quota || exit 0
G=cpmvm-quota
cg_rm $G
at_exit "cg_rm $G"

cpu_files() {
	echo "$(kfile $CG/$1/cpu.max)|$(kfile $CG/$1/cpu.max.burst)"
}

run cpm-quota set $G --create --request 500m --limit 1.5 --burst 0.5
assert "set --create makes the group and writes cpu.max and cpu.max.burst" \
    "$rc $(cpu_files $G)" "0 150000 100000|50000"
# kubelet linear formula 1 + (512 - 2) * 9999 / 262142 = 20, or the
# log-quadratic one of runc 1.3.2+ = 59; nothing else.
w=$(kfile $CG/$G/cpu.weight)
case $w in
20|59) ok "set --request 500m writes a cpu.weight of a known formula" ;;
*) not_ok "set --request 500m writes a cpu.weight of a known formula" "cpu.weight $w, want 20 or 59" ;;
esac

run cpm-quota get $G
if [ "$rc" = 0 ] && printf '%s' "$out" | grep -q '1\.5'; then
	ok "get reads the limit back"
else not_ok "get reads the limit back" "$(show)"; fi

run cpm-quota set $G --limit 2 --period 50ms
assert "set --period 50ms --limit 2 writes cpu.max" "$rc $(kfile $CG/$G/cpu.max)" "0 100000 50000"
run cpm-quota set $G --limit max
assert "set --limit max removes the limit" "$rc $(kfile $CG/$G/cpu.max | cut -d' ' -f1)" "0 max"
run cpm-quota set $G --limit 1 --period 100ms
before=$(cpu_files $G)
run cpm-quota set $G --limit 3 --dry-run
assert "set --dry-run changes nothing" "$rc $(cpu_files $G)" "0 $before"
run cpm-quota set $G --limit 1 --period 2s
assert "set refuses a period over 1s and changes nothing" "$rc $(cpu_files $G)" "2 $before"
run cpm-quota set $G --limit 1 --burst 2
assert "set refuses a burst over the limit and changes nothing" "$rc $(cpu_files $G)" "2 $before"
run cpm-quota set $G/absent --limit 1
assert "set fails on a group that does not exist" "$rc" 1
run cpm-quota set $G/inner/leaf --create --limit 0.25
assert "set --create makes nested groups with the cpu controller enabled on the way" \
    "$rc $(kfile $CG/$G/inner/leaf/cpu.max)" "0 25000 100000"
