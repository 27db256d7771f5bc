"""End-to-end tests of the page at `/`: ask, stream, cite, check, upload, in real Chromium."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citesynth import ModelError
from citesynth.llm.base import Message
from tests.conftest import write
from tests.web.conftest import (
    BUILT,
    LENS,
    LIGHTHOUSE,
    UNSUPPORTED,
    Serve,
    citing,
    source_number,
)

try:
    from playwright.sync_api import expect
except ImportError:  # the `browser` fixture skips (or fails under CI) with the reason
    expect = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Locator, Page

Shot = Callable[..., Path]

FINISHED = """() => {
  const box = document.getElementById('answer');
  return ['done', 'not-found', 'fallback', 'failed'].includes(box.dataset.state)
    && !document.getElementById('ask-submit').disabled;
}"""


def ask(page: Page, question: str) -> None:
    """Type the question and press Enter."""
    page.get_by_test_id("ask-input").fill(question)
    page.get_by_test_id("ask-input").press("Enter")


def finished(page: Page) -> str:
    """Wait for the answer to finish; its final state (done, not-found, fallback, failed)."""
    page.wait_for_function(FINISHED)
    return str(page.get_by_test_id("answer").get_attribute("data-state"))


def citation(page: Page, number: int | None = None) -> Locator:
    links = page.locator("[data-testid=answer] [data-testid=citation]")
    if number is None:
        return links.first
    return links.and_(page.locator(f'[data-number="{number}"]')).first


def active(page: Page, attribute: str) -> str | None:
    value = page.evaluate(
        "(name) => document.activeElement && document.activeElement.getAttribute(name)",
        attribute,
    )
    return None if value is None else str(value)


def test_answer_streams_and_a_citation_opens_its_source(
    serve: Serve, page: Page, screenshot: Shot
) -> None:
    server = serve(default=citing(BUILT, LENS), delay=0.05)
    page.goto(server.url)
    expect(page).to_have_title("citesynth")
    expect(page.get_by_test_id("documents-list")).to_contain_text("docs/lighthouse.md")

    ask(page, "When was the Harbor Lighthouse built?")
    answer = page.get_by_test_id("answer")
    expect(answer).to_have_attribute("data-state", "streaming")
    page.wait_for_function(
        "() => document.querySelector('#answer .stream-text')?.textContent.length > 0"
    )
    state, partial = page.evaluate(
        "() => [document.getElementById('answer').dataset.state,"
        " document.querySelector('#answer .stream-text').textContent]"
    )
    assert state == "streaming", "the answer finished before any streamed text was seen"
    assert partial.strip() and BUILT.startswith(partial.strip()[:20])

    assert finished(page) == "done"
    tokens = int(answer.get_attribute("data-tokens") or 0)
    assert tokens > 3, f"the answer arrived in {tokens} token event(s), not streamed"
    expect(answer).to_contain_text("built in 1872 from local granite")
    expect(answer).to_contain_text("restored in 1998")
    expect(page.get_by_test_id("status")).to_contain_text("Answered")
    expect(page.get_by_test_id("sources-list")).to_contain_text("docs/lighthouse.md")

    link = citation(page)
    expect(link).to_be_visible()
    number = link.get_attribute("data-number")
    assert link.evaluate("node => node.tagName") == "A"
    assert link.evaluate("node => node.closest('sup') !== null")
    link.click()

    panel = page.get_by_test_id("source-panel")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("source-location")).to_have_text(
        re.compile(r"^docs/lighthouse\.md:L\d+-L\d+$")
    )
    mark = panel.locator("mark").first
    expect(mark).to_be_visible()
    marked = mark.inner_text()
    assert marked and marked in LIGHTHOUSE
    assert marked == BUILT, f"source [{number}] highlights {marked!r}"
    expect(panel.locator(".line.in-chunk").first).to_be_visible()
    assert panel.locator(".line-number").first.inner_text().strip().isdigit()
    screenshot(page)

    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert active(page, "data-testid") == "citation"
    assert active(page, "data-number") == number


def test_upload_indexes_a_file_that_answers_cite(
    serve: Serve, page: Page, screenshot: Shot, tmp_path: Path
) -> None:
    comet = "The Kestrel comet returns every seventy-six years and was last seen in 1986."
    server = serve(default=citing(comet))
    upload = write(
        tmp_path / "outbox",
        "kestrel-comet.md",
        f"# Kestrel comet\n\n{comet}\nIts tail glows green because of diatomic carbon.\n",
    )
    page.goto(server.url)
    expect(page.get_by_test_id("documents-list")).to_contain_text("docs/orchard.md")

    status = page.get_by_test_id("upload-status")
    refused = write(tmp_path / "outbox", "tool.exe", b"MZ\x90\x00")
    page.get_by_test_id("upload-input").set_input_files(str(refused))
    page.get_by_test_id("upload-submit").click()
    expect(status).to_have_attribute("data-state", "failed")
    expect(status).to_contain_text("'tool.exe': unsupported file type")

    page.get_by_test_id("upload-input").set_input_files(str(upload))
    page.get_by_test_id("upload-submit").click()
    expect(status).to_have_attribute("data-state", "done", timeout=20_000)
    expect(status).to_contain_text("1 file indexed")
    progress = page.get_by_test_id("upload-progress")
    assert progress.evaluate("node => node.value === node.max")
    documents = page.get_by_test_id("documents-list")
    expect(documents).to_contain_text("kestrel-comet.md")
    uploaded = documents.locator("[data-testid=document]", has_text="kestrel-comet.md")
    expect(uploaded.get_by_test_id("delete-document")).to_be_visible()

    ask(page, "How often does the Kestrel comet return?")
    assert finished(page) == "done"
    expect(page.get_by_test_id("answer")).to_contain_text("every seventy-six years")
    citation(page).click()
    expect(page.get_by_test_id("source-location")).to_contain_text("kestrel-comet.md")
    expect(page.get_by_test_id("source-panel").locator("mark")).to_have_text(comet)
    screenshot(page)

    delete = uploaded.get_by_test_id("delete-document")
    delete.click()
    expect(delete).to_have_text("Confirm delete")
    delete.click()
    expect(documents).not_to_contain_text("kestrel-comet.md")
    expect(status).to_contain_text("Deleted uploads/kestrel-comet.md")
    assert not (tmp_path / "uploads" / "kestrel-comet.md").exists()


def test_model_failure_shows_the_fallback_with_ranked_chunks(
    serve: Serve, page: Page, screenshot: Shot
) -> None:
    server = serve([ModelError("model unavailable")])
    page.goto(server.url)
    ask(page, "How many varieties does the Millbrook orchard grow?")
    assert finished(page) == "fallback"

    notice = page.get_by_test_id("fallback-notice")
    expect(notice).to_be_visible()
    expect(page.get_by_test_id("fallback-reason")).to_contain_text("model unavailable")
    items = page.get_by_test_id("fallback-item")
    assert items.count() >= 2
    expect(items.first).to_contain_text("docs/orchard.md")
    expect(items.first).to_contain_text("fourteen varieties of heritage apples")
    expect(page.get_by_test_id("confidence")).to_be_hidden()

    # Document text is data: the <script> in orchard.md is shown, never run.
    expect(notice).to_contain_text("<script>window.__pwned = 1</script>")
    assert page.evaluate("() => window.__pwned === undefined")

    items.first.click()
    panel = page.get_by_test_id("source-panel")
    expect(panel).to_be_visible()
    expect(page.get_by_test_id("source-location")).to_contain_text("docs/orchard.md")
    expect(panel.locator(".line.in-chunk").first).to_be_visible()
    expect(panel).to_contain_text("<script>")
    assert page.evaluate("() => window.__pwned === undefined")
    screenshot(page)


def test_question_without_matching_content_is_not_found(
    serve: Serve, page: Page, screenshot: Shot
) -> None:
    server = serve(default=citing(BUILT))
    page.goto(server.url)
    ask(page, "zebra quantum xylophone")
    assert finished(page) == "not-found"
    notice = page.get_by_test_id("not-found-notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Not found in the sources")
    expect(page.locator("#sources-heading")).to_have_text("Sources searched")
    expect(notice).to_contain_text("was found to answer this question")
    assert page.get_by_test_id("source-item").count() >= 1
    # each passage searched says which section it is from (what it is about)
    assert page.locator("[data-testid=source-item] .source-section").count() >= 1
    assert page.locator("[data-testid=answer] [data-testid=citation]").count() == 0
    expect(page.get_by_test_id("fallback-notice")).to_be_hidden()
    expect(page.get_by_test_id("copy-button")).to_be_hidden()
    screenshot(page)


def test_keyboard_only(serve: Serve, page: Page, screenshot: Shot) -> None:
    server = serve(default=citing(BUILT))
    page.goto(server.url)
    page.wait_for_function("() => document.querySelectorAll('[data-testid=document]').length")

    for _ in range(10):
        page.keyboard.press("Tab")
        if active(page, "id") == "question":
            break
    assert active(page, "id") == "question", "Tab never reached the ask box"

    page.keyboard.type("first line")
    page.keyboard.press("Shift+Enter")
    assert page.get_by_test_id("ask-input").input_value() == "first line\n"
    expect(page.get_by_test_id("result")).to_be_hidden()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("When was the Harbor Lighthouse built?")
    page.keyboard.press("Enter")
    assert finished(page) == "done"

    for _ in range(20):
        page.keyboard.press("Tab")
        if active(page, "data-testid") == "citation":
            break
    assert active(page, "data-testid") == "citation", "Tab never reached a citation"
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused citation has no visible focus style"
    number = active(page, "data-number")

    page.keyboard.press("Enter")
    panel = page.get_by_test_id("source-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("mark")).to_have_text(BUILT)
    screenshot(page)

    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert active(page, "data-number") == number


def test_phone_width_does_not_overflow(serve: Serve, page: Page, screenshot: Shot) -> None:
    server = serve(default=citing(BUILT, LENS))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url)
    ask(page, "When was the Harbor Lighthouse built?")
    assert finished(page) == "done"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    citation(page).click()
    panel = page.get_by_test_id("source-panel")
    expect(panel).to_be_visible()
    expect(panel.locator("mark")).to_be_visible()
    box = panel.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert 0 <= box["y"] < 844 and box["height"] > 100
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, full_page=False)


def test_token_is_asked_for_and_sent(serve: Serve, page: Page, screenshot: Shot) -> None:
    token = "t" * 20
    server = serve(default=citing(BUILT), token=token)
    page.goto(server.url)
    form = page.get_by_test_id("token-form")
    expect(form).to_be_visible()
    expect(page.get_by_test_id("token-input")).to_be_focused()
    screenshot(page, "-prompt")

    page.get_by_test_id("token-input").fill("w" * 20)
    page.get_by_test_id("token-submit").click()
    expect(form).to_be_visible()
    expect(form).to_contain_text("not accepted")

    page.get_by_test_id("token-input").fill(token)
    page.get_by_test_id("token-submit").click()
    expect(form).to_be_hidden()
    expect(page.get_by_test_id("documents-list")).to_contain_text("docs/lighthouse.md")
    assert page.evaluate("sessionStorage.getItem('citesynth.token')") == token

    ask(page, "When was the Harbor Lighthouse built?")
    assert finished(page) == "done"
    expect(page.get_by_test_id("answer")).to_contain_text("built in 1872")
    citation(page).click()
    expect(page.get_by_test_id("source-panel").locator("mark")).to_have_text(BUILT)
    screenshot(page)


def test_removed_code_is_listed_as_code(serve: Serve, page: Page, screenshot: Shot) -> None:
    built = citing(BUILT)

    def reply(messages: Sequence[Message]) -> str:
        answer = built(messages)
        number = answer[answer.rindex("[") + 1 : answer.rindex("]")] if answer else ""
        code = "lighthouse.paint(\n    colour='purple',\n)"
        return (
            f"{answer} Paint it as follows [{number}]:\n\n```python\n{code}\n```" if answer else ""
        )

    server = serve(default=reply)
    page.goto(server.url)
    ask(page, "When was the Harbor Lighthouse built?")
    assert finished(page) == "done"
    expect(page.get_by_test_id("answer")).not_to_contain_text("purple")
    removed = page.get_by_test_id("removed-claim")  # the sentence introducing it, and the code
    expect(removed).to_have_count(2)
    expect(removed.first).to_contain_text("Paint it as follows")
    expect(removed.locator("pre")).to_have_text("lighthouse.paint(\n    colour='purple',\n)")
    screenshot(page)


def test_brackets_in_quoted_code_are_code_not_citations(
    serve: Serve, page: Page, docs: Path
) -> None:
    intro = "The keeper records the state of each lamp as follows:"
    write(docs, "keeper.md", f"# Keeper\n\n{intro}\n\n```python\nrecord(lamps[1])\n```\n")
    built = citing(BUILT)

    def reply(messages: Sequence[Message]) -> str:
        prompt = "\n".join(m.content for m in messages if m.role == "user")
        number = source_number(prompt, intro)
        answer = built(messages)
        if not answer or number is None:
            return answer
        return f"{answer} {intro[:-1]} [{number}]:\n\n```python\nrecord(lamps[1])\n```"

    server = serve(default=reply)
    page.goto(server.url)
    ask(page, "How does the keeper record the state of each lamp?")
    assert finished(page) == "done"
    answer = page.get_by_test_id("answer")
    expect(answer).to_contain_text("record(lamps[1])")
    expect(answer.get_by_test_id("citation")).to_have_count(2)
    expect(page.get_by_test_id("removed-claim")).to_have_count(0)


def test_unsupported_claim_confidence_and_copy(
    serve: Serve, page: Page, context: BrowserContext, screenshot: Shot
) -> None:
    server = serve(default=citing(BUILT, also=[UNSUPPORTED]))
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page.goto(server.url)
    ask(page, "When was the Harbor Lighthouse built?")
    assert finished(page) == "done"

    removed = page.get_by_test_id("removed-claim")  # taken out of the answer, listed
    expect(removed).to_have_count(1)
    expect(removed).to_contain_text("painted bright purple")
    expect(page.get_by_test_id("answer")).not_to_contain_text("painted bright purple")
    expect(page.get_by_test_id("answer")).to_contain_text("built in 1872")
    expect(page.get_by_test_id("removed")).to_contain_text("no source supports them")

    meter = page.get_by_test_id("confidence-meter")
    expect(meter).to_be_visible()
    value = float(meter.evaluate("node => node.value"))
    assert 0.0 < value < 1.0
    expect(page.get_by_test_id("confidence-value")).to_have_text(re.compile(r"^\d{1,3}%"))

    copy = page.get_by_test_id("copy-button")
    expect(copy).to_be_visible()
    copy.click()
    expect(copy).to_have_text("Copied")
    expect(page.get_by_test_id("copy-status")).to_have_text("Copied")
    screenshot(page)
    try:
        copied = str(page.evaluate("() => navigator.clipboard.readText()"))
    except Exception:  # no clipboard in this headless build: "Copied" is what we can check
        return
    assert "Sources" in copied
    assert "[1]" in copied
    assert "Harbor Lighthouse — docs/lighthouse.md:L1-L4" in copied


def test_multi_source_synthesis_badge_and_conflict(
    serve: Serve, page: Page, screenshot: Shot, docs: Path
) -> None:
    write(
        docs,
        "visitor-guide.md",
        "# Visiting the Harbor Lighthouse\n\n"
        "Visitors climb 120 steps to reach the lantern room at the top.\n"
        "Tickets are sold at the keeper's cottage and include the museum.\n"
        "Guided tours of the lighthouse leave every hour from the harbour wall.\n\n"
        "## Opening hours\n\n"
        "The lighthouse opens to visitors from April to October.\n"
        "In winter the tower is closed while the keepers service the lamp and lens.\n"
        "School groups may book visits outside the season by writing to the harbour office.\n",
    )
    steps = "Visitors climb 112 steps to reach the lantern room at the top."
    guide = "Visitors climb 120 steps to reach the lantern room at the top."

    def reply(messages: Sequence[Message]) -> str:
        prompt = "\n".join(m.content for m in messages if m.role == "user")
        one, two = source_number(prompt, steps), source_number(prompt, guide)
        if one is None or two is None:
            return ""
        return f"Answer: Visitors climb to the lantern room at the top [{one},{two}]."

    server = serve(default=reply)
    page.goto(server.url)
    ask(page, "How many steps do visitors climb to the lantern room of the Harbor Lighthouse?")
    assert finished(page) == "done"

    badge = page.get_by_test_id("synthesis-badge")
    expect(badge).to_be_visible()
    expect(badge).to_have_text(re.compile(r"^Multi-source synthesis · \d+ documents$"))
    links = page.locator("[data-testid=answer] [data-testid=citation]")
    expect(links.nth(2)).to_be_visible()  # the sentence [1,2], then each side of the disagreement
    assert "cite-multi" in (links.first.get_attribute("class") or "")
    expect(page.get_by_test_id("answer")).to_contain_text("says 112 steps")
    expect(page.get_by_test_id("answer")).to_contain_text("says 120 steps")
    conflicts = page.get_by_test_id("conflict")
    expect(conflicts.first).to_contain_text("Sources disagree")
    expect(conflicts.first).to_contain_text("112")
    expect(conflicts.first).to_contain_text("120")
    assert conflicts.first.get_by_test_id("citation").count() == 2

    links.first.click()
    expect(page.get_by_test_id("source-kind")).to_contain_text("Multi-source citation")
    screenshot(page)


def test_a_report_streams_progress_and_its_citations_open_their_sources(
    serve: Serve, page: Page, screenshot: Shot
) -> None:
    plan = '["When was the Harbor Lighthouse built?", "When was the lighthouse lens restored?"]'
    server = serve([plan], default=citing(BUILT, LENS), delay=0.02)
    page.goto(server.url)
    page.get_by_test_id("ask-input").fill("What is the history of the Harbor Lighthouse?")
    page.get_by_test_id("report-submit").click()
    report = page.get_by_test_id("report")
    expect(report).to_have_attribute("data-state", "done")
    expect(page.get_by_test_id("result-question")).to_have_text(
        "What is the history of the Harbor Lighthouse"
    )
    for heading in ("Executive Summary", "Key Findings", "Conclusions"):
        expect(report.locator("h3", has_text=heading)).to_be_visible()
    expect(report.locator("h4", has_text="When was the lighthouse lens restored?")).to_be_visible()
    expect(report).to_contain_text("built in 1872 from local granite")
    expect(page.get_by_test_id("status")).to_contain_text("Report written")
    checks = page.get_by_test_id("report-check")
    expect(checks.first).to_be_visible()
    assert all(text.startswith("\u2713") for text in checks.all_inner_texts())
    expect(page.get_by_test_id("report-judge")).to_have_text("Not judged (no judge model).")
    expect(page.get_by_test_id("sources-list")).to_contain_text("docs/lighthouse.md")

    link = report.locator("[data-testid=citation]").first
    link.click()
    panel = page.get_by_test_id("source-panel")
    expect(panel).to_be_visible()
    mark = panel.locator("mark").first
    expect(mark).to_be_visible()
    assert mark.inner_text() in (BUILT, LENS)
    screenshot(page)


def test_report_options_reach_the_server_and_the_judge_is_shown(
    serve: Serve, page: Page, screenshot: Shot
) -> None:
    server = serve([], default=citing(BUILT, LENS), delay=0.01)
    page.goto(server.url)
    page.get_by_test_id("ask-input").fill("What is the history of the Harbor Lighthouse?")
    page.get_by_test_id("report-options").locator("summary").click()
    page.get_by_test_id("report-words").fill("150")
    page.get_by_test_id("report-outline").fill(
        "When was the Harbor Lighthouse built?\nWhen was the lighthouse lens restored?"
    )
    page.get_by_test_id("report-judge-model").fill("fake")  # answers, never scores
    page.get_by_test_id("report-submit").click()
    report = page.get_by_test_id("report")
    expect(report).to_have_attribute("data-state", "done")
    expect(report.locator("h4", has_text="When was the Harbor Lighthouse built?")).to_be_visible()
    expect(report.locator("h4", has_text="When was the lighthouse lens restored?")).to_be_visible()
    expect(page.get_by_test_id("status")).to_contain_text("Report written")
    words = int(page.get_by_test_id("status").inner_text().split(": ")[1].split(" words")[0])
    assert words <= 150
    expect(page.get_by_test_id("report-judge")).to_contain_text(
        "Not judged: the judge's reply could not be read"
    )
    screenshot(page)
