"""A report as a file: Markdown, one self-contained HTML page, or the JSON of `Report`.

The HTML page has no external assets (its style is inline, no script): each citation
marker links to its entry under Sources, which shows the location, a `file://` link to the
lines and the cited passage; the quality checks and warnings follow the report.
"""

from __future__ import annotations

import html
import re
from typing import Literal

from citesynth.citations.resolve import CANONICAL, numbers_in
from citesynth.report.values import Report

Format = Literal["md", "html", "json"]
FORMATS: tuple[Format, ...] = ("md", "html", "json")

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CODE = re.compile(r"`([^`]+)`")
_STYLE = """
body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;
color:#1d232a}h1{font-size:1.8rem}h2{margin-top:2rem;border-bottom:1px solid #dde}
a.cite{text-decoration:none;font-size:.8em;vertical-align:super}code{background:#f2f3f5;
padding:0 .2em}ol.sources{padding-left:1.2rem}ol.sources li{margin:.4rem 0}
ol.sources li:target{background:#fff6d6}.meta{color:#5b6470;font-size:.9rem}
details{font-size:.9rem;color:#444}.fail{color:#a40000}.pass{color:#1a7f37}
"""


def render(report: Report, form: Format) -> str:
    """The report in `form`."""
    if form == "json":
        return report.model_dump_json(indent=2) + "\n"
    if form == "html":
        return to_html(report)
    return report.markdown


def to_html(report: Report) -> str:
    """One self-contained HTML page (see the module docstring)."""
    text = report.markdown.split("\n## Sources\n", 1)[0]
    parts = [_blocks(text)]
    parts.append("<h2>Sources</h2>\n<ol class=sources>")
    for source in report.sources:
        parts.append(
            f'<li id="source-{source.number}" value="{source.number}">'
            f"{_inline(source.title.rstrip('.') or source.path)}. "
            f'<a href="{html.escape(source.url, quote=True)}">{html.escape(source.location)}</a>. '
            f"Accessed {html.escape(source.accessed)}."
            f"<details><summary>passage</summary>{html.escape(source.snippet)}</details></li>"
        )
    parts.append("</ol>\n<h2>Checks</h2>\n<ul class=meta>")
    for item in report.checks:
        mark = "<span class=pass>✓</span>" if item.passed else "<span class=fail>✗</span>"
        parts.append(f"<li>{mark} {html.escape(item.name)}: {html.escape(item.detail)}</li>")
    parts.extend(f"<li>note: {html.escape(w)}</li>" for w in report.warnings)
    judged = "judged" if report.judged else "not judged (no judge model)"
    share = (
        f"{report.supported_share:.0%} of claims supported"
        if report.supported_share is not None
        else "not verified"
    )
    parts.append(
        f"</ul>\n<p class=meta>{report.words} words · {report.citations} citations · {share} · "
        f"{judged} · {html.escape(report.model)} · {html.escape(report.created)}</p>"
    )
    title = html.escape(report.title)
    return (
        f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{title}</title><style>{_STYLE}</style></head><body>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )


def _blocks(text: str) -> str:
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.strip().splitlines()
        heading = re.match(r"^(#{1,3})\s+(.*)$", lines[0]) if len(lines) == 1 else None
        if heading:
            level = len(heading.group(1))
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif all(line.startswith("- ") for line in lines):
            items = "".join(f"<li>{_inline(line[2:])}</li>" for line in lines)
            out.append(f"<ul>{items}</ul>")
        else:
            out.append("<p>" + "<br>\n".join(_inline(line) for line in lines) + "</p>")
    return "\n".join(out)


def _inline(text: str) -> str:
    escaped = html.escape(text, quote=False)
    escaped = _CODE.sub(r"<code>\1</code>", escaped)
    escaped = _BOLD.sub(r"<strong>\1</strong>", escaped)
    return CANONICAL.sub(_cite, escaped)


def _cite(match: re.Match[str]) -> str:
    links = ",".join(f'<a class=cite href="#source-{n}">{n}</a>' for n in numbers_in(match.group()))
    return f"[{links}]"
