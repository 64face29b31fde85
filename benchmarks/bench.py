"""Benchmark failcode against a bare LibCST parse of the same files, on the running interpreter's stdlib.

    python benchmarks/bench.py                 # the whole stdlib corpus, one round
    python benchmarks/bench.py --limit 150     # a quick run on 150 files spread over the stdlib
    python benchmarks/bench.py --repeat 3      # best of three rounds (shared machines are noisy)
    python benchmarks/bench.py --tools         # also fixit, flake8-bugbear, tryceratops, ruff if installed

Every command runs in its own process, timed by a small wrapper process that also reads the peak
resident memory of the command and its workers (`resource.getrusage(RUSAGE_CHILDREN)`). The
reference is a process that reads and `libcst.parse_module`s each file failcode checks — the least
any LibCST-based linter must do. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import textwrap
from pathlib import Path
from typing import Optional

from failcode.config import Settings
from failcode.files import FileFinder
from failcode.resolve import Resolver

TARGETS = {"cold": 0.5, "warm": 0.05, "memory_mib": 200}
# -I: the corpus directory is the working directory, and its copies of the stdlib must not shadow
# the interpreter's own modules.
PYTHON = [sys.executable, "-I"]
SKIPPED_DIRS = ("site-packages", "dist-packages", "test", "idlelib")

# Runs argv[2:] in directory argv[1]; prints wall seconds, CPU seconds and the peak RSS of the
# command and everything it waited for. Its own startup is outside the measurement.
WRAPPER = textwrap.dedent("""
    import json, resource, subprocess, sys, time
    out = open(sys.argv[2], "wb")
    start = time.perf_counter()
    done = subprocess.run(sys.argv[3:], cwd=sys.argv[1], stdout=out, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB elsewhere
    print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime,
                      "peak_mib": usage.ru_maxrss * scale / 2**20, "returncode": done.returncode}))
""")

# The reference: read and parse every listed file with LibCST, as failcode's extractor would.
REFERENCE = textwrap.dedent("""
    import sys
    import libcst
    sys.setrecursionlimit(20_000)
    failed = 0
    for path in open(sys.argv[1], encoding="utf-8").read().splitlines():
        with open(path, "rb") as handle:
            data = handle.read()
        try:
            libcst.parse_module(data)
        except Exception:
            failed += 1
    print(f"{failed} file(s) LibCST could not parse")
""")


def build_corpus(target: Path, limit: Optional[int]) -> None:
    """Copy the stdlib's .py files (no site-packages, test/ or idlelib/) under `target`; `limit`
    of them spread evenly over the sorted list, so every package is represented."""
    root = Path(sysconfig.get_paths()["stdlib"])
    found = []
    for directory, subdirectories, files in os.walk(root):
        top = Path(directory).relative_to(root).parts[:1]
        if top and top[0] in SKIPPED_DIRS:
            subdirectories[:] = []
            continue
        found.extend(Path(directory, name) for name in files if name.endswith(".py"))
    found.sort()
    if limit is not None and limit < len(found):
        found = [found[int(i * len(found) / limit)] for i in range(limit)]
    for path in found:
        copy = target / path.relative_to(root)
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, copy)


def measure(label: str, argv: list[str], cwd: Path, output: Path) -> dict:
    line = subprocess.run([*PYTHON, "-c", WRAPPER, str(cwd), str(output), *argv],
                          capture_output=True, text=True, check=True).stdout
    result = json.loads(line)
    result["label"] = label
    return result


def tools(corpus: Path) -> list[tuple[str, list[str]]]:
    """Other linters to compare with, when installed (`pip install .[bench]`)."""
    found = []

    def installed(module: str) -> bool:
        from importlib.util import find_spec

        return find_spec(module) is not None

    if installed("fixit"):
        found.append(("fixit lint (default rules)", [*PYTHON, "-m", "fixit", "lint", "."]))
    if installed("flake8") and installed("bugbear"):
        found.append(("flake8 -j1 --select B (bugbear)", [*PYTHON, "-m", "flake8", "-j", "1", "--select", "B", "."]))
    if installed("tryceratops"):
        found.append(("tryceratops", [*PYTHON, "-m", "tryceratops", "."]))
    if installed("ruff"):
        found.append(("ruff --select B,BLE,TRY (threads)", [*PYTHON, "-m", "ruff", "check", "--no-cache",
                                                            "--isolated", "--select", "B,BLE,TRY", "."]))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="only N stdlib files, spread evenly (quick runs)")
    parser.add_argument("--corpus", type=Path, help="benchmark this directory instead of a stdlib copy")
    parser.add_argument("--repeat", type=int, default=1, help="rounds; each command's best round is kept")
    parser.add_argument("--tools", action="store_true", help="also time other linters when installed")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="failcode-bench-"))
    try:
        corpus = args.corpus.resolve() if args.corpus else work / "corpus"
        if not args.corpus:
            build_corpus(corpus, args.limit)
        files = FileFinder(Resolver(Settings(root=corpus))).find([corpus])  # exactly what failcode checks
        listing = work / "files.txt"
        listing.write_text("\n".join(str(path) for path in files), encoding="utf-8")
        lines = sum(path.read_bytes().count(b"\n") for path in files)
        print(f"corpus: {len(files)} files, {lines} lines "
              f"({'Python ' + sysconfig.get_python_version() + ' stdlib' if not args.corpus else corpus}), "
              f"{os.cpu_count()} CPUs")

        failcode = [*PYTHON, "-m", "failcode", "check", "."]
        cache = str(work / "cache")
        commands = [
            ("reference: libcst.parse_module of each file", [*PYTHON, "-c", REFERENCE, str(listing)]),
            ("failcode check --no-cache --jobs 1", [*failcode, "--no-cache", "--jobs", "1"]),
            ("failcode check --no-cache --jobs 2", [*failcode, "--no-cache", "--jobs", "2"]),
            ("failcode check, cold cache (fills it)", [*failcode, "--cache-dir", cache]),
            ("failcode check, warm cache", [*failcode, "--cache-dir", cache]),
        ]
        if args.tools:
            commands += tools(corpus)
        best: dict[str, dict] = {}
        for round_number in range(args.repeat):
            shutil.rmtree(cache, ignore_errors=True)
            for index, (label, argv) in enumerate(commands):
                result = measure(label, argv, corpus, work / f"out{index}-{round_number}.txt")
                result["output"] = (work / f"out{index}-{round_number}.txt").read_bytes()
                if result["returncode"] not in (0, 1, 3) and index < 5:  # other linters have their own codes
                    print(result["output"].decode(errors="replace"), file=sys.stderr)
                    raise SystemExit(f"{label}: exit status {result['returncode']}")
                if label not in best or result["seconds"] < best[label]["seconds"]:
                    best[label] = result
        report(best, [label for label, _ in commands])
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def report(best: dict[str, dict], order: list[str]) -> None:
    reference = best[order[0]]["seconds"]
    print()
    print("| command | seconds | × reference | CPU s | peak MiB |")
    print("|---|---:|---:|---:|---:|")
    for label in order:
        row = best[label]
        print(f"| {label} | {row['seconds']:.2f} | {row['seconds'] / reference:.3f} | {row['cpu']:.2f} | "
              f"{row['peak_mib']:.0f} |")
    cold = best["failcode check --no-cache --jobs 1"]
    jobs2 = best["failcode check --no-cache --jobs 2"]
    warm = best["failcode check, warm cache"]
    filled = best["failcode check, cold cache (fills it)"]
    outputs = {row["output"] for row in (cold, jobs2, warm, filled)}
    failcode_peak = max(row["peak_mib"] for label, row in best.items() if label.startswith("failcode"))
    print()
    checks = [
        (f"cold --jobs 1 / reference = {cold['seconds'] / reference:.3f}", cold["seconds"] / reference,
         TARGETS["cold"]),
        (f"warm / cold --jobs 1 = {warm['seconds'] / cold['seconds']:.3f}", warm["seconds"] / cold["seconds"],
         TARGETS["warm"]),
        (f"failcode peak memory per process = {failcode_peak:.0f} MiB", failcode_peak, TARGETS["memory_mib"]),
    ]
    for text, value, limit in checks:
        print(f"{'ok  ' if value <= limit else 'MISS'} {text} (target ≤ {limit})")
    print(f"{'ok  ' if len(outputs) == 1 else 'MISS'} identical output for --jobs 1, --jobs 2, cold and warm cache")
    print(f"     --jobs 2 speed-up over --jobs 1: {cold['seconds'] / jobs2['seconds']:.2f}×")


if __name__ == "__main__":
    sys.exit(main())
