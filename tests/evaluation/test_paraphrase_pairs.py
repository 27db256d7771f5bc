"""The embedded model's paraphrases for the verifier's recipe: what is kept, resuming, pairs."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.paraphrase_pairs import cleaned, faithful, order, paraphrase
from benchmarks.verifier_pairs import paraphrase_pairs

from citesynth.errors import ModelTimeout
from citesynth.llm.fake import ScriptedModel

SENTENCE = "The bridge, which opened in 2009, carries about 40,000 vehicles a day."
WINDOW = f"{SENTENCE} It spans the Tagus River near Lisbon."
REWRITE = "About 40,000 vehicles cross the bridge each day; it has been open since 2009."


def copy(text: str, group: str) -> dict[str, object]:
    return {"text": text, "evidence": WINDOW, "label": 1, "source": "gen-copy", "group": group}


def test_a_rewrite_is_kept_only_when_it_says_the_same_thing() -> None:
    assert faithful(SENTENCE, REWRITE, WINDOW) is None
    assert faithful(SENTENCE, REWRITE.replace("40,000", "50,000"), WINDOW) == "number"
    assert faithful(SENTENCE, "The bridge has not carried 40,000 vehicles since 2009.", WINDOW) == (
        "negation"
    )
    invented = "About 40,000 vehicles cross the Golden Gate each day; it opened in 2009."
    assert faithful(SENTENCE, invented, WINDOW) == "name"
    assert faithful(SENTENCE, "Lisbon has many old trams and hills today.", WINDOW) == "terms"
    assert faithful(SENTENCE, SENTENCE.replace("about", "around"), WINDOW) == "copy"
    assert faithful(SENTENCE, "Bridge.", WINDOW) == "length"
    assert faithful(SENTENCE, "", WINDOW) == "empty"


def test_the_reply_is_read_as_one_sentence() -> None:
    assert (
        cleaned('Rewritten sentence: "It opened in 2009."\nAnything else') == "It opened in 2009."
    )
    assert cleaned("\n  Paraphrase: It opened in 2009.  ") == "It opened in 2009."


async def test_every_sentence_asked_is_recorded_and_a_rerun_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "paraphrases.jsonl"
    pairs = [copy(f"{SENTENCE} ({n})", f"gen:d:{n}") for n in range(4)]
    pairs.append({**copy("A passage sentence.", "x"), "source": "gen-neighbour"})  # not a copy
    first = await paraphrase(ScriptedModel([REWRITE, ModelTimeout("slow")]), pairs, out, limit=2)
    assert sum(first.values()) == 2 and first["error: ModelTimeout"] == 1
    model = ScriptedModel(default=REWRITE)
    second = await paraphrase(model, pairs, out, limit=10)
    assert sum(second.values()) == 2 and len(model.calls) == 2  # only the two not yet asked
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["text"] for r in rows) == sorted(p["text"] for p in order(pairs))
    assert model.calls[0][-1].content in {r["text"] for r in rows[2:]}  # the sentence itself


def test_kept_paraphrases_become_a_positive_and_its_changed_version(tmp_path: Path) -> None:
    out = tmp_path / "paraphrases.jsonl"
    rows = [
        {"text": SENTENCE, "paraphrase": REWRITE, "rejected": None},
        {"text": "Other sentence.", "paraphrase": "Another one.", "rejected": "terms"},
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"text": "torn')
    pairs = [copy(SENTENCE, "gen:d:1"), copy("Other sentence.", "gen:d:2")]
    made = list(paraphrase_pairs(pairs, out))
    first = made[0]
    assert (first["text"], first["label"], first["source"]) == (REWRITE, 1, "gen-paraphrase")
    assert len(made) == 2 and made[1]["label"] == 0 and made[1]["text"] != REWRITE
    assert made[1]["source"].startswith("gen-paraphrase-")
    assert {p["group"] for p in made} == {"gen:d:1"} and {p["evidence"] for p in made} == {WINDOW}
    assert list(paraphrase_pairs(pairs, tmp_path / "absent.jsonl")) == []
