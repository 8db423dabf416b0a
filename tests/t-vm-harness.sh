# SPDX-License-Identifier: GPL-2.0-or-later
# The VM tier's plan, read without booting (tests/vm/run --list): every VM
# of a busybox topology that names MODULES loads them, whatever kernel it
# boots and whatever it is named (devices-6.12 as well as devices); a
# systemd VM loads what it needs to reach the host's userland.
. "$(dirname "$0")/lib.sh"
. "$CPM_TOP/tests/vm/topo.sh"

if ! ls /boot/vmlinuz-6.1.* /boot/vmlinuz-6.12.* >/dev/null 2>&1; then
	skip "the VM tier's plan" "the VM kernels are not installed (make check-vm installs them)"
	exit 0
fi
run env -u CPM_VM_KERNEL sh "$CPM_TOP/tests/vm/run" --list
assert "tests/vm/run --list boots nothing and exits 0" "$rc" 0
printf '%s\n' "$out" >"$T_TMP/plan"
for t in $(cd "$CPM_TOP/tests/vm/topologies" && ls); do
	(topo_load "$t" "$CPM_TOP/tests/vm/topologies" &&
	    echo "$GUEST|$KERNELS|$MODULES") >"$T_TMP/topo" || {
		not_ok "$t: the topology loads"; continue; }
	IFS='|' read -r guest kernels mods <"$T_TMP/topo"
	n=0
	while read -r name rel tests order got; do
		case $name in "$t"|"$t"-*) ;; *) continue ;; esac
		n=$((n + 1))
		if [ "$guest" = systemd ]; then
			want="order virtio_pci 9pnet_virtio 9p overlay"
		else
			want=$(echo "order-$t" $mods)
		fi
		assert "$name ($rel) loads its modules" "$(echo "$order" $got)" "$want"
	done <"$T_TMP/plan"
	set -- $kernels
	[ $# -gt 0 ] || set -- one
	assert "$t boots once per kernel it names" "$n" "$#"
done
