"""The prose of doc comments in C-family code (`ingest.doc_comments`)."""

from __future__ import annotations

from citesynth.ingest.doc_comments import doc_comment_units

_JAVASCRIPT = """/**
 * A tiny HTTP client that keeps connections open between requests.
 */
export class Client {
  /**
   * Create a client.
   *
   * @param {string} baseUrl - The URL every request path is joined to.
   * @param {number} [retries=3] - How many times a failed request is sent
   *   again.
   * @returns {Client} The client.
   * @throws {TypeError} If the URL is not a string.
   * @see Session
   * @example
   * new Client("https://example.com")
   */
  constructor(baseUrl, retries = 3) {
    // a comment, no doc comment
    this.baseUrl = baseUrl; /* nor this */
  }
}
"""


def test_each_sentence_and_tag_of_a_doc_comment_is_a_unit_where_it_starts() -> None:
    units = doc_comment_units(_JAVASCRIPT)
    assert [unit.text for unit in units] == [
        "A tiny HTTP client that keeps connections open between requests.",
        "Create a client.",
        "`baseUrl` (string): The URL every request path is joined to.",
        "`retries` (number): How many times a failed request is sent again.",
        "Returns: The client.",
        "Throws `TypeError`: If the URL is not a string.",
    ]  # "@see" says nothing of its own; "@example" and what follows it are code
    where = {unit.text[:8]: _JAVASCRIPT[unit.start : unit.start + 14] for unit in units}
    assert where["`retries"] == "@param {number"
    assert where["Create a"] == "Create a clien"


def test_rustdoc_lines_and_javadoc_tags_are_read_too() -> None:
    rust = "/// Send a request.\n///\n/// Returns the body.\npub fn fetch() {}\n// plain\n"
    assert [unit.text for unit in doc_comment_units(rust)] == [
        "Send a request.",
        "Returns the body.",
    ]
    java = "/** Read rows.\n * @param limit the most rows read\n * @throws IOException when\n */"
    assert [unit.text for unit in doc_comment_units(java)] == [
        "Read rows.",
        "`limit`: the most rows read",
        "Throws `IOException`: when",
    ]
    assert doc_comment_units("int x = 1; /* a plain comment */\n") == ()
    tail = "   * @param {number} retries - How many times.\n   */\n  constructor() {}\n"
    read = [unit.text for unit in doc_comment_units(tail)]
    assert read == ["`retries` (number): How many times."]
    middle = "   * The middle of a long comment.\n   *\n   * @returns the rest.\n"
    assert [unit.text for unit in doc_comment_units(middle)] == [
        "The middle of a long comment.",
        "Returns: the rest.",
    ]
    assert doc_comment_units("x = a * b;\n") == ()
