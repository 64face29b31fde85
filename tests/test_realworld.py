"""The ecosystem check (benchmarks/realworld.py): its arithmetic on tiny hand-made inputs, and,
with --run-slow and the network, the thresholds on the real corpus."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
import tarfile

import pytest

from conftest import REPO

SCRIPT = REPO / "benchmarks" / "realworld.py"


def _load():
    spec = importlib.util.spec_from_file_location("realworld", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["realworld"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


rw = _load()

JUDGED_HEAD = "package\tpath\tline\trule\tverdict\treason\n"
LABELS_HEAD = "package\tpath\tlines\trule\tkind\treason\n"


def finding(line, rule="FC003", path="a.py", package="p"):
    return rw.Finding(package, path, line, rule, "msg")


# -- parsing -----------------------------------------------------------------------------------

def test_corpus_skips_comments_and_blank_lines():
    assert rw.read_corpus("# pins\n\nfoo==1.0  # why\nbar-baz==2026.3.23\n") == [("foo", "1.0"), ("bar-baz", "2026.3.23")]
    with pytest.raises(ValueError, match="corpus.txt:2"):
        rw.read_corpus("foo==1.0\nbar\n")


def test_the_committed_corpus_is_the_eighteen_pins():
    pins = rw.read_corpus((REPO / "benchmarks" / "realworld" / "corpus.txt").read_text())
    assert len(pins) == 18 and len(dict(pins)) == 18
    assert ("inspect-ai", "0.3.285") in pins and ("mypy", "2.4.1") in pins


def test_missing_or_header_only_tables_are_empty():
    assert rw.parse_judged("") == {}
    assert rw.parse_judged(JUDGED_HEAD) == {}
    assert rw.parse_labels("") == []
    assert rw.parse_labels(LABELS_HEAD + "\n") == []


def test_judged_rows_and_unfilled_stub_rows():
    text = JUDGED_HEAD + "p\ta.py\t10\tFC003\treal\tthe handler hides a crash\n" + "p\ta.py\t11\tFC001\t?\tmsg\n"
    assert rw.parse_judged(text) == {("p", "a.py", 10, "FC003"): "real"}


@pytest.mark.parametrize("row, error", [
    ("p\ta.py\t10\tFC003\tmaybe\tx", "judged.tsv:2: verdict"),
    ("p\ta.py\tten\tFC003\treal\tx", "judged.tsv:2: line"),
    ("p\ta.py\t10\tFC009\treal\tx", "judged.tsv:2: unknown rule"),
    ("p\ta.py\t10\tFC003\treal", "judged.tsv:2: expected 6"),
    ("p\ta.py\t10\tFC003\treal\tx\np\ta.py\t10\tFC003\tfalse\ty", "judged.tsv:3: a second verdict"),
])
def test_bad_judged_rows_name_their_line(row, error):
    with pytest.raises(ValueError, match=error):
        rw.parse_judged(JUDGED_HEAD + row + "\n")


def test_a_wrong_header_is_an_error():
    with pytest.raises(ValueError, match="labels.tsv:1: header"):
        rw.parse_labels("package\tpath\tline\trule\tkind\treason\n")


def test_label_ranges():
    labels = rw.parse_labels(LABELS_HEAD + "p\ta.py\t10-12\tFC003\tdefect\twhy\n" + "p\tb.py\t7\tFC001\tnear-miss\tok\n")
    assert [(x.path, x.start, x.end, x.rule, x.kind) for x in labels] == [
        ("a.py", 10, 12, "FC003", "defect"), ("b.py", 7, 7, "FC001", "near-miss")]
    for row, error in (("p\ta.py\t12-10\tFC003\tdefect\tx", "ends before"),
                       ("p\ta.py\t1-2\tFC003\tbug\tx", "kind"), ("p\ta.py\tL3\tFC003\tdefect\tx", "start-end")):
        with pytest.raises(ValueError, match=error):
            rw.parse_labels(LABELS_HEAD + row + "\n")


# -- matching and arithmetic -------------------------------------------------------------------

def test_a_label_matches_its_rule_within_two_lines_of_its_range():
    label = rw.Label("p", "a.py", 10, 12, "FC003", "defect", "why")
    assert [line for line in range(5, 18) if label.matched_by(finding(line))] == [8, 9, 10, 11, 12, 13, 14]
    assert not label.matched_by(finding(11, rule="FC002"))
    assert not label.matched_by(finding(11, path="b.py"))
    assert not label.matched_by(finding(11, package="q"))


def _example():
    runs = {"p": rw.Run([finding(10), finding(20), finding(30), finding(40), finding(5, rule="FC001")], files=3),
            "q": rw.Run([], files=1, internal=1, input=2)}
    judged = {("p", "a.py", 10, "FC003"): "real", ("p", "a.py", 20, "FC003"): "debatable",
              ("p", "a.py", 30, "FC003"): "false", ("p", "a.py", 5, "FC001"): "real",
              ("p", "a.py", 99, "FC003"): "real"}  # no longer reported
    labels = [rw.Label("p", "a.py", 8, 9, "FC003", "defect", "found by line 10"),
              rw.Label("p", "a.py", 50, 52, "FC003", "defect", "missed"),
              rw.Label("p", "a.py", 1, 100, "FC002", "defect", "no FC002 at all"),
              rw.Label("p", "a.py", 19, 19, "FC003", "near-miss", "flagged by line 20"),
              rw.Label("p", "b.py", 5, 5, "FC001", "near-miss", "other file: quiet"),
              rw.Label("r", "a.py", 10, 10, "FC003", "defect", "package not in this run")]
    return rw.metrics(runs, judged, labels)


def test_metrics_per_rule_and_overall():
    result = _example()
    fc003, fc002, overall = result["rules"]["FC003"], result["rules"]["FC002"], result["rules"]["ALL"]
    assert {k: fc003[k] for k in ("findings", "real", "debatable", "false", "unjudged", "defects", "found",
                                  "near_misses", "near_misses_flagged")} == {
        "findings": 4, "real": 1, "debatable": 1, "false": 1, "unjudged": 1, "defects": 2, "found": 1,
        "near_misses": 1, "near_misses_flagged": 1}
    assert fc003["precision_real"] == pytest.approx(1 / 3)
    assert fc003["precision_real_or_debatable"] == pytest.approx(2 / 3)
    assert fc003["recall"] == 0.5
    assert (fc002["findings"], fc002["precision_real"], fc002["defects"], fc002["recall"]) == (0, None, 1, 0.0)
    assert (overall["findings"], overall["real"], overall["unjudged"]) == (5, 2, 1)
    assert overall["precision_real"] == 0.5 and overall["precision_real_or_debatable"] == 0.75
    assert (overall["defects"], overall["found"], overall["near_misses"], overall["near_misses_flagged"]) == (3, 1, 2, 1)
    assert overall["recall"] == pytest.approx(1 / 3)


def test_listings_for_the_reviewer():
    result = _example()
    assert [(f["path"], f["line"]) for f in result["unjudged"]] == [("a.py", 40)]
    assert [x["reason"] for x in result["near_misses_flagged"]] == ["flagged by line 20"]
    assert [x["reason"] for x in result["defects_missed"]] == ["missed", "no FC002 at all"]
    assert result["judged_not_reported"] == [["p", "a.py", 99, "FC003"]]
    assert result["packages"]["q"] == {"files": 1, "findings": 0, "internal_errors": 1, "input_errors": 2}
    text = "\n".join(rw.table(result))
    assert "p a.py:40 FC003 msg" in text and "p a.py:50-52 FC003 missed" in text


def test_thresholds():
    assert rw.failures(_example()) == [
        "precision_real 0.50 < 0.70", "precision_real_or_debatable 0.75 < 0.90", "recall 0.33 < 0.60",
        "1 near-miss(es) flagged", "1 unjudged finding(s)", "1 internal error(s)"]
    runs = {"p": rw.Run([finding(10)])}
    label = rw.Label("p", "a.py", 10, 10, "FC003", "defect", "x")
    assert rw.failures(rw.metrics(runs, {("p", "a.py", 10, "FC003"): "real"}, [label])) == []
    assert rw.failures(rw.metrics(runs, {("p", "a.py", 10, "FC003"): "debatable"}, [label])) == [
        "precision_real 0.00 < 0.70"]
    assert rw.failures(rw.metrics({"p": rw.Run([])}, {}, [])) == ["recall: no labelled defects in labels.tsv"]


def test_stub_rows_and_diff():
    runs = {"p": rw.Run([rw.Finding("p", "a.py", 3, "FC006", "blames\tthe\nprovider")])}
    assert rw.stub_rows(rw.metrics(runs, {}, [])) == [JUDGED_HEAD.rstrip("\n"), "p\ta.py\t3\tFC006\t?\tblames the provider"]
    old = {"p": rw.Run([finding(1), finding(2)])}
    new = {"p": rw.Run([finding(2), finding(2), finding(3)])}
    assert rw.diff(old, new) == ([finding(2), finding(3)], [finding(1)])


# -- the cache ---------------------------------------------------------------------------------

@pytest.mark.parametrize("member, sdist, expected", [
    ("pkg/a.py", False, "pkg/a.py"),
    ("pkg/a.pyi", False, "pkg/a.pyi"),
    ("pkg/data.json", False, None),
    ("pkg-1.0.dist-info/x.py", False, None),
    ("../evil.py", False, None),
    ("pkg-1.0/src/pkg/a.py", True, "pkg/a.py"),
    ("pkg-1.0/pkg/a.py", True, "pkg/a.py"),
    ("pkg-1.0/setup.py", True, "setup.py"),
])
def test_which_archive_members_are_kept(member, sdist, expected):
    got = rw.source_member(member, sdist)
    assert (str(got) if got else None) == expected


def test_find_and_unpack_an_sdist(tmp_path):
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    for name in ("arize_phoenix_evals-3.9.4-py3-none-any.whl", "arize_phoenix_evals-3.9.5-py3-none-any.whl"):
        (downloads / name).touch()
    assert rw.find_archive(downloads, "arize-phoenix-evals", "3.9.4").name.startswith("arize_phoenix_evals-3.9.4-")
    assert rw.find_archive(downloads, "swe-bench", "5.0.2") is None
    with tarfile.open(downloads / "Swe_Bench-5.0.2.tar.gz", "w:gz") as tf:
        for name, data in (("Swe_Bench-5.0.2/src/swebench/run.py", b"x = 1\n"), ("Swe_Bench-5.0.2/README.md", b"")):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    archive = rw.find_archive(downloads, "swe-bench", "5.0.2")
    dest = tmp_path / "src" / "swe-bench-5.0.2"
    rw.unpack(archive, dest)
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file()) == ["swebench/run.py"]
    assert [p.name for p in (tmp_path / "src").iterdir()] == ["swe-bench-5.0.2"]  # no partial folder left


# -- the real corpus ---------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.network
def test_the_corpus_meets_the_thresholds(tmp_path):
    out = tmp_path / "metrics.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--check", "--json", str(out)],
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode in (0, 1), done.stderr
    result = json.loads(out.read_text())
    overall = result["rules"]["ALL"]
    report = done.stdout
    assert overall["unjudged"] == 0, report
    assert overall["near_misses_flagged"] == 0, report
    assert all(p["internal_errors"] == 0 for p in result["packages"].values()), report
    assert overall["recall"] is not None and overall["recall"] >= 0.60, report
    if overall["findings"]:
        assert overall["precision_real"] >= 0.70, report
        assert overall["precision_real_or_debatable"] >= 0.90, report
    assert done.returncode == 0 and result["failures"] == [], report
