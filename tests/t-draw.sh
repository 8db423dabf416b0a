#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Pictures of the machine: cpm-topo draw and cpm-alloc map.  Golden
# pictures of the generated machines and of a 256-CPU tree from hwloc's
# test suite at 80 and 132 columns (tests/draw/); every fixture machine
# of up to 256 CPUs drawn within 80 columns with every CPU named; the
# SVG checked by xmllint and rendered by headless Chromium; colors as a
# terminal (tmux) shows them.  The machines are generated or replayed
# trees (--sysroot): this host has one node and two CPUs.
. "$(dirname "$0")/lib.sh"
gold=$CPM_TOP/tests/draw

if ! command -v python3 >/dev/null 2>&1; then
	skip "draw" "python3 is missing"
	exit 0
fi

# compare NAME FILE CMD...: stdout of CMD against the golden FILE.
# CPM_BLESS=1 writes the golden file instead.
compare() {
	_n=$1 _f=$gold/$2
	shift 2
	run "$@"
	if [ -n "${CPM_BLESS:-}" ] && [ "$rc" = 0 ]; then
		printf '%s' "$out" >"$_f"
	fi
	if [ "$rc" = 0 ] && [ -f "$_f" ] && [ "$out" = "$(cat "$_f"; echo x)" ] 2>/dev/null; then
		ok "$_n"
	elif [ "$rc" = 0 ] && [ -f "$_f" ] && printf '%s' "$out" | cmp -s - "$_f"; then
		ok "$_n"
	else
		not_ok "$_n" "command: $*" "$(printf '%s' "$out" | diff "$_f" - | head -20)" "$(show)"
	fi
}

# cpus_named FILE: the CPU numbers in a picture, one a line: the words
# of the rows inside boxes that are numbers (with a mark), not those of
# the labels on the boxes' top borders or of the legend.
cpus_named() {
	python3 - "$1" <<'PY'
import re, sys
seen = set()
for line in open(sys.argv[1], encoding="utf-8"):
    if line.startswith("Machine:"):
        continue
    line = re.sub("\u250c [^\u2500\u2510]*", "", line)
    for w in re.split("[ \u2502]+", line.strip()):
        m = re.fullmatch("([0-9]+)[\u2717\u25c7]?", w)
        if m:
            seen.add(int(m.group(1)))
for c in sorted(seen):
    print(c)
PY
}
# cols FILE: the widest line, in columns.
cols() {
	python3 -c 'import sys; print(max([len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")] or [0]))' "$1"
}
# list_cpus LIST: a cpulist expanded, one a line.
list_cpus() {
	printf '%s\n' "$1" | tr ',' '\n' | awk -F- 'NF { b = $NF; for (i = $1; i <= b; i++) print i }'
}

# ---- the generated machines ----
for m in 2s4n-smt hybrid-intel3 2s4n-devices 2s3n-hmat; do
	python3 "$CPM_TOP/tests/gen-sysfs" "$CPM_TOP/tests/topologies/$m.spec" "$T_TMP/$m" >/dev/null ||
	    { not_ok "$m: gen-sysfs"; continue; }
	for w in 80 132; do
		compare "$m drawn at $w columns" "$m-$w.txt" \
		    cpm-topo --sysroot "$T_TMP/$m" draw --width "$w"
	done
done
compare "2s4n-smt in ASCII" 2s4n-smt-ascii.txt \
    cpm-topo --sysroot "$T_TMP/2s4n-smt" draw --ascii --width 80
run env COLUMNS=132 cpm-topo --sysroot "$T_TMP/2s4n-smt" draw
assert "COLUMNS sets the width" "${out%
}" "$(cat "$gold/2s4n-smt-132.txt")"
run env COLUMNS=132 cpm-topo --sysroot "$T_TMP/2s4n-smt" draw --width 80
assert "--width comes before COLUMNS" "${out%
}" "$(cat "$gold/2s4n-smt-80.txt")"
check_fail "--width wants a number" 2 "invalid --width 'wide'" \
    cpm-topo --sysroot "$T_TMP/2s4n-smt" draw --width wide
check_fail "--width refuses fewer than 20 columns" 2 "invalid --width '5'" \
    cpm-topo --sysroot "$T_TMP/2s4n-smt" draw --width 5
check_fail "--color refuses an unknown value" 2 "invalid --color 'sometimes'" \
    cpm-topo --sysroot "$T_TMP/2s4n-smt" draw --color=sometimes
check_fail "draw takes no arguments" 2 "draw takes no arguments" \
    cpm-topo --sysroot "$T_TMP/2s4n-smt" draw 0-3
check_fail "--ascii belongs to draw" 2 "does not apply" \
    cpm-topo --sysroot "$T_TMP/2s4n-smt" --ascii
run cpm-topo --sysroot "$T_TMP/2s4n-devices" draw --width 80
case $out in
*"nvme0 (nvme)"*"card1 (gpu)"*"ib0 (net, no node)"*) ok "devices under their nodes, one with no node apart";;
*) not_ok "devices under their nodes, one with no node apart" "$(show)";;
esac
run cpm-topo --sysroot "$T_TMP/2s3n-hmat" draw --width 80
case $out in
*"Node 2 (32.0 GiB, tier 22)"*"8192 MB/s, 250 ns"*) ok "a CPU-less node with its tier and bandwidth";;
*) not_ok "a CPU-less node with its tier and bandwidth" "$(show)";;
esac

# ---- hwloc's machines ----
if [ -d "$FIXTURES/hwloc" ]; then
	r=$(fixture_tree 256ppc-8n8s4t) &&
	for w in 80 132; do
		compare "256ppc-8n8s4t drawn at $w columns" "256ppc-8n8s4t-$w.txt" \
		    cpm-topo --sysroot "$r" draw --width "$w"
	done
	bad= n=0
	for tb in "$FIXTURES"/hwloc/*.tar.bz2; do
		name=$(basename "$tb" .tar.bz2)
		root=$(fixture_tree "$name") || continue
		cpu=$root/sys/devices/system/cpu
		[ -d "$cpu" ] || continue
		if [ -f "$cpu/present" ]; then
			want=$(list_cpus "$(cat "$cpu/present")")
		else
			want=$(ls "$cpu" | sed -n 's/^cpu\([0-9][0-9]*\)$/\1/p' | sort -n)
		fi
		[ "$(printf '%s\n' "$want" | wc -l)" -le 256 ] || continue
		n=$((n + 1))
		cpm-topo --sysroot "$root" draw --width 80 >"$T_TMP/pic" 2>"$T_TMP/pic.err" ||
		    { bad="$bad $name(exit $?)"; continue; }
		[ "$(cols "$T_TMP/pic")" -le 80 ] || bad="$bad $name(wider than 80)"
		missing=$(printf '%s\n' "$want" | sort -n >"$T_TMP/want"
		    cpus_named "$T_TMP/pic" | sort -n | comm -23 "$T_TMP/want" -)
		[ -z "$missing" ] || bad="$bad $name(no CPU $(echo $missing | tr ' ' ,))"
	done
	if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
		ok "each of $n hwloc machines of up to 256 CPUs fits 80 columns and names every CPU"
	else
		not_ok "hwloc machines fit 80 columns and name every CPU" "$bad (of $n)"
	fi
else
	skip "hwloc machines drawn" "no fixtures in $FIXTURES/hwloc"
fi

# ---- cpm-alloc map ----
st=$T_TMP/alloc.state
export CPM_SYSROOT="$T_TMP/2s4n-smt"
cpm-alloc --state "$st" init --reserved 0,16 >/dev/null &&
    cpm-alloc --state "$st" take web 4 >/dev/null &&
    cpm-alloc --state "$st" take db 6 >/dev/null &&
    cpm-alloc --state "$st" take --share batch 2 >/dev/null ||
    not_ok "the allocations for the map"
compare "map after three takes" map-2s4n-smt-80.txt \
    cpm-alloc --state "$st" map --width 80 --ascii
cpm-alloc --state "$st" map --width 80 >"$T_TMP/map"
# Each allocation's CPUs, read off the picture: the key under each CPU
# number (the two rows end in the same column), against cpm-alloc show.
python3 - "$T_TMP/map" >"$T_TMP/held" <<'PY'
import re, sys
lines = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
keys = {}
for l in lines:
    m = re.match(r"^. ?([a-zA-Z]+) ([^:]+): ", l)
    if m and not l.startswith("Machine"):
        keys[m.group(1)] = m.group(2)
held = {}
for i in range(len(lines) - 1):
    for m in re.finditer(r"[0-9]+", lines[i]):
        if "\u250c" in lines[i] or lines[i].startswith("Machine"):
            break
        below = lines[i + 1][:m.end()]
        k = re.search(r"([a-zA-Z]*)$", below).group(1)
        if k in keys:
            held.setdefault(keys[k], []).append(int(m.group(0)))
for name in sorted(held):
    print(name, " ".join(str(c) for c in sorted(held[name])))
PY
want=
for name in batch db web; do
	want="$want$name $(list_cpus "$(cpm-alloc --state "$st" show "$name")" | sort -n | tr '\n' ' ' | sed 's/ $//')
"
done
assert "map shows each allocation's CPUs" "$(cat "$T_TMP/held")" "${want%
}"
case $(cat "$T_TMP/map") in
*"▲a"*|*"▲"*"█a"*"◆c"*) ok "reserved, exclusive and share-mode CPUs have their glyphs";;
*) not_ok "reserved, exclusive and share-mode CPUs have their glyphs" "$(cat "$T_TMP/map")";;
esac
check_fail "map takes no arguments" 2 "unexpected argument" \
    cpm-alloc --state "$st" map web
check_fail "--svg belongs to map" 2 "does not apply" \
    cpm-alloc --state "$st" list --svg
unset CPM_SYSROOT

# ---- SVG ----
if command -v xmllint >/dev/null 2>&1; then
	for m in 2s4n-devices 2s3n-hmat; do
		cpm-topo --sysroot "$T_TMP/$m" draw --svg >"$T_TMP/$m.svg"
		if xmllint --noout "$T_TMP/$m.svg" 2>"$T_TMP/xerr"; then
			ok "$m: the SVG is well-formed XML"
		else
			not_ok "$m: the SVG is well-formed XML" "$(cat "$T_TMP/xerr")"
		fi
	done
	CPM_SYSROOT="$T_TMP/2s4n-smt" cpm-alloc --state "$st" map --svg >"$T_TMP/map.svg"
	xmllint --noout "$T_TMP/map.svg" 2>"$T_TMP/xerr" && ok "the map's SVG is well-formed XML" ||
	    not_ok "the map's SVG is well-formed XML" "$(cat "$T_TMP/xerr")"
else
	skip "SVG validated" "no xmllint (libxml2-utils)"
fi
chromium=$(command -v chromium || command -v chromium-browser || true)
# shot SVG PNG: headless Chromium renders the SVG into PNG.
shot() {
	mkdir -p "$T_TMP/profile"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
	    --no-first-run --disable-background-networking \
	    --disable-component-update --disable-sync \
	    --user-data-dir="$T_TMP/profile" --screenshot="$2" \
	    --window-size=1000,700 "file://$1" >/dev/null 2>&1
}
if [ -n "$chromium" ] && shot "$T_TMP/map.svg" "$T_TMP/map.png" && [ -s "$T_TMP/map.png" ]; then
	# A blank page has one color; the picture has boxes, cells and text
	# in the holders' colors.
	got=$(python3 - "$T_TMP/map.png" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
pos, idat, w, h = 8, b"", 0, 0
while pos < len(data):
    n, t = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if t == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        bpp = {2: 3, 6: 4}[ctype]
    elif t == b"IDAT":
        idat += body
    pos += 12 + n
raw = zlib.decompress(idat)
stride = w * bpp
prev = bytearray(stride)
colors = set()
for y in range(h):
    f = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    for x in range(0, stride, bpp * 3):
        colors.add(bytes(line[x:x + 3]))
    prev = line
print(len(colors))
PY
)
	if [ "${got:-0}" -ge 8 ]; then
		ok "Chromium renders the map's SVG: $got colors"
	else
		not_ok "Chromium renders the map's SVG" "only ${got:-0} colors in the PNG"
	fi
else
	skip "the SVG rendered by a browser" "headless Chromium cannot run here"
fi

# ---- colors ----
run env -u NO_COLOR cpm-topo --sysroot "$T_TMP/2s4n-smt" draw --color=always
case $out in *"$(printf '\033[')"*) ok "--color=always colors";; *) not_ok "--color=always colors" "$(show)";; esac
run env -u NO_COLOR cpm-topo --sysroot "$T_TMP/2s4n-smt" draw
case $out in *"$(printf '\033')"*) not_ok "no colors into a pipe" "$(show)";; *) ok "no colors into a pipe";; esac
if command -v tmux >/dev/null 2>&1; then
	sock=$T_TMP/tmux.sock
	# pane PANE_FILE ENV...: run draw in a tmux pane (a terminal), wait
	# for it to finish, capture the pane with its escape sequences.
	pane() {
		_f=$1
		shift
		tmux -S "$sock" new-session -d -x 140 -y 60 \
		    "env $* PATH='$PATH' cpm-topo --sysroot '$T_TMP/2s4n-smt' draw --width 80; touch '$_f.done'; sleep 30" ||
		    return 1
		_i=0
		while [ ! -f "$_f.done" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
		tmux -S "$sock" capture-pane -e -p >"$_f"
		sed 's/\x1b\[[0-9;]*m//g' "$_f" >"$_f.plain"
		tmux -S "$sock" kill-server 2>/dev/null
	}
	at_exit "tmux -S '$sock' kill-server 2>/dev/null"
	if pane "$T_TMP/tty1" -u NO_COLOR TERM=xterm-256color; then
		if grep -q "$(printf '\033\\[')" "$T_TMP/tty1" && grep -q "Package 0" "$T_TMP/tty1.plain"; then
			ok "a terminal (tmux) gets colors"
		else
			not_ok "a terminal (tmux) gets colors" "$(cat -v "$T_TMP/tty1" | head)"
		fi
		pane "$T_TMP/tty2" NO_COLOR=1
		if grep -q "Package 0" "$T_TMP/tty2.plain" && ! grep -q "$(printf '\033')" "$T_TMP/tty2"; then
			ok "NO_COLOR: no colors on a terminal"
		else
			not_ok "NO_COLOR: no colors on a terminal" "$(cat -v "$T_TMP/tty2" | head)"
		fi
	else
		skip "colors on a terminal" "tmux cannot start here"
	fi
else
	skip "colors on a terminal" "no tmux"
fi
