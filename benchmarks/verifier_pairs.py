"""The trained verifier's data recipe: labelled (text, evidence) pairs from tuning splits only.

    python -m benchmarks.verifier_pairs --out /tmp/pairs.jsonl     # writes the pairs, prints counts

Every pair is `{"text", "evidence", "label", "source", "group"}`; `text` is a claim or a
question, `label` 1 when the evidence entails the claim (or answers the question).

Real labelled pairs (tuning splits only, see `citesynth.evaluation.verifier_data`):
- SciFact train pairs: the claim against the gold rationale sentences and against what the
  verifier itself would read (`verify.evidence`); SUPPORT is 1, CONTRADICT and
  not-enough-info 0.
- WiCE dev: the claim against each annotated supporting-sentence set and against the
  verifier's own selection; `supported` is 1, partially and not supported 0.
- HaluEval QA samples 0-249: question + answer against the knowledge.
- Answerability, ClapNQ tuning questions (not the fixed report slice): a question against
  its passage (1 when answerable), the same passage with the answer's sentences removed
  (0); the same for the docs-rhdh tuning questions against their reference context; and
  MultiHop-RAG tuning questions against their evidence facts (null queries 0).

Generated hard negatives (and their positives), from sentences of the tuning corpora
(SciFact abstracts outside the dev pairs, WiCE dev pages, ClapNQ tuning passages, the
Red Hat Developer Hub guides):
- the sentence itself against the passage window that holds it (1), and a clause of it (1);
- one detail changed against the same window (0): a number, a unit or a year; negation
  added or removed; two names swapped, or a name replaced by another from the passage;
  an antonym ("like"/"unlike", "increases"/"decreases", "before"/"after", ...);
- the sentence against the neighbouring window without it (0);
- the sentence joined with a sentence from another document (0: only part is supported).

With `train_crossencoder --paraphrases`, the embedded model's rewrites of the copied
sentences join them (`paraphrase_pairs`; written once by `benchmarks.paraphrase_pairs`).

Written documentation claims (`written_claim_pairs`, the `--docs-stage` of
`train_crossencoder`): 600 claims written for this project over passages of five other
projects' documentation (Starlette, marshmallow and structlog, the tuning projects of the
gate's written how-to questions, and Jinja and Werkzeug;
`tests/fixtures/docs_claims_tuning_NAME.jsonl`), two a
passage: a paraphrase the passage supports, the way an answer words it, and a minimal edit
of it with one detail wrong (a number, two names swapped, negation, an antonym, the right
words in the wrong relation, or a detail the passage never states). Each is read as the
answer pipeline reads a chunk: under the project's name and the section's heading path.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from benchmarks.common import ROOT
from citesynth.analysis import content_terms
from citesynth.evaluation.datafiles import data_dir, rows
from citesynth.evaluation.qa_data import EvalSet, load_set
from citesynth.evaluation.verifier_data import load
from citesynth.verify import Check
from citesynth.verify.analysed import passage_sentences
from citesynth.verify.claims import split_claims
from citesynth.verify.evidence import BUDGET, Similarity, evidence_text

Pair = dict[str, Any]
Reader = Callable[[str, Sequence[str]], str]
"""What the verifier reads for a claim against passages (`evidence_text` with the model's
budget and sentence similarity), so that training pairs are what it will read."""

_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")
_NEGATABLE = re.compile(
    r"\b(is|are|was|were|can|could|will|would|should|must|does|do|did|has|have|had|may)\b"
)
_NEGATED = re.compile(
    r"\b(is|are|was|were|can|could|will|would|should|must|does|do|did|has"
    r"|have|had|may) not\b|\b(\w+)n't\b|\bnever\b|\bno longer\b"
)
_ANTONYMS = [
    ("unlike", "like"),
    ("increase", "decrease"),
    ("increases", "decreases"),
    ("increased", "decreased"),
    ("higher", "lower"),
    ("more", "less"),
    ("before", "after"),
    ("first", "last"),
    ("larger", "smaller"),
    ("maximum", "minimum"),
    ("enable", "disable"),
    ("enabled", "disabled"),
    ("allows", "prevents"),
    ("always", "never"),
    ("true", "false"),
    ("positive", "negative"),
    ("inhibits", "promotes"),
    ("reduces", "increases"),
    ("above", "below"),
    ("early", "late"),
    ("north", "south"),
    ("east", "west"),
    ("born", "died"),
    ("won", "lost"),
    ("older", "younger"),
    ("supports", "rejects"),
    ("required", "optional"),
    ("synchronous", "asynchronous"),
    ("include", "exclude"),
    ("includes", "excludes"),
    ("male", "female"),
    ("success", "failure"),
]
_SWAP = {a: b for a, b in _ANTONYMS} | {b: a for a, b in _ANTONYMS}
_NAME = re.compile(r"(?<!^)(?<![.!?] )\b[A-Z][a-zA-Z]+(?: [A-Z][a-zA-Z]+)*")


_CACHE = Path("/tmp/citesynth-pairs-cache")


def load_eval_set(name: str, split: str, folder: Path) -> EvalSet:
    return load_set(name, split, data=folder, cache=_CACHE)


def _hash(text: str) -> int:
    return int(hashlib.sha1(text.encode()).hexdigest()[:8], 16)


# -- perturbations: one detail changed ---------------------------------------------------


def change_number(text: str, rng: random.Random) -> str | None:
    found = list(_NUMBER.finditer(text))
    if not found:
        return None
    match = rng.choice(found)
    value = match.group()
    digits = value.replace(",", "")
    try:
        number = float(digits)
    except ValueError:
        return None
    if 1900 <= number <= 2100 and "." not in value:
        new = str(int(number) + rng.choice([-3, -2, -1, 1, 2, 5]))
    elif number == int(number):
        whole = int(number)
        new = str(rng.choice([whole + 1, whole * 2, max(whole - 1, 0), whole * 10, whole + 7]))
        if new == digits:
            new = str(whole + 3)
    else:
        new = f"{number * rng.choice([0.5, 2, 1.5]):.{len(digits.split('.')[-1])}f}"
    return text[: match.start()] + new + text[match.end() :]


def flip_negation(text: str, rng: random.Random) -> str | None:
    negated = _NEGATED.search(text)
    if negated:
        if negated.group(1):
            return text[: negated.start()] + negated.group(1) + text[negated.end() :]
        if negated.group(2):
            return text[: negated.start()] + negated.group(2) + text[negated.end() :]
        return None
    found = list(_NEGATABLE.finditer(text))
    if not found:
        return None
    match = rng.choice(found[:2])
    return text[: match.end()] + " not" + text[match.end() :]


def swap_antonym(text: str, rng: random.Random) -> str | None:
    words = list(re.finditer(r"\b[a-z]+\b", text))
    candidates = [w for w in words if w.group() in _SWAP]
    if not candidates:
        return None
    match = rng.choice(candidates)
    return text[: match.start()] + _SWAP[match.group()] + text[match.end() :]


def swap_names(text: str, context: str, rng: random.Random) -> str | None:
    """Two names of the claim swapped, or one replaced by another name from the context."""
    names = list(dict.fromkeys(m.group() for m in _NAME.finditer(text)))
    if len(names) >= 2 and rng.random() < 0.5:
        a, b = rng.sample(names, 2)
        swapped = text.replace(a, "\0").replace(b, a).replace("\0", b)
        return swapped if swapped != text else None
    others = [n for n in dict.fromkeys(m.group() for m in _NAME.finditer(context)) if n not in text]
    if not names or not others:
        return None
    return text.replace(rng.choice(names), rng.choice(others), 1)


def perturb(text: str, context: str, rng: random.Random) -> tuple[str, str] | None:
    """The claim with one detail changed, and which kind; None when nothing applies."""
    kinds = ["number", "negation", "antonym", "name"]
    rng.shuffle(kinds)
    for kind in kinds:
        if kind == "number":
            changed = change_number(text, rng)
        elif kind == "negation":
            changed = flip_negation(text, rng)
        elif kind == "antonym":
            changed = swap_antonym(text, rng)
        else:
            changed = swap_names(text, context, rng)
        if changed and changed != text:
            return changed, kind
    return None


def clause(sentence: str, rng: random.Random) -> str | None:
    """A self-contained part of a sentence: the part before a comma clause, or before ' and '."""
    for mark in (", which ", ", and ", ", but ", " (", ", while ", "; "):
        if mark in sentence:
            head = sentence.split(mark, 1)[0].strip()
            if len(head.split()) >= 6:
                return head.rstrip(",;") + "."
    return None


# -- real labelled pairs ------------------------------------------------------------------


def make_pair(text: str, evidence: str, label: int, source: str, group: str) -> Pair:
    """A training pair: `text` (a claim or question) against `evidence`, its 0/1 label, the
    data set it comes from and its group (pairs of one group stay on one side of a split)."""
    return {"text": text, "evidence": evidence, "label": label, "source": source, "group": group}


def scifact_rationale(row: dict[str, Any]) -> str:
    """A SciFact claim–document row's rationale sentences, as one evidence text."""
    return " ".join(s.strip() for s in row["rationale_sentences"])


def wice_sentences(row: dict[str, Any], indexes: Iterable[int]) -> str:
    """The sentences of a WiCE row's page at `indexes`, in page order, as one evidence text."""
    return " ".join(row["evidence"][i].strip() for i in sorted(indexes))


def scifact_pairs(folder: Path, read: Reader) -> Iterator[Pair]:
    examples = {e.id: e for e in load("scifact", "train", folder)}
    for row in rows(folder / "scifact" / "claim_doc_pairs_train.jsonl"):
        key = f"{row['claim_id']}:{row['doc_id']}"
        example = examples.get(key)
        if example is None:
            continue
        label = int(example.supported)
        group = f"scifact:{row['claim_id']}"
        yield make_pair(
            example.claim, read(example.claim, example.passages), label, "scifact", group
        )
        if row["rationale_sentences"]:
            yield make_pair(example.claim, scifact_rationale(row), label, "scifact-gold", group)


def wice_pairs(folder: Path, read: Reader) -> Iterator[Pair]:
    for row in rows(folder / "wice" / "claim_dev.jsonl"):
        label = int(row["label"] == "supported")
        group = f"wice:{row['id']}"
        page = "\n\n".join(row["evidence"])
        yield make_pair(row["claim"], read(row["claim"], [page]), label, "wice", group)
        for indexes in row["supporting_sentences"][:2]:
            gold = wice_sentences(row, indexes)
            if gold:
                yield make_pair(row["claim"], gold, label, "wice-gold", group)


def halueval_pairs(folder: Path, read: Reader) -> Iterator[Pair]:
    for example in load("halueval", "dev", folder):
        yield make_pair(
            example.claim,
            read(example.claim, example.passages),
            int(example.supported),
            "halueval",
            f"halueval:{example.group}",
        )


def _drop_answer(passage: str, answer: str) -> str | None:
    """The passage without the sentences that share most words with the answer."""
    answer_words = {w.lower() for w in re.findall(r"\w+", answer) if len(w) > 3}
    if not answer_words:
        return None
    kept = []
    dropped = 0
    for start, end in passage_sentences(passage):
        sentence = passage[start:end]
        words = {w.lower() for w in re.findall(r"\w+", sentence)}
        if len(words & answer_words) >= max(2, len(answer_words) // 3):
            dropped += 1
        else:
            kept.append(sentence.strip())
    if not dropped or len(kept) < 2:
        return None
    return " ".join(kept)


def answerability_pairs(folder: Path, read: Reader) -> Iterator[Pair]:
    corpus = {r["doc_id"]: r["text"] for r in rows(folder / "clapnq_dev" / "corpus.jsonl")}
    tuning = load_eval_set("clapnq", "dev", folder)
    for item in tuning.items:
        group = f"clapnq:{item.id}"
        for gold in item.gold[:1]:
            passage = corpus.get(gold.source)
            if not passage:
                continue
            window = read(item.question, [passage])
            yield make_pair(item.question, window, int(item.answerable), "clapnq", group)
            if item.answerable and item.answers:
                without = _drop_answer(passage, item.answers[0])
                if without:
                    window = read(item.question, [without])
                    yield make_pair(item.question, window, 0, "clapnq-dropped", group)
    yield from docs_answerability_pairs(folder, read)
    facts = {
        r["fact_id"]: r["fact"]
        for r in rows(folder / "multihop_qa" / "multihoprag_500" / "evidence_facts.jsonl")
    }
    for item in load_eval_set("multihop-rag", "dev", folder).items:
        texts = [facts[g.source] for g in item.gold if g.source in facts]
        if not texts and item.answerable:
            continue
        if not texts:
            continue
        window = read(item.question, texts)
        yield make_pair(
            item.question, window, int(item.answerable), "multihop-rag", f"mhr:{item.id}"
        )


def docs_answerability_pairs(folder: Path, read: Reader) -> Iterator[Pair]:
    """Documentation questions (docs-rhdh tuning split) against their reference context (1)
    and against it without the sentences that hold the reference answer (0): on-topic text
    that does not answer, in the documentation domain the product serves."""
    tuning = {item.id for item in load_eval_set("docs-rhdh", "dev", folder).items}
    for row in rows(folder / "docs_rhdh" / "questions.jsonl"):
        if row["id"] not in tuning or not row.get("reference_contexts"):
            continue
        group = f"rhdh-q:{row['id']}"
        context = "\n\n".join(row["reference_contexts"])
        yield make_pair(row["question"], read(row["question"], [context]), 1, "rhdh-q", group)
        without = _drop_answer(context, row.get("reference_answer") or "")
        if without:
            window = read(row["question"], [without])
            yield make_pair(row["question"], window, 0, "rhdh-q-dropped", group)


def docs_claim_pairs(folder: Path, read: Reader, split: str = "dev") -> Iterator[Pair]:
    """Documentation claims (docs-rhdh, the tuning split unless `split` says).

    Each sentence of a reference answer against its reference context (1), and against the
    context of another question of the split on the same guide (0) unless that context
    holds 80 % of the claim's content terms (the guides repeat passages, and such a pair may
    well be supported). The answers were written from the context by a model (Ragas), so
    these are paraphrases of documentation, what the verifier meets in answers; their
    detail-changed versions come from `perturbed_real`.
    """
    in_split = {item.id for item in load_eval_set("docs-rhdh", split, folder).items}
    chosen = [
        r
        for r in rows(folder / "docs_rhdh" / "questions.jsonl")
        if r["id"] in in_split and r.get("reference_contexts") and r.get("reference_answer")
    ]

    def guide(row: dict[str, Any]) -> str:
        return ",".join(row.get("source_doc_ids") or ["?"])

    by_guide: dict[str, list[dict[str, Any]]] = {}
    for row in chosen:
        by_guide.setdefault(guide(row), []).append(row)
    rng = random.Random(_hash("docs-claims"))
    for row in chosen:
        group = f"rhdh-claim:{row['id']}"
        context = "\n\n".join(row["reference_contexts"])
        others = [o for o in by_guide[guide(row)] if o is not row]
        other = "\n\n".join(rng.choice(others)["reference_contexts"]) if others else ""
        other_terms = set(content_terms(other))
        for span in split_claims(row["reference_answer"]):
            claim = span.text
            claim_terms = set(content_terms(claim))
            if len(claim.split()) < 6 or len(claim_terms) < 3:
                continue
            yield make_pair(claim, read(claim, [context]), 1, "rhdh-claim", group)
            if other and len(claim_terms & other_terms) < 0.8 * len(claim_terms):
                yield make_pair(claim, read(claim, [other]), 0, "rhdh-claim", group)


WRITTEN_CLAIMS = {
    "starlette": ("Starlette", "1.10.0"),
    "marshmallow": ("marshmallow", "4.4.0"),
    "structlog": ("structlog", "26.1.0"),
    "jinja2": ("Jinja", "3.1.6"),
    "werkzeug": ("Werkzeug", "3.1.4"),
}
"""The projects whose documentation (`benchmarks.sdist_docs`, NAME==VERSION) the written
tuning claims are over, with the subject the pipeline reads their chunks under
(`Engine.subjects`)."""


def written_claims_file(name: str) -> Path:
    """The written tuning claims over project `name`'s documentation."""
    return ROOT / "tests" / "fixtures" / f"docs_claims_tuning_{name}.jsonl"


PROBES = {
    "falcon": ("Falcon", "4.4.0"),
    "wtforms": ("WTForms", "3.3.2"),
    "markdown": ("Python-Markdown", "3.11.3"),
    "flask": ("Flask", "3.1.3"),
    "webargs": ("webargs", "8.7.0"),
    "pluggy": ("pluggy", "1.6.0"),
    "flask_wtf": ("Flask-WTF", "1.2.2"),
    "itsdangerous": ("itsdangerous", "2.2.0"),
    "apispec": ("apispec", "6.8.2"),
    "flask_sqlalchemy": ("Flask-SQLAlchemy", "3.1.1"),
    "h11": ("h11", "0.16.0"),
    "cachetools": ("cachetools", "5.5.2"),
}
"""Claims written on 2026-12-04 by helpers that saw none of the verifiers, over four
projects whose questions are tuning data (`tests/fixtures/docs_claims_probe_NAME.jsonl`;
here the subject each is read under and the version of its docs' PyPI sdist): per project
20 passages, each with a supported paraphrase and a claim with one detail changed (the
kinds of the HTTPX claims, `benchmarks.docs_claims`, and "addition", a supported claim with an unsupported clause appended). They
were read to find what the verifiers miss, so they are tuning data: `--probes` measures
them apart (`docs_claims --probes`, `results/docs_claims_probes.json`), never with the
held-out sets, and the docs stage of `train_crossencoder` may train on them (`--probe`). Four more
(webargs, pluggy, Flask-WTF, itsdangerous) were written the same way on 2026-12-07; read
first, before anything was changed for them, the lexical verifier passed 72 of their 80
supported claims and 38 of the 80 changed ones (balanced accuracy 0.713), the trained one
73 and 42 (0.694). Four more again (apispec, Flask-SQLAlchemy, h11, cachetools), written
the same day once the checks made for the first four were in: read first, the lexical
verifier passed 73 of their 80 supported and 35 of the 80 changed claims (0.738), the
trained one 74 and 35 (0.744), exactly what the session's starting code passes: the checks
written for one set of projects caught nothing on the next. (A word pair added after
reading them, much / little, then caught h11's "buffer as little as it can".)"""


def probe_file(name: str) -> Path:
    """The tuning probe's claims over project `name`'s docs (`PROBES`)."""
    return ROOT / "tests" / "fixtures" / f"docs_claims_probe_{name}.jsonl"


def written_group(name: str, passage: str) -> str:
    """The group of a written claim: its project and passage (held out or trained together)."""
    return f"docs-written:{name}:{_hash(passage)}"


def read_under(subject: str, claim: dict[str, Any]) -> str:
    """What a written documentation claim's passage is read under, as the pipeline reads a
    chunk (`Check.about`): the corpus's subject, then the words of the claim's heading path."""
    return " ".join([subject, *str(claim.get("heading") or "").split(" > ")]).strip()


def written_files(probes: Sequence[str] = ()) -> list[tuple[str, str, Path]]:
    """Each written documentation claims file, the five projects' and the named `PROBES`',
    with its project's name and the subject the pipeline reads its chunks under."""
    files = [
        (name, subject, written_claims_file(name)) for name, (subject, _) in WRITTEN_CLAIMS.items()
    ]
    return files + [(name, PROBES[name][0], probe_file(name)) for name in probes]


def written_claims(probes: Sequence[str] = ()) -> Iterator[tuple[Check, bool, str]]:
    """Each written documentation claim (module docstring), and those of the named `PROBES`,
    as a check against its passage read under its project's name and heading path, whether
    it is supported, and its group (the two claims of a passage share one, so both are
    trained on or both held out)."""
    for name, subject, path in written_files(probes):
        for row in rows(path):
            check = Check(row["claim"], (row["passage"],), read_under(subject, row))
            yield check, row["label"] == "supported", written_group(name, row["passage"])


def written_claim_pairs(
    budget: int = BUDGET, similarity: Similarity | None = None, probes: Sequence[str] = ()
) -> Iterator[Pair]:
    """The written documentation claims (and the named probes'), each against the evidence
    the verifier reads."""
    for check, supported, group in written_claims(probes):
        evidence = evidence_text(
            check.claim, check.passages, budget=budget, similarity=similarity, about=check.about
        )
        yield make_pair(check.claim, evidence, int(supported), "docs-written", group)


# -- generated pairs ----------------------------------------------------------------------


def _passages(folder: Path) -> Iterator[tuple[str, str]]:
    """(document id, text) of the tuning corpora the generated pairs come from."""
    dev_docs = {str(r["doc_id"]) for r in rows(folder / "scifact" / "claim_doc_pairs_dev.jsonl")}
    for index, row in enumerate(rows(folder / "scifact" / "corpus.jsonl")):
        if str(row["_id"]) not in dev_docs and index % 3 == 0:
            yield f"scifact:{row['_id']}", row["text"]
    for row in rows(folder / "wice" / "claim_dev.jsonl"):
        yield f"wice:{row['id']}", "\n".join(row["evidence"][:60])
    corpus = {r["doc_id"]: r["text"] for r in rows(folder / "clapnq_dev" / "corpus.jsonl")}
    for item in load_eval_set("clapnq", "dev", folder).items:
        for gold in item.gold[:1]:
            if gold.source in corpus:
                yield f"clapnq:{gold.source}", corpus.pop(gold.source)
    for row in rows(folder / "docs_rhdh" / "corpus.jsonl"):
        for number, block in enumerate(re.split(r"\n#+ ", row["text"])):
            if len(block.split()) > 60:
                yield f"rhdh:{row['doc_id']}:{number}", block


def _windows(text: str, budget: int) -> list[list[str]]:
    """The text's sentences grouped into windows of about `budget` words."""
    sentences = [" ".join(text[a:b].split()) for a, b in passage_sentences(text)]
    return in_windows(
        [s for s in sentences if 5 <= len(s.split()) <= 60 and not s.startswith("#")], budget
    )


def in_windows(sentences: Sequence[str], budget: int) -> list[list[str]]:
    """`sentences` grouped in order into windows of about `budget` words; a window needs two."""
    windows: list[list[str]] = []
    current: list[str] = []
    for sentence in sentences:
        if current and sum(len(s.split()) for s in current) + len(sentence.split()) > budget:
            windows.append(current)
            current = []
        current.append(sentence)
    if current:
        windows.append(current)
    return [w for w in windows if len(w) >= 2]


def generated_pairs(folder: Path, rng: random.Random, limit: int, budget: int) -> Iterator[Pair]:
    documents = list(_passages(folder))
    rng.shuffle(documents)
    pool = [s for _, text in documents[:400] for w in _windows(text, budget) for s in w]
    made = 0
    for doc_id, text in documents:
        windows = _windows(text, budget)
        for index, window in enumerate(windows):
            if made >= limit:
                return
            if rng.random() < 0.5:
                continue
            group = f"gen:{doc_id}:{index}"
            evidence = " ".join(window)
            sentence = rng.choice(window)
            yield make_pair(sentence, evidence, 1, "gen-copy", group)
            part = clause(sentence, rng)
            if part:
                yield make_pair(part, evidence, 1, "gen-clause", group)
            changed = perturb(sentence, evidence, rng)
            if changed:
                yield make_pair(changed[0], evidence, 0, f"gen-{changed[1]}", group)
            neighbours = [w for j, w in enumerate(windows) if abs(j - index) == 1]
            if neighbours:
                other = " ".join(rng.choice(neighbours))
                yield make_pair(sentence, other, 0, "gen-neighbour", group)
            if pool:
                extra = rng.choice(pool)
                if extra not in evidence:
                    joined = f"{sentence.rstrip('.')}, and {extra[0].lower()}{extra[1:]}"
                    yield make_pair(joined, evidence, 0, "gen-joined", group)
            made += 1


def perturbed_real(pairs: list[Pair], rng: random.Random) -> Iterator[Pair]:
    """Supported real claims with one detail changed, against the same evidence (0)."""
    for pair in pairs:
        if pair["label"] == 1 and pair["source"] not in ("clapnq", "multihop-rag"):
            changed = perturb(pair["text"], pair["evidence"], rng)
            if changed:
                yield make_pair(
                    changed[0], pair["evidence"], 0, f"{pair['source']}-{changed[1]}", pair["group"]
                )


def paraphrase_rows(paraphrases: Path) -> list[dict[str, Any]]:
    """The rows `benchmarks.paraphrase_pairs` wrote (none when the file is not there); a
    line torn by a stopped run, or one without its sentence, is skipped."""
    found = []
    for line in paraphrases.read_text().splitlines() if paraphrases.is_file() else ():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(row, dict) and "text" in row:
            found.append(row)
    return found


def paraphrase_pairs(pairs: Sequence[Pair], paraphrases: Path, seed: int = 13) -> Iterator[Pair]:
    """The embedded model's kept paraphrases of the copied sentences (`gen-copy`) in `pairs`
    (`benchmarks.paraphrase_pairs` writes them): each against the same window (1), and
    with one detail changed (0), so that a reworded claim is not support by being reworded.
    """
    kept = {
        row["text"]: row["paraphrase"]
        for row in paraphrase_rows(paraphrases)
        if not row.get("rejected") and row.get("paraphrase")
    }
    rng = random.Random(seed)
    for pair in pairs:
        new = kept.pop(pair["text"], None) if pair["source"] == "gen-copy" else None
        if new is None:
            continue
        yield make_pair(new, pair["evidence"], 1, "gen-paraphrase", pair["group"])
        changed = perturb(new, pair["evidence"], rng)
        if changed:
            yield make_pair(
                changed[0], pair["evidence"], 0, f"gen-paraphrase-{changed[1]}", pair["group"]
            )


def build(
    folder: Path,
    seed: int = 13,
    generated: int = 4000,
    *,
    budget: int = BUDGET,
    similarity: Similarity | None = None,
    docs_claims: bool = False,
) -> list[Pair]:
    """All training pairs (see the module docstring), deduplicated, in a fixed order.

    `budget` and `similarity` are how the verifier picks evidence (`verify.evidence`).
    """
    rng = random.Random(seed)

    def read(claim: str, passages: Sequence[str]) -> str:
        return evidence_text(claim, passages, budget=budget, similarity=similarity)

    real = [
        *scifact_pairs(folder, read),
        *wice_pairs(folder, read),
        *halueval_pairs(folder, read),
        *answerability_pairs(folder, read),
        *(docs_claim_pairs(folder, read) if docs_claims else ()),
    ]
    made = generated_pairs(folder, rng, generated, budget)
    pairs = [*real, *perturbed_real(real, rng), *made]
    seen: set[tuple[str, str]] = set()
    unique = []
    for pair in pairs:
        key = (pair["text"], pair["evidence"])
        if key not in seen and pair["text"].strip() and pair["evidence"].strip():
            seen.add(key)
            unique.append(pair)
    return unique


def holdout(group: str) -> bool:
    """Whether a pair's group is held out of training, for calibration (one group in five)."""
    return _hash(group) % 5 == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--generated", type=int, default=4000)
    args = parser.parse_args()
    pairs = build(data_dir(), generated=args.generated)
    with args.out.open("w") as handle:
        for pair in pairs:
            handle.write(json.dumps(pair) + "\n")
    counts = Counter((p["source"].split("-")[0], p["label"]) for p in pairs)
    print(json.dumps({f"{s}:{y}": n for (s, y), n in sorted(counts.items())}, indent=1))
    print(f"{len(pairs)} pairs -> {args.out}")


if __name__ == "__main__":
    main()
