"""The full `citesynth eval` runs whose results are committed and summarised in the README.

Each run answers a question set with citesynth ("ours") and the naive baseline in the same
run and writes its folder under `benchmarks/results/eval/NAME/` (summary.json, summary.md,
records.jsonl, plots); `benchmarks/results/eval_suite.json` collects the summaries.

    python -m benchmarks.eval_suite                      # every run below
    python -m benchmarks.eval_suite --only clapnq-local   # one of them
    python -m benchmarks.eval_suite --ci-baseline         # refresh the CI slices' baselines

The CI slices (20 ClapNQ questions, half unanswerable; extractive and fake writers; hashing
embedder so that CI indexes in seconds) are compared against their committed baseline by
`tests/evaluation/test_eval_slice.py` on every CI run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.common import CACHE, DATA, RESULTS, ROOT, require
from benchmarks.gate_pairs import DOCS_TRAINING, docs_training_file
from benchmarks.held_out_docs import CLICK, HELD_OUT
from benchmarks.sdist_docs import docs_folder, sdist_docs
from citesynth.evaluation.report import write_run
from citesynth.evaluation.runner import EvalRequest, Hooks, evaluate, prepare

EVAL = RESULTS / "eval"
HTTPX_QUESTIONS = ROOT / "tests" / "fixtures" / "httpx_questions.jsonl"
HTTPX_DOCS = DATA / "docs_httpx" / "docs"

# docs-rhdh runs the first 150 of its test questions (by hash of the id; long guides) to
# keep the whole suite near an hour on two cores; the embedded model answers 40 ClapNQ
# questions (20 unanswerable) and 10 MuSiQue questions with each pipeline, and the whole
# ClapNQ report slice with ours, 10-20 s per answer.
RUNS: dict[str, EvalRequest] = {
    "clapnq-extractive": EvalRequest("clapnq"),
    "musique-extractive": EvalRequest("musique"),
    "hotpotqa-extractive": EvalRequest("hotpotqa"),
    "multihop-rag-extractive": EvalRequest("multihop-rag"),
    "scifact-retrieval": EvalRequest("scifact", k=100),
    "docs-rhdh-extractive": EvalRequest("docs-rhdh", limit=150),
    "clapnq-local": EvalRequest("clapnq", model="local", limit=40),
    # the whole ClapNQ report slice (100 questions, 50 unanswerable), our pipeline only
    "clapnq-local-full": EvalRequest("clapnq", model="local", pipelines=("ours",)),
    "musique-local": EvalRequest("musique", model="local", limit=10),
    # 24 questions written here about the HTTPX docs (12 answerable, 12 on-topic questions
    # the docs do not answer); never used to tune anything: a check of documents in general.
    "httpx-extractive": EvalRequest(str(HTTPX_QUESTIONS), corpus=HTTPX_DOCS),
    "httpx-local": EvalRequest(str(HTTPX_QUESTIONS), corpus=HTTPX_DOCS, model="local"),
    # The embedded model as an independent citation judge of the extractive answers.
    "clapnq-extractive-judge": EvalRequest("clapnq", limit=20, judge="local"),
}
# Questions written by a helper about the Click docs (reStructuredText: 22 answerable, 10
# on-topic unanswerable) and the cattrs docs (MyST Markdown: 20 and 10), fetched from the
# PyPI sdists by `benchmarks.held_out_docs`.
for _held_out in HELD_OUT:
    for _model in ("extractive", "local"):
        RUNS[f"{_held_out.name}-{_model}"] = EvalRequest(
            str(_held_out.questions), corpus=_held_out.docs, model=_model
        )
# Tuning runs: the how-to questions written over Starlette, marshmallow and structlog
# (`benchmarks.gate_pairs.DOCS_TRAINING`), which the pipeline may be tuned on, unlike the
# HTTPX, Click and cattrs report sets above.
WHY_ATTRS = ("attrs", "25.4.0")
"""Why-questions over the attrs docs (`tests/fixtures/why_attrs_questions.jsonl`: 10 the docs
answer, 4 on topic they do not), written 2026-11-30 once the why-question rules
(`synthesis.reasons`) were fixed on the tune-why-* runs, and never tuned on."""
DJANGO = ("Django", "5.1.4")
"""Questions over the Django docs, reStructuredText in `.txt` files
(`tests/fixtures/django_questions.jsonl`: 16 the docs answer, 8 on topic they do not),
written 2026-12-01 by a helper that saw none of the pipeline, before any change; its
answers were read to find the defects fixed that day, so it is tuning data since."""
TUNED_DOCS = (
    ("urllib3", "2.8.0"),
    ("black", "26.10.1"),
    ("flask", "3.1.3"),
    ("aiohttp", "3.14.5"),
    ("nox", "2025.5.1"),
    ("celery", "5.5.3"),
    ("hatch", "1.18.2"),
    ("scrapy", "2.19.0"),
    ("pip", "26.3"),
    ("pytest", "9.2.0"),
    ("gunicorn", "27.0.1"),
    ("peewee", "4.5.3"),
    ("tornado", "6.6.1"),
    ("invoke", "3.0.3"),
    ("coverage", "7.17.5"),
    ("alembic", "1.20.1"),
    ("mypy", "2.4.1"),
    ("tox", "4.67.13"),
    ("werkzeug", "3.1.4"),
    ("trio", "0.32.0"),
)
"""Questions over urllib3's docs (reStructuredText) and Black's (MyST Markdown)
(`tests/fixtures/NAME_questions.jsonl`: 20 the docs answer, 10 on topic they do not, each
checked absent from every page), written 2026-12-01 by a helper that saw none of the
pipeline; their answers were read to find the defects fixed that day (fifty-first
session), so they are tuning data. Flask's and aiohttp's (reStructuredText, the same
shape) were written the same way later that day and read in the fifty-second session;
nox's and Celery's (reStructuredText; Celery's 230 pages the largest set) on 2026-12-01 and
read in the fifty-fourth session; Hatch's (MkDocs Markdown: admonitions, content tabs) and
Scrapy's (reStructuredText) on 2026-12-02 and read in the fifty-fifth session; pip's (MyST
Markdown and reStructuredText) and pytest's (reStructuredText, in the sdist's `doc/` folder)
on 2026-12-02 and read in the fifty-sixth session; Gunicorn's (MkDocs Markdown) and
peewee's (reStructuredText) on 2026-12-02 and read in the fifty-seventh session; Tornado's
and Invoke's (reStructuredText; Invoke's in the sdist's `sites/` folder, its change log
included) on 2026-12-02 and read in the fifty-eighth session; coverage.py's (in the sdist's
`doc/` folder) and Alembic's (the reStructuredText sources in `docs/build/`, not the built
HTML beside them) on 2026-12-02 and read in the sixty-first session; mypy 2.4.1's (the
reStructuredText in `docs/source/`) and tox 4.67.13's (its sdist's `docs/` holds only the
man page and the plugin author's pages, five files) on 2026-12-03 and read in the
sixty-second session; Werkzeug 3.1.4's and Trio 0.32.0's (reStructuredText; Trio's in the
sdist's `docs/source/`, indexed from `docs/`) on 2026-12-03 and read in the sixty-third
session."""
FRESH_DOCS = (
    ("jinja2", "3.1.6"),
    ("markdown", "3.11.3"),
    ("wtforms", "3.3.2"),
    ("falcon", "4.4.0"),
    ("anyio", "4.12.0"),
    ("pyramid", "2.1"),
    ("pillow", "13.0.0"),
    ("setuptools", "84.2.1"),
    ("babel", "2.19.0"),
    ("pygments", "2.21.0"),
    ("jsonschema", "4.26.0"),
    ("twine", "7.0.0"),
    ("cibuildwheel", "4.3.5"),
    ("scikit_build_core", "1.1.2"),
    ("towncrier", "26.9.0"),
    ("packaging", "26.4"),
    ("build", "1.6.1"),
    ("griffe", "2.4.1"),
)
"""Questions over the Jinja2 docs (reStructuredText) and Python-Markdown's (Markdown)
(`tests/fixtures/NAME_questions.jsonl`: 20 the docs answer, 10 on topic they do not, each
checked absent from every page), written 2026-12-03 by helpers that saw none of the
pipeline. Their first run (`jinja2-*`, `markdown-*`, at a94edbd1) is recorded as held out
in `results/fresh_docs.json` before any answer was read; the answers were read after, in
the sixty-fifth session, so the sets are tuning data from then on. The Jinja2 pages (not
these questions) had already given verifier pairs (`benchmarks.verifier_pairs`). WTForms
3.3.2's (reStructuredText, with autodoc directives and an FAQ) were written the same way on
2026-12-04 and first run at e08981dd (`wtforms-*`), read in the sixty-sixth session;
Falcon 4.4.0's (reStructuredText, 72 pages, 26 of them change logs) on 2026-12-04 in the
sixty-seventh session, first run before any answer was read (`falcon-*`); AnyIO 4.12.0's
(reStructuredText, 24 pages) on 2026-12-04 in the sixty-eighth session, first run at
cc849ee0 before any answer was read (`anyio-*`); Pyramid 2.1's (reStructuredText, 149
pages among 372 tutorial modules) on 2026-12-04 in the sixty-ninth session, first run at
0d000197 before any answer was read (`pyramid-*`); Pillow 13.0.0's (reStructuredText, 132
pages, 73 of them release notes) on 2026-12-04 in the seventieth session, first run before
any answer was read (`pillow-*`); setuptools 84.2.1's (reStructuredText, 51 pages) the
same day, first run before any answer was read (`setuptools-*`), and read in the
seventy-first session; Babel 2.19.0's (reStructuredText, 44 files; its `api/` pages are
autodoc directives whose text lives in the code, so four answers there are only a
function's name or signature) on 2026-12-04 in the seventy-first session, first run
before any answer was read (`babel-*`); Pygments 2.21.0's (reStructuredText, 29 pages in
the sdist's `doc/`; its lists of lexers, formatters and filters are generated by a
directive at build time, so they are not in the text) on 2026-12-04 in the seventy-second
session, first run before any answer was read (`pygments-*`), and read in the same
session; jsonschema 4.26.0's (reStructuredText, ten pages, five of them autodoc directives
only, so its 20 answers come from the other five) on 2026-12-04 in the seventy-third
session, first run before any answer was read (`jsonschema-*`), and read in the same
session; twine 7.0.0's (reStructuredText: its usage page, contributing guide and change
log; its `internal/` pages are autodoc directives only) the same day, first run before any
answer was read (`twine-*`); cibuildwheel 4.3.5's (Markdown, 13 pages; its options page
the largest) and scikit-build-core 1.1.2's (Markdown, 33 pages, beside autodoc-only
reStructuredText `api/` pages) on 2026-12-05 in the seventy-fourth session, first run
before any answer was read (`cibuildwheel-*`, `scikit_build_core-*`); towncrier 26.9.0's
(reStructuredText, its `docs/` pages) and packaging 26.4's (reStructuredText, its `docs/`
pages, several of them autodoc directives beside prose) on 2026-12-05 in the seventy-fifth
session, first run in the seventy-sixth before any answer was read (`towncrier-*`,
`packaging-*`), and read in the same session; build 1.6.1's (reStructuredText, 18 pages:
tutorial, how-to, reference, explanation; its option table and API reference generated
from the code, its change log not in the sdist) and griffe 2.4.1's (MkDocs Markdown, 80
pages beside a 3 MB JSON dump of its API; its API reference pages are mkdocstrings
directives only) on 2026-12-05 in the seventy-seventh session, first run in the same
session before any answer was read (`build-*`, `griffe-*`)."""
DOCS_PART = {
    "pytest": "doc",
    "invoke": "sites",
    "coverage": "doc",
    "alembic": "docs/build",
    "mypy": "docs/source",
    "pygments": "doc",
}
"""The sdist folder holding a project's documentation, where it is not `docs/`."""


def sdist_folder(name: str, version: str) -> Path:
    """Where a project's documentation is unpacked (`docs/` unless `DOCS_PART` says)."""
    return docs_folder(name, version, DOCS_PART.get(name, "docs"))


SDISTS = {
    sdist_folder(name, version): (name, version, DOCS_PART.get(name, "docs"))
    for name, version in (
        *((h.name, h.version) for h in HELD_OUT),
        *DOCS_TRAINING,
        WHY_ATTRS,
        DJANGO,
        *TUNED_DOCS,
        *FRESH_DOCS,
    )
}
"""The corpora unpacked from PyPI sdists (`benchmarks.sdist_docs`), by folder."""
for _name, _version in DOCS_TRAINING:
    for _model in ("extractive", "local"):
        RUNS[f"tune-{_name}-{_model}"] = EvalRequest(
            str(docs_training_file(_name)),
            corpus=docs_folder(_name, _version),
            model=_model,
            pipelines=("ours",),
        )
        # why-questions over the same docs (a reason asked: `tests/fixtures/docs_why_NAME.jsonl`,
        # written 2026-11-30 for tuning; a quarter on topic but not answered by the docs)
        RUNS[f"tune-why-{_name}-{_model}"] = EvalRequest(
            str(ROOT / "tests" / "fixtures" / f"docs_why_{_name}.jsonl"),
            corpus=docs_folder(_name, _version),
            model=_model,
            pipelines=("ours",),
        )

for _model in ("extractive", "local"):
    RUNS[f"why-attrs-{_model}"] = EvalRequest(
        str(ROOT / "tests" / "fixtures" / "why_attrs_questions.jsonl"),
        corpus=docs_folder(*WHY_ATTRS),
        model=_model,
        pipelines=("ours",),
    )
    for _name, _version in TUNED_DOCS:
        RUNS[f"tune-{_name}-{_model}"] = EvalRequest(
            str(ROOT / "tests" / "fixtures" / f"{_name}_questions.jsonl"),
            corpus=sdist_folder(_name, _version),
            model=_model,
            pipelines=("ours",),
        )
    for _name, _version in FRESH_DOCS:
        RUNS[f"{_name}-{_model}"] = EvalRequest(
            str(ROOT / "tests" / "fixtures" / f"{_name}_questions.jsonl"),
            corpus=sdist_folder(_name, _version),
            model=_model,
            pipelines=("ours",),
        )
    RUNS[f"django-{_model}"] = EvalRequest(
        str(ROOT / "tests" / "fixtures" / "django_questions.jsonl"),
        corpus=docs_folder(*DJANGO),
        model=_model,
        pipelines=("ours",),
    )
    # Yes/no questions (`tests/fixtures/yes_no_*`, written 2026-12-01 by helpers that saw
    # none of the pipeline): per project 6 the docs answer (3 yes, 3 no, each stated) and
    # 4 on topic they do not. Tuning over Starlette, marshmallow, structlog and Django;
    # held out over Click, attrs and HTTPX, never tuned on.
    for _name, _version in (*DOCS_TRAINING, DJANGO):
        RUNS[f"tune-yes-no-{_name.lower()}-{_model}"] = EvalRequest(
            str(ROOT / "tests" / "fixtures" / f"yes_no_tuning_{_name.lower()}.jsonl"),
            corpus=docs_folder(_name, _version),
            model=_model,
            pipelines=("ours",),
        )
    for _name, _corpus in (
        ("click", CLICK.docs),
        ("attrs", docs_folder(*WHY_ATTRS)),
        ("httpx", HTTPX_DOCS),
    ):
        RUNS[f"yes-no-{_name}-{_model}"] = EvalRequest(
            str(ROOT / "tests" / "fixtures" / f"yes_no_heldout_{_name}.jsonl"),
            corpus=_corpus,
            model=_model,
            pipelines=("ours",),
        )

# Tuning runs for the answer confidence (`benchmarks.calibrate_answers` fits its weights on
# every tune-* run): dev questions only, never a report slice.
RUNS |= {
    "tune-clapnq-extractive": EvalRequest("clapnq", split="dev", limit=200, pipelines=("ours",)),
    "tune-docs-rhdh-extractive": EvalRequest(
        "docs-rhdh", split="dev", limit=120, pipelines=("ours",)
    ),
    "tune-multihop-rag-extractive": EvalRequest(
        "multihop-rag", split="dev", limit=120, pipelines=("ours",)
    ),
    "tune-clapnq-local": EvalRequest(
        "clapnq", split="dev", limit=40, model="local", pipelines=("ours",)
    ),
}

CI_SLICES: dict[str, EvalRequest] = {
    "ci-slice-clapnq-extractive": EvalRequest("clapnq", limit=20, embedder="hashing"),
    "ci-slice-clapnq-fake": EvalRequest("clapnq", limit=20, embedder="hashing", model="fake"),
}


def fetch_corpus(request: EvalRequest) -> None:
    """Fetch and unpack the request's corpus once when it comes from a PyPI sdist."""
    if request.corpus in SDISTS:
        sdist_docs(*SDISTS[request.corpus])


async def run_one(name: str, request: EvalRequest) -> dict[str, Any]:
    request = replace(request, data=DATA, cache=CACHE / "eval")
    fetch_corpus(request)
    eval_set = prepare(request)
    total = [0]
    done = [0]
    started = time.perf_counter()

    def step(n: int) -> None:
        done[0] += n
        if done[0] % 10 == 0 or done[0] == total[0]:
            elapsed = time.perf_counter() - started
            print(f"{name}: {done[0]}/{total[0]} ({elapsed:.0f} s)", flush=True)

    def start(n: int) -> None:
        total[0] = n

    summary, records = await evaluate(request, eval_set, Hooks(on_start=start, on_step=step))
    folder = EVAL / name
    shutil.rmtree(folder, ignore_errors=True)
    write_run(folder, summary, records)
    shown = folder.relative_to(ROOT) if folder.is_relative_to(ROOT) else folder
    print(f"wrote {shown}", flush=True)
    return summary


def collect() -> dict[str, Any]:
    """Every committed run's summary, without the per-stage detail."""
    runs = {}
    for folder in sorted(EVAL.iterdir()):
        if (folder / "summary.json").exists():
            summary = json.loads((folder / "summary.json").read_text())
            runs[folder.name] = {
                key: summary[key]
                for key in ("dataset", "split", "questions", "model", "embedder", "date")
            } | {
                "metrics": {p: r["metrics"] for p, r in summary["runs"].items()},
                "writers": {p: r["writer"] for p, r in summary["runs"].items()},
            }
    return runs


async def main(names: list[str]) -> None:
    for name in names:
        await run_one(name, {**RUNS, **CI_SLICES}[name])
    target = RESULTS / "eval_suite.json"
    target.write_text(json.dumps({"benchmark": "eval_suite", "runs": collect()}, indent=2) + "\n")
    print(f"wrote {target.relative_to(RESULTS.parent.parent)}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", default="", help="Comma-separated run names.")
    parser.add_argument("--ci-baseline", action="store_true", help="Refresh the CI slices.")
    args = parser.parse_args()
    require(DATA)
    chosen = args.only.split(",") if args.only else list(CI_SLICES if args.ci_baseline else RUNS)
    unknown = [n for n in chosen if n not in {**RUNS, **CI_SLICES}]
    if unknown:
        raise SystemExit(f"unknown runs {unknown}: choose from {[*RUNS, *CI_SLICES]}")
    asyncio.run(main(chosen))
