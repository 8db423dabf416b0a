# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the cpm-alloc tests; source after tests/lib.sh.

# gen_spec SOCKETS NODES_PER_SOCKET CORES_PER_NODE THREADS [MEM_KB [OFFLINE]]:
# a machine description for tests/gen-sysfs.  CPUs are numbered like x86
# (first threads of every core, then the second threads); one L3 per node;
# core ids restart in each socket.  OFFLINE: CPU numbers (awk regex
# alternatives, e.g. "28|29") that are offline.
gen_spec() {
	awk -v S="$1" -v N="$2" -v C="$3" -v T="$4" -v M="${5:-8388608}" \
	    -v OFF="${6:-}" 'BEGIN {
		nodes = S * N; cores = nodes * C
		for (n = 0; n < nodes; n++) {
			d = ""
			for (m = 0; m < nodes; m++)
				d = d (m ? "," : "") (m == n ? 10 : \
				    (int(m / N) == int(n / N) ? 12 : 21))
			printf "node %d mem_kb=%d distance=%s\n", n, M, d
		}
		for (t = 0; t < T; t++)
			for (k = 0; k < cores; k++) {
				node = int(k / C); s = int(node / N); cpu = t * cores + k
				on = (OFF != "" && cpu ~ ("^(" OFF ")$")) ? " online=0" : ""
				printf "cpu %d core=%d socket=%d node=%d l3=%d%s\n", \
				    cpu, k % (N * C), s, node, node, on
			}
	}'
}

# gen_tree DIR: write the sysfs tree described on stdin into DIR.
gen_tree() {
	rm -rf "$1"
	python3 "$CPM_TOP/tests/gen-sysfs" - "$1"
}

# use_m32: generate the shared test machine, 2 sockets x 2 nodes x 4 cores
# x 2 threads = 32 CPUs with 8 GiB per node, into $T_TMP/m32 (its spec in
# $SPEC) and point CPM_SYSROOT at it.
use_m32() {
	SPEC=$T_TMP/m32.spec
	gen_spec 2 2 4 2 >"$SPEC"
	gen_tree "$T_TMP/m32" <"$SPEC"
	export CPM_SYSROOT=$T_TMP/m32
}

# expand: cpulists on stdin (one per line, commas) to one CPU per line.
expand() {
	tr ',' '\n' | awk -F- 'NF == 1 && $1 != "" { print $1 }
		NF == 2 { for (i = $1; i <= $2; i++) print i }'
}

# to_list: CPU numbers on stdin (any order, one per line) to a cpulist.
to_list() {
	sort -n -u | awk 'NF {
		if (started && $1 == last + 1) { last = $1; next }
		if (started) printf "%s%s", sep, (first == last ? first : first "-" last)
		if (started) sep = ","
		first = last = $1; started = 1
	} END {
		if (started) printf "%s%s", sep, (first == last ? first : first "-" last)
		print ""
	}'
}

# count LIST: number of CPUs in a cpulist.
count() { printf '%s\n' "$1" | expand | wc -l | tr -d ' '; }

# minus A B: cpulist A without the CPUs of B.
minus() {
	{ printf '%s\n' "$1" | expand; printf '%s\n' "$2" | expand;
	  printf '%s\n' "$2" | expand; } | sort -n | uniq -u | to_list
}

# inter A B: CPUs in both lists.
inter() {
	{ printf '%s\n' "$1" | expand | sort -n -u;
	  printf '%s\n' "$2" | expand | sort -n -u; } | sort -n | uniq -d | to_list
}

# node_of SPECFILE CPU...: the NUMA nodes of those CPUs, as a list.
nodes_of() {
	_spec=$1
	shift
	printf '%s\n' "$@" | expand | awk -v spec="$_spec" '
		BEGIN { while ((getline l < spec) > 0) {
			split(l, f, " ")
			if (f[1] == "cpu") { sub("node=", "", f[5]); node[f[2]] = f[5] }
		} }
		{ print node[$1] }' | to_list
}

# resign FILE: recompute a state file's checksum after a test edited it
# (XXH64 with seed 0 over everything after the checksum line, written
# here from xxHash's specification, not taken from cpm; a version 1 or 2
# file gets the FNV-1a 64 those versions use).
resign() {
	python3 - "$1" <<'PY'
import struct, sys
M = (1 << 64) - 1
P1, P2, P3 = 0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9
P4, P5 = 0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5
def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M
def rnd(acc, x):
    return rotl((acc + x * P2) & M, 31) * P1 & M
def xxh64(b):
    n, i = len(b), 0
    if n >= 32:
        v = [(P1 + P2) & M, P2, 0, -P1 & M]
        while i + 32 <= n:
            w = struct.unpack_from("<4Q", b, i)
            v = [rnd(v[k], w[k]) for k in range(4)]
            i += 32
        h = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18)) & M
        for x in v:
            h = ((h ^ rnd(0, x)) * P1 + P4) & M
    else:
        h = P5
    h = (h + n) & M
    while i + 8 <= n:
        h ^= rnd(0, struct.unpack_from("<Q", b, i)[0])
        h = (rotl(h, 27) * P1 + P4) & M
        i += 8
    if i + 4 <= n:
        h ^= struct.unpack_from("<I", b, i)[0] * P1 & M
        h = (rotl(h, 23) * P2 + P3) & M
        i += 4
    while i < n:
        h ^= b[i] * P5 & M
        h = rotl(h, 11) * P1 & M
        i += 1
    h ^= h >> 33; h = h * P2 & M
    h ^= h >> 29; h = h * P3 & M
    return h ^ (h >> 32)
def fnv1a64(b):
    h = 0xcbf29ce484222325
    for c in b:
        h = ((h ^ c) * 0x100000001b3) & M
    return h
p = sys.argv[1]
data = open(p, "rb").read()
first = data.index(b"\n") + 1
second = data.index(b"\n", first) + 1
body = data[second:]
if data.startswith(b"cpm-alloc-state 1\n") or data.startswith(b"cpm-alloc-state 2\n"):
    line = b"checksum fnv1a64:%016x\n" % fnv1a64(body)
else:
    line = b"checksum xxh64:%016x\n" % xxh64(body)
open(p, "wb").write(data[:first] + line + body)
PY
}
