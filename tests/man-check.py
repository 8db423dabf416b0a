#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Defects of a rendered manual page that mandoc -T lint does not report:
# quotes nested or left open, parentheses that do not balance, and words
# an Fl macro took for options ("-on -by -itself").  Usage:
#   man-check.py PAGE.mdoc RENDERED.txt
# prints one line a defect ("PAGE: what: text") and exits 1 when any.
import re
import sys

MACRO = re.compile(r"^[A-Z][a-z]{1,2}$")
PUNCT = re.compile(r"^[][().,:;|!?]$")


def fl_words(page):
    """Fl arguments after the first that are neither options nor
    punctuation: mdoc renders each as a flag of its own."""
    bad = []
    with open(page, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if line.startswith(".\\\""):
                continue
            w = line.split()
            for i, tok in enumerate(w):
                if tok not in ("Fl", ".Fl"):
                    continue
                for a in w[i + 2:]:
                    if MACRO.match(a):
                        break
                    if PUNCT.match(a) or a.startswith("-") or len(a) == 1:
                        continue
                    bad.append("%d: Fl takes \"%s\" for an option: %s"
                               % (no, a, line.strip()))
                    break
    return bad


def synopsis_forms(page):
    """SYNOPSIS forms that ran together: a form (from one Nm to the
    next) that requires two options, as when an Nm is missing between
    them ("--irqs-to device cpulist --set-weights weights")."""
    bad = []
    form, insyn, req = None, False, []
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n") + [".Sh END"]
    for no, line in enumerate(lines, 1):
        if line.startswith(".Sh ") or line.strip() == ".Nm":
            if len(req) > 1:
                bad.append("%d: synopsis forms run together: %s"
                           % (form, " ".join(req)))
            form, req = no, []
            if line.startswith(".Sh "):
                insyn = line.strip() == ".Sh SYNOPSIS"
            continue
        w = line.split()
        if insyn and len(w) > 1 and w[0] == ".Fl" and w[1] != "-":
            req.append(w[1])
    return bad


def paragraphs(text):
    para = []
    for line in text.splitlines():
        if line.strip():
            para.append(line.strip())
        elif para:
            yield " ".join(para)
            para = []
    if para:
        yield " ".join(para)


def balance(text):
    bad = []
    pairs = {"‘": "’", "“": "”", "(": ")"}
    closers = {v: k for k, v in pairs.items()}
    for p in paragraphs(text):
        stack = []
        why = None
        for i, c in enumerate(p):
            if c in pairs:
                if c != "(" and any(s != "(" for s in stack):
                    why = "quotes nested"
                    break
                stack.append(c)
            elif c in closers:
                # ’ is also the apostrophe of "don’t"
                if c == "’" and (not stack or stack[-1] != "‘") and \
                        i > 0 and p[i - 1].isalnum():
                    continue
                if not stack or stack[-1] != closers[c]:
                    why = "%s closed that was not opened" % c
                    break
                stack.pop()
        if why is None and stack:
            why = "%s left open" % stack[-1]
        if why:
            bad.append("%s: %s" % (why, p[:240]))
    return bad


def main():
    page, rendered = sys.argv[1], sys.argv[2]
    with open(rendered, encoding="utf-8") as f:
        text = f.read()
    # col -b leaves no overstrikes; tolerate them anyway
    text = re.sub(".\b", "", text)
    bad = fl_words(page) + synopsis_forms(page) + balance(text)
    for b in bad:
        print("%s: %s" % (page, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
