"""Parallel list items: a claim must say of an item what that item says."""

from __future__ import annotations

from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.lists import misattributed, parallel_lists

TIMEOUTS = """Timeouts come in four kinds.

* The **connect** timeout is the longest time to wait until a socket connection to the
  requested host is established. Past it, a `ConnectTimeout` exception is raised.
* The **read** timeout is the longest time to wait for a chunk of data to be received.
* The **write** timeout is the longest time to wait for a chunk of data to be sent.
* The **pool** timeout is the longest time to wait for acquiring a connection from the
  connection pool.
"""

OPTIONS = """The transport takes options:

- `script_name` mounts the application at a subpath.
- `remote_addr` sets the client address used for requests.
- `root_path` sets the root path of the application.
"""


def test_a_list_is_its_items_at_one_indentation() -> None:
    nested = "- `alpha_one` does this\n  - `inner_one` nested\n- `beta_two` does that\n"
    (items,) = parallel_lists(nested)
    assert [item.names for item in items] == [("alpha_one",), ("beta_two",)]
    assert parallel_lists("- `only_item` alone\n\nSome text.") == ()


def test_a_claim_stating_a_siblings_description_is_misattributed() -> None:
    claim = "The pool timeout caps the wait until a socket connection to the host is established."
    assert misattributed(claim, [TIMEOUTS]) == (("pool", "connect"),)
    swapped = "To mount the application at a subpath, set remote_addr."
    assert misattributed(swapped, [OPTIONS]) == (("remote_addr", "script_name"),)


FOOTNOTES = """The following options are provided to configure the output:

* **`BACKLINK_TEXT`**:
    The text string that links from the footnote definition back to the position
    in the document. Defaults to `&#8617;`.

* **`SUPERSCRIPT_TEXT`**:
    The text string that links from the position in the document to the footnote
    definition. Defaults to `{}`, i.e. only the footnote's number.

* **`BACKLINK_TITLE`**:
    The text string for the `title` HTML attribute of the footnote definition link.
    The placeholder `{}` will be replaced by the footnote number. Defaults to
    `Jump back to footnote {} in the text`.
"""


def test_a_claim_giving_one_item_the_value_of_another_is_misattributed() -> None:
    # The embedded model's answer over Python-Markdown's footnotes page; both verifiers passed it.
    described = (
        "The text string that links from the footnote definition back to the position in the "
        "document is set to `Jump back to footnote {} in the text`."
    )
    assert misattributed(described, [FOOTNOTES]) == (
        ("`Jump back to footnote {} in the text`", "`BACKLINK_TEXT`"),
    )
    named = "`BACKLINK_TEXT` defaults to `Jump back to footnote {} in the text`."
    assert misattributed(named, [FOOTNOTES]) == (("`BACKLINK_TEXT`", "`BACKLINK_TITLE`"),)
    verdict = LexicalVerifier().verify_now([Check(described, (FOOTNOTES,))])[0]
    assert verdict.label != "supported"


def test_a_claim_naming_an_item_by_its_words_with_another_items_default_is_misattributed() -> None:
    # the embedded model's answer at the end of the session; "title" names the other item
    worded = (
        "The text used for the footnote backlink by default is "
        "`Jump back to footnote {} in the text`."
    )
    assert misattributed(worded, [FOOTNOTES]) == (("`BACKLINK_TEXT`", "`BACKLINK_TITLE`"),)
    titled = (
        "The title of the footnote backlink is `Jump back to footnote {} in the text` by default."
    )
    assert misattributed(titled, [FOOTNOTES]) == ()
    assert misattributed("The footnote backlink text defaults to `&#8617;`.", [FOOTNOTES]) == ()


def test_a_claim_giving_an_item_its_own_or_a_shared_value_is_not() -> None:
    for right in (
        "The text string linking from the footnote definition back to its position in the "
        "document defaults to `&#8617;`.",
        "`BACKLINK_TITLE` defaults to `Jump back to footnote {} in the text`.",
        "The title attribute of the footnote definition link defaults to "
        "`Jump back to footnote {} in the text`.",
        # `{}` is in two items: no item's own value
        "The text string that links from the footnote definition back is `{}`.",
        # an item's code that is no default: the claim combines two items (review)
        "`SUPERSCRIPT_TEXT` links to the footnote definition, as the `title` attribute does.",
    ):
        assert misattributed(right, [FOOTNOTES]) == (), right


def test_a_claim_stating_its_own_item_is_not() -> None:
    right = "The pool timeout limits how long to wait to acquire a connection from the pool."
    assert misattributed(right, [TIMEOUTS]) == ()
    assert misattributed("To mount the application at a subpath, set script_name.", [OPTIONS]) == ()


def test_names_that_do_not_tell_an_item() -> None:
    # two items named: a comparison, not a misattribution
    both = "Unlike the connect timeout, the pool timeout waits for a socket connection."
    assert misattributed(both, [TIMEOUTS]) == ()
    # a name the passage also writes outside the list is no item's alone
    outside = TIMEOUTS + "\nThe pool is shared by every request of a client.\n"
    claim = "The pool timeout caps the wait until a socket connection to the host is established."
    assert misattributed(claim, [outside]) == ()
    # a single lower-case word in code is too common to tell an item by
    plain = "- `name` sets the display name of the app.\n- `url` sets the address of the server.\n"
    assert misattributed("The name is the address of the server it calls.", [plain]) == ()


def test_the_verifiers_give_the_reason() -> None:
    claim = "The pool timeout caps the wait until a socket connection to the host is established."
    (verdict,) = LexicalVerifier().verify_now([Check(claim, [TIMEOUTS])])
    assert verdict.label != "supported"
    assert "the source says this of connect, not of pool" in verdict.reasons


def test_everyday_words_name_no_item() -> None:
    """An item's name counts in its own case (but for its first letter); labels are no names."""
    methods = (
        "- `GET` retrieves a resource.\n"
        "- `HEAD` returns the same headers a GET would, without the response body.\n"
    )
    assert misattributed("You get the same headers without the response body.", [methods]) == ()
    tips = (
        "- **Important**: never commit the token to version control.\n"
        "- **Tip**: store the token in an environment variable and read it at startup.\n"
    )
    claim = "It is important to store the token in an environment variable, read at startup."
    assert misattributed(claim, [tips]) == ()
    labelled = "- `name`: sets the display name.\n- `url`: sets the server address.\n"
    assert [item.names for item in parallel_lists(labelled)[0]] == [(), ()]
    proxies = (
        "* **Forwarding**: the proxy makes the request for you and sends back the response.\n"
        "* **Tunnelling**: the proxy opens a TCP connection to the server, which the client "
        "reuses to send its request and read the response.\n"
    )
    claim = "With forwarding, the proxy opens a TCP connection that the client reuses to send."
    assert misattributed(claim, [proxies]) == (("Forwarding", "Tunnelling"),)


def test_lists_end_at_text_code_and_shallower_items() -> None:
    steps = (
        "1. **Download** the archive.\n2. **Unpack** it into a directory.\n"
        "3. **Verify** the reports in that directory.\n\nOptions:\n\n"
        "- `--output` writes the reports to a directory you choose.\n"
        "- `--strict` fails on warnings.\n"
    )
    assert [[i.names for i in items] for items in parallel_lists(steps)] == [
        [("Download",), ("Unpack",), ("Verify",)],
        [("--output",), ("--strict",)],
    ]
    fenced = (
        "- `--workers` sets the workers.\n- `--bind` sets the address.\n\n"
        "```yaml\n- `host_name`: x\n```\n"
    )
    assert [[i.names for i in items] for items in parallel_lists(fenced)] == [
        [("--workers",), ("--bind",)]
    ]
    nested = "- `parent_a`\n  - `child_one` x\n- `parent_b`\n  - `child_two` y\n"
    assert [[i.names for i in items] for items in parallel_lists(nested)] == [
        [("parent_a",), ("parent_b",)]
    ]


def test_windows_line_endings_end_an_item_at_a_blank_line() -> None:
    text = (
        "- **connect**: the wait until a socket connection is established.\r\n"
        "- **pool**: the wait for a free connection from the pool.\r\n\r\n"
        "A failed request is retried three times with retries=3, waiting between attempts.\r\n"
    )
    claim = "With retries=3, a failed connect is retried three times, waiting between attempts."
    assert misattributed(claim, [text]) == ()


EXIT_CODES = """Running ``pytest`` can result in six different exit codes:

:Exit code 0: All tests were collected and passed successfully
:Exit code 1: Tests were collected and run but some of the tests failed
:Exit code 2: Test execution was interrupted by the user
:Exit code 3: Internal error happened while executing tests
:Exit code 4: pytest command line usage error
:Exit code 5: No tests were collected
"""


def test_the_fields_of_a_field_list_are_items_named_by_their_field() -> None:
    (items,) = parallel_lists(EXIT_CODES)
    assert [item.names for item in items] == [(f"Exit code {n}",) for n in range(6)]
    assert parallel_lists(":class:`Foo` is a role, not a field.\n:class:`Bar` too.\n") == ()


def test_a_number_naming_a_sibling_field_is_misattributed() -> None:
    # pytest's exit codes: the embedded model answered 4 for "no tests were collected".
    wrong = "The exit code returned by pytest when no tests were collected is 4."
    assert misattributed(wrong, [EXIT_CODES]) == (("Exit code 4", "Exit code 5"),)
    interrupted = "Exit code 3 means that the user interrupted the test run."
    assert misattributed(interrupted, [EXIT_CODES]) == (("Exit code 3", "Exit code 2"),)
    for right in (
        "The exit code returned by pytest when no tests were collected is 5.",
        "Exit code 2 means that the user interrupted the test run.",
        # two fields say as much of it as the one named: no telling which is meant
        "pytest returns exit code 1 when some tests failed.",
        # no number of a field in it, or the words the fields share left out
        "pytest returns a nonzero code when no tests were collected.",
        "Running pytest can end in 4 ways when no tests were collected.",
    ):
        assert misattributed(right, [EXIT_CODES]) == (), right
    # a description in more words still tells the field; a number the sibling writes itself
    # ("takes about 3 minutes") is that item's own, not the name of item 3
    longer = EXIT_CODES.replace("No tests were collected", "No tests were collected at all")
    assert misattributed(wrong, [longer]) == (("Exit code 4", "Exit code 5"),)
    steps = (
        "Setup:\n\n- Step 1: Install the package with pip.\n"
        "- Step 2: Configure the server address in config.toml, which takes about 3 minutes.\n"
        "- Step 3: Start the server and open the page.\n"
    )
    quoted = "The step that configures the server address in config.toml takes about 3 minutes."
    assert misattributed(quoted, [steps]) == ()
    swapped = "In step 3 you configure the server address in config.toml."
    assert misattributed(swapped, [steps]) == (("Step 3", "Step 2"),)
    [verdict] = LexicalVerifier().verify_now([Check(wrong, (EXIT_CODES,))])
    assert not verdict.supported
    assert "the source says this of Exit code 5, not of Exit code 4" in verdict.reasons
