"""What a source's document is about: the gate counts it held, the verifiers read it."""

from __future__ import annotations

import json
from pathlib import Path

from citesynth.engine import Engine
from citesynth.synthesis import verifying
from citesynth.synthesis.about import (
    AboutChecked,
    about_checked,
    documents_about,
    documents_on,
    read_documents,
    told,
)
from citesynth.synthesis.answerability import gate, on_topic
from citesynth.synthesis.sources import Source
from citesynth.types import Hit
from citesynth.verify.base import check_of
from citesynth.verify.lexical import LexicalVerifier
from tests.conftest import write

ACM = """# The Name of the Title Is Hope

## Abstract

This sample shows the ACM consolidated article template in use, as ACM publications set
their articles.

## Template overview

The ACM template has one class file for every ACM journal and conference proceeding.

## Modifications

Modifying the ACM template, its fonts or its margins, is not allowed in ACM venues.

## Typefaces

The template uses the Libertine typeface family for the body text of every article.

## Tables

Tables are set in the table environment with a caption above the table itself.

## Figures

Figure captions are placed below the figure, and every figure needs a description.

## Citations

References are numbered in the order in which they are cited in the text.
"""

ASME = """# Journal Paper Template

## Scope

The asmejour class typesets papers in the style of ASME journals, as ASME sets them.

## Tables and Figures

Figure captions should be placed below figures in all of the journals.

## Units

Units are SI units throughout, with others in parentheses where ASME allows them.
"""

ASKED = "Where are figure captions placed in the ACM template?"


async def _figures(engine: Engine, tmp_path: Path) -> tuple[Source, Source]:
    """The pages on figures of ACM's and ASME's templates, neither writing its publisher."""
    write(tmp_path / "docs", "acm.md", ACM)
    write(tmp_path / "docs", "asme.md", ASME)
    await engine.index([tmp_path / "docs"])
    acm = await _source(engine, 1, "docs/acm.md", "Figure captions")
    asme = await _source(engine, 2, "docs/asme.md", "Figure captions")
    for page in (acm.chunk, asme.chunk):
        assert "ACM" not in f"{page.title} {page.heading_path} {page.text}"
    return acm, asme


async def _source(engine: Engine, number: int, path: str, words: str) -> Source:
    """Source `number`: the chunk of `path` that holds `words`."""
    chunks = await engine.store.document_chunks(path, 100)
    page = next(c for c in chunks if words in c.text)
    return Source(number, Hit(page, 0.9, 0.9), page.text)


async def test_a_passage_of_a_document_about_an_acronym_holds_it_for_the_gate(
    engine: Engine, tmp_path: Path
) -> None:
    acm, asme = await _figures(engine, tmp_path)
    about = documents_about(ASKED, await read_documents(ASKED, [acm, asme], engine.store))
    assert about == {acm.chunk.document_id: ("ACM",)}  # ASME's guide never writes ACM
    acm, asme = told([acm, asme], about)
    assert acm.named == ("ACM",) and asme.named == () and "ACM" in acm.about
    held = {name for source in (acm, asme) for name in source.named}
    assert await gate(ASKED, [acm], None, subjects=held) is None  # no scorer: read on
    withheld = await gate(ASKED, [acm], None)
    assert withheld is not None and withheld.unnamed == ("ACM",)
    # an acronym no document writes, or a store that cannot list chunks
    ieee = ASKED.replace("ACM", "IEEE")
    assert documents_about(ieee, await read_documents(ieee, [acm], engine.store)) == {}
    assert await read_documents(ASKED, [acm], object()) == {}


async def test_a_claim_naming_another_documents_subject_is_held_to_its_source(
    engine: Engine, tmp_path: Path
) -> None:
    acm, asme = told(list(await _figures(engine, tmp_path)), {})
    about = documents_about(ASKED, await read_documents(ASKED, [acm, asme], engine.store))
    acm, asme = told([acm, asme], about)
    verifier = about_checked(LexicalVerifier(), [acm, asme])
    assert isinstance(verifier, AboutChecked) and verifier.name == "lexical"
    claim = "The ACM template places figure captions below the figures."
    plain = (await LexicalVerifier().verify([check_of(claim, verifying.passages([asme]))]))[0]
    assert plain.label != "unsupported"  # the words are ASME's guide's: the lexical reading
    held = (await verifier.verify([check_of(claim, verifying.passages([asme]))]))[0]
    assert held.label == "unsupported" and "names ACM" in held.reasons[-1]
    own = (await verifier.verify([check_of(claim, verifying.passages([acm]))]))[0]
    assert own.label != "unsupported"  # ACM's page, its document about ACM
    # in an answer, repair moves the citation to the source about ACM
    checked = await verifying.check(f"{claim[:-1]} [2].", [acm, asme], verifier)
    assert checked.claims[0].citations == [1] and checked.claims[0].label != "unsupported"
    # no acronym a document is about: the verifier is the one given
    plain_verifier = LexicalVerifier()
    assert about_checked(plain_verifier, told([asme], {})) is plain_verifier


async def test_each_record_of_a_jsonl_file_is_a_document_of_its_own(
    engine: Engine, tmp_path: Path
) -> None:
    cookies = [f"Session cookies are signed with the secret key number {i}." for i in range(6)]
    tokens = [f"A JWT carries claims signed by the issuer, case {i}." for i in range(3)]
    records = [{"id": f"r{i}", "title": f"Note {i}", "text": t} for i, t in enumerate(cookies)]
    records += [{"id": f"j{i}", "title": f"Token {i}", "text": t} for i, t in enumerate(tokens)]
    write(tmp_path / "docs", "kb.jsonl", "\n".join(json.dumps(r) for r in records))
    await engine.index([tmp_path / "docs"])
    chunks = await engine.store.document_chunks("docs/kb.jsonl", 400)
    cookie = next(c for c in chunks if c.record_id == "r0")
    sources = [Source(1, Hit(cookie, 0.9, 0.9), cookie.text)]
    # a third of the file's records write JWT; the cookie record's document is itself
    jwt = "How is a JWT signed?"
    assert documents_about(jwt, await read_documents(jwt, sources, engine.store)) == {}


LME4 = """# Fitting linear mixed-effects models using lme4

## Formulas

lme4 fits a linear mixed model from a formula with random-effects terms.

## Optimizers

lme4 incorporates two optimizers, Nelder-Mead and BOBYQA, to fit the model.

## Output

The summary of an lme4 fit lists the variance components of each term.
"""
SANDWICH = """# Clustered covariances with sandwich

## Distributions

The simulation also considers zero-inflated Poisson models fitted by zeroinfl.

## Bootstrap

A clustered bootstrap covariance is computed by vcovBS with 250 replications.

## Panels

Panel-corrected covariances are computed by vcovPC for panel data.
"""


async def test_a_how_to_question_is_read_against_the_documents_on_its_subject(
    engine: Engine, tmp_path: Path
) -> None:
    write(tmp_path / "docs", "lme4.md", LME4)
    write(tmp_path / "docs", "sandwich.md", SANDWICH)
    await engine.index([tmp_path / "docs"])
    sources = [
        await _source(engine, 1, "docs/sandwich.md", "zero-inflated"),
        await _source(engine, 2, "docs/lme4.md", "optimizers"),
    ]
    asked = "How do I fit a zero-inflated Poisson model with lme4?"
    documents = await read_documents(asked, sources, engine.store)
    topics = documents_on(asked, documents)
    assert topics == {
        sources[0].chunk.document_id: frozenset({"poisson"}),  # names only: "Poisson" is one
        sources[1].chunk.document_id: frozenset({"lme4"}),
    }
    # sandwich's page never names lme4, lme4's never zero-inflated models: neither answers
    kept, words = on_topic(asked, sources, topics)
    assert kept == [] and words == ("Poisson", "lme4")
    # plain words are no names ("bootstrap" is sandwich's alone); "lme4" alone is one
    assert documents_on("How do I fit a bootstrap model?", documents) == {}
    assert await read_documents("How do I fit a bootstrap model?", sources, engine.store) == {}
    one = await read_documents(asked, sources[:1], engine.store)
    assert documents_on(asked, one) == {}  # one document
    withheld = await gate(asked, sources, None, topics=topics)
    assert withheld is not None and withheld.off_topic == ("Poisson", "lme4")
    assert not withheld.answerable
    both = "How do I fit a model with lme4, and how do I fit a Poisson model?"
    assert await gate(both, sources, None, topics=topics) is None  # parts: read on
    lme4 = {sources[1].chunk.document_id: frozenset({"lme4"})}
    assert await gate("How do I fit lme4 models?", sources, None, topics=lme4) is None
