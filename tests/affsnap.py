#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""What an isolation changes on a live machine, saved, compared and put back.

  affsnap.py snap FILE     every thread's affinity (by TID and start
                           time), every interrupt's smp_affinity_list, the
                           workqueue cpumasks and the per-CPU knobs
  affsnap.py diff FILE     what differs now from FILE, one a line (exit 1
                           when anything does): what is present in both
  affsnap.py restore FILE [MOVED]
                           put back what differs; then what still differs
                           (exit 1 when anything does).  With MOVED (the
                           cpulist a tool that keeps no record moved
                           threads to): a user thread made since with
                           that affinity, by a thread of the snapshot
                           (its process, or its parent process), gets
                           its maker's affinity, which it inherited moved
  affsnap.py restore-files FILE
                           the same for the files alone (interrupts,
                           masks, knobs), leaving every thread as it is

A thread that exited, or one made since, is not compared: a thread is
the same one only with the same TID and start time.
"""
import glob
import os
import sys


def ids(d):
    """(TGID, PPID, kernel thread) of the thread at d, or None."""
    try:
        with open(d + "/stat") as f:
            w = f.read().rsplit(")", 1)[1].split()
        with open(d + "/status") as f:
            tgid = [ln.split()[1] for ln in f if ln.startswith("Tgid:")][0]
    except (OSError, IndexError):
        return None
    return tgid, w[1], int(w[6]) & 0x200000 != 0


def key_of(pid):
    try:
        with open("/proc/%s/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    return "T %s:%s" % (pid, stat[stat.rindex(")") + 2:].split()[19])


def orphans(old, moved):
    """Threads made since by one of old, that inherited the move."""
    for st in glob.glob("/proc/[0-9]*/task/[0-9]*/stat"):
        d = os.path.dirname(st)
        tid = os.path.basename(d)
        now = [x for x in thread_lines_of(d)]
        if not now or now[0][0] in old or now[0][1] != moved:
            continue
        x = ids(d)
        if x is None or x[2]:
            continue
        for maker in (x[0], x[1]):
            k = key_of(maker)
            if k in old and old[k][0] != moved:
                yield ("T %s:" % tid, old[k][0])
                break


def thread_lines_of(d):
    try:
        with open(d + "/stat") as f:
            stat = f.read()
        with open(d + "/status") as f:
            status = f.read()
    except OSError:
        return
    start = stat[stat.rindex(")") + 2:].split()[19]
    for line in status.splitlines():
        if line.startswith("Cpus_allowed_list:"):
            yield ("T %s:%s" % (os.path.basename(d), start),
                   line.split(":", 1)[1].strip())


def thread_lines():
    for st in glob.glob("/proc/[0-9]*/task/[0-9]*/stat"):
        d = os.path.dirname(st)
        try:
            with open(st) as f:
                stat = f.read()
            with open(d + "/status") as f:
                status = f.read()
        except OSError:
            continue
        start = stat[stat.rindex(")") + 2:].split()[19]
        cpus = comm = ""
        for line in status.splitlines():
            if line.startswith("Cpus_allowed_list:"):
                cpus = line.split(":", 1)[1].strip()
            elif line.startswith("Name:"):
                comm = line.split(":", 1)[1].strip().replace(" ", "_")
        if cpus:
            yield ("T %s:%s" % (os.path.basename(d), start), cpus, comm)


def file_paths():
    paths = glob.glob("/proc/irq/[0-9]*/smp_affinity_list")
    paths += ["/proc/irq/default_smp_affinity"]
    paths += glob.glob("/sys/devices/virtual/workqueue/cpumask")
    paths += glob.glob("/sys/devices/virtual/workqueue/*/cpumask")
    paths += glob.glob("/sys/devices/system/cpu/cpu[0-9]*/power/"
                       "pm_qos_resume_latency_us")
    paths += glob.glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/"
                       "scaling_governor")
    return paths


def file_lines():
    for p in file_paths():
        try:
            with open(p) as f:
                v = f.read().strip()
        except OSError:
            continue
        yield ("F " + p, v, "")


def snapshot():
    return {k: (v, c) for k, v, c in list(thread_lines()) + list(file_lines())}


def load(path):
    snap = {}
    with open(path) as f:
        for line in f:
            w = line.rstrip("\n").split("\t")
            snap[w[0]] = (w[1], w[2] if len(w) > 2 else "")
    return snap


def differences(old):
    now = snapshot()
    return [(k, old[k], now[k]) for k in sorted(old)
            if k in now and now[k][0] != old[k][0]]


def put_back(key, value):
    if key.startswith("T "):
        tid = int(key[2:].split(":")[0])
        cpus = set()
        for part in value.split(","):
            a, _, b = part.partition("-")
            cpus.update(range(int(a), int(b or a) + 1))
        os.sched_setaffinity(tid, cpus)
    else:
        with open(key[2:], "w") as f:
            f.write(value + "\n")


def main():
    if len(sys.argv) not in (3, 4) or \
            sys.argv[1] not in ("snap", "diff", "restore",
                                "restore-files") or \
            (len(sys.argv) == 4 and sys.argv[1] != "restore"):
        sys.stderr.write("usage: affsnap.py snap|diff|restore|"
                         "restore-files FILE "
                         "[MOVED]\n")
        return 2
    what, path = sys.argv[1:3]
    if what == "snap":
        with open(path, "w") as f:
            for k, (v, c) in sorted(snapshot().items()):
                f.write("%s\t%s\t%s\n" % (k, v, c))
        return 0
    old = load(path)
    if what == "restore-files":
        old = {k: v for k, v in old.items() if k.startswith("F ")}
        what = "restore"
    if what == "restore":
        if len(sys.argv) == 4:
            for k, v in list(orphans(old, sys.argv[3])):
                try:
                    put_back(k, v)
                except OSError:
                    pass
        for k, (v, _), _ in differences(old):
            try:
                put_back(k, v)
            except OSError:
                pass
    diff = differences(old)
    for k, (v, c), (n, _) in diff:
        print("%s %s: was %s, now %s" % (k, c, v, n))
    return 1 if diff else 0


sys.exit(main())
