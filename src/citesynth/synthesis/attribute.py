"""Post-hoc attribution: cite sentences a model forgot to cite, when a source clearly holds them.

Small models often write a correct sentence and drop its marker. A factual sentence without
a marker gets one when at least `min_coverage` of its content terms (and at least three)
occur in a single source; the best such source is cited. Sentences that match no source
stay uncited, so an invented claim is never dressed up with a citation; verification then
tries every source for them and removes those none supports (`finishing.verified`). Only
statements are read (`factual_spans`): never a heading, a bold title line ("**How Does It
Work?**", which would cite the document it titles) or code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from citesynth.analysis import terms
from citesynth.citations.resolve import cited_numbers, factual_spans
from citesynth.synthesis.sources import Source

_END = re.compile(r"[.!?]+[\"')\]]*$")


def attribute(
    text: str, sources: Sequence[Source], *, min_coverage: float = 0.7
) -> tuple[str, int]:
    """`text` (clean markers) with citations added where a source clearly holds a sentence.

    Returns the new text and how many citations were added.
    """
    vocabularies = [(source.number, set(terms(source.chunk.text))) for source in sources]
    pieces: list[str] = []
    position = 0
    added = 0
    for start, end in factual_spans(text):
        sentence = text[start:end]
        words = set(terms(sentence))
        if cited_numbers(sentence) or len(words) < 3:
            continue
        scored = [(len(words & vocab) / len(words), number) for number, vocab in vocabularies]
        best, number = max(scored, key=lambda item: (item[0], -item[1]), default=(0.0, 0))
        if best < min_coverage:
            continue
        ending = _END.search(sentence)
        cut = start + (ending.start() if ending else len(sentence))
        pieces.append(text[position:cut] + f" [{number}]")
        position = cut
        added += 1
    pieces.append(text[position:])
    return "".join(pieces), added
