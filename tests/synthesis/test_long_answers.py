"""Long model output: post-processing is linear in its size, and an oversized answer is cut."""

from __future__ import annotations

import gc
import random
import time
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.answers import Answer
from citesynth.llm.fake import ScriptedModel
from citesynth.synthesis import LLMWriter
from citesynth.synthesis.drafting import MAX_ANSWER_CHARS, Draft, tidy, write
from citesynth.synthesis.finishing import Finishing, Header, finish, verified
from citesynth.synthesis.modes import get_mode
from citesynth.synthesis.prompts import BUILT_IN
from citesynth.synthesis.steps import Retrieved, make_plan, retrieve
from citesynth.synthesis.verifying import LEANS, UNCITED
from citesynth.verify import LexicalVerifier
from citesynth.verify.lexical import forget_alignments

LOOPED = "The connect timeout defaults to five seconds [1]."


def looping_answer(sentences: int) -> str:
    """Distinct cited claims, a loop of one sentence, and markers of every kind."""
    rng = random.Random(sentences)
    parts = []
    for i in range(sentences):
        if i % 5 == 0:
            parts.append(LOOPED)
        elif i % 7 == 0:
            parts.append(f"Step {i} retries (1) with backoff [2][9] and [1-40].")
        elif i % 11 == 0:  # a gap mark copied from the evidence, a line of markers
            parts.append(f"… Step {i} backs off …\n[2]\n")
        elif i % 17 == 0:  # code shown inline, checked as a quotation (`resolve.shows_code`)
            parts.append(f"\n- Example: `step_{i}(retries=3)`\n")
        elif i % 13 == 0:  # promises run together in a paragraph (`synthesis.promised`)
            parts.append(f"Install step {i} with pip: Or, to include it, use: Then it runs [1].")
        else:
            value = rng.randint(0, 10**6)
            parts.append(f"Claim {i} says the value {value} matters for limits [{1 + i % 2}].")
    return " ".join(parts)


@pytest.fixture
async def found(engine: Engine, corpus: Path) -> Retrieved:
    await engine.index([corpus])
    parts = engine.parts()
    return await retrieve("connect timeout", parts, engine.options(not_found_below=0.0), _MODE)


_MODE = get_mode("simple")


async def _post_process(engine: Engine, found: Retrieved, text: str) -> tuple[Answer, float]:
    """The answer to `text` and the seconds spent from the first piece to the answer."""
    writer = LLMWriter(ScriptedModel([text], piece_chars=40), BUILT_IN, timeout=120.0)
    plan = await make_plan("connect timeout", found, engine.parts(), _MODE)
    draft = Draft()
    forget_alignments()  # the work of this answer, none of it remembered from the last
    gc.collect()
    started = time.process_time()  # this process's CPU: the other core's load does not count
    async for _ in write(writer, plan, draft):
        pass
    tidy(draft, plan.sources, attribute_uncited=True, require_citations=True)
    how = Finishing(verifier=engine.parts().verifier)
    answer = await finish(Header.of("connect timeout", writer.name, "simple"), plan, draft, how)
    return answer, time.process_time() - started


async def test_post_processing_is_linear_in_the_answer(engine: Engine, found: Retrieved) -> None:
    short, long = looping_answer(100), looping_answer(1000)
    assert len(long) < MAX_ANSWER_CHARS  # measure the work, not the cap
    await _post_process(engine, found, short)  # warm up
    times = {}
    for name, text in (("short", short), ("long", long)):
        best = float("inf")
        for _ in range(2):
            answer, seconds = await _post_process(engine, found, text)
            best = min(best, seconds)
        times[name] = best
        assert answer.answer.count(LOOPED) == 1  # the loop is gone
        assert "[1-40]" not in answer.answer and "[9]" not in answer.answer
    # Linear is about 10x for 10x the answer, quadratic about 100x: the bound sits at their
    # geometric middle, so noise on busy shared cores (16x once for linear chunking) cannot fail it.
    assert times["long"] <= 31 * times["short"], times


async def test_an_oversized_answer_is_cut_and_says_why(engine: Engine, found: Retrieved) -> None:
    text = looping_answer(2 * MAX_ANSWER_CHARS // 40)
    assert len(text) > 2 * MAX_ANSWER_CHARS
    answer, _ = await _post_process(engine, found, text)
    assert len(answer.answer) <= MAX_ANSWER_CHARS
    assert answer.answer.count(LOOPED) == 1
    assert any(f"cut at {MAX_ANSWER_CHARS:,} characters" in w for w in answer.warnings)
    assert any("repeated an earlier one" in w for w in answer.warnings)


async def test_what_removing_a_claim_leaves_behind_is_tidied(
    engine: Engine, found: Retrieved
) -> None:
    """A removed claim takes its words; markers left between the kept ones are tidied.

    Here the marker after the invented sentence opens the next one ("[1] It defaults …");
    once the invented sentence goes, it closes that sentence as a draft's would.
    """
    plan = await make_plan("connect timeout", found, engine.parts(), _MODE)
    number = next(s.number for s in plan.sources if "five seconds" in s.chunk.text)
    text = (
        "## Connect timeout\n"
        f"The connect timeout is powered by hamsters on a wheel. [{number}] It defaults to "
        "five seconds."
    )
    how = Finishing(verifier=engine.parts().verifier)
    checked = await verified(text, plan.sources, LexicalVerifier(), how)
    assert [claim.text for claim in checked.removed] == [
        "The connect timeout is powered by hamsters on a wheel."
    ]
    assert checked.text == f"## Connect timeout\nIt defaults to five seconds [{number}]."


async def test_a_sentence_pointing_back_at_a_removed_one_goes_with_it(
    engine: Engine, found: Retrieved
) -> None:
    """ "This …" right after a removed claim says nothing alone: it goes, and says why.

    In a paragraph of its own, or opening with "It" (a heading may name what it stands for,
    as above), a supported sentence stays.
    """
    plan = await make_plan("connect timeout", found, engine.parts(), _MODE)
    number = next(s.number for s in plan.sources if "five seconds" in s.chunk.text)
    invented = "The connect timeout is powered by hamsters on a wheel."
    kept = f"This timeout defaults to five seconds [{number}]."
    how = Finishing(verifier=engine.parts().verifier)

    leaning = f"{invented[:-1]} [{number}]. {kept}"
    checked = await verified(leaning, plan.sources, LexicalVerifier(), how)
    assert checked.text == ""  # nothing cited is left: a not-found
    assert [c.text for c in checked.removed] == [invented, "This timeout defaults to five seconds."]
    assert LEANS in checked.removed[1].reasons and checked.removed[1].label == "supported"

    apart = f"{invented[:-1]} [{number}].\n\n{kept}"
    checked = await verified(apart, plan.sources, LexicalVerifier(), how)
    assert [c.text for c in checked.removed] == [invented]
    assert checked.text == kept

    # "It can be achieved by …" stands for what the removed sentence said
    for opening in ("It can be done", "However, it can be done"):
        achieved = f"{opening} with the time allowed to establish a connection [{number}]."
        leaning = f"{invented[:-1]} [{number}]. {achieved}"
        checked = await verified(leaning, plan.sources, LexicalVerifier(), how)
        assert [c.text for c in checked.removed] == [invented, achieved.replace(f" [{number}]", "")]

    # so does a reason or a consequence of it; a blank line written CRLF ends the paragraph
    for opening in ("That is why", "For this reason,", "The reason is that"):
        linked = f"{opening} the connect timeout defaults to five seconds [{number}]."
        leaning = f"{invented[:-1]} [{number}]. {linked}"
        checked = await verified(leaning, plan.sources, LexicalVerifier(), how)
        assert [c.text for c in checked.removed] == [invented, linked.replace(f" [{number}]", "")]
        assert LEANS in checked.removed[1].reasons
    apart = f"{invented[:-1]} [{number}].\r\n\r\n{kept}"
    checked = await verified(apart, plan.sources, LexicalVerifier(), how)
    assert [c.text for c in checked.removed] == [invented]

    # an opening clause naming a thing of it with "this" (the embedded model on twine)
    wheel = "The connect timeout is set with the hamster wheel."
    after = f"After setting this wheel, the connect timeout defaults to five seconds [{number}]."
    checked = await verified(
        f"{wheel[:-1]} [{number}]. {after}", plan.sources, LexicalVerifier(), how
    )
    assert [c.text for c in checked.removed] == [wheel, after.replace(f" [{number}]", "")]
    assert LEANS in checked.removed[1].reasons
    other = f"After setting this limit, the connect timeout defaults to five seconds [{number}]."
    checked = await verified(
        f"{wheel[:-1]} [{number}]. {other}", plan.sources, LexicalVerifier(), how
    )
    assert [c.text for c in checked.removed] == [wheel]  # "this limit" names nothing of it


async def test_a_sentence_pointing_back_at_the_question_restated_stays(
    engine: Engine, found: Retrieved
) -> None:
    """The removed sentence only copied the question: "this …" points at what was asked.

    The embedded model on griffe's docs opened with the question's first sentence, citing
    nothing, and went on "To stop this automatic loading, you can pass …".
    """
    plan = await make_plan("connect timeout", found, engine.parts(), _MODE)
    number = next(s.number for s in plan.sources if "five seconds" in s.chunk.text)
    question = (
        "My client hangs on a server that never answers and I waited a minute. "
        "What is the connect timeout by default?"
    )
    restated = "My client hangs on a server that never answers."
    kept = f"This timeout defaults to five seconds [{number}]."
    how = Finishing(verifier=engine.parts().verifier, question=question)
    checked = await verified(f"{restated} {kept}", plan.sources, LexicalVerifier(), how)
    assert [c.text for c in checked.removed] == [restated]
    assert checked.text == kept

    # a removed sentence saying more than the question still takes the pointer with it,
    # code too (griffe's invented "The name of the key … is `search_paths`.")
    named = "My client hangs on a server that never answers with `hamsters=True`."
    checked = await verified(f"{named} {kept}", plan.sources, LexicalVerifier(), how)
    assert [c.text for c in checked.removed] == [named, kept.replace(f" [{number}]", "")]
    invented = "My client hangs because the connect timeout is powered by hamsters."
    checked = await verified(f"{invented} {kept}", plan.sources, LexicalVerifier(), how)
    assert [c.text for c in checked.removed] == [invented, kept.replace(f" [{number}]", "")]


async def test_a_removed_sentence_that_cited_nothing_says_why(
    engine: Engine, found: Retrieved
) -> None:
    plan = await make_plan("connect timeout", found, engine.parts(), _MODE)
    number = next(s.number for s in plan.sources if "five seconds" in s.chunk.text)
    invented = "The connect timeout is powered by hamsters on a wheel."
    text = f"The connect timeout defaults to five seconds [{number}]. {invented}"
    how = Finishing(verifier=engine.parts().verifier)
    checked = await verified(text, plan.sources, LexicalVerifier(), how)
    [removed] = checked.removed
    assert removed.text == invented and not removed.citations
    assert removed.label == "unchecked" and removed.reasons == [UNCITED]
