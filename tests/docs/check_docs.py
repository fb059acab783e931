#!/usr/bin/env python3
"""The commands and keys that README.md and docs/*.md quote, checked against the build, so the docs cannot drift.

1. Every `ppl ...` command quoted (in code spans and code blocks) whose files exist in the repository runs: `run`
   and `validate` as `ppl validate` with the same job and `--set` flags (a run would compute), `info`, `strategies`
   and `--version` as written. Placeholder commands (JOB.yaml, MOL.pqr, ...) are checked for their flags only.
2. Every flag quoted in a command appears in that subcommand's `--help`.
3. Every key in the key tables of docs/config.md (`| key | type | default | meaning |`) is known to ppl: `ppl validate`
   on an example job of that kind with `--set key=value` must not answer "unknown key".

  check_docs.py PPL REPOSITORY
"""
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

ppl, repo = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
docs = [os.path.join(repo, "README.md")] + sorted(
    os.path.join(repo, "docs", f) for f in os.listdir(os.path.join(repo, "docs")) if f.endswith(".md"))
env = dict(os.environ, OMP_NUM_THREADS="1")
failures = []
helps = {}


def run(args):
    p = subprocess.run([ppl] + args, cwd=repo, env=env, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout + p.stderr


def help_of(sub):
    if sub not in helps:
        helps[sub] = run(([sub] if sub else []) + ["--help"])[1]
    return helps[sub]


# 1 and 2: commands (up to a shell redirection, pipe or comment).
command = re.compile(r"(?:^|[\s`(])(?:build/[\w-]+/)?ppl((?: --[\w-]+(?:=\S+)?)*(?: (?:run|validate|info|strategies|map)\b[^`\n|#<>;&]*)?)")
seen = set()
checked = 0


def quoted_commands(path):
    """(line number, text) of every piece of quoted code: each line of a code block, each code span (joined when it
    runs over a line break)."""
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M):
        first = text.count("\n", 0, m.start(1)) + 1
        for i, line in enumerate(m.group(1).splitlines()):
            yield first + i, re.split(r"\s{2,}", line.strip())[0]  # a usage listing: the command, not its description
    prose = re.sub(r"^```.*?^```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S | re.M)
    for m in re.finditer(r"`([^`]+)`", prose):
        yield prose.count("\n", 0, m.start()) + 1, m.group(1).replace("\n", " ")


for path in docs:
    rel = os.path.relpath(path, repo)
    for lineno, line in quoted_commands(path):
        for m in command.finditer(" " + line):
            text = m.group(1).strip()
            if not text or text in seen:
                continue
            seen.add(text)
            try:
                words = shlex.split(text)
            except ValueError:  # a command continued on the next line: its first line is checked for flags only
                words = text.replace("'", " ").replace('"', " ").split()
            subs = [w for w in words if w in ("run", "validate", "info", "strategies", "map")]
            sub = subs[0] if subs else ""
            for w in words:
                flag = w.split("=")[0]
                if flag.startswith("--") and not flag.startswith("--kokkos-") and re.fullmatch(r"--[a-z][\w-]*", flag):
                    if not re.search(re.escape(flag) + r"(?![\w-])", help_of(sub)):
                        failures.append(f"{rel}:{lineno}: `ppl {text}`: {flag} is not in `ppl {sub} --help`")
            rest = [w for w in words if w not in ("-q", "--quiet", "--overwrite", "-v", "--verbose")]
            if any("[" in w or re.search(r"=[A-Z]+$", w) for w in rest):
                continue  # usage notation ([--flag]) or a placeholder value (max_iters=N): flags only
            if sub in ("run", "validate"):
                jobs = [w for w in rest if w.endswith(".yaml")]
                if len(jobs) != 1 or not os.path.isfile(os.path.join(repo, jobs[0])):
                    continue  # a placeholder or a job the text writes: flags only
                args = ["validate"] + [w for w in rest if w != sub]
                if any(w.endswith(("...", "=")) for w in args):
                    continue
            elif sub in ("info", "strategies") or (not sub and "--version" in words):
                args = rest
                if any(w.isupper() for w in args):
                    continue
            else:
                continue
            rc, out = run(args)
            checked += 1
            if rc != 0:
                failures.append(f"{rel}:{lineno}: `ppl {' '.join(args)}` exited {rc}: {out.strip().splitlines()[-1:]}")
print(f"commands: {len(seen)} quoted, {checked} run")

# 3: keys of docs/config.md.
# Keys that exist only beside others (a generator's, a method's or a strategy's parameters) are tried in the jobs
# that have them: a key passes when one of its kind's contexts knows it.
bases = {
    "info": [["configs/examples/info.yaml"]],
    "potential": [["configs/examples/ubiquitin.yaml"], ["configs/examples/watbox_parboil.yaml"]],
    "ions": [["configs/examples/ions_actin.yaml"]],
    "solve": [["configs/examples/solve_2dcyl1.yaml"], ["configs/examples/solve_cd_1m.yaml"],
              ["configs/examples/solve_cd_1m.yaml", "--set", "matrix.generator=convection_diffusion_3x"],
              ["configs/examples/solve_2dcyl1.yaml", "--set", "solver.method=gmres"],
              ["configs/examples/solve_2dcyl1.yaml", "--set", "spmv.strategy=vector"]],
    "sweep": [["configs/studies/coarsening.yaml"]],
}
config = os.path.join(repo, "docs", "config.md")
kind, in_keys, rows = None, False, []
for lineno, line in enumerate(open(config, encoding="utf-8"), 1):
    m = re.match(r"## `job: (\w+)`", line)
    if m:
        kind, in_keys = m.group(1), False
        continue
    if line.startswith("| key | type | default | meaning |"):
        in_keys = True
        continue
    if not line.startswith("|"):
        in_keys = False
        continue
    if not in_keys or line.startswith("|---") or kind not in bases:
        continue
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    names = re.findall(r"`([^`]+)`", cells[0])
    default = cells[2].strip("`") if len(cells) > 2 else ""
    value = default if re.fullmatch(r"-?[\d.e+-]+|true|false|\[[^\]]*\]|[a-z_]+", default) and default not in (
        "none", "required", "") else "1"
    prefix = ""
    for name in names:
        if name == "...":
            continue
        if "." not in name and prefix:  # `a.b.c`, `d`: d is a sibling of c
            name = prefix + name
        prefix = name.rsplit(".", 1)[0] + "." if "." in name else ""
        rows.append((lineno, kind, name, value))


def check_key(row):
    lineno, kind, name, value = row
    for context in bases[kind]:
        rc, out = run(["validate"] + context + ["--set", f"{name}={value}"])
        if "unknown key" not in out:
            return None
    return f"docs/config.md:{lineno}: key `{name}` of job: {kind} is unknown to ppl: {out.strip().splitlines()[-1]}"


with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
    failures += [f for f in pool.map(check_key, rows) if f]
print(f"keys: {len(rows)} checked")

for f in failures:
    print("FAIL", f)
sys.exit(1 if failures else 0)
