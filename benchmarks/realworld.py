"""The ecosystem check: failcode on a pinned corpus of real packages, every finding judged by a person.

    python benchmarks/realworld.py                        # download what is missing, check, print the table
    python benchmarks/realworld.py --packages lighteval   # some packages only (fast iteration)
    python benchmarks/realworld.py --diff main            # also: findings that appeared / disappeared vs main
    python benchmarks/realworld.py --write-judged-stub new.tsv   # unjudged findings, verdict `?`, to fill in
    python benchmarks/realworld.py --check --json m.json  # exit 1 when a threshold fails; metrics as JSON

Held-out code written in the contract's idiom says little about real harnesses, which record
outcomes in many shapes. So precision and recall are measured here, on real code: `judged.tsv`
holds a person's verdict on every finding, `labels.tsv` the defects (and near-misses) found by
reading the code, not by running failcode. Every change to detection shows its effect on this
corpus finding by finding. No third-party code enters the repository: packages are downloaded
into a cache folder outside it (`$FAILCODE_REALWORLD_CACHE`, else `~/.cache/failcode-realworld`).
Standard library only, so it runs wherever failcode's checkout does. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import Iterable, Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = HERE / "realworld"
RULES = tuple(f"FC00{n}" for n in range(1, 9))
VERDICTS = ("real", "debatable", "false")
KINDS = ("defect", "near-miss")
JUDGED_HEADER = ("package", "path", "line", "rule", "verdict", "reason")
LABELS_HEADER = ("package", "path", "lines", "rule", "kind", "reason")
SLACK = 2  # a finding this many lines outside a labelled range still matches it
THRESHOLDS = {"precision_real": 0.70, "precision_real_or_debatable": 0.90, "recall": 0.60}


@dataclass(frozen=True, order=True)
class Finding:
    package: str
    path: str
    line: int
    rule: str
    message: str

    @property
    def key(self) -> tuple[str, str, int, str]:
        """What a judgement is keyed on: the message may be reworded without re-judging."""
        return (self.package, self.path, self.line, self.rule)

    def __str__(self) -> str:
        return f"{self.package} {self.path}:{self.line} {self.rule} {self.message}"


@dataclass(frozen=True)
class Label:
    package: str
    path: str
    start: int
    end: int
    rule: str
    kind: str
    reason: str

    def matched_by(self, finding: Finding) -> bool:
        """Rules report at one chosen line of a construct (a `try`, a handler, an element), and a
        person labels the construct: a finding of the label's rule within its range ± SLACK counts."""
        return (finding.rule == self.rule and finding.package == self.package and finding.path == self.path
                and self.start - SLACK <= finding.line <= self.end + SLACK)

    def __str__(self) -> str:
        return f"{self.package} {self.path}:{self.start}-{self.end} {self.rule} {self.reason}"


@dataclass
class Run:
    """What one failcode run reported on one package."""

    findings: list[Finding]
    files: int = 0
    internal: int = 0
    input: int = 0


# -- the corpus and the hand-written tables ----------------------------------------------------

def read_corpus(text: str) -> list[tuple[str, str]]:
    """`name==version` lines; `#` starts a comment."""
    pins = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        if not sep or not name.strip() or not version.strip():
            raise ValueError(f"corpus.txt:{number}: expected name==version, got {raw!r}")
        pins.append((name.strip(), version.strip()))
    return pins


def read_tsv(text: str, header: tuple[str, ...], where: str) -> list[tuple[int, dict[str, str]]]:
    """Rows of a tab-separated table as (line number, {column: value}). An empty text is an empty
    table (the file may not exist yet); a wrong header or column count is an error naming the line."""
    lines = text.splitlines()
    if not lines:
        return []
    if tuple(lines[0].split("\t")) != header:
        raise ValueError(f"{where}:1: header must be {chr(9).join(header)!r}")
    rows = []
    for number, line in enumerate(lines[1:], 2):
        if not line.strip():
            continue
        cells = line.split("\t")
        if len(cells) != len(header):
            raise ValueError(f"{where}:{number}: expected {len(header)} tab-separated columns, got {len(cells)}")
        rows.append((number, dict(zip(header, (cell.strip() for cell in cells)))))
    return rows


def _rule(value: str, where: str) -> str:
    if value not in RULES:
        raise ValueError(f"{where}: unknown rule {value!r}")
    return value


def parse_judged(text: str, where: str = "judged.tsv") -> dict[tuple[str, str, int, str], str]:
    """{(package, path, line, rule): verdict}. A `?` verdict (a stub row not filled in yet) is left
    out, so its finding stays unjudged; two rows for one finding are an error, not a silent choice."""
    judged: dict[tuple[str, str, int, str], str] = {}
    for number, row in read_tsv(text, JUDGED_HEADER, where):
        at = f"{where}:{number}"
        if row["verdict"] == "?":
            continue
        if row["verdict"] not in VERDICTS:
            raise ValueError(f"{at}: verdict must be one of {', '.join(VERDICTS)} (or ?), got {row['verdict']!r}")
        if not row["line"].isdigit():
            raise ValueError(f"{at}: line must be a number, got {row['line']!r}")
        key = (row["package"], row["path"], int(row["line"]), _rule(row["rule"], at))
        if key in judged:
            raise ValueError(f"{at}: a second verdict for {row['package']} {row['path']}:{row['line']} {row['rule']}")
        judged[key] = row["verdict"]
    return judged


def parse_labels(text: str, where: str = "labels.tsv") -> list[Label]:
    """Labelled defects and near-misses; `lines` is `start-end` (a single `N` means N-N)."""
    labels = []
    for number, row in read_tsv(text, LABELS_HEADER, where):
        at = f"{where}:{number}"
        match = re.fullmatch(r"(\d+)(?:-(\d+))?", row["lines"])
        if not match:
            raise ValueError(f"{at}: lines must be start-end, got {row['lines']!r}")
        start, end = int(match[1]), int(match[2] or match[1])
        if end < start:
            raise ValueError(f"{at}: line range {row['lines']} ends before it starts")
        if row["kind"] not in KINDS:
            raise ValueError(f"{at}: kind must be one of {', '.join(KINDS)}, got {row['kind']!r}")
        labels.append(Label(row["package"], row["path"], start, end, _rule(row["rule"], at), row["kind"],
                            row["reason"]))
    return labels


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


# -- metrics -----------------------------------------------------------------------------------

def _ratio(part: int, whole: int) -> Optional[float]:
    return part / whole if whole else None


def rule_metrics(findings: list[Finding], judged: dict, labels: list[Label]) -> dict:
    """Counts and ratios for one rule's (or all rules') findings and labels. A ratio over nothing
    is None, not 0 or 1: no judged finding says nothing about precision."""
    verdicts = Counter(judged.get(f.key, "unjudged") for f in findings)
    defects = [label for label in labels if label.kind == "defect"]
    near = [label for label in labels if label.kind == "near-miss"]
    found = sum(any(label.matched_by(f) for f in findings) for label in defects)
    flagged = sum(any(label.matched_by(f) for f in findings) for label in near)
    judged_count = verdicts["real"] + verdicts["debatable"] + verdicts["false"]
    return {
        "findings": len(findings), "real": verdicts["real"], "debatable": verdicts["debatable"],
        "false": verdicts["false"], "unjudged": verdicts["unjudged"],
        "precision_real": _ratio(verdicts["real"], judged_count),
        "precision_real_or_debatable": _ratio(verdicts["real"] + verdicts["debatable"], judged_count),
        "defects": len(defects), "found": found, "recall": _ratio(found, len(defects)),
        "near_misses": len(near), "near_misses_flagged": flagged,
    }


def metrics(runs: dict[str, Run], judged: dict, labels: list[Label]) -> dict:
    """Everything the table, the listings, `--json` and `--check` need. Labels and judgements of
    packages outside this run (`--packages`) are left out so a partial run is not counted as misses."""
    findings = sorted(f for run in runs.values() for f in run.findings)
    labels = [label for label in labels if label.package in runs]
    per_rule = {rule: rule_metrics([f for f in findings if f.rule == rule], judged,
                                   [label for label in labels if label.rule == rule]) for rule in RULES}
    per_rule["ALL"] = rule_metrics(findings, judged, labels)
    reported = {f.key for f in findings}
    return {
        "rules": per_rule,
        "packages": {name: {"files": run.files, "findings": len(run.findings), "internal_errors": run.internal,
                            "input_errors": run.input} for name, run in runs.items()},
        "unjudged": [asdict(f) for f in findings if f.key not in judged],
        "near_misses_flagged": [asdict(label) for label in labels
                                if label.kind == "near-miss" and any(map(label.matched_by, findings))],
        "defects_missed": [asdict(label) for label in labels
                           if label.kind == "defect" and not any(map(label.matched_by, findings))],
        "judged_not_reported": sorted(list(key) for key in judged if key[0] in runs and key not in reported),
    }


def failures(result: dict) -> list[str]:
    """The thresholds of `--check`, each broken one as a sentence. No judged finding at all leaves
    precision undefined and passes (nothing reported, nothing false); no labelled defect fails,
    because then recall was never measured."""
    overall = result["rules"]["ALL"]
    broken = []
    for key, floor in THRESHOLDS.items():
        value = overall[key]
        if value is None and key == "recall":
            broken.append("recall: no labelled defects in labels.tsv")
        elif value is not None and value < floor:
            broken.append(f"{key} {value:.2f} < {floor:.2f}")
    if overall["near_misses_flagged"]:
        broken.append(f"{overall['near_misses_flagged']} near-miss(es) flagged")
    if overall["unjudged"]:
        broken.append(f"{overall['unjudged']} unjudged finding(s)")
    internal = sum(p["internal_errors"] for p in result["packages"].values())
    if internal:
        broken.append(f"{internal} internal error(s)")
    return broken


def _pct(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.0%}"


def table(result: dict) -> list[str]:
    """The report a reviewer reads: per rule, per package, then every finding that needs a person."""
    head = ("rule", "findings", "real", "debat", "false", "unjudged", "prec", "prec+d",
            "defects", "found", "recall", "near", "flagged")
    lines = ["  ".join(f"{h:>8}" for h in head)]
    for rule, m in result["rules"].items():
        cells = (rule, m["findings"], m["real"], m["debatable"], m["false"], m["unjudged"],
                 _pct(m["precision_real"]), _pct(m["precision_real_or_debatable"]), m["defects"], m["found"],
                 _pct(m["recall"]), m["near_misses"], m["near_misses_flagged"])
        lines.append("  ".join(f"{c:>8}" for c in cells))
    lines += ["", f"{'package':<28}{'files':>7}{'findings':>10}{'internal':>10}{'input':>7}"]
    for name, p in result["packages"].items():
        lines.append(f"{name:<28}{p['files']:>7}{p['findings']:>10}{p['internal_errors']:>10}{p['input_errors']:>7}")
    sections = (
        ("unjudged findings", [str(Finding(**f)) for f in result["unjudged"]]),
        ("near-misses flagged", [str(Label(**label)) for label in result["near_misses_flagged"]]),
        ("defects missed", [str(Label(**label)) for label in result["defects_missed"]]),
        ("judged but no longer reported", [f"{p} {path}:{line} {rule}"
                                           for p, path, line, rule in result["judged_not_reported"]]),
    )
    for title, rows in sections:
        if rows:
            lines += ["", f"{title} ({len(rows)}):", *(f"  {row}" for row in rows)]
    return lines


def stub_rows(result: dict) -> list[str]:
    """judged.tsv rows for the unjudged findings, verdict `?` and the message standing in for the
    reason: a person replaces both after reading the code."""
    rows = ["\t".join(JUDGED_HEADER)]
    for f in result["unjudged"]:
        message = " ".join(f["message"].split())  # no tab or newline may break the row
        rows.append("\t".join((f["package"], f["path"], str(f["line"]), f["rule"], "?", message)))
    return rows


# -- the cache: download and unpack ------------------------------------------------------------

def cache_dir() -> Path:
    return Path(os.environ.get("FAILCODE_REALWORLD_CACHE") or Path.home() / ".cache" / "failcode-realworld")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def find_archive(downloads: Path, name: str, version: str) -> Optional[Path]:
    """The wheel (preferred) or sdist of name==version among the downloads, matched on the file
    name's distribution and version (`arize_phoenix_evals-3.9.4-py3-none-any.whl`)."""
    wheels, sdists = [], []
    for path in sorted(downloads.glob("*")):
        if path.name.endswith(".whl"):
            dist, _, rest = path.name.partition("-")
            (wheels if (_normal(dist), rest.split("-")[0]) == (_normal(name), version) else []).append(path)
        elif path.name.endswith((".tar.gz", ".zip")):
            stem = path.name[: -len(".tar.gz")] if path.name.endswith(".tar.gz") else path.name[: -len(".zip")]
            dist, _, ver = stem.rpartition("-")
            (sdists if (_normal(dist), ver) == (_normal(name), version) else []).append(path)
    return (wheels + sdists)[0] if wheels or sdists else None


def source_member(member: str, sdist: bool) -> Optional[PurePosixPath]:
    """Where an archive member goes under the package folder, None when it is skipped: only .py and
    .pyi files, no metadata, nothing that escapes the folder. An sdist loses its top `name-version/`
    folder and a leading `src/`, so its paths look like the wheel's."""
    path = PurePosixPath(member)
    if path.suffix not in (".py", ".pyi") or path.is_absolute() or ".." in path.parts:
        return None
    parts = path.parts
    if sdist:
        parts = parts[1:]
        if parts[:1] == ("src",):
            parts = parts[1:]
    if not parts or any(part.endswith(".dist-info") for part in parts[:-1]):
        return None
    return PurePosixPath(*parts)


def unpack(archive: Path, dest: Path) -> None:
    """Unpack into a temporary sibling, then rename: an interrupted unpack never looks complete."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=dest.name + ".", dir=dest.parent))
    try:
        if archive.name.endswith((".whl", ".zip")):
            with zipfile.ZipFile(archive) as zf:
                _write(partial, zf.namelist(), zf.read, sdist=archive.name.endswith(".zip"))
        else:
            with tarfile.open(archive) as tf:
                names = [m.name for m in tf.getmembers() if m.isfile()]
                _write(partial, names, lambda name: tf.extractfile(name).read(), sdist=True)
        partial.rename(dest)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise


def _write(partial: Path, names: list[str], read, sdist: bool) -> None:
    for name in names:
        target = source_member(name, sdist)
        if target is not None:
            out = partial.joinpath(*target.parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(read(name))


def ensure(cache: Path, name: str, version: str) -> Path:
    """`<cache>/src/<name>-<version>/`, downloading and unpacking only what is missing."""
    dest = cache / "src" / f"{name}-{version}"
    if dest.is_dir():
        return dest
    downloads = cache / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    archive = find_archive(downloads, name, version)
    if archive is None:
        print(f"downloading {name}=={version}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(downloads),
                        f"{name}=={version}"], check=True)
        archive = find_archive(downloads, name, version)
        if archive is None:
            raise SystemExit(f"pip download {name}=={version} left no wheel or sdist in {downloads}")
    unpack(archive, dest)
    return dest


# -- running failcode --------------------------------------------------------------------------

def run_failcode(package: str, folder: Path, src: Path) -> Run:
    """failcode of the checkout `src` on one package alone (registries must not meet across
    packages), with the default rule selection a user gets, from inside the package folder so the
    paths are the package's own. The empty config file in the folder keeps any pyproject.toml above
    the cache out, and makes the package folder the root (module names, excludes)."""
    config = folder / ".failcode-realworld.toml"
    if not config.is_file():
        config.write_text("# empty: failcode's defaults (benchmarks/realworld.py)\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(src), os.environ.get("PYTHONPATH"))))}
    argv = [sys.executable, "-m", "failcode", "check", ".", "--format", "json", "--no-cache", "--exit-zero",
            "--jobs", "2", "--config", str(config)]
    done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True)
    try:
        document = json.loads(done.stdout)
    except json.JSONDecodeError:
        # failcode died before its report (exit 2 or 4): count it, say why, keep checking the rest
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        print(f"{package}: failcode printed no report: {last}", file=sys.stderr)
        return Run([], internal=1)
    findings = [Finding(package, f["path"], f["line"], f["rule"], f["message"]) for f in document["findings"]]
    kinds = Counter("internal" if e["kind"] == "internal" else "input" for e in document["errors"])
    return Run(findings, document["summary"]["files"], kinds["internal"], kinds["input"])


def run_all(pins: Iterable[tuple[str, str]], cache: Path, src: Path) -> dict[str, Run]:
    return {name: run_failcode(name, ensure(cache, name, version), src) for name, version in pins}


def run_ref(ref: str, pins: list[tuple[str, str]], cache: Path) -> dict[str, Run]:
    """failcode as of git ref `ref`, from a temporary detached worktree removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="failcode-ref-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(REPO), "worktree", "add", "--quiet", "--detach", str(tree), ref], check=True)
        try:
            return run_all(pins, cache, tree / "src")
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=False)


def diff(old: dict[str, Run], new: dict[str, Run]) -> tuple[list[Finding], list[Finding]]:
    """(appeared, disappeared), as multisets: a second identical finding appearing is a change too."""
    before = Counter(f for run in old.values() for f in run.findings)
    after = Counter(f for run in new.values() for f in run.findings)
    return sorted((after - before).elements()), sorted((before - after).elements())


# -- command line ------------------------------------------------------------------------------

def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--packages", help="comma-separated corpus names to check (default: all)")
    parser.add_argument("--diff", metavar="REF", help="also list findings that differ from git ref REF's failcode")
    parser.add_argument("--write-judged-stub", metavar="FILE", type=Path,
                        help="write the unjudged findings as judged.tsv rows with verdict ?")
    parser.add_argument("--json", metavar="FILE", type=Path, help="write the metrics as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a threshold fails")
    args = parser.parse_args(argv)
    try:
        pins = read_corpus(_read(DATA / "corpus.txt"))
        judged = parse_judged(_read(DATA / "judged.tsv"))
        labels = parse_labels(_read(DATA / "labels.tsv"))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.packages:
        wanted = set(args.packages.split(","))
        unknown = wanted - {name for name, _ in pins}
        if unknown:
            print(f"error: not in corpus.txt: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        pins = [pin for pin in pins if pin[0] in wanted]
    cache = cache_dir()
    start = time.perf_counter()
    runs = run_all(pins, cache, REPO / "src")
    seconds = time.perf_counter() - start
    result = metrics(runs, judged, labels)
    result["seconds"] = round(seconds, 1)
    result["failures"] = failures(result)
    print("\n".join(table(result)))
    print(f"\n{len(runs)} packages checked in {seconds:.0f} s")
    if args.diff:
        appeared, disappeared = diff(run_ref(args.diff, pins, cache), runs)
        for title, rows in ((f"appeared since {args.diff}", appeared), (f"disappeared since {args.diff}", disappeared)):
            print(f"\n{title} ({len(rows)}):", *(f"  {f}" for f in rows), sep="\n")
    if args.write_judged_stub:
        args.write_judged_stub.write_text("\n".join(stub_rows(result)) + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.check and result["failures"]:
        print("\ncheck failed: " + "; ".join(result["failures"]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
