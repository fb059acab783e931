#!/usr/bin/env python3
"""Checks the documentation's references to files of the repository:

  - every Markdown link [text](target) with a relative target, in README.md, CONTRIBUTING.md, docs/ and perf/
    (results READMEs included), points at a file or folder that exists (anchors and URLs are skipped);
  - every path written out in the text as perf/results/..., perf/device/..., perf/offline/..., perf/host/...,
    perf/baselines/..., docs/..., configs/... exists, relative to the repository root (a glob or a placeholder such
    as DIR or <study> is skipped).

  python3 perf/check_docs.py          prints each broken reference as FILE:LINE: TARGET; exit status 1 if any
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PATH = re.compile(r"(?<![\w./-])((?:perf/(?:results|device|offline|host|baselines)|docs|configs)/[A-Za-z0-9_./{}*<>$-]*)")


def markdown_files():
    for top in ("README.md", "CONTRIBUTING.md"):
        yield os.path.join(ROOT, top)
    for folder in ("docs", "perf"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, folder)):
            for n in names:
                if n.endswith(".md"):
                    yield os.path.join(dirpath, n)


def exists(path):
    return os.path.exists(path.rstrip("/"))


def main():
    broken = []
    for md in markdown_files():
        here = os.path.dirname(md)
        rel = os.path.relpath(md, ROOT)
        for lineno, line in enumerate(open(md, encoding="utf-8"), 1):
            for target in LINK.findall(line):
                if re.match(r"[a-z]+://|#|mailto:", target):
                    continue
                target = target.split("#")[0]
                if target and not exists(os.path.join(here, target)):
                    broken.append(f"{rel}:{lineno}: {target}")
            for target in PATH.findall(line):
                target = target.rstrip(".,;:)`'")
                if re.search(r"[{}*<>$]|DIR|\.\.\.", target):
                    continue
                if not exists(os.path.join(ROOT, target)):
                    broken.append(f"{rel}:{lineno}: {target}")
    for b in broken:
        print(b)
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
