#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Check the shape of cpm's library: lib/FOLDER/ holds one subsystem, whose
README says on a line "Uses: A B" (or "Uses: nothing") which folders it
may use.  Checked:

  - every #include of a library header names its folder ("base/cpuset.h")
    and the header exists;
  - a file includes only headers of its own folder or of folders its
    folder's README lists;
  - the folders' uses have no circle (so each uses only folders below it);
  - the files' includes have no circle (a file and its header are one
    node);
  - with --objects, the same for calls: a symbol a file's object uses is
    defined in its own folder or a listed one, and no two files call each
    other round (nm on lib/*/*.o).

Prints "ok - ..." or "not ok - ..." lines with the offending file and
include, and exits 1 when anything is not ok.  Usage:
  layers.py [--objects] [LIBDIR]
"""
import os
import re
import subprocess
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
USES = re.compile(r'^Uses:\s*(.*)$', re.M)


def circles(graph):
    """The circles of graph (node -> set of nodes): its strongly connected
    components of more than one node, each as a sorted list."""
    index, low, onstack, stack, out = {}, {}, set(), [], []
    counter = [0]
    nodes = sorted(set(graph) | {m for ms in graph.values() for m in ms})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        onstack.add(root)
        while work:
            n, it = work[-1]
            for m in it:
                if m not in index:
                    index[m] = low[m] = counter[0]
                    counter[0] += 1
                    stack.append(m)
                    onstack.add(m)
                    work.append((m, iter(sorted(graph.get(m, ())))))
                    break
                if m in onstack:
                    low[n] = min(low[n], index[m])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[n])
                if low[n] == index[n]:
                    comp = []
                    while True:
                        m = stack.pop()
                        onstack.discard(m)
                        comp.append(m)
                        if m == n:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out)


def said(cs):
    return '\n'.join('circle: ' + ', '.join(c) for c in cs)


def main(argv):
    objects = '--objects' in argv
    args = [a for a in argv if not a.startswith('--')]
    lib = args[0] if args else os.path.join(os.path.dirname(__file__), '..', 'lib')
    bad = 0

    def report(good, name, why=''):
        nonlocal bad
        if good:
            print('ok - ' + name)
        else:
            bad += 1
            print('not ok - ' + name)
            for line in why.splitlines():
                print('# ' + line)

    folders = sorted(d for d in os.listdir(lib)
                     if os.path.isdir(os.path.join(lib, d)))
    stray = sorted(f for f in os.listdir(lib) if f.endswith(('.c', '.h')))
    report(not stray, 'every library source lies in a subsystem folder',
           'in lib/ itself: ' + ' '.join(stray))

    uses = {}
    problems = []
    for d in folders:
        readme = os.path.join(lib, d, 'README')
        try:
            m = USES.search(open(readme, encoding='utf-8').read())
        except OSError:
            m = None
        if not m:
            problems.append(f'lib/{d}/README has no "Uses:" line')
            uses[d] = set()
            continue
        words = m.group(1).split()
        uses[d] = set() if words == ['nothing'] else set(words)
        for u in sorted(uses[d] - set(folders)):
            problems.append(f'lib/{d}/README uses "{u}", which is no folder')
    report(not problems, 'every folder says in its README which folders it uses',
           '\n'.join(problems))

    c = circles({d: uses[d] - {d} for d in folders})
    report(not c, 'the folders use each other in one direction only', said(c))

    # Files: FOLDER/NAME (a .c and its .h are one node).
    files = {}
    for d in folders:
        for f in sorted(os.listdir(os.path.join(lib, d))):
            if f.endswith(('.c', '.h')):
                files.setdefault(f'{d}/{f[:-2]}', []).append(f'{d}/{f}')
    headers = {p[:-2] for ps in files.values() for p in ps if p.endswith('.h')}
    graph = {}
    problems = []
    for node, paths in sorted(files.items()):
        d = node.split('/')[0]
        for p in paths:
            text = open(os.path.join(lib, p), encoding='utf-8').read()
            for inc in INCLUDE.findall(text):
                if '/' not in inc:
                    if os.path.exists(os.path.join(lib, d, inc)):
                        problems.append(f'lib/{p}: #include "{inc}" must name its folder ("{d}/{inc}")')
                    continue
                target = inc[:-2] if inc.endswith('.h') else inc
                if target not in headers:
                    problems.append(f'lib/{p}: #include "{inc}": no such library header')
                    continue
                td = target.split('/')[0]
                if td != d and td not in uses[d]:
                    problems.append(f'lib/{p}: #include "{inc}": {d} does not use {td} (lib/{d}/README)')
                if target != node:
                    graph.setdefault(node, set()).add(target)
    report(not problems, 'every include stays in its folder or goes to one the folder uses',
           '\n'.join(problems))
    c = circles(graph)
    report(not c, 'no circle of includes between files', said(c))

    if objects:
        defs, undef = {}, {}
        missing = []
        for node in sorted(files):
            o = os.path.join(lib, node + '.o')
            if not any(p.endswith('.c') for p in files[node]):
                continue
            if not os.path.exists(o):
                missing.append(f'lib/{node}.o')
                continue
            out = subprocess.run(['nm', o], capture_output=True, text=True,
                                 check=True).stdout
            for line in out.splitlines():
                f = line.split()
                if len(f) == 3 and f[1] in 'TDBRCVW':
                    defs[f[2]] = node
                elif len(f) == 2 and f[0] == 'U':
                    undef.setdefault(node, set()).add(f[1])
        report(not missing, 'every library source has its object to read calls from',
               'not built: ' + ' '.join(missing))
        calls = {}
        problems = []
        for node, syms in sorted(undef.items()):
            d = node.split('/')[0]
            for s in sorted(syms):
                t = defs.get(s)
                if t is None or t == node:
                    continue
                td = t.split('/')[0]
                if td != d and td not in uses[d]:
                    problems.append(f'lib/{node}.c calls {s}() of lib/{t}.c: {d} does not use {td}')
                calls.setdefault(node, set()).add(t)
        report(not problems, 'every call stays in its folder or goes to one the folder uses',
               '\n'.join(problems))
        c = circles(calls)
        report(not c, 'no circle of calls between files', said(c))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
