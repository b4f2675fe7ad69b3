#!/usr/bin/env python3
"""How well the rules survive the forms people paste a message in: each rule's own match fixtures
(tests/fixtures/diagnosis/catalogue-logs/<ID>/match-*.log and logs/<ID>/match-*.log) rewritten as a pasted text is
rewritten (quotes and backticks eaten by Markdown, all lower case, hard-wrapped at 80 columns mid-word, the message
line alone, a title cut at 60 characters), each form scored with `bench diagnose` like a corpus (top-1 = the fixture's
rule or its family). Nothing here is read from a bug thread: the forms are generated, so the figure cannot be tuned to
a held-out set.

    python3 tests/bench/forms/perturb.py build/bin/stackscope-cli [--rules DIR] [--list FORM]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fixtures", "diagnosis")
QUOTES = re.compile("[`'\"\u2018\u2019\u201c\u201d]")
# A logger or exception prefix before the message: "ERROR 05-14 09:12:41 [core.py:396] ", "RuntimeError: ", "E0514 ...] "
PREFIX = re.compile(r"^(?:.*?\] |(?:[A-Za-z_.]*(?:Error|Exception|Warning)): )+")


def fixtures():
    for kind in ("catalogue-logs", "logs"):
        base = os.path.join(ROOT, kind)
        for rule in sorted(os.listdir(base)):
            for name in sorted(os.listdir(os.path.join(base, rule))):
                if name.startswith("match-"):
                    yield rule, os.path.join(base, rule, name)


def evidence_line(cli, path, rule):
    """The line of the fixture that the rule's evidence cites last (the message itself, usually), or None."""
    out = subprocess.run([cli, "diagnose", "--log-only", "--json", "--log", path], capture_output=True, text=True)
    try:
        findings = json.loads(out.stdout)["findings"]
    except ValueError:
        return None
    for f in findings:
        if f["id"] == rule and f.get("evidence"):
            lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
            n = next((e["line"] for e in reversed(f["evidence"]) if e.get("line")), 0)
            return lines[n - 1] if 0 < n <= len(lines) else None
    return None


def evidence_lines(cli, items):
    """evidence_line of every fixture, cached by the fixture's text (one diagnose per fixture takes minutes in all)."""
    cache_path = os.path.join(tempfile.gettempdir(), "stackscope-forms-cache.json")
    cache = json.load(open(cache_path)) if os.path.exists(cache_path) else {}
    out = []
    for rule, path, text in items:
        key = rule + "\0" + text
        if key not in cache:
            cache[key] = evidence_line(cli, path, rule)
        out.append(cache[key])
    json.dump(cache, open(cache_path, "w"))
    return out


def wrap80(text):
    out = []
    for line in text.splitlines():
        while len(line) > 80:
            out.append(line[:80])
            line = line[80:]
        out.append(line)
    return "\n".join(out) + "\n"


def title(line):
    msg = PREFIX.sub("", line.strip()).strip()
    if len(msg) <= 60:
        return msg
    cut = msg[:60]
    return cut[: cut.rfind(" ")] if " " in cut else cut


FORMS = {
    "original": lambda text, line: text,
    "no-quotes": lambda text, line: QUOTES.sub("", text),
    "lower-case": lambda text, line: text.lower(),
    "wrapped-80": lambda text, line: wrap80(text),
    "message-line": lambda text, line: line + "\n" if line else None,
    "title-60": lambda text, line: title(line) + "\n" if line else None,
}


def main():
    cli = sys.argv[1]
    rules = sys.argv[sys.argv.index("--rules") + 1] if "--rules" in sys.argv else None
    listing = sys.argv[sys.argv.index("--list") + 1] if "--list" in sys.argv else None
    work = tempfile.mkdtemp(prefix="forms-")
    try:
        items = [(rule, path, open(path, encoding="utf-8", errors="replace").read()) for rule, path in fixtures()]
        lines = evidence_lines(cli, items)
        results = {}
        for form, make in FORMS.items():
            corpus = os.path.join(work, form)
            os.makedirs(corpus)
            names = {}
            for i, ((rule, path, text), line) in enumerate(zip(items, lines)):
                body = make(text, line)
                if not body or not body.strip():
                    continue
                d = os.path.join(corpus, f"{i + 1:04d}_{rule}")
                os.makedirs(d)
                open(os.path.join(d, "report.txt"), "w", encoding="utf-8").write(body)
                json.dump({"url": "https://fixture.invalid/" + os.path.relpath(path, ROOT), "family": "form", "expected_rule": rule, "cause": "generated form", "fix": "n/a",
                           "vendor": "any"}, open(os.path.join(d, "expected.json"), "w"))
                names[os.path.basename(d)] = path
            cmd = [cli, "bench", "diagnose", "--json", "--later-labels", "", "--corpus", corpus]
            if rules:
                cmd += ["--rules", rules]
            run = subprocess.run(cmd, capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"{form}: {run.stderr.strip()}")
            bench = json.loads(run.stdout)
            rows = bench["corpora"][0]["per_report"]
            results[form] = (sum(r["top1"] for r in rows), len(rows))
            if form == listing:
                for r in rows:
                    if not r["top1"]:
                        print(f"  missed {os.path.relpath(names[r['name']], ROOT)}  ranked {r['ranked'][:2]}")
        for form, (hit, n) in results.items():
            print(f"{form:13s} {hit:4d}/{n:4d} = {100.0 * hit / n:5.1f} %")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
