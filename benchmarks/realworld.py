"""The ecosystem check: failcode on a pinned corpus of real packages, every finding judged by a person.

    python benchmarks/realworld.py                        # download what is missing, check, print the tables
    python benchmarks/realworld.py --split tune           # one split only (design from this one)
    python benchmarks/realworld.py --packages lighteval   # some packages only (fast iteration)
    python benchmarks/realworld.py --diff main            # also: findings that appeared / disappeared vs main
    python benchmarks/realworld.py --write-judged-stub new.tsv   # unjudged findings, verdict `?`, to fill in
    python benchmarks/realworld.py --show heldout         # also list held-out findings (for the judge only)
    python benchmarks/realworld.py --check --json m.json  # exit 1 when a threshold fails; metrics as JSON

A model tuned and scored on the same rows learns those rows, so the corpus is split
(`realworld/corpus.txt`): detection changes are designed from the `tune` split only, and the
`heldout` split, labelled blind and never read while designing, says whether a change generalizes.
Held-out labels and verdicts live in their own tables (`labels-heldout.tsv`, `judged-heldout.tsv`)
so that reading the tune tables never shows a held-out row, and this script prints held-out
numbers as aggregates per rule, listing held-out findings only under `--show heldout`.

Labels are defects and near-misses found by reading the code, never by running failcode
(`realworld/LABELLING.md`); every defect row is read a second time and marked real, debatable or
wrong. Recall counts the `real` rows (and, beside it, real and debatable); `wrong` rows are dropped.
No third-party code enters the repository: packages are downloaded into a cache folder outside it
(`$FAILCODE_REALWORLD_CACHE`, else `~/.cache/failcode-realworld`). Standard library only, so it runs
wherever failcode's checkout does. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import hashlib
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
SECOND = ("real", "debatable", "wrong")  # a second reader's verdict on a defect row
KINDS = ("defect", "near-miss")
SPLITS = ("tune", "heldout")
JUDGED_HEADER = ("package", "path", "line", "rule", "verdict", "reason")
LABELS_HEADER = ("package", "path", "lines", "rule", "kind", "reason", "second", "second_reason")
TABLES = {"tune": ("labels.tsv", "judged.tsv"), "heldout": ("labels-heldout.tsv", "judged-heldout.tsv")}
SLACK = 2  # a finding this many lines outside a labelled range still matches it
HELDOUT_SHARE = 17  # of the 51 `new` packages, the 17 with the smallest name hash are held out

# The targets of the outcome-model issue, measured on the held-out split (never tuned on): precision
# as judged, recall on the rows a second reader called real, near-misses left quiet, and tune and
# held-out recall close enough that the model learned principles rather than rows.
THRESHOLDS = {"precision_real": 0.70, "precision_real_or_debatable": 0.90, "recall": 0.50,
              "near_misses_quiet": 0.95}
RECALL_GAP = 0.10


@dataclass(frozen=True)
class Pin:
    """One corpus line: `name==version split origin` (see corpus.txt for what they mean)."""

    name: str
    version: str
    split: str
    origin: str

    @property
    def fresh(self) -> Optional[int]:
        """The fresh batch this package came in, None for the others."""
        return int(self.origin[len("fresh-"):]) if self.origin.startswith("fresh-") else None


@dataclass(frozen=True, order=True)
class Finding:
    package: str
    path: str
    line: int
    rule: str
    message: str
    confidence: str = "high"

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
    second: str = "-"  # defects: the second reader's real | debatable | wrong (`?` not read yet)

    def matched_by(self, finding: Finding) -> bool:
        """Rules report at one chosen line of a construct (a `try`, a handler, an element), and a
        person labels the construct: a finding of the label's rule within its range ± SLACK counts."""
        return (finding.rule == self.rule and finding.package == self.package and finding.path == self.path
                and self.start - SLACK <= finding.line <= self.end + SLACK)

    def __str__(self) -> str:
        second = f" [{self.second}]" if self.kind == "defect" else ""
        return f"{self.package} {self.path}:{self.start}-{self.end} {self.rule}{second} {self.reason}"


@dataclass
class Run:
    """What one failcode run reported on one package."""

    findings: list[Finding]
    files: int = 0
    internal: int = 0
    input: int = 0


# -- the corpus and the hand-written tables ----------------------------------------------------

def read_corpus(text: str) -> list[Pin]:
    """`name==version split origin` lines; `#` starts a comment. Tuned and seen packages are tune,
    fresh batches held out: anything else would break the split's promise."""
    pins = []
    for number, raw in enumerate(text.splitlines(), 1):
        cells = raw.split("#", 1)[0].split()
        if not cells:
            continue
        at = f"corpus.txt:{number}"
        name, sep, version = cells[0].partition("==")
        if not sep or not name or not version or len(cells) != 3:
            raise ValueError(f"{at}: expected `name==version split origin`, got {raw.strip()!r}")
        split, origin = cells[1], cells[2]
        if split not in SPLITS:
            raise ValueError(f"{at}: split must be one of {', '.join(SPLITS)}, got {split!r}")
        if not re.fullmatch(r"tuned|seen|new|fresh-[1-9][0-9]*", origin):
            raise ValueError(f"{at}: origin must be tuned, seen, new or fresh-N, got {origin!r}")
        if (origin in ("tuned", "seen") and split != "tune") or (origin.startswith("fresh-") and split != "heldout"):
            raise ValueError(f"{at}: a {origin} package belongs to the {'tune' if split == 'heldout' else 'heldout'} split")
        pins.append(Pin(name, version, split, origin))
    names = [pin.name for pin in pins]
    if len(set(names)) != len(names):
        raise ValueError(f"corpus.txt: {', '.join(sorted({n for n in names if names.count(n) > 1}))} pinned twice")
    return pins


def name_hash(name: str) -> str:
    """What the held-out share of the `new` packages is chosen by: not by hand."""
    return hashlib.sha256(_normal(name).encode()).hexdigest()


def hash_heldout(names: Iterable[str], count: int = HELDOUT_SHARE) -> set[str]:
    """The `count` names with the smallest hash."""
    return set(sorted(names, key=name_hash)[:count])


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
    """Labelled defects and near-misses; `lines` is `start-end` (a single `N` means N-N). A defect
    carries the second reader's verdict (`?` until read); a near-miss is read once (`-`)."""
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
        allowed = (*SECOND, "?") if row["kind"] == "defect" else ("-",)
        if row["second"] not in allowed:
            raise ValueError(f"{at}: second must be one of {', '.join(allowed)} for a {row['kind']}, "
                             f"got {row['second']!r}")
        labels.append(Label(row["package"], row["path"], start, end, _rule(row["rule"], at), row["kind"],
                            row["reason"], row["second"]))
    return labels


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def read_tables(pins: list[Pin], data: Path = DATA) -> tuple[dict, list[Label]]:
    """Verdicts and labels of both splits. A row sits in its package's split's table: a held-out
    row in the tune table would be read by whoever designs from the tune split."""
    split_of = {pin.name: pin.split for pin in pins}
    judged: dict = {}
    labels: list[Label] = []
    for split, names in TABLES.items():
        these = parse_judged(_read(data / names[1]), names[1])
        rows = parse_labels(_read(data / names[0]), names[0])
        for table_name, packages in ((names[0], {label.package for label in rows}),
                                     (names[1], {key[0] for key in these})):
            for package in sorted(packages):
                if split_of.get(package, split) != split:
                    raise ValueError(f"{table_name}: {package} is a {split_of[package]} package, its rows "
                                     f"belong in {TABLES[split_of[package]][table_name == names[1]]}")
        judged.update(these)
        labels += rows
    return judged, labels


# -- metrics -----------------------------------------------------------------------------------

def _ratio(part: int, whole: int) -> Optional[float]:
    return part / whole if whole else None


def rule_metrics(findings: list[Finding], judged: dict, labels: list[Label]) -> dict:
    """Counts and ratios for one rule's (or all rules') findings and labels. A ratio over nothing
    is None, not 0 or 1: no judged finding says nothing about precision. Recall is over the defect
    rows a second reader called real (`recall`) and real or debatable (`recall_with_debatable`);
    rows called wrong are not defects, rows not read yet (`unread`) are counted apart."""
    verdicts = Counter(judged.get(f.key, "unjudged") for f in findings)
    defects = [label for label in labels if label.kind == "defect"]
    real = [label for label in defects if label.second == "real"]
    debatable = [label for label in defects if label.second == "debatable"]
    near = [label for label in labels if label.kind == "near-miss"]

    def found(rows: list[Label]) -> int:
        return sum(any(label.matched_by(f) for f in findings) for label in rows)

    judged_count = verdicts["real"] + verdicts["debatable"] + verdicts["false"]
    flagged = found(near)
    return {
        "findings": len(findings), "real": verdicts["real"], "debatable": verdicts["debatable"],
        "false": verdicts["false"], "unjudged": verdicts["unjudged"],
        "precision_real": _ratio(verdicts["real"], judged_count),
        "precision_real_or_debatable": _ratio(verdicts["real"] + verdicts["debatable"], judged_count),
        "defects": len(real), "found": found(real), "recall": _ratio(found(real), len(real)),
        "defects_with_debatable": len(real) + len(debatable),
        "found_with_debatable": found(real) + found(debatable),
        "recall_with_debatable": _ratio(found(real) + found(debatable), len(real) + len(debatable)),
        "wrong": sum(label.second == "wrong" for label in defects),
        "unread": sum(label.second == "?" for label in defects),
        "near_misses": len(near), "near_misses_flagged": flagged,
        "near_misses_quiet": _ratio(len(near) - flagged, len(near)),
    }


def split_metrics(runs: dict[str, Run], judged: dict, labels: list[Label]) -> dict:
    """Everything the table, the listings, `--json` and `--check` need, for the packages of `runs`.
    Labels and judgements of packages outside `runs` are left out, so a partial run is not counted
    as misses."""
    findings = sorted(f for run in runs.values() for f in run.findings)
    labels = [label for label in labels if label.package in runs]
    per_rule = {rule: rule_metrics([f for f in findings if f.rule == rule], judged,
                                   [label for label in labels if label.rule == rule]) for rule in RULES}
    per_rule["ALL"] = rule_metrics(findings, judged, labels)
    # what `--min-confidence high` would report: the numbers that decide the default
    per_rule["high"] = rule_metrics([f for f in findings if f.confidence == "high"], judged, labels)
    reported = {f.key for f in findings}
    return {
        "rules": per_rule,
        "packages": {name: {"files": run.files, "findings": len(run.findings), "internal_errors": run.internal,
                            "input_errors": run.input} for name, run in runs.items()},
        "unjudged": [asdict(f) for f in findings if f.key not in judged],
        "near_misses_flagged": [asdict(label) for label in labels
                                if label.kind == "near-miss" and any(map(label.matched_by, findings))],
        "defects_missed": [asdict(label) for label in labels
                           if label.kind == "defect" and label.second in ("real", "debatable")
                           and not any(map(label.matched_by, findings))],
        "judged_not_reported": sorted(list(key) for key in judged if key[0] in runs and key not in reported),
    }


def split_of_runs(pins: list[Pin], runs: dict[str, Run]) -> dict[str, dict[str, Run]]:
    """The runs grouped as reported: `tune`, `heldout`, and `fresh`, the latest fresh batch (also
    part of `heldout`). A split with no package in this run is left out."""
    groups: dict[str, dict[str, Run]] = {}
    latest = max((pin.fresh for pin in pins if pin.fresh is not None and pin.name in runs), default=None)
    for pin in pins:
        if pin.name in runs:
            groups.setdefault(pin.split, {})[pin.name] = runs[pin.name]
            if latest is not None and pin.fresh == latest:
                groups.setdefault("fresh", {})[pin.name] = runs[pin.name]
    return {name: groups[name] for name in ("tune", "heldout", "fresh") if name in groups}


def metrics(pins: list[Pin], runs: dict[str, Run], judged: dict, labels: list[Label]) -> dict:
    """Per split, the split's metrics; `fresh_batch` names the latest fresh batch."""
    groups = split_of_runs(pins, runs)
    latest = max((pin.fresh for pin in pins if pin.fresh is not None and pin.name in runs), default=None)
    return {"splits": {name: split_metrics(group, judged, labels) for name, group in groups.items()},
            "fresh_batch": latest}


def failures(result: dict) -> list[str]:
    """What `--check` fails on, each as a sentence. On every split: an unjudged finding, a defect row
    not read a second time, an internal error, no labelled defect (recall never measured). On the
    held-out split: the outcome-model targets (THRESHOLDS), and tune and held-out recall further
    apart than RECALL_GAP."""
    broken = []
    splits = result["splits"]
    for name, split in splits.items():
        overall = split["rules"]["ALL"]
        if overall["unjudged"]:
            broken.append(f"{name}: {overall['unjudged']} unjudged finding(s)")
        if overall["unread"]:
            broken.append(f"{name}: {overall['unread']} defect row(s) not read a second time")
        internal = sum(p["internal_errors"] for p in split["packages"].values())
        if internal:
            broken.append(f"{name}: {internal} internal error(s)")
        if overall["recall"] is None:
            broken.append(f"{name}: recall unmeasured, no defect row a second reader called real")
    held = splits.get("heldout", {}).get("rules", {}).get("ALL")
    if held is not None:
        for key, floor in THRESHOLDS.items():
            if held[key] is not None and held[key] < floor:
                broken.append(f"heldout: {key} {held[key]:.2f} < {floor:.2f}")
        tune = splits.get("tune", {}).get("rules", {}).get("ALL")
        if tune and tune["recall"] is not None and held["recall"] is not None \
                and abs(tune["recall"] - held["recall"]) > RECALL_GAP:
            broken.append(f"tune recall {tune['recall']:.2f} and heldout recall {held['recall']:.2f} are more "
                          f"than {RECALL_GAP:.2f} apart")
    return broken


def _pct(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.0%}"


HEAD = ("rule", "findings", "real", "debat", "false", "unjudged", "prec", "prec+d",
        "defects", "found", "recall", "+debat", "near", "flagged")


def rule_rows(split: dict) -> list[str]:
    """The per-rule table of one split; `+debat` is recall on real and debatable rows."""
    lines = ["  ".join(f"{h:>8}" for h in HEAD)]
    for rule, m in split["rules"].items():
        if rule not in ("ALL", "high") and not (m["findings"] or m["defects_with_debatable"] or m["near_misses"]):
            continue
        cells = (rule, m["findings"], m["real"], m["debatable"], m["false"], m["unjudged"],
                 _pct(m["precision_real"]), _pct(m["precision_real_or_debatable"]), m["defects"], m["found"],
                 _pct(m["recall"]), _pct(m["recall_with_debatable"]), m["near_misses"], m["near_misses_flagged"])
        lines.append("  ".join(f"{c:>8}" for c in cells))
    return lines


TITLES = {"tune": "tune split", "heldout": "held-out split", "fresh": "latest fresh batch"}


def table(result: dict, show: Iterable[str] = ("tune",)) -> list[str]:
    """The report a reviewer reads: per split, per rule; then, for the splits in `show`, per
    package and every finding or label that needs a person. Held-out splits are aggregates only
    unless shown: whoever designs detection must not read them."""
    lines: list[str] = []
    for name, split in result["splits"].items():
        batch = f" {result['fresh_batch']}" if name == "fresh" else ""
        packages = ", ".join(split["packages"]) if name == "fresh" else f"{len(split['packages'])} packages"
        lines += [f"== {TITLES[name]}{batch} ({packages})", *rule_rows(split), ""]
    for name, split in result["splits"].items():
        if name not in show or name == "fresh":
            continue
        lines += [f"== {TITLES[name]}: per package",
                  f"{'package':<28}{'files':>7}{'findings':>10}{'internal':>10}{'input':>7}"]
        for package, p in split["packages"].items():
            lines.append(f"{package:<28}{p['files']:>7}{p['findings']:>10}{p['internal_errors']:>10}"
                         f"{p['input_errors']:>7}")
        sections = (
            ("unjudged findings", [str(Finding(**f)) for f in split["unjudged"]]),
            ("near-misses flagged", [str(Label(**label)) for label in split["near_misses_flagged"]]),
            ("defects missed", [str(Label(**label)) for label in split["defects_missed"]]),
            ("judged but no longer reported", [f"{p} {path}:{line} {rule}"
                                               for p, path, line, rule in split["judged_not_reported"]]),
        )
        for title, rows in sections:
            if rows:
                lines += ["", f"{title} ({len(rows)}):", *(f"  {row}" for row in rows)]
        lines.append("")
    hidden = [name for name in result["splits"] if name not in show and name != "fresh"]
    unjudged = sum(len(result["splits"][name]["unjudged"]) for name in hidden)
    if unjudged:
        lines.append(f"{unjudged} held-out finding(s) unjudged: a judge lists them with --show heldout")
    return lines


def stub_rows(result: dict, show: Iterable[str] = ("tune",)) -> list[str]:
    """judged table rows for the unjudged findings of the shown splits, verdict `?` and, for the tune
    split, the message standing in for the reason: a person replaces both after reading the code. A
    held-out row's reason is left empty: its judge reads the code with the rule's meaning only, and
    failcode's message would tell them what to find."""
    rows = ["\t".join(JUDGED_HEADER)]
    for name, split in result["splits"].items():
        if name in show and name != "fresh":
            for f in split["unjudged"]:
                message = " ".join(f["message"].split()) if name == "tune" else ""  # no tab or newline in a row
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
    findings = [Finding(package, f["path"], f["line"], f["rule"], f["message"], f.get("confidence", "high"))
                for f in document["findings"]]
    kinds = Counter("internal" if e["kind"] == "internal" else "input" for e in document["errors"])
    return Run(findings, document["summary"]["files"], kinds["internal"], kinds["input"])


def run_all(pins: Iterable[Pin], cache: Path, src: Path) -> dict[str, Run]:
    return {pin.name: run_failcode(pin.name, ensure(cache, pin.name, pin.version), src) for pin in pins}


def run_ref(ref: str, pins: list[Pin], cache: Path) -> dict[str, Run]:
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
    parser.add_argument("--split", choices=("tune", "heldout", "fresh"),
                        help="check one split only (fresh: the latest fresh batch)")
    parser.add_argument("--show", action="append", choices=("tune", "heldout"), default=[],
                        help="list this split's findings and labels (tune is always listed); "
                             "heldout is for the person judging findings, never for design")
    parser.add_argument("--diff", metavar="REF", help="also list findings that differ from git ref REF's failcode")
    parser.add_argument("--write-judged-stub", metavar="FILE", type=Path,
                        help="write the unjudged findings of the listed splits as judged rows with verdict ?")
    parser.add_argument("--json", metavar="FILE", type=Path,
                        help="write the metrics as JSON (held-out listings only with --show heldout)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a threshold fails")
    args = parser.parse_args(argv)
    show = {"tune", *args.show}
    try:
        pins = read_corpus(_read(DATA / "corpus.txt"))
        judged, labels = read_tables(pins)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.packages:
        wanted = set(args.packages.split(","))
        unknown = wanted - {pin.name for pin in pins}
        if unknown:
            print(f"error: not in corpus.txt: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        pins = [pin for pin in pins if pin.name in wanted]
    if args.split == "fresh":
        latest = max((pin.fresh for pin in pins if pin.fresh is not None), default=None)
        pins = [pin for pin in pins if pin.fresh is not None and pin.fresh == latest]
    elif args.split:
        pins = [pin for pin in pins if pin.split == args.split]
    cache = cache_dir()
    start = time.perf_counter()
    runs = run_all(pins, cache, REPO / "src")
    seconds = time.perf_counter() - start
    result = metrics(pins, runs, judged, labels)
    result["seconds"] = round(seconds, 1)
    result["failures"] = failures(result)
    print("\n".join(table(result, show)))
    print(f"{len(runs)} packages checked in {seconds:.0f} s")
    if args.diff:
        split_of = {pin.name: pin.split for pin in pins}
        appeared, disappeared = diff(run_ref(args.diff, pins, cache), runs)
        for title, rows in ((f"appeared since {args.diff}", appeared), (f"disappeared since {args.diff}", disappeared)):
            listed = [f for f in rows if split_of[f.package] in show]
            hidden = hidden_verdicts([f for f in rows if split_of[f.package] not in show], judged)
            print(f"\n{title} ({len(rows)}{f', {hidden}' if hidden else ''}):", *(f"  {f}" for f in listed), sep="\n")
    if args.write_judged_stub:
        args.write_judged_stub.write_text("\n".join(stub_rows(result, show)) + "\n", encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(redacted(result, show), indent=2) + "\n", encoding="utf-8")
    if args.check and result["failures"]:
        print("\ncheck failed: " + "; ".join(result["failures"]))
        return 1
    return 0


def hidden_verdicts(findings: list[Finding], judged: dict) -> str:
    """How many held-out findings a diff leaves unlisted, and their verdicts as counts: enough to
    weigh a change on the held-out split without reading one of its rows."""
    if not findings:
        return ""
    verdicts = Counter(judged.get(f.key, "unjudged") for f in findings)
    counts = ", ".join(f"{verdicts[v]} {v}" for v in ("real", "debatable", "false", "unjudged") if verdicts[v])
    return f"{len(findings)} held-out not listed: {counts}"


def redacted(result: dict, show: Iterable[str]) -> dict:
    """The metrics with the listings of splits not shown emptied: the numbers stay, the rows go."""
    splits = {}
    for name, split in result["splits"].items():
        if name in show and name != "fresh":
            splits[name] = split
        else:
            splits[name] = {**split, **{key: [] for key in ("unjudged", "near_misses_flagged", "defects_missed",
                                                               "judged_not_reported")}}
    return {**result, "splits": splits}


if __name__ == "__main__":
    sys.exit(main())
