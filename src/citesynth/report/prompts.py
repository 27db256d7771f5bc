"""The report's templates, registered beside the answer's (overridable from files alike)."""

from __future__ import annotations

from citesynth.synthesis.prompts import BUILT_IN, Prompt, register_prompt

PLAN = Prompt(
    "report.plan",
    "1",
    "You plan a research report that will be written only from a user's documents.\n"
    "Split the question below into {least} to {most} subtopics, each a short, specific "
    "question that the documents could answer, together covering the whole question without "
    "overlapping.\nReply with a JSON array of strings and nothing else.\n\n"
    "Question: {question}\nSubtopics:",
)

if PLAN.name not in BUILT_IN:
    register_prompt(PLAN)
