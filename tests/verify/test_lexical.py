"""The default verifier on hand-made claims: paraphrase passes, disagreements do not."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from citesynth.analysis import terms
from citesynth.verify import Check, LexicalVerifier
from citesynth.verify.align import align, superlatives
from citesynth.verify.analysed import analyse, is_prose
from citesynth.verify.coverage import cover
from citesynth.verify.lexical import remembered_alignment
from citesynth.verify.negation import messages_only, otherwise_only, privative_only
from citesynth.verify.numbers import labels_only, numbered_names_changed, numbers_of
from citesynth.verify.numbers import quantities as quantities_of

SOURCE = (
    "The connect timeout defaults to five seconds. The read timeout limits how long a "
    "response may take.\n\nPools keep ten connections per host. Retries raise the success "
    "rate of flaky calls."
)


@pytest.fixture(scope="module")
def verifier() -> LexicalVerifier:
    return LexicalVerifier()


def label(verifier: LexicalVerifier, claim: str, *passages: str) -> str:
    return verifier.verify_now([Check(claim, passages or (SOURCE,))])[0].label


@pytest.mark.parametrize(
    "claim",
    [
        "The connect timeout defaults to five seconds.",
        "By default, the connect timeout is 5 seconds.",
        "Pools keep ten connections per host.",
        "The connect timeout defaults to 5 s.",
    ],
)
def test_restated_and_paraphrased_claims_are_supported(
    verifier: LexicalVerifier, claim: str
) -> None:
    assert label(verifier, claim) == "supported"


@pytest.mark.parametrize(
    ("claim", "reason"),
    [
        ("The connect timeout defaults to thirty seconds.", "number"),
        ("Pools keep 12 connections per host.", "number"),
        ("The connect timeout defaults to five minutes.", "5 min"),
        ("The connect timeout does not have a default of five seconds.", "negation"),
        ("Retries lower the success rate of flaky calls.", "direction"),
    ],
)
def test_numbers_negation_and_direction_must_agree(
    verifier: LexicalVerifier, claim: str, reason: str
) -> None:
    verdict = verifier.verify_now([Check(claim, (SOURCE,))])[0]
    assert verdict.label != "supported"
    assert any(reason in text for text in verdict.reasons)


def test_a_claim_about_something_else_is_unsupported(verifier: LexicalVerifier) -> None:
    claim = "The cache stores rendered pages in Redis for an hour."
    assert label(verifier, claim) == "unsupported"


def test_the_span_is_the_supporting_sentence_with_exact_offsets(verifier: LexicalVerifier) -> None:
    other = "Unrelated text about gardens and flowers."
    verdict = verifier.verify_now([Check("Pools keep ten connections per host.", (other, SOURCE))])[
        0
    ]
    span = verdict.spans[0]
    assert span.passage == 1
    assert SOURCE[span.start : span.end] == "Pools keep ten connections per host."


def test_a_claim_can_join_facts_from_two_sentences(verifier: LexicalVerifier) -> None:
    verdict = verifier.verify_now(
        [
            Check(
                "The connect timeout defaults to five seconds and pools keep ten connections.",
                (SOURCE,),
            )
        ]
    )[0]
    assert verdict.label != "unsupported" and len(verdict.spans) == 2


ATTRIBUTES = """.. class:: Upload

   .. attribute:: stream

      The input stream for the uploaded file.  This usually points to an
      open temporary file.

   .. attribute:: filename

      The filename of the file on the client. Can be a ``str``, or an
      instance of ``os.PathLike``.

   .. attribute:: name

      The name of the form field.

   .. attribute:: headers

      The multipart headers as a mapping.
"""


def test_a_long_claim_draws_on_as_many_sentences_as_it_joins(verifier: LexicalVerifier) -> None:
    """A claim of many content terms joins more facts than the anchor and two more state:
    here four attribute descriptions, the "name of the form field" among them."""
    claim = (
        "On an Upload instance, stream is the uploaded file's input stream, usually an open "
        "temporary file, name is the form field's name, and filename is the file's name on the "
        "client, which may be a str or os.PathLike."
    )
    coverage = cover(claim, analyse([ATTRIBUTES]))
    assert len(coverage.best) == 4 and "field" not in coverage.missing_terms
    assert label(verifier, claim, ATTRIBUTES) == "supported"
    short = "The stream usually points to an open temporary file of the client."
    assert len(cover(short, analyse([ATTRIBUTES])).best) <= 3


def test_the_items_of_one_list_count_as_one_of_the_best_sentences() -> None:
    """A claim naming the items of a list draws on every item it names: the list counts
    once against the sentences it may draw on. A sentence outside the list still counts."""
    page = (
        "Pools are not tied to a database.\n\n"
        "Some popular drivers include:\n\n"
        "- [Alpha](https://a.example) - A fast driver.\n"
        "- [Beta](https://b.example) - A small driver,\n  built on Alpha.\n"
        "- [Gamma Engine](https://g.example) - An async driver.\n"
        "- [Delta](https://d.example) - A driver and query builder.\n\n"
        "Read your driver's documentation."
    )
    claim = "Pools are not tied to a database, and Alpha, Beta, Gamma Engine and Delta are popular."
    evidence = analyse([page])
    listed = [s.listed for s in evidence.sentences]
    assert listed[0] == listed[1] == listed[-1] == -1 and len(set(listed[2:-1])) == 1
    coverage = cover(claim, evidence)
    assert {"alpha", "beta", "gamma", "engin", "delta"} <= set(coverage.wanted)
    assert not {"alpha", "beta", "gamma", "engin", "delta"} & set(coverage.missing_terms)


def test_empty_input_is_unsupported_never_an_error(verifier: LexicalVerifier) -> None:
    verdicts = verifier.verify_now([Check("", (SOURCE,)), Check("Some claim here.", ("",))])
    assert [v.label for v in verdicts] == ["unsupported", "unsupported"]


async def test_the_async_interface_gives_the_same_verdicts(verifier: LexicalVerifier) -> None:
    checks = [Check("Pools keep ten connections per host.", (SOURCE,))]
    assert await verifier.verify(checks) == verifier.verify_now(checks)


LIMITS = (
    "It takes instances of `httpx.Limits` which define:\n\n"
    "- `max_connections`, maximum number of allowable connections, or `None` for no limits. "
    "(Default 100)\n"
)


def test_a_negation_in_another_clause_of_the_source_is_no_mismatch(
    verifier: LexicalVerifier,
) -> None:
    # "no limits" belongs to the clause about `None`, not the one stating the maximum
    verdict = verifier.verify_now(
        [Check("The maximum number of allowable connections defaults to 100.", (LIMITS,))]
    )[0]
    assert not any("negation" in reason for reason in verdict.reasons)


@pytest.mark.parametrize(
    ("sentence", "negated"),
    [
        (
            "`max_connections`, maximum number of allowable connections, or `None` for no limits.",
            False,
        ),
        ("Failed requests are not retried.", True),
        ("By default, HTTPX does not follow redirects, unlike Requests.", True),
        ("Set it to `None`.", False),
    ],
)
def test_the_clause_that_states_the_claim_decides_negation(sentence: str, negated: bool) -> None:
    from citesynth.verify.negation import negated_for

    wanted = {"maximum", "number", "connect", "retri", "fail", "request", "follow", "redirect"}
    stems = {t for w in wanted for t in terms(w)}
    assert negated_for(stems, sentence) is negated


SESSIONS = "Expired sessions are removed by the cleanup task and not by the request handler."
UPGRADE = "After an upgrade you must delete the old cache directory as it is no longer used."


@pytest.mark.parametrize(
    ("claim", "source", "negation"),
    [
        # the negation bears on the request handler, a term the claim does not state
        ("Expired sessions are removed by the cleanup task.", SESSIONS, False),
        ("After an upgrade you must delete the old cache directory.", UPGRADE, False),
        # it bears on the request handler the claim names
        ("Expired sessions are removed by the request handler.", SESSIONS, True),
        (
            "Retries increase the load on the server.",
            "Retries were not associated with an increased load on the server.",
            True,
        ),
        # "identifies" and "identification" are one term ("-ify"), negated or not
        (
            "Devices are identified by scanners.",
            "Devices are never identified, by scanners or otherwise.",
            True,
        ),
    ],
)
def test_a_negation_denies_a_plain_claim_only_when_it_bears_on_a_term_the_claim_states(
    verifier: LexicalVerifier, claim: str, source: str, negation: bool
) -> None:
    assert _negation_differs(verifier, claim, source) is negation


def _negation_differs(verifier: LexicalVerifier, claim: str, source: str) -> bool:
    """Whether the verdict on `claim` against `source` says negation differs."""
    (verdict,) = verifier.verify_now([Check(claim, (source,))])
    return "negation differs from the source" in verdict.reasons


DEBUGGER = (
    "The debugger permits the execution of arbitrary code, which makes it a major security "
    "risk. The debugger must never be used to run production machines."
)


@pytest.mark.parametrize(
    ("source", "negation"),
    [
        # the sentence stating most of the negated clause denies nothing; the one saying
        # "never" of production backs it
        (DEBUGGER, False),
        (DEBUGGER.replace("must never be used to run", "is meant to run"), True),
    ],
)
def test_a_negated_claim_is_backed_by_a_sentence_negating_what_its_negation_bears_on(
    verifier: LexicalVerifier, source: str, negation: bool
) -> None:
    claim = (
        "The debugger shows tracebacks, but because it permits arbitrary code execution it "
        "must never run in production."
    )
    assert _negation_differs(verifier, claim, source) is negation


EXPERIMENTAL = (
    "`TraceMiddleware` is experimental. Its API may change in minor releases without a "
    "deprecation period."
)


@pytest.mark.parametrize(
    ("claim", "negation"),
    [
        # the source's only negation is the claim's own "without a deprecation period"
        (
            "TraceMiddleware's API won't change in minor releases without a deprecation period.",
            True,
        ),
        ("TraceMiddleware's API may change in minor releases without a deprecation period.", False),
    ],
)
def test_a_privative_the_claim_writes_too_backs_none_of_its_other_negations(
    verifier: LexicalVerifier, claim: str, negation: bool
) -> None:
    assert _negation_differs(verifier, claim, EXPERIMENTAL) is negation


TEMPLATES = (
    "In Acme, using parentheses is required for calls. "
    "In Zenith, methods are called without parentheses."
)


@pytest.mark.parametrize(
    ("claim", "negation"),
    [
        # the denial speaks of Zenith only; the sentence naming Acme states it plainly
        ("In Acme, parentheses are not required for method calls.", True),
        ("In Zenith, parentheses are not required for method calls.", False),
    ],
)
def test_a_negated_claim_is_read_against_the_sentences_naming_what_it_names(
    verifier: LexicalVerifier, claim: str, negation: bool
) -> None:
    assert _negation_differs(verifier, claim, TEMPLATES) is negation


HTTP2 = (
    "When using the `httpx` client, HTTP/2 support is not enabled by default, because "
    "HTTP/1.1 is a mature transport layer and may be the more robust option.\n\n"
    "You can do so by first making sure to install the optional HTTP/2 dependencies."
)


def test_a_negated_claim_is_read_against_the_prose_when_code_names_more_of_it() -> None:
    """Code names more of the negated clause than the prose denying it (Jinja's scoping
    example): the prose still states the denial, and a prose that does not denies it."""
    page = (
        "Due to how scopes work, a macro in a child template does not override a macro "
        "in a parent template.\n\n"
        ".. code-block:: jinja\n\n"
        "    {% extends 'layout.txt' %}\n"
        "    {% macro foo() %}CHILD{% endmacro %}\n"
    )
    claim = "A macro foo defined in child.txt doesn't override the foo from layout.txt."
    evidence = analyse([page])
    assert [is_prose(evidence, s) for s in evidence.sentences] == [True, False, False]
    assert not align(claim, evidence).negation_mismatch
    overriding = analyse([page.replace("does not override", "overrides")])
    assert align(claim, overriding).negation_mismatch


@pytest.mark.parametrize(
    ("claim", "negation"),
    [
        # The purpose is the goal; the install is what the claim asserts.
        (
            "To enable HTTP/2 on an HTTPX client, you need to first install the optional "
            "HTTP/2 dependencies.",
            False,
        ),
        ("In order to enable HTTP/2, first install the optional HTTP/2 dependencies.", False),
        # Without a purpose clause the denial of the default still counts.
        ("HTTP/2 support is enabled by default on the HTTPX client.", True),
        ("To check the default, note that HTTP/2 support is enabled by default.", True),
    ],
)
def test_a_purpose_clause_is_not_what_the_claim_asserts(
    verifier: LexicalVerifier, claim: str, negation: bool
) -> None:
    (verdict,) = verifier.verify_now([Check(claim, (HTTP2,))])
    assert any("negation" in reason for reason in verdict.reasons) is negation


def test_a_negation_inside_the_purpose_is_the_goals(verifier: LexicalVerifier) -> None:
    source = (
        "Since version 5.0.0, isort supports profiles. You can set the black profile in any "
        "of the config files supported by isort."
    )
    claim = "To configure isort so it doesn't conflict with Black, set the black profile."
    (verdict,) = verifier.verify_now([Check(claim, (source,))])
    assert not any("negation" in reason for reason in verdict.reasons), verdict.reasons
    # a negation in what the claim asserts still counts
    (denied,) = verifier.verify_now(
        [Check("To configure isort, don't set the black profile in a config file.", (source,))]
    )
    assert any("negation" in reason for reason in denied.reasons), denied.reasons


STREAMING = (
    "When using ``preload_content=True`` (the default setting) the response body will be read "
    "immediately into memory and the HTTP connection will be released back into the pool "
    "without manual intervention.\n\nWhen using ``preload_content=False``, you need to "
    "manually release the HTTP connection back to the connection pool so that it can be "
    "re-used.\n\nAfter all data is read you can call ``release_conn()`` to release the "
    "connection into the pool."
)


def test_a_plain_claim_stated_by_one_of_equally_close_sentences_is_no_mismatch(
    verifier: LexicalVerifier,
) -> None:
    # urllib3's docs: what the claim asserts after its opening clause of time ("After …,")
    # the first sentence denies of the default and the second and third state
    claim = (
        "After streaming a response with `preload_content=False` and reading all of it, you "
        "can manually release the HTTP connection back to the connection pool by calling "
        "`release_conn()`."
    )
    reasons = verifier.verify_now([Check(claim, (STREAMING,))])[0].reasons
    assert not any("negation" in r for r in reasons), reasons
    denied = STREAMING.split("\n\n")[0]  # the default's denial alone supports nothing
    assert not verifier.verify_now([Check(claim, (denied,))])[0].supported


def test_a_sentence_on_another_value_of_the_claims_setting_is_no_mismatch(
    verifier: LexicalVerifier,
) -> None:
    # urllib3's docs: the sentence on the default (`preload_content=True`) holds one term of
    # the claim more than the one that states it, and denies "manual intervention"
    claim = (
        "After streaming a response with `preload_content=False` and reading all of it, you "
        "can manually release the HTTP connection back to the connection pool by calling "
        "`response.HTTPResponse.release_conn`."
    )
    source = STREAMING.rsplit("\n\n", 1)[0]
    reasons = verifier.verify_now([Check(claim, (source,))])[0].reasons
    assert not any("negation" in r for r in reasons), reasons
    # the same sentence on the claim's own case still turns it around
    other = claim.replace("`preload_content=False`", "`preload_content=True`")
    reasons = verifier.verify_now([Check(other, (STREAMING.split("\n\n")[0],))])[0].reasons
    assert any("negation" in r for r in reasons), reasons


def test_a_run_of_dashes_ends_a_clause() -> None:
    from citesynth.verify.negation import negated_for

    # an AsciiDoc note block run into the next sentence: its denial is not that sentence's
    sentence = (
        "[NOTE] ---- Generated policies cannot be edited or deleted using the Web UI. "
        "---- You have enabled RBAC and have a policy administrator role."
    )
    stems = {t for w in ("enabled", "RBAC", "policy", "administrator", "role") for t in terms(w)}
    assert negated_for(stems, sentence) is False


def test_a_privative_claim_is_not_vetoed_for_negation(verifier: LexicalVerifier) -> None:
    source = "Sirt1-deficient mice gained more weight on a high-fat diet than their littermates."
    verdict = verifier.verify_now(
        [Check("Mice lacking Sirt1 gain more weight on a high-fat diet.", (source,))]
    )[0]
    assert not any("negation" in reason for reason in verdict.reasons)
    works = "SOCKS support comes with httpcore."
    claim = "SOCKS support works without installing any additional library."
    assert any("negation" in r for r in verifier.verify_now([Check(claim, (works,))])[0].reasons), (
        "without + a verb denies an event: checked"
    )
    plain = "Mice gain more weight on a high-fat diet."
    negated = "Mice do not gain more weight on a high-fat diet."
    assert any("negation" in r for r in verifier.verify_now([Check(negated, (plain,))])[0].reasons)
    with_no = "A route with no converter given uses the string converter."
    source = "A route uses the string converter when none is given."
    assert privative_only(with_no)
    assert verifier.verify_now([Check(with_no, (source,))])[0].label == "supported"
    denied = "A route uses no converter."
    assert any(
        "negation" in r
        for r in verifier.verify_now([Check(denied, ("A route uses a converter.",))])[0].reasons
    )


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        # a negated claim, a source that denies with "avoid", "prevent" or "outside"
        (
            "Jinja uses a bytecode cache, so templates aren't compiled over and over.",
            "The template loading itself uses a bytecode cache to avoid repeated compiling.",
        ),
        (
            "Decorate methods with unsafe so that templates can't call them.",
            "Decorate methods with unsafe to prevent calling them from templates.",
        ),
        (
            "NativeEnvironment is handy when Jinja isn't used to create text files.",
            "NativeEnvironment is useful if you are using Jinja outside the context of "
            "creating text files.",
        ),
        # a plain claim denying with "out of" or an "un-" word the source negates
        (
            "Keep the .env file out of source control.",
            "Store it in a .env file that is not committed to source control.",
        ),
        (
            "Requests from a page on an untrusted URL receive a 400 error.",
            "If a request comes from a page that is not served on a trusted URL, a 400 error "
            "is returned.",
        ),
    ],
)
def test_a_denial_without_a_negation_word_agrees_with_one(
    verifier: LexicalVerifier, claim: str, source: str
) -> None:
    """The tuning documentation claims: one side says "not", the other "avoid", "prevent",
    "outside", "out of" or "un-"; 33 of their 300 supported claims had been vetoed."""
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert not any("negation" in reason for reason in verdict.reasons), verdict


def test_denying_words_are_read_as_written() -> None:
    from citesynth.verify.negation import denies

    assert denies("a page on an untrusted URL", "not served on a trusted URL")
    assert not denies("until the pool is unique", "not under the limit")  # no "un-" word
    assert not denies("Unlike a list, it is unique", "not like a unique list")
    assert not denies("It works out of the box.", "It does not work.")
    plain = "Gunicorn supports Windows directly."
    assert not denies(plain, "It does not support Windows.")
    # an "un-" word denies its word in any form
    assert denies("templates are interpreted unchanged", "without any changes")
    # an "un-" word both sides write denies nothing
    claim = "an ordered list continues when an unordered list item is encountered"
    assert not denies(claim, "an ordered list will not continue when an unordered item comes")


def test_a_denial_backs_a_negated_claim_only_in_the_clause_stating_it(
    verifier: LexicalVerifier,
) -> None:
    """The "disable" of another clause had backed "extensions cannot read it"."""
    source = (
        "Currently the cache is only used to enable and disable template reloading, "
        "but extensions can read it as well."
    )
    claim = "The cache is only used for template reloading, and extensions cannot read it."
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert "negation differs from the source" in verdict.reasons, verdict
    denied = "Currently the cache is only used for reloading, but extensions cannot read it."
    [verdict] = verifier.verify_now([Check(claim, (denied,))])
    assert not any("negation" in reason for reason in verdict.reasons), verdict


def test_a_negation_after_since_is_backed_by_the_sentence_stating_it(
    verifier: LexicalVerifier,
) -> None:
    """The negated clause's own words decide which sentence backs it: "the runner command
    cannot read it early", not the discouragement before "since"."""
    source = (
        "In order to enable the mode reliably, use the option on the runner command. While "
        "it is possible to set the flag in your config or code, this is strongly "
        "discouraged. It can't be read early by the runner command."
    )
    claim = (
        "The reliable way to enable the mode is the option on the runner command; setting "
        "the flag in config or code is strongly discouraged since the runner command cannot "
        "read it early."
    )
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert not any("negation" in reason for reason in verdict.reasons), verdict


def test_a_message_in_inline_code_denies_as_prose_does(verifier: LexicalVerifier) -> None:
    source = (
        "If tests succeed but coverage is low, you will see this message: "
        "`FAIL Required test coverage of 100% not reached.`"
    )
    claim = "The job fails when the required test coverage of 100% is not reached."
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert not any("negation" in reason for reason in verdict.reasons), verdict
    # code that is no message denies nothing
    code = "If tests succeed but coverage is low, the job runs `check_coverage --min 100`."
    [verdict] = verifier.verify_now([Check(claim, (code,))])
    assert "negation differs from the source" in verdict.reasons, verdict


def test_a_negated_clause_is_read_in_the_sentence_stating_more_of_it(
    verifier: LexicalVerifier,
) -> None:
    """The sentence stating most of the negated clause, though not among the three stating
    most of the whole claim, decides (Flask's "Logs for each request aren't show in the
    terminal", after the lines on the script)."""
    source = (
        "The only argument to the command specifies a script containing your application, "
        "which must be called application. You can write a small script to import your "
        "app with this name, or to create it. The command takes a single argument. Then "
        "run the start-server command. Logs for each request aren't show in the terminal."
    )
    claim = (
        "The command takes a single script argument whose app must be named application, "
        "so a small script can import the app, and request logs don't appear in the terminal."
    )
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert not any("negation" in reason for reason in verdict.reasons), verdict


@pytest.mark.parametrize(
    ("claim", "source", "negation"),
    [
        (  # the clause after "because" is stated, denied, by the source
            "Setting the flag in your code works well because the runner command can read "
            "it early.",
            "Setting the flag in your code works well enough. It can't be read early by "
            "the runner command, so use the option instead.",
            True,
        ),
        (  # the denial is of something else the sentence names: mappings, not arrays
            "This order is defined using a TOML array, where each type is listed in order.",
            "Since TOML mappings aren't ordered, types defined using this method are "
            "rendered alphabetically. Use an array to set the order of the types.",
            False,
        ),
        (  # an opening purpose is no assertion
            "To output only some of the declared fields, pass their names via only.",
            "You may not need to output all declared fields every time. Pass their names via only.",
            False,
        ),
        (  # a denying clause the source states plainly
            "Setting the flag skips the routed responder and also means that no response "
            "middleware hooks are called.",
            "Setting the flag skips the routed responder and the remaining request hooks. "
            "However, any response middleware hooks will still be called.",
            True,
        ),
        (  # an example after a comma belongs to the clause it illustrates
            "The debugging middleware shows rich tracebacks with an interactive console and "
            "works in forking environments such as servers that start multiple processes.",
            "The debugging middleware shows rich tracebacks with an interactive console. The "
            "debugger does not work in forking environments, such as a server that starts "
            "multiple processes.",
            True,
        ),
        (  # a role's colons cut no clause: the source's own words, quoted
            "When running as root without `C_FORCE_ROOT` the worker will appear to start "
            "but exit immediately after with no apparent errors.",
            "When running as root without :envvar:`C_FORCE_ROOT` the worker will appear to "
            "start but exit immediately after with no apparent errors.",
            False,
        ),
        (  # a denying word without a negation ("prevents", "abolishes") is not read
            "Blocking the binding of the protein to ND3 and ND6 prevents induced neuronal loss.",
            "Suppressing ND6 binding abolishes induced neuronal loss and improves phenotypes.",
            False,
        ),
        (  # a noun list's "and" in the source cuts no clause
            "On EKS, the Operator Lifecycle Manager framework is not built in, unlike on "
            "OpenShift.",
            "However, on EKS: The Operator Lifecycle Manager framework and the Red Hat "
            "Container Registry are not built in.",
            False,
        ),
        (  # a choice declined is no denial of the clause
            "Cookies should be set with set_cookie or append_header rather than set_header, "
            "because set_header cannot emit several headers with the same name.",
            "Setting cookies on a response may be done via set_cookie or append_header. "
            "With set_header you cannot set multiple headers with the same name.",
            False,
        ),
        (  # a claim denying elsewhere: its plain clauses may state a denial in other words
            "A field removed from a form is skipped during validation, as though it had "
            "never been defined.",
            "Removing a field from a form will cause it to not be validated. It's as if the "
            "field was never defined.",
            False,
        ),
        (  # the source's "not" is its first clause's: "as" gives a reason stated plainly
            "Writing extensions is usually necessary, because the default tags and "
            "expressions do not cover common use cases.",
            "This is a non-trivial task and usually not needed as the default tags and "
            "expressions cover all common use cases.",
            True,
        ),
        (  # "the same as the default" is one clause, negated
            "The default tags and expressions are not the same as the default filters.",
            "The default tags and expressions are not the same as the default filters.",
            False,
        ),
        (  # a noun phrase in brackets is no clause
            "Increased diastolic blood pressure (DBP) is associated with aortic aneurysm.",
            "Diastolic blood pressure had a greater effect on aortic aneurysm. There was no "
            "evidence of increased risk at lower diastolic blood pressure.",
            False,
        ),
    ],
)
def test_a_clause_of_a_compound_claim_the_source_states_only_denied(
    verifier: LexicalVerifier, claim: str, source: str, negation: bool
) -> None:
    """A clause of four or more terms stated the other way (80 % of them in one clause of
    each sentence stating most of them, negated where the claim's is plain or plain where
    it denies) contradicts the claim."""
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert ("negation differs from the source" in verdict.reasons) is negation, verdict


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (  # a negation joined by "and" in the source is of its own clause
            "Starlette counts the body bytes received from the server, which is why it uses "
            "`Content-Length` only to reject an oversized request early.",
            "Starlette counts the body bytes received from the server. `Content-Length` is "
            "used only to reject an oversized request early and is not trusted to enforce "
            "the limit.",
        ),
        (  # cut at "but", "not only X but also Y" still denies nothing (Invoke's words)
            "The Runner class not only forwards your standard input to the running program "
            "(allowing you to respond to prompts) but it can also be configured to respond "
            "automatically on your behalf.",
            "The Runner class not only forwards your standard input to the running program "
            "(allowing you to respond to prompts) but it can also be configured to respond "
            "automatically on your behalf.",
        ),
        (  # two sentences read as one claim are two clauses
            "Without the jupyter extra, Black will not be able to format notebook files. "
            "_Black_ will automatically detect Jupyter Notebooks by their extension.",
            "Without the jupyter extra, Black will not be able to format notebook files. "
            "_Black_ will automatically detect Jupyter Notebooks by their extension and "
            "format them accordingly.",
        ),
    ],
)
def test_clauses_are_cut_where_they_end(claim: str, source: str) -> None:
    from citesynth.verify.analysed import analyse
    from citesynth.verify.compound import clause_denied

    assert not clause_denied(claim, analyse((source,)))


def test_a_run_on_negated_claim_is_scoped_in_linear_time() -> None:
    # a negation after 20,000 words without a comma had taken 109 s to scope (a pattern
    # backtracking from every start), and 5,000 code spans with commas 1 s to cut
    from citesynth.verify.negation import _clauses, negated_scope

    assert "set" in negated_scope("word " * 20_000 + "is not set.")
    assert len(_clauses("`a`, " * 5_000)) == 5_001


def test_a_long_texts_reading_is_read_each_time_not_remembered() -> None:
    from citesynth.verify.analysed import LARGEST_REMEMBERED, remembered_when_short
    from citesynth.verify.compound import _CUT, _clauses

    read: list[tuple[int, str]] = []

    @remembered_when_short(maxsize=8)
    def words(text: str, sep: str) -> int:
        read.append((len(text), sep))
        return len(text.split(sep))

    short, long = "a b c", "a " * LARGEST_REMEMBERED
    assert [words(short, " "), words(short, " "), words(short, ",")] == [3, 3, 1]
    assert [words(long, " "), words(long, " ")] == [LARGEST_REMEMBERED + 1] * 2
    assert read == [(5, " "), (5, ","), (len(long), " "), (len(long), " ")]
    assert len(_clauses("It is not set, and it works. " * 3_000, _CUT)) == 6_001


def test_a_privative_in_the_source_states_a_condition_not_a_denial() -> None:
    from citesynth.verify.analysed import analyse
    from citesynth.verify.compound import clause_denied

    claim = (
        "For an installation in a fully disconnected environment, you must transfer the "
        "chart archive file."
    )
    source = (
        "In environments without internet access a fully disconnected installation runs "
        "reliably. Transfer the chart archive file."
    )
    assert not clause_denied(claim, analyse((source,)))
    assert clause_denied(claim, analyse((source.replace("without", "with no"),)))


def test_a_claim_of_ten_thousand_clauses_and_code_spans_is_cut_once() -> None:
    # each cut is placed against the code spans by bisection, not by a scan of them all
    from citesynth.verify.analysed import analyse
    from citesynth.verify.compound import clause_denied

    claim = "`a`, word " * 10_000 + "and the pool keeps ten connections open."
    source = analyse(("The pool does not keep ten connections open, `a`, word.",))
    assert clause_denied(claim, source)


@pytest.mark.parametrize(
    ("text", "cues"),
    [
        ("Requests are not retried.", ["not"]),
        ("WTForms does -not- translate them.", ["not"]),  # set off by hyphens (its FAQ)
        ("Map the pattern to None in the mounts.", []),  # Python's None, not a denial
        ("None of the pools are shared.", ["none"]),  # the sentence opens with it
        ("Who sang on the album No Fences?", []),
        ("Who sang on the album [No Fences]?", []),
        # an error message opening a quoted string in a list: marshmallow's
        # {'homepage': ['Not a valid URL.']}
        ("{'homepage': ['Not a valid URL.']}", ["not"]),
        ("Set `None` to disable it.", []),
        ("When a request fails, it is retried.", []),  # an event
        ("The drug fails to lower blood pressure.", ["fails"]),
        ("It can't be pickled.", ["can't"]),
        ("It reviews not only the decisions of trial courts but also those of tax courts.", []),
        ("It is not only slow. But it works.", ["not"]),  # "but" of another sentence
        ("Call confirm to ask a yes/no question.", []),  # the two answers, not a denial
        ("Answer yes or no when prompted.", []),
        ("Say yes, or no if unsure.", []),
        ("Yes, no connection is reused.", ["no"]),
        ("It tells whether or not an option came from the command line.", []),  # alternatives
        ("Check whether the value is cached or not.", []),
        ("Check whether it is cached or not, and it is not.", ["not"]),  # the second denies
        ("It is cached or not used at all.", ["not"]),  # no "whether": a denial
        # asking to do it (Flask's "make sure not to forget to set the enctype attribute")
        ("Make sure not to\nforget to set the attribute.", []),
        ("Don't forget to call close() first.", []),
        ("Never fail to close it.", []),
        ("Do not hesitate to ask.", []),
        ("It did not fail.", ["not"]),  # a failure denied, not a request
        ("Last but not least `echo()` uses the streams.", []),  # adds, denies nothing
        ("It is fast, not to mention small.", []),
        ("Do not forget it; it is not cached.", ["not"]),  # the second denies
        ("The author holds nothing but the email address.", []),  # only the address
        ("None but the owner may write.", []),
        ("It returns nothing, but logs the call.", ["nothing"]),  # a denial, then a turn
    ],
)
def test_negation_cues_skip_names_code_and_events(text: str, cues: list[str]) -> None:
    from citesynth.verify.negation import negation_cues

    assert [word for _, word in negation_cues(text)] == cues


@pytest.mark.parametrize(
    "word",
    [
        *"""not no never none neither nor cannot without lack lacks lacking absent unable
        nobody nothing nowhere don't won’t""".split(),
        "not-",
        "lac\u212a",  # the Kelvin sign is "k" lower-cased
    ],
)
def test_every_negating_word_is_found_though_most_texts_are_not_read_word_by_word(
    word: str,
) -> None:
    from citesynth.verify.negation import negation_cues

    text = f"It is {word} here, and it fails to start."
    assert [w for _, w in negation_cues(text)] == [
        word.lower().replace("’", "'").strip("-"),
        "fails",
    ]
    assert negation_cues("A knowledge of pianos, notes and enough nodes. Now") == []


def test_thousands_of_negations_are_read_in_linear_time() -> None:
    # Each negating word reads a window around it; reading the whole text before it made
    # 40,000 of them take a second, 160,000 of them a quarter of a minute.
    from citesynth.verify.negation import negation_cues

    text = "Yes, no answer is `not` here; it is not. " * 40_000
    cues = negation_cues(text)
    assert len(cues) == 80_000  # "no" after "Yes," and "not", never the code span
    assert {word for _, word in cues} == {"no", "not"}


def test_a_source_asking_not_to_forget_a_step_supports_the_step(
    verifier: LexicalVerifier,
) -> None:
    source = (
        "You can handle uploaded files with Flask easily.  Just make sure not to\n"
        'forget to set the ``enctype="multipart/form-data"`` attribute on your HTML\n'
        "form, otherwise the browser will not transmit your files at all."
    )
    claim = 'Set the `enctype="multipart/form-data"` attribute on your HTML form.'
    reasons = verifier.verify_now([Check(claim, (source,))])[0].reasons
    assert not any("negation" in r for r in reasons), reasons
    # and a claim denying the step now differs from it (both read as negated before)
    asked = "Just make sure not to forget to set the ``enctype`` attribute on your HTML form."
    denied = "You do not need to set the `enctype` attribute on your HTML form."
    assert any("negation" in r for r in verifier.verify_now([Check(denied, (asked,))])[0].reasons)


def test_a_negated_claim_is_vetoed_only_by_a_source_with_no_negation_at_all(
    verifier: LexicalVerifier,
) -> None:
    source = "Enabling HTTP/2 does not necessarily mean HTTP/2 is used, since servers differ."
    claim = "Enabling HTTP/2 does not guarantee that HTTP/2 is used."
    reasons = verifier.verify_now([Check(claim, (source,))])[0].reasons
    assert not any("negation" in r for r in reasons)
    plain = "Enabling HTTP/2 means HTTP/2 is used."
    assert any("negation" in r for r in verifier.verify_now([Check(claim, (plain,))])[0].reasons)


CASCADE = (
    "``recursive=True`` works by querying for dependent rows and deleting them\n"
    "first - it does not rely on ``ON DELETE CASCADE``. For large graphs of\n"
    "related data, this can be slow."
)


def test_what_a_claim_asserts_before_not_is_read_against_a_denial(
    verifier: LexicalVerifier,
) -> None:
    # peewee's docs: the embedded model wrote the opposite, then declined what they say
    wrong = (
        "`delete_instance(recursive=True)` depends on the foreign keys being declared with "
        "ON DELETE CASCADE, not on peewee handling the dependent rows itself."
    )
    reasons = verifier.verify_now([Check(wrong, (CASCADE,))])[0].reasons
    assert any("negation" in r for r in reasons), reasons
    right = "`recursive=True` works by querying for dependent rows, not by ON DELETE CASCADE."
    assert verifier.verify_now([Check(right, (CASCADE,))])[0].label == "supported"


RELOADING = (
    "The development server automatically reloads Python code for each request as needed. "
    "You don't need to restart the server for code changes to take effect."
)


def test_a_negated_claim_stated_by_one_of_equally_close_sentences_is_no_mismatch(
    verifier: LexicalVerifier,
) -> None:
    # both sentences share four terms with the claim; the second, negated, states it
    claim = "You don't need to restart the runserver when you edit Python code."
    reasons = verifier.verify_now([Check(claim, (RELOADING,))])[0].reasons
    assert not any("negation" in r for r in reasons), reasons
    plain = RELOADING.split(". ")[0] + "."  # and without it, the negation differs
    reasons = verifier.verify_now([Check(claim, (plain,))])[0].reasons
    assert any("negation" in r for r in reasons), reasons


@pytest.mark.parametrize(
    ("text", "numbers", "quantities"),
    [
        ("two hundred people", {"200"}, set()),
        ("several hundred hours", set(), set()),  # no number, and not 100
        ("forty-two", {"42"}, set()),
        ("a six-month program", {"6"}, {"6 month"}),
        ("55-year-old men", {"55"}, {"55 year"}),
        ("the eighth season", set(), set()),  # an ordinal, not "eight h"
        ("IL-10, not IL-20", {"10", "20"}, set()),  # the digits of names count
        ("20% of runs", {"20", "20%"}, {"20 %"}),
        ("a 5s timeout", {"5"}, {"5 s"}),
        ("it retried once", {"1"}, set()),
        ("it compiles many templates at once", set(), set()),  # together, not one time
        ("Prior to pip v21.1, a setup.py was needed", {"21.1"}, set()),  # a version's "v"
        ("IPv6 only", set(), set()),  # a "v" inside a word is no version
        ("setuptools v77.0.0 and later", {"77.0.0", "77.0", "77"}, set()),
        ("since 1.2.3", {"1.2.3"}, set()),  # one version, not 1.2: 1.2.5 is another
        ("between 0.0 and 1.0", {"0", "0.0", "1", "1.0"}, set()),
        # a constant's number after its name's underscore: Falcon's status constants
        ("falcon.HTTP_204 or HTTP_416", {"204", "416"}, set()),
        ("abc100 and 1_000", {"1"}, set()),  # inside a word, and a digit group, are not
    ],
)
def test_numbers_and_quantities_are_read_as_written(
    text: str, numbers: set[str], quantities: set[str]
) -> None:
    assert set(numbers_of(text)) == numbers
    assert set(quantities_of(text)) == quantities


def test_a_unit_is_only_missing_when_the_source_gives_the_number_another_one(
    verifier: LexicalVerifier,
) -> None:
    source = "Hypertension developed in 90% of the people first examined at age 55."
    claim = "People who are 55 years old have a 90% chance of developing hypertension."
    assert not any("number" in r for r in verifier.verify_now([Check(claim, (source,))])[0].reasons)
    other = "Hypertension developed in 90% of the people followed for 55 months."
    assert any("55 year" in r for r in verifier.verify_now([Check(claim, (other,))])[0].reasons)


def test_sizes_spelled_out_are_units(verifier: LexicalVerifier) -> None:
    # Flask's docs: "16 * 1000 * 1000" limits the payload to 16 megabytes, not gigabytes
    source = "The code above will limit the maximum allowed payload to 16 megabytes."
    wrong = "The code limits the maximum allowed payload to 16 gigabytes."
    right = "The code limits the maximum allowed payload to 16 MB."
    verdicts = verifier.verify_now([Check(wrong, (source,)), Check(right, (source,))])
    assert "number(s) not in the source: 16 gb" in verdicts[0].reasons
    assert verdicts[1].supported


@pytest.mark.parametrize(
    ("claim", "missing"),
    [
        ("The default max_age is 600 seconds, which is 10 minutes.", None),
        ("Sessions expire after 14 days by default.", None),
        ("A body of 64 KB is buffered.", None),
        ("The default max_age is 600 seconds, which is 12 minutes.", "12"),
        ("Sessions expire after 15 days by default.", "15"),
    ],
)
def test_a_quantity_in_another_unit_is_stated_when_the_amount_is_the_same(
    verifier: LexicalVerifier, claim: str, missing: str | None
) -> None:
    source = (
        "* `max_age` - Sets a maximum time in seconds for browsers to cache CORS responses. "
        "Defaults to `600`.\n* `session` - Session expiry time in seconds. Defaults to 2 "
        "weeks.\n* `buffer` - Buffers 65536 bytes of a body."
    )
    (verdict,) = verifier.verify_now([Check(claim, (source,))])
    numbers = [r for r in verdict.reasons if r.startswith("number")]
    assert numbers == ([f"number(s) not in the source: {missing}"] if missing else [])
    assert not any(r.startswith("nothing in the source states") for r in verdict.reasons) or (
        missing is not None
    )


# A reference page names an option's unit, then gives its value alone (Starlette's docs).
OPTION = (
    "* `minimum_size` - Do not GZip responses that are smaller than this minimum size in "
    "bytes. Defaults to `500`.\n* `max_age` - Sets a maximum time in seconds for browsers "
    "to cache CORS responses. Defaults to `600`."
)


@pytest.mark.parametrize(
    ("claim", "number_missing"),
    [
        ("GZipMiddleware does not compress responses smaller than 500 bytes.", False),
        ("Browsers cache CORS responses for 600 seconds by default.", False),
        ("Browsers cache CORS responses for 600 minutes by default.", True),
        # The unit of one item is not the next item's.
        ("Browsers cache CORS responses for 600 bytes by default.", True),
    ],
)
def test_a_value_takes_the_unit_the_sentence_before_it_names(
    verifier: LexicalVerifier, claim: str, number_missing: bool
) -> None:
    (verdict,) = verifier.verify_now([Check(claim, (OPTION,))])
    assert any("number" in r for r in verdict.reasons) is number_missing


@pytest.mark.parametrize(
    ("claim", "vetoed"),
    [
        ("The minimum size of responses to GZip defaults to 500 bytes.", ""),
        ("The smallest response that GZipMiddleware compresses is 500 bytes.", ""),
        # A bound is no licence for another number, nor a plain claim for a denial.
        ("The smallest response that GZipMiddleware compresses is 400 bytes.", "number"),
        ("GZipMiddleware will GZip responses smaller than this minimum size.", "negation"),
        ("GZipMiddleware will GZip responses smaller than 500 bytes.", "negation"),
    ],
)
def test_a_bound_restates_what_the_source_denies_past_it(
    verifier: LexicalVerifier, claim: str, vetoed: str
) -> None:
    (verdict,) = verifier.verify_now([Check(claim, (OPTION,), "GZipMiddleware")])
    vetoes = [r for r in verdict.reasons if not r.startswith("terms not found")]
    assert [r.split()[0].rstrip("(s)") for r in vetoes] == ([vetoed] if vetoed else [])
    if claim.startswith("The minimum"):
        assert verdict.label == "supported"


def test_a_claim_joining_two_sentences_is_checked_where_it_negates(
    verifier: LexicalVerifier,
) -> None:
    source = (
        "- `max_keepalive`, number of keep-alive connections, or `None` to always allow.\n"
        "- `max_connections`, maximum number of connections, or `None` for no limits.\n"
    )
    joined = (
        "`max_keepalive`, number of keep-alive connections, or `None` to always allow. "
        "`max_connections`, maximum number of connections, or `None` for no limits."
    )
    reasons = verifier.verify_now([Check(joined, (source,))])[0].reasons
    assert not any("negation" in r for r in reasons)


CHAMPION = (
    "Simone Biles is a three-time reigning world all-around champion. She has won 14 world "
    "championship medals, more than any other American gymnast. The 2016 games were the "
    "most dominant ever for the gymnastics team."
)  # the superlative of another sentence says nothing of Biles


@pytest.mark.parametrize(
    "claim",
    [
        "The best Olympic gymnast of all time is Simone Biles.",
        "Simone Biles is the greatest gymnast ever.",
    ],
)
def test_a_superlative_the_source_never_states_is_unsupported(
    verifier: LexicalVerifier, claim: str
) -> None:
    verdict = verifier.verify_now([Check(claim, (CHAMPION,))])[0]
    assert verdict.label != "supported"
    assert any("superlative" in reason for reason in verdict.reasons)


@pytest.mark.parametrize(
    ("claim", "source"),
    [
        (
            "Lake Superior is the biggest lake in North America.",
            "Lake Superior is the largest lake in North America.",
        ),
        (
            "Most T cells in children are naive.",
            "In children the main subset consists of naive T cells.",
        ),
        (
            "She is the best known mapmaker of the period.",
            "John Speed drew the map. He is the best known English mapmaker of the period.",
        ),
    ],
)
def test_a_superlative_the_source_states_or_a_quantifier_is_no_mismatch(
    verifier: LexicalVerifier, claim: str, source: str
) -> None:
    reasons = verifier.verify_now([Check(claim, (source,))])[0].reasons
    assert not any("superlative" in reason for reason in reasons)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("the tallest building", {"tallest"}),
        ("Brazil's most decorated fighter", {"most"}),
        ("the best player of all time", {"best", "of-all-time"}),
        ("the latest release passed the test", {"latest"}),
        ("their interest in the forest", set()),
        ("most people agree", set()),
    ],
)
def test_superlatives_are_read_after_a_determiner(text: str, found: set[str]) -> None:
    assert superlatives(text) == found


FERRY = "Boats leave the harbour every 40 minutes from 6 a.m. The crossing takes 25 minutes."


def test_what_only_the_title_names_counts_as_stated(verifier: LexicalVerifier) -> None:
    claim = "The Northwind ferries leave the harbour every 40 minutes."
    [alone] = verifier.verify_now([Check(claim, (FERRY,))])
    [titled] = verifier.verify_now([Check(claim, (FERRY,), "Northwind Ferry Service")])
    assert "name(s) not in the source: Northwind" in alone.reasons  # as the claim writes it
    assert titled.supported, titled
    assert not titled.reasons
    assert titled.score > alone.score
    assert titled.spans == alone.spans  # the title is never the supporting span


def test_a_title_never_supplies_what_the_text_contradicts(verifier: LexicalVerifier) -> None:
    about = "Northwind Ferry Service timetable 2024"
    for claim in (
        "Northwind ferries leave the harbour every 30 minutes.",  # the text says 40
        "Northwind ferries do not leave the harbour before noon.",  # nothing says so
    ):
        [verdict] = verifier.verify_now([Check(claim, (FERRY,), about)])
        assert not verdict.supported, (claim, verdict)


def test_a_number_the_heading_gives_is_stated(verifier: LexicalVerifier) -> None:
    claim = "In season 2 the crossing takes 25 minutes."
    [alone] = verifier.verify_now([Check(claim, (FERRY,))])
    [titled] = verifier.verify_now([Check(claim, (FERRY,), "Ferry timetable, season 2")])
    assert "number(s) not in the source: 2" in alone.reasons
    assert not any("number" in r for r in titled.reasons)


LIMITS_PAGE = (
    "You can control the connection pool size using the `limits` keyword argument. It takes "
    "instances of `httpx.Limits` which define `max_keepalive_connections`, number of "
    "allowable keep-alive connections (Defaults 20)."
)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("The retries of `httpx.HTTPTransport` default to 0.", {"httptransport"}),
        ("Set max_connections on httpx.Limits, e.g. to 10.", {"max_connections", "limits"}),
        ("Pass `None` or `limits=httpx.Limits(max_connections=5)`.", {"limits", "max_connections"}),
        ("```yaml\napp: title\n``` Additionally, it is shown.", set()),  # a fence, not code
        ("The U.S. court of appeals reviews decisions.", set()),
        ("It logs at logging.INFO. Then it stops.", {"info"}),  # a full stop after it
        # an option as the whole code, however short; inside a command or a word, none
        (
            "Run `pytest -x`, `-k`, `--maxfail=2` or `--ff`.",
            {"pytest", "-k", "--maxfail", "--ff"},  # as written
        ),
        ("Use `set-cookie` and `a - b`.", {"set", "cookie"}),
        # reStructuredText's double backticks mark code too; tokenised quotes do not
        ("To run tests we use ``nox`` and ``--sw``.", {"nox", "--sw"}),
        ("The song `` Fooled Around '' was a hit.", set()),
    ],
)
def test_identifiers_are_read_from_code_dotted_and_snake_case_words(
    text: str, found: set[str]
) -> None:
    from citesynth.verify.identifiers import identifiers

    assert identifiers(text) == found


def test_a_code_identifier_the_source_never_names_is_no_support(verifier: LexicalVerifier) -> None:
    # the embedded model's HTTPX answer, cited to the resource limits page
    claim = "The default number of connection retries of `httpx.HTTPTransport` is 20."
    [verdict] = verifier.verify_now([Check(claim, (LIMITS_PAGE,))])
    assert verdict.label != "supported"
    assert "identifier(s) not in the source: httptransport" in verdict.reasons
    named = "The `max_keepalive_connections` of `httpx.Limits` defaults to 20 connections."
    assert verifier.verify_now([Check(named, (LIMITS_PAGE,))])[0].supported
    heading = "The `sni_hostname` extension names the server."
    text = "It names the server when connecting to an IP address."
    [titled] = verifier.verify_now([Check(heading, (text,), "Extensions `sni_hostname`")])
    assert not any("identifier" in r for r in titled.reasons)


def test_a_name_in_double_backticks_the_source_never_names_is_no_support(
    verifier: LexicalVerifier,
) -> None:
    # build's contributing guide, with the tool swapped for one the page never names
    page = "Due to its nature, ``build`` has a complex test suite. To run tests we use ``tox``."
    claim = "To run tests we use ``nox``."
    _vetoed(verifier, Check(claim, (page,)), "identifier(s) not in the source: nox")
    assert not _identifier_reasons(verifier, Check("To run tests we use ``tox``.", (page,)))


def test_an_option_the_source_never_names_is_no_support(verifier: LexicalVerifier) -> None:
    # the embedded model's pytest answer, cited to the section on `--sw`
    stepwise = (
        "As an alternative to ``--lf -x``, ``--sw``, ``--stepwise`` allows you to fix them "
        "one at a time. The test suite will run until the first failure and then stop."
    )
    claim = "To stop the test run after the first failure, you can use the `--ff` option."
    _vetoed(verifier, Check(claim, (stepwise,)), "identifier(s) not in the source: --ff")
    right = "To stop the test run after the first failure, you can use the `--sw` option."
    assert not _identifier_reasons(verifier, Check(right, (stepwise,)))
    # a long option's name as a word states it: pip's "editable" mode with `pip install -e`
    editable = 'You can install local projects in "editable" mode: `pip install -e path/to/it`.'
    claim = "To install a local project in editable mode, use the `--editable` option."
    assert not _identifier_reasons(verifier, Check(claim, (editable,)))
    for other in ("-s", "-X"):  # inside `--sw`; `-x` in another case
        claim = f"To stop the test run after the first failure, use the `{other}` option."
        _vetoed(verifier, Check(claim, (stepwise,)), f"identifier(s) not in the source: {other}")


def test_a_method_the_claim_calls_must_be_code_in_the_source(verifier: LexicalVerifier) -> None:
    """A changelog with "cancel" only in prose does not state a `cancel()` method (AnyIO)."""
    changelog = (
        "- Fixed 100% CPU use on asyncio while waiting for an exiting task group to finish "
        "while said task group is within a cancelled cancel scope (``CancelledError``)"
    )
    claim = "To cancel a task group, you can use the `cancel()` method on the task group."
    _vetoed(verifier, Check(claim, (changelog,)), "identifier(s) not in the source: cancel()")
    for source in (
        "Call ``cancel()`` on the task group's cancel scope to cancel the task group.",
        "The task group is cancelled with :meth:`~anyio.CancelScope.cancel` of its scope.",
        "To cancel a task group, call tg.cancel_scope.cancel() on the task group.",
        # a source that marks no code at all (a PDF, plain text) is not asked to
        "To cancel a task group, use the cancel method on the task group.",
    ):
        assert not _identifier_reasons(verifier, Check(claim, (source,))), source


def _vetoed(verifier: LexicalVerifier, check: Check, reason: str) -> None:
    """`check`'s claim is not supported, for `reason` among others."""
    [verdict] = verifier.verify_now([check])
    assert verdict.label != "supported"
    assert reason in verdict.reasons


def _identifier_reasons(verifier: LexicalVerifier, check: Check) -> list[str]:
    """The reasons of `check`'s verdict that name an identifier the source lacks."""
    [verdict] = verifier.verify_now([check])
    return [reason for reason in verdict.reasons if "identifier" in reason]


TRIO_TIMEOUTS = """Trio has a rich, composable system for cancelling work, either
explicitly or when a timeout expires.

In the simplest case, you can apply a timeout to a block of code:

.. code-block:: python

   with trio.move_on_after(30):
       result = await do_http_get("https://...")
"""


def test_an_attribute_the_claim_names_must_be_code_in_the_source(
    verifier: LexicalVerifier,
) -> None:
    """The embedded model's `trio.timeout`: the section has "timeout" only as a word, and
    marks its code with a directive, not a backtick."""
    claim = "To apply a timeout to a block of code, you can use the `trio.timeout` function."
    reason = "identifier(s) not in the source: trio.timeout"
    _vetoed(verifier, Check(claim, (TRIO_TIMEOUTS,)), reason)
    for right in (
        "To apply a timeout to a block of code, use `trio.move_on_after`.",
        "Apply a timeout to a block of code with `move_on_after(30)`.",
        "You can apply a timeout to a block of code, e.g. `https://example.com/x.timeout`.",
        "You can apply a timeout to a block of code served from `example.com`.",
    ):
        assert not _identifier_reasons(verifier, Check(right, (TRIO_TIMEOUTS,))), right
    # a setting's key path names the keys a YAML example nests (the Developer Hub guides)
    values = "Add it to your `values.yaml` file:\n\nupstream:\n  backstage:\n    extraEnvVars:\n"
    keyed = "Add the variable under `upstream.backstage.extraEnvVars` in your values file."
    assert not _identifier_reasons(verifier, Check(keyed, (values,)))
    plain = TRIO_TIMEOUTS.replace(".. code-block:: python\n", "")  # marks no code at all
    [unmarked] = verifier.verify_now([Check(claim, (plain,))])
    assert not any("identifier" in reason for reason in unmarked.reasons)


STRUCTLOG_DEFAULTS = """Using the defaults is equivalent to:

```python
structlog.configure(
    processors=[structlog.dev.set_exc_info, structlog.dev.ConsoleRenderer()],
    wrapper_class=structlog.make_filtering_bound_logger(logging.NOTSET),
    context_class=dict,
    cache_logger_on_first_use=False,
)
```
"""


def test_an_attribute_the_source_qualifies_otherwise_is_not_in_it(
    verifier: LexicalVerifier,
) -> None:
    # the source writes `logging.` with NOTSET, and "info" only inside `set_exc_info`
    claim = "The defaults give a filtering bound logger at logging.INFO."
    reason = "identifier(s) not in the source: logging.INFO"
    _vetoed(verifier, Check(claim, (STRUCTLOG_DEFAULTS,)), reason)
    right = "The defaults give a filtering bound logger at logging.NOTSET."
    assert not _identifier_reasons(verifier, Check(right, (STRUCTLOG_DEFAULTS,)))
    # a name the source writes under another qualifier is no other attribute
    nested = "Configure it with structlog.make_filtering_bound_logger and structlog.configure."
    source = STRUCTLOG_DEFAULTS.replace("structlog.make", "structlog.stdlib.make")
    assert not _identifier_reasons(verifier, Check(nested, (source,)))
    # a name written only inside a hyphenated word is not written on its own (Jinja's
    # ":ref:`i18n-extension`" beside ``jinja2.ext.babel_extract``)
    babel = (
        "Jinja provides an extractor entry point called ``jinja2.ext.babel_extract``. "
        "The support is implemented as part of the :ref:`i18n-extension` extension."
    )
    swapped = "The extractor entry point is called jinja2.ext.i18n."
    _vetoed(verifier, Check(swapped, (babel,)), "identifier(s) not in the source: jinja2.ext.i18n")
    written = babel.replace(":ref:`i18n-extension`", "i18n")
    assert not _identifier_reasons(verifier, Check(swapped, (written,)))


def test_other_attributes_are_found_in_linear_time() -> None:
    from citesynth.verify.identifiers import other_attributes

    claim = " ".join(f"logging.level{i}" for i in range(3_000))
    text = "logging.notset and some words here. " * 3_000
    started = time.perf_counter()
    assert len(other_attributes(claim, text)) == 3_000
    assert time.perf_counter() - started < 2.0  # read name by name, 9 s


@pytest.mark.parametrize(("value", "negation"), [("False", False), ("True", True)])
def test_a_name_set_to_false_denies_what_it_names(
    verifier: LexicalVerifier, value: str, negation: bool
) -> None:
    claim = (
        "The defaults amount to a plain dict as the context class, and no caching of the "
        "logger on first use."
    )
    source = STRUCTLOG_DEFAULTS.replace("first_use=False", f"first_use={value}")
    assert _negation_differs(verifier, claim, source) is negation


def test_a_number_the_source_writes_only_as_a_label_is_no_count(
    verifier: LexicalVerifier,
) -> None:
    """'No. 21' names a jersey; 'has 21 career blocks' counts something the source never does."""
    source = "Hassan Whiteside, No. 21 of the Miami Heat, plays center and led the NBA in blocks."
    (invented,) = verifier.verify_now([Check("Hassan Whiteside has 21 career blocks.", (source,))])
    assert invented.label != "supported"
    assert any("only as a label" in reason for reason in invented.reasons)
    for claim in ("Hassan Whiteside wears No. 21 for the Miami Heat.", "He wears #21 in Miami."):
        assert labels_only(claim, (source,)) == ()
    assert labels_only("He scored 21 points.", ("No. 21 scored 21 points.",)) == ()
    assert labels_only("It was the 4th single.", ("It reached No. 4.",)) == ()
    for claim, evidence in [
        ("Issue 1234 was fixed in HTTPX 0.24.", "Issue #1234 was fixed in HTTPX 0.24."),
        ("The song peaked at 4 in the UK.", "The song peaked at No. 4 in the UK."),
        ("He wore jersey 21 for Miami.", "He wore No. 21 for Miami."),
        ("21 of the 30 members voted no.", "The answer was no. 21 of the 30 members voted no."),
    ]:
        assert labels_only(claim, (evidence,)) == (), claim


def test_reasons_name_words_as_the_claim_writes_them(verifier: LexicalVerifier) -> None:
    claim = "Acme ferries leave every 40 minutes from the municipal library."
    [verdict] = verifier.verify_now([Check(f"The {claim}", (FERRY,))])
    assert not verdict.supported
    assert "name(s) not in the source: Acme" in verdict.reasons
    [terms] = [r for r in verdict.reasons if r.startswith("terms not found")]
    assert "library" in terms and "municipal" in terms and "librari" not in terms


def test_what_the_way_to_do_something_is_must_be_in_the_source(
    verifier: LexicalVerifier,
) -> None:
    # setuptools' advice, and the embedded model's answer taking the question's alternative
    source = (
        "If a later version of Package-A builds in PDF support and no longer needs "
        "ReportLab, Package-B's setup information does not need to change, but the right "
        "packages will still be installed if needed."
    )
    claim = (
        "The recommended way to keep downstream packages from breaking when a later version "
        "no longer needs ReportLab for its PDF support is to drop the extra entirely."
    )
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert "nothing in the source states 'drop the extra entirely'" in verdict.reasons
    assert not verdict.supported
    stated = "The way to keep packages installed is to change nothing in the setup information."
    [verdict] = verifier.verify_now([Check(stated, (source,))])
    assert not any(r.startswith("nothing in the source states") for r in verdict.reasons)


@pytest.mark.parametrize(
    "claim",
    [
        "Pools keep ten connections per host and are powered by hamsters.",
        "Pools keep ten connections per host, which hamsters power.",
        "The connect timeout defaults to five seconds; it was chosen by a committee.",
        # a clause sharing a word or two with the source, its other words none
        "Pools keep ten connections per host, and they hand each connection to hamsters in the "
        "basement.",
        # a clause added with ", which", sharing one word with the source
        "Pools keep ten connections per host, which the hosts buffer entirely in memory.",
        # an added clause opening with its subject's determiner ("any", "all", "the")
        "Pools keep ten connections per host, and any hosts you leave out are inferred "
        "automatically.",
    ],
)
def test_a_clause_stating_nothing_the_source_says_is_never_supported(
    verifier: LexicalVerifier, claim: str
) -> None:
    [verdict] = verifier.verify_now([Check(claim, (SOURCE,))])
    assert not verdict.supported, verdict
    assert any(r.startswith("nothing in the source states") for r in verdict.reasons)


@pytest.mark.parametrize(
    ("claim", "about"),
    [
        # each added clause shares a word with the source
        ("Pools keep ten connections per host, which raises the success rate.", ""),
        (
            "The connect timeout defaults to five seconds, while the read timeout limits "
            "how long a response may take.",
            "",
        ),
        (
            "Pools keep ten connections per host, and the read timeout limits how long a "
            "response may take.",
            "",
        ),
        # the title states the clause's words
        (
            "Pools keep ten connections per host and are part of the Transport layer.",
            "Transport layer",
        ),
    ],
)
def test_a_clause_sharing_words_with_the_source_or_its_title_is_no_veto(
    verifier: LexicalVerifier, claim: str, about: str
) -> None:
    [verdict] = verifier.verify_now([Check(claim, (SOURCE,), about)])
    assert not any(r.startswith("nothing in the source states") for r in verdict.reasons)


def test_a_possessive_is_no_missing_term_or_name(verifier: LexicalVerifier) -> None:
    from citesynth.analysis import content_terms

    # The tokenizer cuts "Click's" into "click" and "s"; a source need not hold an "'s".
    assert content_terms("Click's shell completion; it’s fast") == [
        "click",
        "shell",
        "complet",
        "fast",
    ]
    source = "The Northwind ferries leave the harbour every 40 minutes."
    [verdict] = verifier.verify_now(
        [Check("Northwind's ferries leave the harbour every 40 minutes.", (source,))]
    )
    assert verdict.supported, verdict
    assert not any("not in the source" in reason for reason in verdict.reasons)


ECHO = "You can print to standard error by passing ``err=True`` to ``click.echo``."


@pytest.mark.parametrize(
    ("claim", "supported", "reason"),
    [
        ("You can print to standard error by passing `err=True` to `click.echo`.", True, ""),
        (
            "You can print to standard error by passing `err=False` to `click.echo`.",
            False,
            "the source writes 'err=True', not 'err=False'",
        ),
    ],
)
def test_a_setting_must_have_the_sources_value(
    verifier: LexicalVerifier, claim: str, supported: bool, reason: str
) -> None:
    verdict = verifier.verify_now([Check(claim, (ECHO,))])[0]
    assert verdict.supported is supported
    assert (reason in verdict.reasons) is bool(reason)


THREADS = (
    "pytest is single-threaded, executing its tests always in the same thread, never spawning "
    "any threads itself. Plugins which run tests in parallel, for example pytest-xdist, work "
    "by spawning multiple processes."
)
MODULES = "A worker runs a single test module at a time; zero workers disable it."


@pytest.mark.parametrize(
    ("claim", "source", "supported"),
    [
        # a value written as a digit is stated, 0 and 1 as much as any other (the embedded
        # model's answer on pytest's docs; "single-threaded" counts threads)
        (
            "The default number of worker processes pytest uses to run tests in parallel is 1.",
            THREADS,
            False,
        ),
        ("pytest-xdist spawns 0 threads.", THREADS, False),
        # "a single" states 1; "one" and "zero" in words are as often "a" and "no"
        ("A worker runs 1 test module at a time.", MODULES, True),
        ("A worker runs one test module at a time.", MODULES, True),
        ("0 workers disable it.", MODULES, True),
    ],
)
def test_a_zero_or_one_written_as_a_digit_must_be_in_the_source(
    verifier: LexicalVerifier, claim: str, source: str, supported: bool
) -> None:
    verdict = verifier.verify_now([Check(claim, (source,))])[0]
    assert (verdict.label == "supported") is supported
    if not supported:
        assert any("number(s) not in the source" in reason for reason in verdict.reasons)


@pytest.mark.parametrize(
    ("claim", "source", "supported"),
    [
        # whole numbers written with decimals state the same values
        (
            "The dropout rate must be between 0 and 1.",
            "The dropout rate must be between 0.0 and 1.0.",
            True,
        ),
        # a sentence's first word is no name the digit belongs to
        ("Use 1 worker process per CPU core.", "Use 4 worker processes per CPU core.", False),
        ("Returns 0 when the command succeeds.", "Returns 2 when the command succeeds.", False),
    ],
)
def test_zero_and_one_read_as_values_wherever_they_stand(
    verifier: LexicalVerifier, claim: str, source: str, supported: bool
) -> None:
    assert (label(verifier, claim, source) == "supported") is supported


def test_a_claim_of_many_ones_is_read_in_linear_time() -> None:
    from citesynth.verify.numbers import numbers_claimed

    started = time.perf_counter()
    assert numbers_claimed("the values are " + "and 1 " * 20_000) == ["1"]
    assert time.perf_counter() - started < 2.0


def test_the_lexical_verifier_takes_a_whole_code_comment_as_a_quotation(
    verifier: LexicalVerifier,
) -> None:
    source = (
        "```python\npre_chain = [\n"
        "    # Add the log level and a timestamp to the event_dict if the log entry\n"
        "    # is not from structlog.\n"
        "    structlog.stdlib.add_log_level,\n]\n```"
    )
    claim = (
        "Add the log level and a timestamp to the event_dict if the log entry is not from "
        "structlog:"
    )
    assert label(verifier, claim, source) == "supported"


def test_a_verb_in_ify_and_its_noun_in_ification_are_one_term() -> None:
    # The stemmer leaves "verified" (verifi) and "verification" (verif) apart.
    check = Check(
        "Certificates are verified by default.",
        ("Certificate verification is enabled by default for every request.",),
    )
    (verdict,) = LexicalVerifier().verify_now([check])
    assert verdict.label == "supported" and verdict.score > 0.9


def test_a_verdict_does_not_depend_on_the_checks_verified_with_it(
    verifier: LexicalVerifier,
) -> None:
    other = "Retries raise the success rate of flaky calls. Pools keep ten connections per host."
    check = Check("Pools keep ten connections per host.", (SOURCE, other))
    alone = verifier.verify_now([check])[0]
    # a check before it citing the same passages the other way round
    together = verifier.verify_now([Check("Retries help flaky calls.", (other, SOURCE)), check])
    assert together[1] == alone
    assert alone.spans[0].passage == 0  # both state it: the check's first passage is shown


def test_an_alignment_is_remembered_across_verifications(verifier: LexicalVerifier) -> None:
    check = Check("The read timeout limits how long a response may take.", (SOURCE,))
    remembered_alignment.cache_clear()
    first = verifier.verify_now([check])
    assert verifier.verify_now([check]) == first
    info = remembered_alignment.cache_info()
    assert (info.hits, info.misses) == (1, 1)


def test_a_whole_page_is_aligned_but_not_remembered(verifier: LexicalVerifier) -> None:
    page = SOURCE + " Filler text about pools." * 5_000  # far beyond a chunk
    remembered_alignment.cache_clear()
    [verdict] = verifier.verify_now([Check("Pools keep ten connections per host.", (page,))])
    assert verdict.label == "supported"
    assert remembered_alignment.cache_info().currsize == 0


def test_a_name_with_other_digits_is_a_changed_number(verifier: LexicalVerifier) -> None:
    """'base62' where the source writes 'base36': digits inside a word are no number."""
    source = (
        "Otherwise we increment the last-url-id key and convert it to base36. "
        "Then we store the link and the reverse entry in redis."
    )
    changed, right = verifier.verify_now(
        [
            Check(
                "It increments last-url-id, converts it to base62 and stores it in redis.",
                (source,),
            ),
            Check(
                "It increments last-url-id, converts it to base36 and stores it in redis.",
                (source,),
            ),
        ]
    )
    assert not changed.supported
    assert any("base62" in reason for reason in changed.reasons), changed.reasons
    assert right.supported, right.reasons
    assert numbered_names_changed("Encode it as utf8.", ("Encode it as UTF-8 or utf16.",)) == ()
    assert numbered_names_changed("Hash it with sha256.", ("Hash it with sha256sum.",)) == ()
    assert numbered_names_changed("Use sha512.", ("Use sha256 or sha1.",)) == ("sha512",)
    assert numbered_names_changed("Python 3 only.", ("Needs py311.",)) == ()


def test_a_negation_after_otherwise_states_the_condition(verifier: LexicalVerifier) -> None:
    """'X is required, otherwise Y will not work' is what 'X is needed so Y works' says."""
    source = (
        "When using either gevent or eventlet, greenlet>=1.0 is required, otherwise context "
        "locals such as request will not work as expected."
    )
    right, denial = verifier.verify_now(
        [
            Check(
                "Gevent and eventlet need greenlet 1.0 or newer so context locals like "
                "request work as expected.",
                (source,),
            ),
            Check(
                "Context locals such as request will not work as expected with gevent.",
                ("Context locals such as request work as expected with gevent.",),
            ),
        ]
    )
    assert right.supported, right.reasons
    assert not denial.supported  # a negation standing alone still disagrees
    assert otherwise_only(["context", "local", "request"], source)
    assert not otherwise_only(["context", "local"], "Context locals will not work, otherwise.")


def test_a_negation_in_a_message_an_example_prints_states_nothing(
    verifier: LexicalVerifier,
) -> None:
    """marshmallow's example prints `{"email": ['"foo" is not a valid email address.']}`."""
    source = (
        "`Schema.load` raises a ValidationError error when invalid data are passed in. You "
        "can access the dictionary of validation errors from the `ValidationError.messages` "
        "attribute. The data that were correctly deserialized are accessible in "
        "`ValidationError.valid_data`. Some fields, such as the Email field, have built-in "
        "validation.\n\n.. code-block:: python\n\n    try:\n"
        '        result = UserSchema().load({"name": "John", "email": "foo"})\n'
        "    except ValidationError as err:\n"
        '        print(err.messages)  # => {"email": [\'"foo" is not a valid email address.\']}\n'
        '        print(err.valid_data)  # => {"name": "John"}\n'
    )
    claim = (
        "When load hits invalid data it raises ValidationError, whose messages attribute "
        "holds the errors while valid_data keeps the correctly deserialized fields, such as "
        "the name in the bad-email example."
    )
    [verdict] = verifier.verify_now([Check(claim, (source,))])
    assert not any("negation" in reason for reason in verdict.reasons), verdict
    wanted = ["valid", "email", "address"]
    assert messages_only(wanted, "print(x)  # => {'email': ['not a valid email address.']}")
    assert not messages_only(wanted, 'The docs say "not a valid email address" here.')
    assert not messages_only(wanted, "x = 'a valid email address'  # not accepted")
    started = time.perf_counter()  # each negation found among the strings by bisection
    assert messages_only(["valid"], "x = ['is not valid', " * 20_000)
    assert time.perf_counter() - started < 10  # every pair read: half a minute


def test_a_verb_ending_an_action_restates_a_negation(verifier: LexicalVerifier) -> None:
    """'stops when' is 'will not continue when'; the source writing the verb denies nothing."""
    source = (
        "With tidy lists, a numbered list will not continue when a bulleted list item is "
        "encountered."
    )
    right, hints = verifier.verify_now(
        [
            Check(
                "With tidy lists, a numbered list stops when a bulleted list item appears.",
                (source,),
            ),
            Check(
                "Browsers never ignore early hints sent before the final response.",
                ("Browsers may ignore early hints sent before the final response.",),
            ),
        ]
    )
    assert right.supported, right.reasons
    assert not hints.supported


def _written_claims() -> list[dict[str, str]]:
    folder = Path(__file__).parents[1] / "fixtures"
    return [
        json.loads(line)
        for path in sorted(folder.glob("docs_claims_tuning_*.jsonl"))
        for line in path.read_text().splitlines()
        if line.strip()
    ]


def test_a_check_its_coverage_rules_out_is_never_partial_or_better(
    verifier: LexicalVerifier,
) -> None:
    """`could_support` bounds the verdict: on every written claim, against its own passage
    and against a passage of another library's documentation."""
    rows = _written_claims()
    half = len(rows) // 2
    checks = [
        Check(row["claim"], (passage,))
        for row, other in zip(rows, [*rows[half:], *rows[:half]], strict=True)
        for passage in (row["passage"], other["passage"])
    ]
    ruled_out = [check for check in checks if not verifier.could_support(check)]
    assert all(v.label == "unsupported" for v in verifier.verify_now(ruled_out))
    assert len(ruled_out) > len(checks) / 3  # mostly the other libraries' passages
    kept = [check for check in checks if verifier.could_support(check)]
    assert sum(v.label != "unsupported" for v in verifier.verify_now(kept)) > len(rows) / 2


TRIO = (
    "If the server waits for the client to finish before it calls ``receive_some``, we have "
    "a\nproblem! The client won't call ``receive_some`` until the server has\ncalled "
    "``receive_some``, and the server won't call ``receive_some``\nuntil the client has called "
    "``receive_some``. If our client is written\nto alternate between sending and receiving, "
    "and the chunk of data it's\ntrying to send is large enough, then the two processes will "
    "deadlock.\n\nMoral: Trio gives you powerful tools to manage sequential and\nconcurrent "
    "execution. In this example we saw that the server needs\n``send`` and ``receive_some`` "
    "to alternate in sequence, while the\nclient needs them to run concurrently, and both "
    "were straightforward\nto implement."
)


def test_a_whole_sentence_of_the_source_quoted_is_supported(verifier: LexicalVerifier) -> None:
    # trio's docs, read against its own page: the names had read as crossed against the
    # sentences naming one of them only
    claim = (
        "In this example we saw that the server needs send and receive_some to alternate in "
        "sequence, while the client needs them to run concurrently, and both were "
        "straightforward to implement."
    )
    [verdict] = verifier.verify_now([Check(claim, (TRIO,))])
    assert verdict.supported and verdict.score == 1.0
    crossed = claim.replace("the server needs", "the client needs", 1)
    crossed = crossed.replace("while the client", "while the server")
    assert not verifier.verify_now([Check(crossed, (TRIO,))])[0].supported


def test_a_comment_quoted_whole_could_be_supported(verifier: LexicalVerifier) -> None:
    code = (
        "```python\n# Schedules job_function to be run on the third Friday\n"
        "# of June and July at 00:00\nsched.add_job(job_function, 'cron')\n```"
    )
    claim = "Schedules job_function to be run on the third Friday of June and July at 00:00:"
    assert verifier.could_support(Check(claim, (code,)))
    assert verifier.verify_now([Check(claim, (code,))])[0].supported
    assert not verifier.could_support(Check(claim, ("Pools keep ten connections per host.",)))
    assert not verifier.could_support(Check(" ", (code,)))


def test_a_heading_run_into_its_first_sentence_is_read_a_headline_is_not(
    verifier: LexicalVerifier,
) -> None:
    """Text whose line breaks were lost (Developer Hub's pages) keeps its first sentence; a
    heading on a line of its own is never the supporting span, however long."""
    flattened = (
        "# Installing dynamic plugins in Red Hat Developer Hub The dynamic plugin support "
        "is based on the backend plugin manager package, which scans a configured root "
        "directory for dynamic plugin packages and loads them dynamically. You can use the "
        "dynamic plugins that come preinstalled with Red Hat Developer Hub."
    )
    claim = "The dynamic plugin support is based on the backend plugin manager package."
    assert label(verifier, claim, flattened) == "supported"
    page = (
        "### Arsenal beat Chelsea in the 2002 FA Cup final at the Millennium Stadium in "
        "Cardiff, say reports\n\nMore football news follows below."
    )
    assert label(verifier, "Arsenal beat Chelsea in the 2002 FA Cup final.", page) != "supported"


def test_a_comment_of_code_is_read_a_heading_is_not(verifier: LexicalVerifier) -> None:
    """A `#` line inside a code fence is a comment, what the page says of the code below
    it (Starlette's routing page); in prose, or in a Markdown fence, it is a heading."""
    page = (
        "Incoming paths are matched against each `Route` in order.\n\n"
        "```python\n"
        "# Don't do this: `/users/me` will never match incoming requests.\n"
        "routes = [\n    Route('/users/{username}', user),\n"
        "    Route('/users/me', current_user),\n]\n"
        "```\n"
    )
    claim = "In that order, the /users/me route will never match incoming requests."
    assert label(verifier, claim, page) == "supported"
    for heading in (page.replace("```python", "```markdown"), page.replace("```python\n", "")):
        assert label(verifier, claim, heading) != "supported"


def test_a_linking_word_the_source_lacks_is_not_wanted(verifier: LexicalVerifier) -> None:
    """ "also", "still", "since" add nothing a source could state: a paraphrase adding them
    scores as the claim without them; a source holding one still counts it covered."""
    plain = "The connect timeout defaults to five seconds."
    linked = "The connect timeout also still defaults to five seconds, as usually expected."
    check = Check(linked, (SOURCE,))
    assert [v.score for v in verifier.verify_now([check])] == [
        v.score
        for v in verifier.verify_now([Check(plain.replace(".", ", as expected."), (SOURCE,))])
    ]
    assert label(verifier, linked, SOURCE) == "supported"
    holding = "The connect timeout still defaults to five seconds."
    assert "still" in cover(linked, analyse([holding])).wanted
    assert "still" not in cover(linked, analyse([SOURCE])).wanted


@pytest.mark.parametrize(
    ("claim", "counted"),
    [
        ("It is one of the connect settings.", False),
        ("Turn off one particular connect setting.", False),
        ("Pass a single one or a list of connect settings.", False),
        ("It keeps one connect setting.", True),  # a count
        ("One of the settings has one value.", True),  # the second "one" counts
    ],
)
def test_a_one_that_counts_nothing_is_not_wanted(claim: str, counted: bool) -> None:
    """ "one of", "one particular", "a single one": no source need write the number 1."""
    assert ("1" in cover(claim, analyse([SOURCE])).wanted) is counted


def test_a_negation_bears_on_the_words_up_to_the_next_one() -> None:
    from citesynth.verify.negation import governed_words

    text = "The API won't change in minor releases without a deprecation period."
    assert list(governed_words(text, 12)) == [
        "change",
        "in",
        "minor",
        "releases",
        "a",
        "deprecation",
        "period",
    ]


ENVIRONMENTS = (
    "Most applications create one Environment object at initialization and use it to load "
    "templates."
)


@pytest.mark.parametrize(
    ("claim", "unstated"),
    [
        # the source names the environment objects and never words "thread-safe"
        (
            "Environment objects are thread-safe, which is why most applications create one "
            "at initialization and use it to load templates.",
            True,
        ),
        # one term of a predicate may be a paraphrase
        (
            "Environment objects are shared, which is why most applications create one at "
            "initialization and use it to load templates.",
            False,
        ),
    ],
)
def test_a_clause_whose_predicate_no_source_words_is_unstated(
    verifier: LexicalVerifier, claim: str, unstated: bool
) -> None:
    (verdict,) = verifier.verify_now([Check(claim, (ENVIRONMENTS,))])
    reason = "nothing in the source states 'Environment objects are thread-safe'"
    assert (reason in verdict.reasons) is unstated
