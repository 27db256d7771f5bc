"""Which subtopics a report covers: the user's outline, the model's plan, or clusters.

1. An outline (`--outline FILE`): every heading, list item or line is a subtopic, in order;
   a lone leading `# Title` names the report instead.
2. The question itself, when it lists its parts ("How does X handle A, B and C?"): each part
   asked on its own.
3. The model (`report.plan` prompt): a JSON array of 3–8 short subtopic questions. A reply
   that is not such a list, an error or a timeout falls through to 4.
4. Clusters of what retrieval found for the question (no model needed, deterministic): the
   hits are grouped by the section they come from (document and first heading), in rank
   order, and each group's heading is a subtopic. Two hits from one section are one cluster;
   its research keeps to its own document (so each section says what one source says).

A subtopic that is a question is researched as it is; a heading is joined with the question
("Timeouts: How do I configure the client?"), so research stays on what was asked.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath

from citesynth.llm.base import ChatModel, ChatOptions, Message, Usage
from citesynth.report.values import Origin, Subtopic
from citesynth.synthesis.prompts import Prompt
from citesynth.types import Hit

MIN_SUBTOPICS = 3
MAX_SUBTOPICS = 8
"""Of a report of ordinary length; a long one plans more (`pipeline.subtopics_for`)."""
_MARK = re.compile(r"^\s*(?:#{1,6}\s+|[-*+•]\s+|\d{1,3}[.)]\s+)")
_ARRAY = re.compile(r"\[.*\]", re.S)
_QUOTED = re.compile(r'"([^"\n]{3,300})"')
_ITEM_WORDS = 4
_LEAD_ENDS = frozenset("of about on in for to with between regarding the a an".split())
_AUXILIARY = frozenset("do does did can could should would will shall may might must".split())


def from_outline(text: str, question: str) -> tuple[str | None, list[Subtopic]]:
    """The outline's title (a lone leading `# Title`) and its subtopics, in order."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    title = None
    if lines and re.match(r"^#\s", lines[0]) and not any(re.match(r"^#\s", x) for x in lines[1:]):
        title = _MARK.sub("", lines.pop(0)).strip()
    titles = [_MARK.sub("", line).strip().rstrip(":") for line in lines]
    return title, _subtopics(titles, question, "outline", limit=len(titles))


async def from_model(
    question: str,
    model: ChatModel,
    prompts: Mapping[str, Prompt],
    *,
    most: int = MAX_SUBTOPICS,
    limit_s: float = 120.0,
) -> tuple[list[Subtopic], Usage | None]:
    """The model's subtopics (at most `most`; none unless it replied with a list), its usage."""
    prompt = prompts["report.plan"].render(
        question=question, least=str(min(MIN_SUBTOPICS, most)), most=str(most)
    )
    text = ""
    usage: Usage | None = None
    try:
        async with asyncio.timeout(limit_s):
            async for piece in model.stream(
                [Message("user", prompt)], ChatOptions(max_tokens=400, temperature=0.2)
            ):
                if isinstance(piece, str):
                    text += piece
                elif isinstance(piece, Usage):
                    usage = piece
    except Exception:  # a failed plan falls back to clusters; it must not fail the report
        return [], usage
    found = parse_plan(text)
    planned = _subtopics(found, question, "model", limit=most) if len(found) >= 2 else []
    return planned, usage


def parse_plan(text: str) -> list[str]:
    """Subtopic titles from a reply: a JSON array of strings, else its list items.

    An array the token limit cut short (`["What is A?", "What is B?", "What`) gives the
    strings it completed.
    """
    match = _ARRAY.search(text)
    if match:
        try:
            items = json.loads(match.group())
        except ValueError:
            items = None
        if isinstance(items, list) and all(isinstance(i, str) for i in items):
            return [" ".join(i.split()) for i in items if i.strip()]
    opened = text.find("[")
    if opened >= 0 and "]" not in text[opened:]:
        quoted = _QUOTED.findall(text, opened)
        if quoted:
            return [" ".join(q.split()) for q in quoted]
    return [_MARK.sub("", line).strip() for line in text.splitlines() if _MARK.match(line)]


def from_question(question: str) -> list[Subtopic]:
    """The parts a question lists, each asked on its own (none when it lists none).

    "How does HTTPX handle timeouts, connection limits and retries?" → "How does HTTPX handle
    timeouts?", "... connection limits?", "... retries?"; a qualifier after the last part
    belongs to every part ("the causes, symptoms and treatment of scurvy" → "the causes of
    scurvy", ...). Parts are at most four words (see `_first_item_size` for the first).
    """
    text = " ".join(question.split())
    stop = text[-1] if text[-1:] in "?.!" else "?"
    pieces = [p.strip() for p in text.rstrip("?.! ").split(",")]
    if len(pieces) < 2:
        return []
    final = pieces[-1]
    joined = re.match(r"(?:and|or)\s+(.+)", final)
    if joined:  # "A, B, and C"
        items = [*pieces[1:-1], joined.group(1)]
    else:
        parts = re.split(r"\s+(?:and|or)\s+", final, maxsplit=1)
        if len(parts) != 2:
            return []
        items = [*pieces[1:-1], *parts]
    items, tail = _shared_tail(items)
    items = [re.sub(r"^(?:the|a|an)\s+", "", item, flags=re.I) for item in items]
    lead = pieces[0].split()
    if any(not i or len(i.split()) > _ITEM_WORDS for i in items) or len(lead) < 2:
        return []
    size = _first_item_size(lead, [len(item.split()) for item in items])
    if tail and _verb_phrases(lead, size):  # "does it verify X, ... and combine Y with Z"
        items[-1], tail = items[-1] + tail, ""
    prefix = " ".join(lead[:-size])
    items.insert(0, " ".join(lead[-size:]))
    return [
        Subtopic(
            title=item[:1].upper() + item[1:],
            query=f"{prefix} {item}{tail}{stop}",
            origin="question",
        )
        for item in items
    ][:MAX_SUBTOPICS]


def _first_item_size(lead: Sequence[str], sizes: Sequence[int]) -> int:
    """How many of the lead's last words are the first item.

    The shortest that leaves the lead ending in a preposition or an article ("the defaults
    of | connection pools"), up to one word longer than the longest other item; else as long
    as the shortest other item.
    """
    for size in range(1, min(len(lead) - 1, max(sizes) + 1) + 1):
        if lead[-size - 1].lower() in _LEAD_ENDS:
            return size
    return min(min(sizes), len(lead) - 1)


def _verb_phrases(lead: Sequence[str], size: int) -> bool:
    """Whether the parts are things done ("How does it | verify claims"), not named.

    A qualifier after the last of them is its own ("combine BM25 with dense retrieval"),
    never every part's.
    """
    before = [word.lower() for word in lead[:-size]]
    return bool(before) and (before[-1] == "to" or (len(before) > 1 and before[-2] in _AUXILIARY))


def _shared_tail(items: list[str]) -> tuple[list[str], str]:
    """The items without a qualifier only the last one carries ("treatment of scurvy")."""
    last = re.match(r"(.+?)(\s+(?:of|in|for|on|at|between|from|with)\s+.+)$", items[-1])
    if last and not any(
        re.search(r"\s(?:of|in|for|on|at|between|from|with)\s", i) for i in items[:-1]
    ):
        return [*items[:-1], last.group(1)], last.group(2)
    return items, ""


def from_clusters(question: str, hits: Sequence[Hit], limit: int = MAX_SUBTOPICS) -> list[Subtopic]:
    """One subtopic per section the hits come from, best-ranked first (at most `limit`)."""
    titles: list[str] = []
    documents: list[str] = []
    seen: set[tuple[str, str]] = set()
    for hit in hits:
        chunk = hit.chunk
        section = chunk.heading_path[0] if chunk.heading_path else ""
        key = (chunk.document_id, section)
        if key in seen:
            continue
        seen.add(key)
        heading = chunk.heading_path[-1] if chunk.heading_path else ""
        titles.append(readable(heading) or readable(chunk.title) or file_title(chunk.path))
        documents.append(chunk.document)
    where = dict(zip(titles, documents, strict=True))
    return [
        s.model_copy(update={"document": where.get(s.title)})
        for s in _subtopics(titles, question, "clusters", limit=limit)
    ]


def readable(title: str) -> str:
    """A heading as a title: no code quotes; a file name ("resource-limits.md") as words."""
    text = title.strip().strip("`\"'")
    if re.fullmatch(r"[\w.-]+\.\w{1,5}", text):
        return file_title(text)
    return text


def file_title(path: str) -> str:
    """A file's name as a title: "advanced/resource-limits.md" → "Resource limits"."""
    words = re.sub(r"[-_]+", " ", PurePosixPath(path).stem).strip()
    return words[:1].upper() + words[1:]


def _subtopics(
    titles: Sequence[str], question: str, origin: Origin, limit: int = MAX_SUBTOPICS
) -> list[Subtopic]:
    chosen: list[Subtopic] = []
    seen: set[str] = set()
    for title in titles:
        clean = " ".join(title.split()).strip(" .")
        if not clean or clean.lower() in seen:
            continue
        seen.add(clean.lower())
        asks = clean.endswith("?") or clean.lower() == question.lower()
        query = clean if asks else f"{clean}: {question}"
        chosen.append(Subtopic(title=clean, query=query, origin=origin))
        if len(chosen) >= limit:
            break
    return chosen
