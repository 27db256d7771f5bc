/* citesynth page: ask, stream the answer, check every citation against its source.
 *
 * Plain browser JavaScript, no build step and no third-party code. Everything a server
 * sends (answers, document text, file names) is data: the DOM is built with createElement
 * and textContent only, never innerHTML.
 */
"use strict";

(function () {
  const TOKEN_KEY = "citesynth.token";
  const CONVERSATION_KEY = "citesynth.conversation";
  const POLL_MS = 300;
  const EXCERPT_CHARS = 280;
  // [1]  [1-3]  [2,4-6]  [2, 4–6]
  const MARKER = /\[(\d+(?:\s*[-\u2013]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-\u2013]\s*\d+)?)*)\]/g;
  const MARKER_WITH_SPACE = /\s*\[(\d+(?:\s*[-\u2013]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-\u2013]\s*\d+)?)*)\]/g;

  const $ = (id) => document.getElementById(id);

  const state = {
    answer: null, // the final answer (done payload)
    sources: new Map(), // number -> source record
    citations: new Map(), // number -> citation
    sourceViews: new Map(), // chunk_id -> SourceView (or a pending promise)
    controller: null, // AbortController of the running stream
    invoker: null, // the element that opened the source panel
    pending: null, // a question to ask again once a token is given
    tokens: 0,
  };

  // ---------------------------------------------------------------- helpers

  function el(tag, options, children) {
    const node = document.createElement(tag);
    if (options) {
      for (const [key, value] of Object.entries(options)) {
        if (value === undefined || value === null || value === false) continue;
        if (key === "text") node.textContent = String(value);
        else if (key === "className") node.className = value;
        else if (key === "dataset") Object.assign(node.dataset, value);
        else node.setAttribute(key, value === true ? "" : String(value));
      }
    }
    for (const child of children || []) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function show(node, visible) {
    node.hidden = !visible;
  }

  function randomId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function conversationId() {
    let id = sessionStorage.getItem(CONVERSATION_KEY);
    if (!id) {
      id = "tab-" + randomId();
      sessionStorage.setItem(CONVERSATION_KEY, id);
    }
    return id;
  }

  function excerpt(text, limit) {
    const flat = String(text || "").replace(/\s+/g, " ").trim();
    return flat.length > limit ? flat.slice(0, limit - 1).trimEnd() + "\u2026" : flat;
  }

  function expandNumbers(inside) {
    const numbers = [];
    for (const part of inside.split(",")) {
      const range = part.split(/[-\u2013]/).map((s) => parseInt(s.trim(), 10));
      if (range.length === 2 && range[0] <= range[1] && range[1] - range[0] < 100) {
        for (let n = range[0]; n <= range[1]; n++) numbers.push(n);
      } else if (!Number.isNaN(range[0])) {
        numbers.push(range[0]);
      }
    }
    return numbers;
  }

  function stripMarkers(text) {
    return String(text || "").replace(MARKER_WITH_SPACE, "");
  }

  function errorText(body, status) {
    if (body && typeof body.detail === "string") return body.detail;
    if (body && Array.isArray(body.detail)) {
      return body.detail.map((item) => (item && item.msg) || JSON.stringify(item)).join("; ");
    }
    return "The server answered " + status + ".";
  }

  // ---------------------------------------------------------------- auth

  function token() {
    return sessionStorage.getItem(TOKEN_KEY) || "";
  }

  function authHeaders(headers) {
    const all = Object.assign({}, headers || {});
    const value = token();
    if (value) all.Authorization = "Bearer " + value;
    return all;
  }

  function needToken() {
    const form = $("token-form");
    const hadToken = Boolean(token());
    if (hadToken) sessionStorage.removeItem(TOKEN_KEY);
    $("token-message").textContent = hadToken
      ? "That token was not accepted. Enter the right one."
      : "This server needs an access token.";
    show(form, true);
    const input = $("token-input");
    if (document.activeElement !== input) input.focus();
  }

  class Unauthorized extends Error {}

  async function api(path, options) {
    const init = Object.assign({}, options || {});
    init.headers = authHeaders(init.headers);
    const response = await fetch(path, init);
    if (response.status === 401) {
      needToken();
      throw new Unauthorized("An access token is needed.");
    }
    return response;
  }

  async function apiJson(path, options) {
    const response = await api(path, options);
    let body = null;
    try {
      body = await response.json();
    } catch (_) {
      body = null;
    }
    if (!response.ok) throw new Error(errorText(body, response.status));
    return body;
  }

  function onTokenSubmit(event) {
    event.preventDefault();
    const value = $("token-input").value.trim();
    if (!value) return;
    sessionStorage.setItem(TOKEN_KEY, value);
    $("token-input").value = "";
    $("token-message").textContent = "";
    show($("token-form"), false);
    loadDocuments();
    if (state.pending) {
      const question = state.pending;
      state.pending = null;
      ask(question);
    } else {
      $("question").focus();
    }
  }

  // ---------------------------------------------------------------- asking

  function setStatus(text) {
    $("status").textContent = text;
  }

  function resetResult(question) {
    state.answer = null;
    state.sources = new Map();
    state.citations = new Map();
    state.tokens = 0;
    closePanel(false);
    show($("result"), true);
    $("result-question").textContent = question;
    const answer = $("answer");
    clear(answer);
    answer.dataset.state = "waiting";
    answer.dataset.tokens = "0";
    answer.classList.remove("is-final");
    for (const id of [
      "synthesis-badge",
      "confidence",
      "disclaimer",
      "error-notice",
      "not-found-notice",
      "fallback-notice",
      "copy-markdown",
      "notes",
      "sources",
      "report",
      "report-checks",
    ]) {
      show($(id), false);
    }
    show($("answer"), true);
    clear($("report"));
    $("report").dataset.state = "idle";
    $("copy-status").textContent = "";
    clear($("fallback-list"));
    clear($("sources-list"));
  }

  function setBusy(busy) {
    $("ask-submit").disabled = busy;
    $("report-submit").disabled = busy;
    show($("stop"), busy);
    $("result").setAttribute("aria-busy", busy ? "true" : "false");
  }

  async function ask(question) {
    question = question.trim();
    if (!question) return;
    if (state.controller) state.controller.abort();
    const controller = new AbortController();
    state.controller = controller;
    resetResult(question);
    setBusy(true);
    setStatus("Searching your documents\u2026");
    const started = performance.now();
    let finished = false;
    let failed = false;
    try {
      const stream = await openStream(
        "/api/chat/stream",
        { question: question, conversation_id: conversationId() },
        controller.signal,
        "answer",
      );
      await readEvents(stream, (name, data) => {
        if (name === "error") failed = true;
        if (name === "done") finished = true;
        handleEvent(name, data, started);
      });
      if (!finished && !failed) {
        showError("The answer stream ended before the answer was finished.");
      }
    } catch (error) {
      if (error instanceof Unauthorized) {
        state.pending = question;
        setStatus("Waiting for an access token.");
        $("answer").dataset.state = "idle";
      } else if (error && error.name === "AbortError") {
        if (state.controller === controller) setStatus("Stopped.");
        $("answer").dataset.state = "stopped";
      } else {
        showError(error && error.message ? error.message : String(error));
      }
    } finally {
      if (state.controller === controller) {
        state.controller = null;
        setBusy(false);
      }
    }
  }

  // ---------------------------------------------------------------- reports

  function reportRequest(question) {
    // The question, with the report options the user filled in (the server's defaults otherwise).
    const body = { question: question };
    const words = parseInt($("report-words").value, 10);
    if (Number.isFinite(words) && words >= 50) body.max_words = Math.min(words, 20000);
    const judge = $("report-judge-model").value.trim();
    if (judge) body.judge = judge;
    const outline = $("report-outline").value.trim();
    if (outline) body.outline = outline;
    return body;
  }

  async function writeReport(question) {
    question = question.trim();
    if (!question) return;
    if (state.controller) state.controller.abort();
    const controller = new AbortController();
    state.controller = controller;
    resetResult(question);
    show($("answer"), false);
    const box = $("report");
    box.dataset.state = "waiting";
    setBusy(true);
    setStatus("Planning the report\u2026");
    const started = performance.now();
    let finished = false;
    try {
      const stream = await openStream("/api/reports/stream", reportRequest(question), controller.signal, "report");
      await readEvents(stream, (name, data) => {
        if (name === "report_progress") setStatus(progressText(data));
        else if (name === "report_done") {
          finished = true;
          renderReport(data.report, started);
        } else if (name === "error") {
          finished = true;
          showReportError(data.message || "The report could not be written.");
        }
      });
      if (!finished) showReportError("The report stream ended before the report was finished.");
    } catch (error) {
      if (error instanceof Unauthorized) {
        setStatus("Waiting for an access token.");
        box.dataset.state = "idle";
      } else if (error && error.name === "AbortError") {
        if (state.controller === controller) setStatus("Stopped.");
        box.dataset.state = "stopped";
      } else {
        showReportError(error && error.message ? error.message : String(error));
      }
    } finally {
      if (state.controller === controller) {
        state.controller = null;
        setBusy(false);
      }
    }
  }

  function progressText(progress) {
    const names = { plan: "Planning", research: "Researching", write: "Writing", check: "Checking", judge: "Judging" };
    let text = names[progress.stage] || progress.stage;
    if (progress.stage === "research" || progress.stage === "write") {
      text += " " + (progress.done + 1) + "/" + progress.total;
    }
    if (progress.message) text += ": " + progress.message;
    if (typeof progress.eta_seconds === "number" && progress.eta_seconds > 0) {
      text += " \u00b7 about " + Math.max(1, Math.round(progress.eta_seconds)) + " s left";
    }
    return text + "\u2026";
  }

  function showReportError(message) {
    showError(message);
    setStatus("The report failed.");
    $("report").dataset.state = "failed";
  }

  function renderReport(report, started) {
    const claims = [];
    for (const section of report.sections || []) claims.push(...(section.claims || []));
    state.answer = { claims: claims, citations: [] };
    state.citations = new Map();
    state.sources = new Map(
      (report.sources || []).map((s) => [
        s.number,
        { number: s.number, chunk_id: s.chunk_id, title: s.title, path: s.path, location: s.location, url: s.url, text: s.snippet },
      ]),
    );
    const box = $("report");
    clear(box);
    const body = String(report.markdown || "").split("\n## Sources\n")[0];
    for (const block of body.split(/\n\s*\n/)) {
      const lines = block.trim().split("\n");
      if (!lines[0]) continue;
      const heading = lines.length === 1 ? /^(#{1,3})\s+(.*)$/.exec(lines[0]) : null;
      if (heading) {
        if (heading[1].length === 1) continue; // the title is the result's heading
        box.append(el(heading[1].length === 2 ? "h3" : "h4", {}, inline(heading[2])));
      } else if (lines.every((line) => line.startsWith("- "))) {
        box.append(el("ul", {}, lines.map((line) => el("li", {}, inline(line.slice(2))))));
      } else {
        const paragraph = el("p");
        lines.forEach((line, i) => {
          if (i) paragraph.append(el("br"));
          paragraph.append(...inline(line));
        });
        box.append(paragraph);
      }
    }
    $("result-question").textContent = report.title;
    show(box, true);
    box.dataset.state = "done";
    const all = new Set((report.sources || []).map((s) => s.number));
    renderSources(Array.from(state.sources.values()), all, false);
    const checks = $("report-check-list");
    clear(checks);
    for (const check of report.checks || []) {
      checks.append(
        el("li", { className: check.passed ? "is-passed" : "is-failed", dataset: { testid: "report-check" } }, [
          (check.passed ? "\u2713 " : "\u2717 ") + check.name + ": " + check.detail,
        ]),
      );
    }
    const judged = (report.judgements || [])[report.judgements ? report.judgements.length - 1 : 0];
    const dimensions = judged
      ? Object.entries(judged.scores || {}).map(([name, score]) => name.replace(/_/g, " ") + " " + score).join(", ")
      : "";
    $("report-judge").textContent = judged
      ? "Judged " + judged.overall.toFixed(2) + "/5 by " + judged.judge +
        (report.revisions ? " after " + report.revisions + " revision(s)" : "") +
        (dimensions ? " (" + dimensions + ")" : "") + "." +
        (judged.feedback ? " " + judged.feedback : "")
      : unjudged(report.warnings || []);
    show($("report-checks"), true);
    renderNotes({ warnings: (report.warnings || []).filter((w) => !w.startsWith("not judged")) });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const share = typeof report.supported_share === "number" ? ", " + Math.round(report.supported_share * 100) + "% of claims supported" : "";
    setStatus("Report written in " + seconds + " s: " + report.words + " words, " + all.size + " sources" + share + ".");
  }

  function unjudged(warnings) {
    // Why the report was not judged: no judge model, or what the judge did wrong.
    const why = warnings.find((w) => w.startsWith("not judged: ") && !w.includes("no judge model"));
    return why ? "Not judged: " + why.slice("not judged: ".length) + "." : "Not judged (no judge model).";
  }

  function inline(text) {
    // Text with **bold**, `code` and citation markers, as DOM nodes (never innerHTML).
    const nodes = [];
    const pattern = /\*\*(.+?)\*\*|`([^`]+)`|\[(\d+(?:\s*[-\u2013]\s*\d+)?(?:\s*,\s*\d+(?:\s*[-\u2013]\s*\d+)?)*)\]/g;
    let last = 0;
    let match;
    while ((match = pattern.exec(text)) !== null) {
      if (match.index > last) nodes.push(document.createTextNode(text.slice(last, match.index)));
      if (match[1] !== undefined) nodes.push(el("strong", { text: match[1] }));
      else if (match[2] !== undefined) nodes.push(el("code", { text: match[2] }));
      else nodes.push(citationGroup(expandNumbers(match[3]), match[0]));
      last = match.index + match[0].length;
    }
    if (last < text.length) nodes.push(document.createTextNode(text.slice(last)));
    return nodes;
  }

  async function openStream(path, payload, signal, what) {
    // POST `payload` to a server-sent event route; the body to read, or an Error saying why not.
    const response = await api(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
      body: JSON.stringify(payload),
      signal: signal,
    });
    if (!response.ok) {
      let body = null;
      try {
        body = await response.json();
      } catch (_) {
        body = null;
      }
      throw new Error(errorText(body, response.status));
    }
    if (!response.body) throw new Error("This browser cannot read a streamed " + what + ".");
    return response.body;
  }

  async function readEvents(body, onEvent) {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      buffer += decoder.decode(value || new Uint8Array(), { stream: !done });
      // Line ends may be \r\n or \r; a trailing \r waits for the next read (it may be \r\n).
      const held = !done && buffer.endsWith("\r") ? "\r" : "";
      buffer = buffer.slice(0, buffer.length - held.length).replace(/\r\n?/g, "\n") + held;
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        dispatch(block, onEvent);
      }
      if (done) break;
    }
    if (buffer.trim()) dispatch(buffer, onEvent);
  }

  function dispatch(block, onEvent) {
    let name = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue; // keep-alive comments
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
    }
    if (!data.length) return;
    let payload;
    try {
      payload = JSON.parse(data.join("\n"));
    } catch (_) {
      return;
    }
    onEvent(name, payload);
  }

  function handleEvent(name, data, started) {
    const answer = $("answer");
    if (name === "sources") {
      const sources = data.sources || [];
      for (const source of sources) state.sources.set(source.number, source);
      renderSources(sources, new Set(), false);
      setStatus(
        sources.length
          ? "Found " + sources.length + " source" + (sources.length === 1 ? "" : "s") + ". Writing\u2026"
          : "Writing\u2026",
      );
    } else if (name === "token") {
      if (answer.dataset.state !== "streaming") {
        clear(answer);
        answer.append(el("span", { className: "stream-text" }));
        answer.append(el("span", { className: "cursor", "aria-hidden": "true" }));
        answer.dataset.state = "streaming";
      }
      answer.querySelector(".stream-text").textContent += data.text || "";
      state.tokens += 1;
      answer.dataset.tokens = String(state.tokens);
    } else if (name === "citation") {
      for (const citation of data.citations || []) state.citations.set(citation.number, citation);
    } else if (name === "verification") {
      setStatus("Checking citations\u2026");
      renderConfidence(data.confidence, data.low_confidence, null);
    } else if (name === "error") {
      showError(data.message || "The answer could not be written.");
      if (Array.isArray(data.fallback) && data.fallback.length) {
        for (const source of data.fallback) state.sources.set(source.number, source);
        renderFallbackList(data.fallback);
      }
    } else if (name === "done") {
      const final = data && typeof data.answer === "object" && data.answer !== null ? data.answer : data;
      renderAnswer(final, started);
    }
  }

  function showError(message) {
    const notice = $("error-notice");
    clear(notice);
    notice.append(el("strong", { text: "Error: " }), message);
    show(notice, true);
    setStatus("The answer failed.");
    const answer = $("answer");
    if (answer.dataset.state === "waiting") answer.dataset.state = "failed";
  }

  // ---------------------------------------------------------------- the answer

  function renderAnswer(answer, started) {
    state.answer = answer;
    state.sources = new Map((answer.sources || []).map((s) => [s.number, s]));
    state.citations = new Map((answer.citations || []).map((c) => [c.number, c]));
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const box = $("answer");
    clear(box);
    box.classList.add("is-final");
    const cited = new Set((answer.citations || []).map((c) => c.number));

    if (answer.fallback) {
      show($("error-notice"), false);
      $("fallback-reason").textContent = "Fallback: " + answer.fallback.reason;
      renderFallbackList(answer.sources || []);
      show($("fallback-notice"), true);
      box.dataset.state = "fallback";
      setStatus("No written answer: showing the most relevant passages.");
    } else if (answer.not_found) {
      const notice = $("not-found-notice");
      clear(notice);
      const count = (answer.sources || []).length;
      notice.append(
        el("p", { className: "notice-title", text: "Not found in the sources" }),
        el("p", {
          className: "notice-text",
          text: count
            ? "None of the " + count + " passages searched was found to answer this question. " +
              "They are listed below with their sections: check them."
            : "Nothing in the index matches this question.",
        }),
      );
      show(notice, true);
      box.dataset.state = "not-found";
      setStatus("Not found in the sources.");
    } else {
      renderAnswerText(box, answer);
      box.dataset.state = "done";
      const n = cited.size;
      setStatus("Answered in " + seconds + " s with " + n + " cited source" + (n === 1 ? "" : "s") + ".");
    }

    if (answer.synthesis_mode) {
      const badge = $("synthesis-badge");
      const docs = answer.source_doc_count || 0;
      badge.textContent = "Multi-source synthesis \u00b7 " + docs + " document" + (docs === 1 ? "" : "s");
      badge.title = "The answer combines evidence from several documents";
      show(badge, true);
    }
    if (!answer.fallback && !answer.not_found) {
      renderConfidence(answer.confidence, answer.low_confidence, answer.disclaimer);
      show($("copy-markdown"), true);
    } else {
      show($("confidence"), false);
    }
    renderNotes(answer);
    renderSources(answer.sources || [], cited, Boolean(answer.not_found));
    if (answer.fallback) show($("sources"), false); // listed with excerpts in the notice
  }

  function claimRanges(text, claims) {
    // The answer without markers, and where each of its characters is in the answer.
    const map = [];
    let plain = "";
    let last = 0;
    MARKER_WITH_SPACE.lastIndex = 0;
    let match;
    while ((match = MARKER_WITH_SPACE.exec(text)) !== null) {
      for (let i = last; i < match.index; i++) {
        map.push(i);
        plain += text[i];
      }
      last = match.index + match[0].length;
    }
    for (let i = last; i < text.length; i++) {
      map.push(i);
      plain += text[i];
    }
    const ranges = [];
    (claims || []).forEach((claim, index) => {
      if (claim.label !== "unsupported" && claim.label !== "partial") return;
      const wanted = stripMarkers(claim.text).trim();
      if (!wanted) return;
      let start = plain.indexOf(wanted);
      let length = wanted.length;
      if (start < 0) {
        const words = wanted.split(/\s+/).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
        const found = new RegExp(words.join("\\s+")).exec(plain);
        if (!found) return;
        start = found.index;
        length = found[0].length;
      }
      ranges.push({
        start: map[start],
        end: map[start + length - 1] + 1,
        label: claim.label,
        index: index,
        reasons: claim.reasons || [],
      });
    });
    return ranges;
  }

  function renderAnswerText(box, answer) {
    const text = answer.answer || "";
    const ranges = claimRanges(text, answer.claims);
    const rangeAt = (position) => ranges.find((r) => position >= r.start && position < r.end) || null;

    // Pieces of the answer: plain text and citation markers, each in a claim range or not.
    const pieces = [];
    const pushText = (from, to) => {
      let run = "";
      let runRange;
      for (let i = from; i < to; i++) {
        const range = rangeAt(i);
        if (run && range !== runRange) {
          pieces.push({ kind: "text", text: run, range: runRange });
          run = "";
        }
        runRange = range;
        run += text[i];
      }
      if (run) pieces.push({ kind: "text", text: run, range: runRange });
    };
    MARKER.lastIndex = 0;
    let last = 0;
    let match;
    const code = codeMask(text);
    while ((match = MARKER.exec(text)) !== null) {
      if (code[match.index]) continue; // `items[1]` in code is no citation
      let end = match.index;
      while (end > last && (text[end - 1] === " " || text[end - 1] === "\u00a0")) end -= 1;
      pushText(last, end); // "granite [1]." reads as "granite[1]." with the marker raised
      pieces.push({
        kind: "cite",
        numbers: expandNumbers(match[1]),
        raw: match[0],
        range: rangeAt(match.index),
      });
      last = match.index + match[0].length;
    }
    pushText(last, text.length);

    let holder = box;
    let holderRange = null;
    for (const piece of pieces) {
      if (piece.range !== holderRange) {
        holderRange = piece.range;
        holder = box;
        if (piece.range) {
          const unsupported = piece.range.label === "unsupported";
          const title = unsupported
            ? "Not supported by the cited sources"
            : "Only partly supported by the cited sources";
          const reasons = piece.range.reasons.length ? " (" + piece.range.reasons.join("; ") + ")" : "";
          holder = el("span", {
            className: unsupported ? "claim claim-unsupported" : "claim claim-partial",
            title: title + reasons,
            dataset: { testid: unsupported ? "unsupported-claim" : "partial-claim" },
          });
          holder.append(el("span", { className: "visually-hidden", text: "(" + title + ") " }));
          box.append(holder);
        }
      }
      if (piece.kind === "text") holder.append(piece.text);
      else holder.append(citationGroup(piece.numbers, piece.raw));
    }
  }

  function codeMask(text) {
    // Which characters of the answer are code, read as the server reads them
    // (citations/markers.py: _Code): a line opening with three or more backticks or tildes
    // opens a fence (a backtick fence's line holds no other backtick), a line of the same
    // mark at least as long with nothing after it closes it; outside fences, backticks open
    // and close inline code until the line ends. A marker in code is code, not a citation.
    const mask = new Uint8Array(text.length);
    let fence = "";
    let inline = false;
    let lineStart = true;
    let i = 0;
    while (i < text.length) {
      const c = text[i];
      if ((c === "`" || c === "~") && lineStart) {
        let j = i;
        while (j < text.length && text[j] === c) j += 1;
        if (j - i >= 3) {
          let lineEnd = text.indexOf("\n", i);
          if (lineEnd < 0) lineEnd = text.length;
          const rest = text.slice(j, lineEnd);
          let marks = false;
          if (!fence) {
            if (!inline && !(c === "`" && rest.includes("`"))) {
              fence = c.repeat(j - i);
              marks = true;
            }
          } else if (c === fence[0] && j - i >= fence.length && /^[ \t\r]*$/.test(rest)) {
            fence = "";
            marks = true;
          }
          if (marks) {
            mask.fill(1, i, j);
            i = j;
            lineStart = false;
            continue;
          }
        }
      }
      if (c === "\n") {
        inline = false;
        lineStart = true;
        i += 1;
        continue;
      }
      if (c !== " " && c !== "\t") lineStart = false;
      if (c === "`" && !fence) inline = !inline;
      mask[i] = fence || inline ? 1 : 0;
      i += 1;
    }
    return mask;
  }

  function citationGroup(numbers, raw) {
    const known = numbers.filter((n) => state.sources.has(n));
    if (!known.length) return document.createTextNode(raw);
    const sup = el("sup", { className: "cite-group" });
    sup.append("[");
    known.forEach((n, i) => {
      if (i) sup.append(",");
      sup.append(citationLink(n));
    });
    sup.append("]");
    return sup;
  }

  function citationLink(n) {
    const citation = state.citations.get(n);
    const source = state.sources.get(n);
    const multi = Boolean(citation && citation.multi_source);
    const where = (citation || source || {}).location || "";
    let title = "Source " + n + (where ? ": " + where : "");
    if (multi) title += " (cited together with other sources)";
    const link = el("a", {
      href: "#source-" + n,
      className: "cite" + (multi ? " cite-multi" : ""),
      title: title,
      "aria-label": "Source " + n + (multi ? ", multi-source" : ""),
      dataset: { testid: "citation", number: String(n) },
      text: String(n),
    });
    link.addEventListener("click", (event) => {
      event.preventDefault();
      openSource(n, link);
    });
    return link;
  }

  function renderConfidence(confidence, low, disclaimer) {
    if (typeof confidence !== "number") return;
    const value = Math.max(0, Math.min(1, confidence));
    $("confidence-meter").value = value;
    const percent = Math.round(value * 100) + "%";
    $("confidence-value").textContent = percent + (low ? " \u00b7 low" : "");
    $("confidence-meter").title = "Confidence " + percent;
    $("confidence").classList.toggle("is-low", Boolean(low));
    show($("confidence"), true);
    const box = $("disclaimer");
    if (low && disclaimer) {
      box.textContent = disclaimer;
      show(box, true);
    } else if (!low) {
      show(box, false);
    }
  }

  function renderNotes(answer) {
    const conflicts = answer.conflicts || [];
    const uncited = answer.uncited_claims || [];
    const warnings = answer.warnings || [];

    const conflictList = $("conflict-list");
    clear(conflictList);
    for (const conflict of conflicts) {
      const item = el("li", { dataset: { testid: "conflict" } });
      item.append("Sources disagree" + (conflict.topic ? " on " + conflict.topic : "") + ": ");
      (conflict.values || []).forEach((value, i) => {
        if (i) item.append(" vs ");
        item.append(el("q", { text: value }));
        const n = (conflict.sources || [])[i];
        if (n !== undefined && state.sources.has(n)) {
          item.append(" ");
          item.append(citationGroup([n], "[" + n + "]"));
        }
      });
      conflictList.append(item);
    }
    show($("conflicts"), conflicts.length > 0);

    const removed = answer.removed_claims || [];
    const removedList = $("removed-list");
    clear(removedList);
    for (const claim of removed) {
      const cited = (claim.citations || []).map((n) => "[" + n + "]").join("");
      const code = claim.kind === "code"; // a code block: its lines as written
      const item = el("li", {
        text: code ? "" : claim.text + (cited ? " " + cited : ""),
        title: (claim.reasons || []).join("; ") || "No cited source supports this claim",
        dataset: { testid: "removed-claim" },
      });
      if (code) {
        item.append(el("pre", { className: "removed-code", text: claim.text }));
        if (cited) item.append(cited);
      }
      removedList.append(item);
    }
    show($("removed"), removed.length > 0);

    const uncitedList = $("uncited-list");
    clear(uncitedList);
    for (const claim of uncited) uncitedList.append(el("li", { text: claim, dataset: { testid: "uncited-claim" } }));
    show($("uncited"), uncited.length > 0);

    const warningList = $("warnings");
    clear(warningList);
    for (const warning of warnings) warningList.append(el("li", { text: warning }));
    show(warningList, warnings.length > 0);

    show($("notes"), conflicts.length + removed.length + uncited.length + warnings.length > 0);
  }

  function sourceButton(source, label, testid) {
    const button = el("button", {
      type: "button",
      className: "source-open",
      dataset: { testid: testid, number: String(source.number), chunkId: source.chunk_id },
    });
    button.append(label);
    button.addEventListener("click", () => openSource(source.number, button));
    return button;
  }

  function renderSources(sources, cited, searched) {
    const list = $("sources-list");
    clear(list);
    for (const source of sources) {
      const isCited = cited.has(source.number);
      const label = el("span", { className: "source-label" }, [
        el("span", { className: "source-number", text: "[" + source.number + "]" }),
        el("span", { className: "source-title", text: source.title || source.path }),
        el("span", { className: "source-location", text: source.location }),
      ]);
      const section = (source.heading_path || []).slice(-1)[0];
      if (searched && section && section !== source.title) {
        // a not-found: the section says what a passage is about (the gate can miss one
        // that answers a question worded far from it)
        label.append(el("span", { className: "source-section", text: "\u00a7 " + section }));
      }
      if (isCited) label.append(el("span", { className: "tag", text: "cited" }));
      const item = el(
        "li",
        { id: "source-" + source.number, className: isCited ? "is-cited" : "" },
        [sourceButton(source, label, "source-item")],
      );
      list.append(item);
    }
    $("sources-heading").textContent = searched ? "Sources searched" : "Sources";
    show($("sources"), sources.length > 0);
  }

  function renderFallbackList(sources) {
    const list = $("fallback-list");
    clear(list);
    for (const source of sources) {
      const label = el("span", { className: "fallback-label" }, [
        el("span", { className: "source-location", text: "[" + source.number + "] " + source.location }),
        el("span", { className: "fallback-excerpt", text: excerpt(source.text, EXCERPT_CHARS) }),
      ]);
      list.append(el("li", {}, [sourceButton(source, label, "fallback-item")]));
    }
  }

  // ---------------------------------------------------------------- the source panel

  function evidenceFor(n) {
    const citation = state.citations.get(n);
    if (citation && citation.evidence) return citation.evidence;
    const claims = (state.answer && state.answer.claims) || [];
    for (const claim of claims) {
      for (const span of claim.evidence || []) {
        if (span.number === n) return span;
      }
    }
    return null;
  }

  async function sourceView(chunkId) {
    if (!state.sourceViews.has(chunkId)) {
      const promise = apiJson("/api/sources/" + encodeURIComponent(chunkId)).catch((error) => {
        state.sourceViews.delete(chunkId);
        throw error;
      });
      state.sourceViews.set(chunkId, promise);
    }
    return state.sourceViews.get(chunkId);
  }

  async function openSource(n, invoker) {
    const source = state.sources.get(n);
    const citation = state.citations.get(n);
    const chunkId = (citation && citation.chunk_id) || (source && source.chunk_id);
    if (!chunkId) return;
    const panel = $("source-panel");
    state.invoker = invoker || null;
    for (const link of document.querySelectorAll(".is-open-source")) link.classList.remove("is-open-source");
    if (invoker) invoker.classList.add("is-open-source");

    const info = citation || source;
    $("source-title").textContent = "[" + n + "] " + (info.title || info.path);
    $("source-location").textContent = info.location;
    const kind = $("source-kind");
    if (citation && citation.multi_source) {
      kind.textContent = "Multi-source citation: cited together with other sources";
      show(kind, true);
    } else {
      show(kind, false);
    }
    panel.classList.toggle("is-multi", Boolean(citation && citation.multi_source));
    const lines = $("source-lines");
    clear(lines);
    $("source-status").textContent = "Loading the source\u2026";
    show(panel, true);
    document.body.classList.add("panel-open");
    panel.focus({ preventScroll: true });

    if (String(chunkId).startsWith("web:")) {
      // A page the web search found: not in the index; its returned text and address.
      lines.append(el("p", { className: "web-snippet", text: (info && info.text) || "" }));
      $("source-status").textContent = "A web page found by the web search: " + (info.url || info.location);
      return;
    }
    let view;
    try {
      view = await sourceView(chunkId);
    } catch (error) {
      if (state.invoker !== (invoker || null)) return;
      $("source-status").textContent =
        error instanceof Unauthorized ? "An access token is needed." : "Could not load the source: " + error.message;
      return;
    }
    if (state.invoker !== (invoker || null) || panel.hidden) return; // another source was opened
    const page = view.page !== null && view.page !== undefined ? view.page : info.page;
    const pageBox = $("source-page");
    if (page !== null && page !== undefined) {
      pageBox.textContent = "page " + page;
      show(pageBox, true);
    } else {
      show(pageBox, false);
    }
    if (!info.location) $("source-location").textContent = view.location;
    const evidence = evidenceFor(n);
    renderLines(lines, view, evidence);
    $("source-status").textContent = evidence
      ? "The highlighted text supports the citation."
      : "The cited passage is shaded.";
    const mark = lines.querySelector("mark");
    const target = mark || lines.querySelector(".in-chunk");
    if (target) scrollWithin(lines, target);
  }

  function renderLines(box, view, evidence) {
    const from = evidence ? evidence.char_start : -1;
    const to = evidence ? evidence.char_end : -1;
    let marked = 0;
    for (const line of view.lines || []) {
      const row = el("div", {
        className: "line" + (line.in_chunk ? " in-chunk" : ""),
        dataset: { line: String(line.number) },
      });
      row.append(el("span", { className: "line-number", "aria-hidden": "true", text: line.number }));
      const body = el("span", { className: "line-text" });
      const text = line.text || "";
      const start = line.char_start;
      const end = start + text.length;
      const a = Math.max(from, start);
      const b = Math.min(to, end);
      if (evidence && a < b) {
        body.append(text.slice(0, a - start));
        body.append(
          el("mark", {
            dataset: { testid: marked === 0 ? "source-mark" : "source-mark-more" },
            text: text.slice(a - start, b - start),
          }),
        );
        body.append(text.slice(b - start));
        marked += 1;
      } else {
        body.append(text || "\u200b");
      }
      row.append(body);
      box.append(row);
    }
  }

  function scrollWithin(container, target) {
    const top = target.getBoundingClientRect().top - container.getBoundingClientRect().top;
    container.scrollTop += top - container.clientHeight / 3;
    if (target.scrollIntoView) target.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  function closePanel(restoreFocus) {
    const panel = $("source-panel");
    if (panel.hidden) return;
    show(panel, false);
    document.body.classList.remove("panel-open");
    for (const link of document.querySelectorAll(".is-open-source")) link.classList.remove("is-open-source");
    const invoker = state.invoker;
    state.invoker = null;
    if (restoreFocus && invoker) {
      if (invoker.isConnected) invoker.focus();
      else {
        const again = document.querySelector('[data-testid="citation"][data-number="' + invoker.dataset.number + '"]');
        if (again) again.focus();
      }
    }
  }

  // ---------------------------------------------------------------- copy

  function markdown(answer) {
    const cited = new Set((answer.citations || []).map((c) => c.number));
    const listed = (answer.sources || []).filter((s) => !cited.size || cited.has(s.number));
    const lines = [String(answer.answer || "").trim(), "", "Sources", ""];
    for (const source of listed) {
      lines.push("- [" + source.number + "] " + (source.title || source.path) + " \u2014 " + source.location);
    }
    return lines.join("\n") + "\n";
  }

  async function copyMarkdown() {
    if (!state.answer) return;
    const text = markdown(state.answer);
    let copied = false;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      try {
        await navigator.clipboard.writeText(text);
        copied = true;
      } catch (_) {
        copied = false;
      }
    }
    if (!copied) {
      const area = el("textarea", { className: "offscreen", readonly: true, "aria-hidden": "true" });
      area.value = text;
      document.body.append(area);
      area.select();
      try {
        copied = document.execCommand("copy");
      } catch (_) {
        copied = false;
      }
      area.remove();
      $("copy-markdown").focus();
    }
    const status = $("copy-status");
    status.textContent = copied ? "Copied" : "Could not copy: select the answer and copy it by hand.";
    status.classList.toggle("visually-hidden", copied); // the button says it
    $("copy-markdown").textContent = copied ? "Copied" : "Copy as Markdown";
    setTimeout(() => {
      $("copy-markdown").textContent = "Copy as Markdown";
      status.textContent = "";
    }, 2500);
  }

  // ---------------------------------------------------------------- documents

  async function loadDocuments() {
    const list = $("documents-list");
    let documents;
    try {
      documents = await apiJson("/api/documents");
    } catch (error) {
      clear(list);
      const text =
        error instanceof Unauthorized
          ? "Enter the access token to see the documents."
          : "Could not list the documents: " + error.message;
      list.append(el("li", { className: "muted", text: text }));
      return;
    }
    clear(list);
    $("documents-count").textContent = "(" + documents.length + ")";
    if (!documents.length) {
      list.append(el("li", { className: "muted", text: "No documents indexed yet." }));
    }
    for (const doc of documents) {
      const item = el("li", { className: "document", dataset: { testid: "document", id: doc.id, path: doc.path } });
      const about = el("div", { className: "document-about" }, [
        el("span", { className: "document-title", text: doc.title || doc.path }),
        el("span", { className: "document-path", text: doc.path }),
        el("span", {
          className: "document-meta",
          text: doc.chunks + " chunk" + (doc.chunks === 1 ? "" : "s") + (doc.uploaded ? " \u00b7 uploaded" : ""),
        }),
      ]);
      item.append(about);
      if (doc.uploaded) item.append(deleteButton(doc));
      list.append(item);
    }
  }

  function deleteButton(doc) {
    const button = el("button", {
      type: "button",
      className: "secondary small danger",
      "aria-label": "Delete " + (doc.title || doc.path),
      dataset: { testid: "delete-document" },
      text: "Delete",
    });
    let armed = null;
    button.addEventListener("click", async () => {
      if (!armed) {
        button.textContent = "Confirm delete";
        armed = setTimeout(() => {
          armed = null;
          button.textContent = "Delete";
        }, 4000);
        return;
      }
      clearTimeout(armed);
      armed = null;
      button.disabled = true;
      try {
        await apiJson("/api/documents/" + encodeURIComponent(doc.id), { method: "DELETE" });
        state.sourceViews.clear();
        $("upload-status").textContent = "Deleted " + doc.path + ".";
      } catch (error) {
        $("upload-status").textContent = "Could not delete " + doc.path + ": " + error.message;
      }
      loadDocuments();
    });
    return button;
  }

  function uploadStatus(text, stateName) {
    const status = $("upload-status");
    status.textContent = text;
    status.dataset.state = stateName;
  }

  function onUpload(event) {
    event.preventDefault();
    const input = $("upload-input");
    if (!input.files || !input.files.length) {
      uploadStatus("Choose one or more files first.", "idle");
      input.focus();
      return;
    }
    const form = new FormData();
    for (const file of input.files) form.append("files", file, file.name);
    const progress = $("upload-progress");
    progress.max = 100;
    progress.value = 0;
    show(progress, true);
    $("upload-submit").disabled = true;
    uploadStatus("Uploading\u2026", "uploading");

    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/documents");
    const value = token();
    if (value) xhr.setRequestHeader("Authorization", "Bearer " + value);
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) {
        progress.value = Math.round((e.loaded / e.total) * 100);
        uploadStatus("Uploading " + progress.value + "%", "uploading");
      }
    };
    xhr.onerror = () => {
      $("upload-submit").disabled = false;
      show(progress, false);
      uploadStatus("The upload failed: the server could not be reached.", "failed");
    };
    xhr.onload = () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch (_) {
        body = null;
      }
      if (xhr.status === 401) {
        $("upload-submit").disabled = false;
        show(progress, false);
        uploadStatus("An access token is needed to upload.", "failed");
        needToken();
        return;
      }
      if (xhr.status < 200 || xhr.status >= 300 || !body) {
        $("upload-submit").disabled = false;
        show(progress, false);
        uploadStatus("Upload refused: " + errorText(body, xhr.status), "failed");
        return;
      }
      progress.value = 100;
      input.value = "";
      pollJob(body);
    };
    xhr.send(form);
  }

  function describeJob(job) {
    const count = job.total ? " " + job.done + "/" + job.total : "";
    return "Indexing: " + job.stage + count;
  }

  async function pollJob(job) {
    const progress = $("upload-progress");
    for (;;) {
      if (job.status === "done" || job.status === "failed") break;
      uploadStatus(describeJob(job), "indexing");
      if (job.total) {
        progress.max = job.total;
        progress.value = job.done;
      } else {
        progress.removeAttribute("value"); // indeterminate
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      try {
        job = await apiJson("/api/jobs/" + encodeURIComponent(job.id));
      } catch (error) {
        uploadStatus("Lost track of the upload: " + error.message, "failed");
        $("upload-submit").disabled = false;
        return;
      }
    }
    $("upload-submit").disabled = false;
    progress.max = 1;
    progress.value = job.status === "done" ? 1 : 0;
    if (job.status === "done") {
      const skipped = job.skipped || [];
      let text = "Done: " + job.indexed + " file" + (job.indexed === 1 ? "" : "s") + " indexed";
      if (job.chunks_added) {
        text += ", " + job.chunks_added + " chunk" + (job.chunks_added === 1 ? "" : "s") + " added";
      }
      text += ".";
      if (skipped.length) {
        text += " Skipped: " + skipped.map((s) => s.path + " (" + s.reason + ")").join("; ") + ".";
      }
      uploadStatus(text, "done");
    } else {
      uploadStatus("Indexing failed: " + (job.error || "unknown error"), "failed");
    }
    state.sourceViews.clear();
    loadDocuments();
  }

  // ---------------------------------------------------------------- wiring

  function start() {
    $("ask-form").addEventListener("submit", (event) => {
      event.preventDefault();
      if ($("ask-submit").disabled) return;
      ask($("question").value);
    });
    $("question").addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        if (!$("ask-submit").disabled) ask($("question").value);
      }
    });
    $("report-submit").addEventListener("click", () => {
      if (!$("report-submit").disabled) writeReport($("question").value);
    });
    $("stop").addEventListener("click", () => {
      if (state.controller) state.controller.abort();
      $("question").focus();
    });
    $("new-conversation").addEventListener("click", () => {
      if (state.controller) state.controller.abort();
      sessionStorage.removeItem(CONVERSATION_KEY);
      conversationId();
      closePanel(false);
      show($("result"), false);
      state.answer = null;
      $("question").value = "";
      $("question").focus();
    });
    $("source-close").addEventListener("click", () => closePanel(true));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && !$("source-panel").hidden) {
        event.preventDefault();
        closePanel(true);
      }
    });
    $("copy-markdown").addEventListener("click", copyMarkdown);
    $("upload-form").addEventListener("submit", onUpload);
    $("token-form").addEventListener("submit", onTokenSubmit);
    conversationId();
    loadDocuments();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
