#!/usr/bin/env python3
"""Scores tests/device/live_faults.sh: for each fault of the manifest, the top-1 cause that
`stackscope-cli diagnose --json` named (the first finding of severity warning or error; info findings never count)
against the expected id, then prints the table "fault | expected | top-1 | ok", writes it as TSV with more columns,
and ends with "live faults: N named / M faults; healthy: K clean / H". Python 3, no dependencies.

Expected ids (tests/fixtures/diagnosis/cause-ids.md): one id, or several separated by '|' (each acceptable);
"healthy": the run is fine, so no warning or error finding is allowed; "OTHER": the cause is known but no id names it,
so naming any cause is wrong (ok only with no warning or error finding).

Usage: live_faults_score.py MANIFEST.tsv FAULT_DIR OUT.tsv
MANIFEST.tsv columns (tab-separated, header first): name expected need status rc secs how note
FAULT_DIR holds <name>.log and <name>.diag.json."""
import json
import os
import re
import sys

CLAIMS = ("warning", "error")
ERROR_LINE = re.compile(r"(error|Error|ERROR|failed|Failed|not found|cannot|Assertion|Killed|timed out|timeout|"
                        r"Traceback|exited|out of memory|Bus error|Unrecognized|WARN)")


def read_manifest(path):
    rows = []
    with open(path, encoding="utf-8", errors="replace") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            if not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            cells += [""] * (len(header) - len(cells))
            rows.append(dict(zip(header, cells)))
    return rows


def said(log_path):
    """The last line of the user's log that looks like the error (what the user would paste first)."""
    try:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
    except OSError:
        return ""
    for line in reversed(lines):
        if ERROR_LINE.search(line) and not line.startswith("File "):
            return line[:160]
    return lines[-1][:160] if lines else ""


def findings_of(diag_path):
    try:
        with open(diag_path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    out = []
    for f in doc.get("findings") or []:
        if isinstance(f, dict) and f.get("id"):
            out.append((str(f["id"]), str(f.get("severity", "info"))))
    return out


def score(row, fault_dir):
    name, expected = row["name"], row["expected"]
    r = dict(row, top1="-", ok="", rank="", findings="", said="")
    if row["status"] != "ran":
        r["ok"] = "skip (" + row["note"] + ")"
        return r
    r["said"] = said(os.path.join(fault_dir, name + ".log"))
    found = findings_of(os.path.join(fault_dir, name + ".diag.json"))
    if found is None:
        r["ok"] = "n/a"
        r["top1"] = "(no diagnosis)"
        return r
    claims = [i for i, sev in found if sev in CLAIMS]
    r["findings"] = " ".join(i if sev in CLAIMS else f"({i})" for i, sev in found) or "-"
    r["top1"] = claims[0] if claims else "-"
    if expected in ("healthy", "OTHER"):
        r["ok"] = "yes" if not claims else "NO"
    else:
        want = set(expected.split("|"))
        r["ok"] = "yes" if claims and claims[0] in want else "NO"
        ranks = [k for k, i in enumerate(claims, 1) if i in want]
        r["rank"] = str(ranks[0]) if ranks else "-"
    return r


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    manifest, fault_dir, out_tsv = sys.argv[1:]
    rows = [score(r, fault_dir) for r in read_manifest(manifest)]
    w = [max([len(h)] + [len(r[k]) for r in rows]) for h, k in
         (("fault", "name"), ("expected", "expected"), ("top-1", "top1"))]
    print(f"{'fault':<{w[0]}} | {'expected':<{w[1]}} | {'top-1':<{w[2]}} | ok")
    print(f"{'-' * w[0]}-+-{'-' * w[1]}-+-{'-' * w[2]}-+----")
    for r in rows:
        print(f"{r['name']:<{w[0]}} | {r['expected']:<{w[1]}} | {r['top1']:<{w[2]}} | {r['ok']}")
    cols = ["name", "expected", "top1", "ok", "rank", "findings", "status", "rc", "secs", "need", "how", "note", "said"]
    with open(out_tsv, "w", encoding="utf-8") as f:
        f.write("\t".join(cols) + "\n")
        for r in rows:
            f.write("\t".join(str(r.get(c, "")).replace("\t", " ").replace("\n", " ") for c in cols) + "\n")
    ran = [r for r in rows if r["status"] == "ran" and r["ok"] in ("yes", "NO")]
    faults = [r for r in ran if r["expected"] != "healthy"]
    healthy = [r for r in ran if r["expected"] == "healthy"]
    skipped = [r for r in rows if r["status"] != "ran"]
    undiagnosed = [r for r in rows if r["ok"] == "n/a"]
    print(f"live faults: {sum(r['ok'] == 'yes' for r in faults)} named / {len(faults)} faults; "
          f"healthy: {sum(r['ok'] == 'yes' for r in healthy)} clean / {len(healthy)}")
    if skipped or undiagnosed:
        print(f"not scored: {len(skipped)} skipped, {len(undiagnosed)} without a diagnosis")


if __name__ == "__main__":
    main()
