# SPDX-License-Identifier: GPL-2.0-or-later
# Devices on a real kernel: the topology's PCI_DEVS put a virtio NIC and
# an NVMe drive behind PCI expander bridges on chosen NUMA nodes, so the
# guest kernel itself reports their nodes.  Every expectation comes from
# that command line (tests/vm/topo.sh: the node's CPUs, the distances, the
# device's address), the kernel's own files, or /proc/irq read by the
# shell; never from cpm.
. /cpm/tests/vm/guest/common.sh
have cpm-topo || exit 0
if [ -z "$PCI_DEVS" ]; then
	skip "devices" "no PCI device on this machine's command line"
	exit 0
fi
export CPM_STATE=/tmp/dev.state CPM_IRQ_JOURNAL=/tmp/dev.journal

# in_list CPU LIST: true when CPU is in the cpulist LIST.
in_list() { case " $(list_expand "$2")" in *" $1 "*) return 0 ;; esac; return 1; }

i=0 net= nvme=
for d in $PCI_DEVS; do
	kind=${d%%:*} node=${d#*:}
	addr=$(pci_dev_addr $i)
	i=$((i + 1))
	dir=/sys/bus/pci/devices/$addr
	assert "$kind at $addr: the kernel puts it on node $node" \
	    "$(kfile $dir/numa_node)" "$node"
	want=$(exp_node_cpus $node)
	check "dev:$addr is node $node's CPUs" 0 "$want" cpm-topo cpus "dev:$addr"
	run cpm-topo devices -o address,node,cpus --raw --noheadings
	assert "cpm-topo devices shows $addr on node $node" \
	    "$(printf '%s\n' "$out" | grep "^$addr ")" "$addr $node $want"
	case $kind in
	net)
		name=$(ls $dir/virtio*/net 2>/dev/null | head -n 1)
		net=$name net_node=$node net_addr=$addr ;;
	nvme)
		name=$(ls $dir/nvme 2>/dev/null | head -n 1)
		nvme=$name nvme_node=$node ;;
	esac
	if [ -z "$name" ]; then
		not_ok "$kind at $addr has a name (its driver is loaded)"
		continue
	fi
	check "dev:$name is node $node's CPUs" 0 "$want" cpm-topo cpus "dev:$name"
done
[ -n "$nvme" ] && check "dev:${nvme}n1, the namespace, is its controller's node" 0 \
    "$(exp_node_cpus $nvme_node)" cpm-topo cpus "dev:${nvme}n1"
[ -n "$net" ] || exit 0

# ---- --and/--not with dev: ----
want=
for c in $(list_expand "$(exp_online)"); do
	in_list "$c" "$(exp_node_cpus $net_node)" || want="$want$c "
done
run cpm-topo cpus online --not "dev:$net"
assert "--not dev:$net leaves the other nodes' CPUs" "$rc $(list_expand "${out%?}")" \
    "0 $want"

# ---- take --near under single-numa-node ----
have cpm-alloc || exit 0
cpm-alloc init >/dev/null
per=$(set -- $(list_expand "$(exp_node_cpus $net_node)"); echo $#)
run cpm-alloc take fwd "$per" --near "$net" --numa-policy single-numa-node
assert "take --near $net under single-numa-node gets node $net_node's CPUs" \
    "$rc $out" "0 $(exp_node_cpus $net_node)
"
run cpm-alloc take more 1 --near "$net" --numa-policy single-numa-node
assert "a second take beside $net is refused: node $net_node is full" "$rc" 3
case $err in
*"beside $net (on NUMA node $net_node, 0 CPUs free there)"*)
	ok "the refusal names the device's node and its free CPUs" ;;
*)	not_ok "the refusal names the device's node and its free CPUs" "$err" ;;
esac
check "the allocation records its device" 0 "$net $net_addr" \
    cpm-alloc show fwd --devices

# ---- check --device ----
other=$(( (net_node + 1) % T_NODES ))
ocpus=$(exp_node_cpus $other)
run cpm-topo check "$ocpus" --device "$net"
case $out in
*"not local to $net ($net_addr, NUMA node $net_node): on NUMA node $other, distance $(exp_distance $net_node $other) (local 10)"*)
	assert "check --device flags CPUs of node $other, with the distance" "$rc" 3 ;;
*)	not_ok "check --device flags CPUs of node $other, with the distance" "$(show)" ;;
esac
check "check --device: the device's own CPUs are no finding" 0 "" \
    cpm-topo check "$(exp_node_cpus $net_node)" --device "$net"

# ---- --irqs-to and its restore ----
have cpm-pin || exit 0
vecs=$(ls /sys/bus/pci/devices/$net_addr/msi_irqs 2>/dev/null)
if [ -z "$vecs" ]; then
	skip "--irqs-to" "$net has no MSI-X vectors"
	exit 0
fi
snapshot() {
	for f in /proc/irq/[0-9]*/smp_affinity_list; do
		n=${f#/proc/irq/}; n=${n%%/*}
		echo "$n $(cat "$f" 2>/dev/null)"
	done | sort -n
	echo "default $(cat /proc/irq/default_smp_affinity)"
}
snapshot >/tmp/dev.irq.orig
target=$(set -- $(list_expand "$(exp_node_cpus $net_node)"); echo $1)
run cpm-pin --irqs-to "$net" "$target"
assert "cpm-pin --irqs-to $net $target succeeds" "$rc" 0
bad=
for v in $vecs; do
	now=$(cat /proc/irq/$v/smp_affinity_list 2>/dev/null)
	if [ "$now" != "$target" ] &&
	    ! printf '%s' "$err" | grep -q "IRQ $v .*cannot be moved"; then
		bad="$bad $v=$now"
	fi
done
assert "every vector of $net ($(echo $vecs)) is on CPU $target" "$bad" ""
# others FILE: the lines of the IRQs that are not the device's.
others() {
	awk -v vecs="$(echo $vecs)" 'BEGIN { n = split(vecs, a, " ")
		for (i = 1; i <= n; i++) skip[a[i]] = 1 } !($1 in skip)' "$1"
}
snapshot >/tmp/dev.irq.now
assert "no other IRQ moved" "$(others /tmp/dev.irq.now)" \
    "$(others /tmp/dev.irq.orig)"
run cpm-pin --irqs-restore
assert "cpm-pin --irqs-restore succeeds" "$rc" 0
assert "every affinity is back exactly" "$(snapshot)" "$(cat /tmp/dev.irq.orig)"
