"""A question asking for a number, answered without one, is a not-found."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from citesynth import Answer, Engine
from citesynth.retrieve.subjects import MIN_CHUNKS
from citesynth.synthesis.asked import (
    NO_NUMBER,
    asks_number,
    asks_yes_no,
    states_number,
    states_number_of,
    unasked_none,
)
from citesynth.synthesis.candidates import value_after
from citesynth.synthesis.finishing import headings_above
from citesynth.synthesis.restated import RESTATED, restates_only
from tests.conftest import answered, write

SHOW = (
    "# Hoarders\n\nHoarders is an American reality series about people who hoard. Twice in "
    "the series, a hoarder has kicked the crew off their property and refused further help. "
    "The crew works with psychologists and professional organizers.\n"
)


@pytest.mark.parametrize(
    "question",
    [
        "how many hoarders are there in the us",
        "How much memory does each pooled connection use?",
        "What is the default size of the DNS cache?",
        "What is the maximum number of RBAC roles that can be defined?",
        "Which port does the server listen on?",
        "in what year did the war end",
        "How long are audit log entries retained by default?",
        "How to Eat, released in which year, is a book by Nigella Lawson",
        "How do I know which port the server listens on?",
        # up to two words naming what is measured
        "What is the default pool size?",
        "What's the default pool size?",  # as a user types it
        "What’s the maximum number of keys I can fetch in one call?",
        "What is the maximum recursion depth of functools.lru_cache?",
        # a duration, a rate of events, a capacity: measures too
        "What is the default timeout after which pytest kills a hanging test?",
        "What is the default frequency of the workflow data cleanup job?",
        "What is the average temperature in Ecuador in January?",
        # a threshold, a cutoff, a radius, a tolerance: values asked for
        "When I call ImageDraw.floodfill() without a tolerance, what threshold value does it use?",
        "When pybabel update does fuzzy matching, what similarity cutoff does it use?",
        "If I create ImageFilter.GaussianBlur() with no arguments, what blur radius do I get?",
        "What tolerance does assert_allclose use by default?",
        # a clock time
        "If celery beat is running, at what time of day does the cleanup task run?",
        "At what time does the nightly backup start?",
    ],
)
def test_questions_asking_for_a_count_or_measure(question: str) -> None:
    assert asks_number(question)


@pytest.mark.parametrize(
    "question",
    [
        "How do I set a timeout?",
        "What is the default value of the timeout?",
        "What sizes are available?",
        "what is the number one song of 1990",
        "how long ago did dinosaurs live",
        "who is the man in the high castle",
        # asked how to do something that a "how old" names
        "How do I check how old a signature is?",
        "How can I change how many threads run synchronous endpoints?",
        "What is the difference between size and length?",  # function words name nothing
        "What is the purpose of the pool size?",
        "What's the point of the pool size?",
        "what is the accounting rate of return on the investment",  # a rate named, a ratio
        # a measure's word that names a thing: a compound noun, or which one applies
        "Which timeout applies to streaming responses?",
        "What is the cost function used in logistic regression?",
        "What is the timeout error raised by the client?",
        "What time complexity does sorted() have?",
        "What timezone does celery beat use?",
        "What time is used for the ETA, UTC or local time?",
    ],
)
def test_questions_not_asking_for_a_number(question: str) -> None:
    assert not asks_number(question)


@pytest.mark.parametrize(
    ("claims", "stated"),
    [
        (["The pool keeps 10 connections [1]."], True),
        (["Twice in the series a hoarder refused help [1]."], True),
        (["There is no limit on the number of roles [2]."], True),
        (["Retries wait indefinitely [1]."], True),
        (["She married him in her forties [1]."], True),
        (["The cache stores resolved names [1].", "It is cleared on exit [2]."], False),
        (["The cache stores resolved names [12]."], False),  # a marker is no number
        # nor are a link's digits or the digits ending a name
        (["We differ [because of this](https://github.com/encode/httpx/discussions/1785)."], False),
        (["See https://example.org/v2/limits for the limits."], False),
        (["Fix uploading signatures (#137, #140) [5]."], False),  # twine's change log
        (["Escape it as &#8617; [1]."], True),  # an entity's digits are no issue
        (["HTTPX supports HTTP/2 and uses h11 for HTTP/1.1 [1]."], False),
        (["Timeouts default to 5s [1]."], True),
        (["COVID-19 closed 40 % of shops [1]."], True),
        # "one" pointing at a thing or standing for a person counts nothing (pytest's docs)
        (["The one parameter set which caused a failure now shows up as xfailed [1]."], False),
        (["@pytest.mark.parametrize allows one to define multiple sets of arguments [3]."], False),
        (["One can also mark tests, and no one needs to [1]."], False),
        # jsonschema: "how one would configure" answered "how long are schemas cached?"
        (["Here is how one would configure a registry to retrieve schemas [2]."], False),
        (["Pick where one can, then ask if one wants to [1]."], False),
        (["Only one pair of input/output values fails the test [6]."], True),
        (["Only one scheduler can be started per process [2]."], True),
        (["Exactly one must be given [1]."], True),
        (["The one-second timeout applies [1]."], True),
        # a count given as the count of something else, not "the number of" as a subject
        (["Defaults to the number of CPUs in the system [1]."], True),
        (["The pool is as large as the number of workers [2]."], True),
        (["The number of workers can be set with `-W` [1]."], False),
    ],
)
def test_a_number_in_digits_words_or_no_limit_is_stated(claims: list[str], stated: bool) -> None:
    assert states_number(claims) is stated


async def _answered(engine: Engine, tmp_path: Path, reply: str, question: str) -> Answer:
    return await answered(engine, tmp_path / "d", SHOW, reply, question)


async def test_a_supported_answer_without_the_number_asked_is_a_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    reply = "The crew works with psychologists and professional organizers [1]."
    answer = await _answered(engine, tmp_path, reply, "How many hoarders are there in the US?")
    assert answer.not_found
    assert answer.answer == "Not found in the sources."
    assert answer.confidence == 0.0 and not answer.claims
    assert NO_NUMBER in answer.warnings
    assert answer.sources  # the ranked passages stay, as what was found nearby


async def test_an_answer_stating_the_number_or_to_another_question_is_kept(
    engine: Engine, tmp_path: Path
) -> None:
    stated = "A hoarder has kicked the crew off their property twice [1]."
    answer = await _answered(engine, tmp_path, stated, "How many times was the crew kicked off?")
    assert not answer.not_found and answer.answer.startswith("A hoarder has kicked")
    plain = "The crew works with psychologists and professional organizers [1]."
    answer = await _answered(engine, tmp_path, plain, "Who does the crew work with?")
    assert not answer.not_found and NO_NUMBER not in answer.warnings


@pytest.mark.parametrize(
    ("question", "claims", "stated"),
    [
        # HTTPX's limits state numbers of connections, none of a DNS cache.
        (
            "What is the default size of the DNS cache in HTTPX?",
            [
                "It takes instances of `httpx.Limits` which define: [3]",
                "- `max_connections` (Default 100) [3].",
            ],
            False,
        ),
        (
            "How long are idle keep-alive connections kept by default?",
            ["`keepalive_expiry`, time limit on idle keep-alive connections (Default 5) [1]."],
            True,
        ),
        # A number in a sentence that refers back to the thing asked about.
        (
            "How many episodes are in season 2 of The Crown?",
            ["Season 2 of The Crown aired in 2017 [1].", "It has ten episodes [1]."],
            True,
        ),
        # The corpus's subject names nothing asked: every HTTPX sentence names HTTPX.
        ("How much memory does HTTPX use per connection?", ["HTTPX 0.28 was released [1]."], False),
        # A question naming nothing but its asking words: any number answers it.
        ("What is the maximum?", ["It is 10 [1]."], True),
    ],
)
def test_a_number_answers_only_when_stated_of_what_is_asked(
    question: str, claims: list[str], stated: bool
) -> None:
    assert states_number_of(question, claims, subject="HTTPX") is stated


def test_a_number_the_question_gives_answers_no_question_for_another() -> None:
    # mypy: the exit code for a running daemon is what the asker knows already.
    question = (
        "`dmypy status` exits with 0 when a daemon is running, but what exit code does it "
        "return when no daemon is running?"
    )
    claims = [
        "``dmypy status`` checks whether a daemon is running [1].",
        "It prints a diagnostic and exits with ``0`` if there is a running daemon [1].",
    ]
    assert not states_number_of(question, claims)
    assert states_number_of(question, [*claims, "Otherwise it exits with ``2`` [1]."])
    # Not a longer number holding the one given, and not a yes/no question about it.
    assert states_number_of(question, ["It exits with ``10`` when no daemon runs [1]."])
    assert states_number_of("Does `dmypy status` exit with 0 when a daemon runs?", claims)


def test_a_count_the_question_gives_in_words_answers_nothing() -> None:
    # Falcon: "a single field" is the asker's "single", not a count of body parts.
    question = (
        "What's the default maximum number of body parts Falcon accepts in a single multipart form?"
    )
    claims = ["Nested multipart forms, where multiple files for a single field are sent [1]."]
    assert not states_number_of(question, claims)
    assert states_number_of(question, ["A multipart form may hold 64 body parts [1]."])
    # "one" is as often a pronoun: read as any number
    assert states_number_of("Which one is the default number of body parts?", ["Only one [1]."])


def test_a_number_under_an_answer_heading_naming_what_is_asked_answers_it() -> None:
    # Django's settings reference states a default under the setting's title only.
    question = "How long does a session cookie last by default?"
    claims = ["Default: ``1209600`` (2 weeks, in seconds) [3]."]
    assert not states_number_of(question, claims)
    assert states_number_of(question, claims, headings=["**SESSION_COOKIE_AGE (Settings)**"])
    assert not states_number_of(
        question, claims, headings=["**DATA_UPLOAD_MAX_MEMORY_SIZE (Settings)**"]
    )


def test_a_version_is_no_number_of_how_long_a_link_keeps_working() -> None:
    # The extractive writer puts first what states a number of what is asked (`_number_of`):
    # release notes naming the setting with versions had come before its default.
    question = "If I leave the settings alone, how long does a password reset link keep working?"
    noted = (
        "This is encouraged instead of the deprecated ``PASSWORD_RESET_TIMEOUT_DAYS`` "
        "setting, which will be removed in Django 4.0."
    )
    assert not states_number_of(question, [noted])
    stated = "Default: ``259200`` (3 days, in seconds)"
    assert states_number_of(question, [stated], headings=["``PASSWORD_RESET_TIMEOUT``: "])


def test_each_claim_has_the_answer_heading_above_it() -> None:
    text = (
        "Lead sentence without a heading [1].\n\n**SESSION_COOKIE_AGE (Settings)**\n"
        "Default: ``1209600`` (2 weeks, in seconds) [3]. The age of session cookies [3].\n\n"
        "## Domain\nThe domain to use for session cookies [1]."
    )
    claims = [
        "Lead sentence without a heading.",
        "Default: ``1209600`` (2 weeks, in seconds).",
        "The age of session cookies.",
        "The domain to use for session cookies.",
        "A sentence the answer does not hold.",
    ]
    assert headings_above(text, claims) == [
        "",
        "**SESSION_COOKIE_AGE (Settings)**",
        "**SESSION_COOKIE_AGE (Settings)**",
        "## Domain",
        "",
    ]


def test_claims_opening_alike_each_have_their_own_heading() -> None:
    # Django's DATA_UPLOAD_MAX_MEMORY_SIZE and FILE_UPLOAD_MAX_MEMORY_SIZE state one default.
    text = (
        "**TOKEN_TTL (Settings)**\nDefault: ``3600`` (one hour, in seconds) [1].\n\n"
        "**SESSION_COOKIE_AGE (Settings)**\nDefault: ``3600`` (one hour, in seconds) [2].\n"
    )
    claims = ["Default: ``3600`` (one hour, in seconds)."] * 2
    assert headings_above(text, claims) == [
        "**TOKEN_TTL (Settings)**",
        "**SESSION_COOKIE_AGE (Settings)**",
    ]


def test_a_number_beside_words_common_to_the_corpus_answers_nothing_asked() -> None:
    # In pytest's docs nearly every chunk says "pytest" or "test" (`subjects.common_terms`).
    question = "What is the default timeout after which pytest kills a hanging test?"
    claims = [
        "This functionality was integrated from the external pytest-faulthandler plugin, "
        "which dumps tracebacks after 2 seconds [3]."
    ]
    assert states_number_of(question, claims)
    assert not states_number_of(question, claims, common={"pytest", "test"})
    stated = ["A test that hangs is killed after a timeout of 300 seconds [1]."]
    assert states_number_of(question, stated, common={"pytest", "test"})
    # with nothing but common words named, any number answers
    dumped = ["The pytest-faulthandler plugin dumps 2 tracebacks [3]."]
    assert states_number_of("How many tests has pytest?", dumped, common={"pytest", "test"})
    # and a question asking for a duration wants one (`_DURATION`)
    counted = ["The pytest-faulthandler plugin was integrated with two small differences [3]."]
    assert not states_number_of(question, counted)


def test_a_version_or_at_once_is_no_count_of_what_is_asked() -> None:
    # Jinja's docs: both had answered questions the docs do not answer
    nested = "What is the maximum number of nested blocks allowed in a Jinja template?"
    version = "Starting with Jinja 2.2, you can mark a block as scoped with a block modifier [1]."
    assert not states_number_of(nested, [version], subject="Jinja")
    assert states_number_of("Since which version can a block be scoped?", [version])
    timeout = "What is the default cache timeout for compiled templates in Jinja?"
    at_once = "Jinja compiles many templates at once, which slows the cache down [2]."
    assert not states_number_of(timeout, [at_once], subject="Jinja")
    python = "What is the default timeout for converting a large document with Python-Markdown?"
    three = "If you must use Python-Markdown with Python 3.0, convert the document first [1]."
    assert not states_number_of(python, [three], subject="Python-Markdown")
    measured = "The template cache timeout is Timeout 2.5 seconds [2]."
    assert states_number_of(timeout, [measured], subject="Jinja")
    # a version opening the sentence ("Jinja 2.1 and higher"), not only after a word
    cached = "How many compiled templates does an Environment keep in its cache by default?"
    higher = "Jinja 2.1 and higher support external bytecode caching [1]."
    assert not states_number_of(cached, [higher], subject="Jinja")
    assert states_number_of("Since which version is bytecode cached outside?", [higher])
    assert states_number_of(cached, ["Keep 400 and more templates [1]."])


def test_a_question_asking_for_a_duration_is_answered_by_a_duration() -> None:
    # Python-Markdown's docs: a count of methods had answered it
    question = "What is the default timeout for converting a large document with Python-Markdown?"
    counted = "The document must be passed to one of two instance methods, `convert` [1]."
    assert not states_number_of(question, [counted], subject="Python-Markdown")
    for duration in (
        "Converting a document times out after 30 seconds [1].",
        "The conversion timeout is set to `None` for a document [1].",
        "Converting a document has no timeout [1].",
    ):
        assert states_number_of(question, [duration], subject="Python-Markdown"), duration
    # a bare value, a setting, or a value said of what the claim before names (review)
    for claims in (
        ["`CACHE_DEFAULT_TIMEOUT` defaults to `300` for a document [1]."],
        ["Set `connect_timeout=10` before converting a document [1]."],
        ["The document conversion timeout is configurable [1].", "It defaults to 300 [1]."],
    ):
        assert states_number_of(question, claims, subject="Python-Markdown"), claims
    # "no timeouts" is a duration, no size (HTTPX's report set)
    size = "What is the default size of the DNS cache in HTTPX?"
    assert not states_number_of(size, ["The DNS cache has no timeouts by default [1]."])
    # a question asking for a size as well is answered by a count (a report's section)
    both = "What are the connection pool size, the request timeout and the retry backoff?"
    assert states_number_of(both, ["The default connection pool size is 100 connections [1]."])
    # a question asking for a count still takes one
    assert states_number_of("How many instance methods convert a document?", [counted])
    # a capitalised word opening a sentence before a decimal is no version
    assert states_number_of("What is the default temperature?", ["Temperature 0.7 is used [1]."])


def test_none_in_code_is_a_number_only_as_the_value_of_what_is_asked() -> None:
    """build's ``build_sdist(…, config_settings=None)`` had stated a number of seconds."""
    question = "After how many seconds does build kill a build_wheel hook that stops responding?"
    for signature in (
        "For wheels: calls ``build_wheel(wheel_directory, config_settings=None)`` [1].",
        "The hook is typed ``def build_wheel(directory: str | None)`` [1].",
    ):
        assert not states_number_of(question, [signature]), signature
    for value in (
        "The build_wheel hook timeout is ``None``: it is never killed [1].",
        "The build_wheel hook runs with ``hook_seconds=None`` [1].",
    ):
        assert states_number_of(question, [value]), value
    plain_none = "Killing a build_wheel hook that stops responding takes none [1]."
    assert unasked_none(question, plain_none) == plain_none


def test_a_code_a_port_or_an_amount_of_data_is_answered_as_it_is_written() -> None:
    # nox's docs: "one" as a pronoun had answered a question asking for an exit code
    code = "What exit code does nox return when a session fails versus when sessions are skipped?"
    pronoun = "By default Nox will continue to run all sessions even if one fails [2]."
    assert not states_number_of(code, [pronoun])
    for stated in (
        "When a session fails, nox exits with 1 [2].",
        "A failed session makes nox exit with a non-zero code [2].",
    ):
        assert states_number_of(code, [stated]), stated
    port = "Which port does the development server listen on if I don't give it one?"
    assert not states_number_of(port, ["The development server listens on one address [1]."])
    assert states_number_of(port, ["The development server listens on port 8000 [1]."])
    # Celery's docs: a process index had answered how much memory a process uses
    memory = "Roughly how much RAM does each prefork child process use right after start-up?"
    index = "``%i`` - Pool process index or 0 if MainProcess [4]."
    assert not states_number_of(memory, ["Each prefork child process has an index [4].", index])
    for amount in (
        "Each prefork child process uses about 30 MiB [4].",
        "A child process uses 40 megabytes of RAM [4].",
    ):
        assert states_number_of(memory, [amount]), amount
    sized = [
        "The buffer size, in bytes, of each prefork child process [4].",
        "Defaults to 65536 [4].",
    ]
    assert states_number_of(memory, sized)
    assert not states_number_of(memory, ["Each prefork child process has a buffer [4].", sized[1]])
    # a question naming the unit is answered by a bare number (Flask's MAX_COOKIE_SIZE)
    cookie = "How many bytes may cookie headers hold before a warning?"
    assert states_number_of(cookie, ["Cookie headers warn past ``4093`` [1]."])


def test_a_change_log_entry_s_number_is_no_value() -> None:
    question = "How many worker threads does Invoke start by default?"
    entry = "Bug #742: Invoke now starts worker threads lazily [1]."
    assert not states_number_of(question, [entry])
    assert states_number_of(question, ["Bug #742: Invoke starts 3 worker threads [1]."])


@pytest.mark.parametrize(
    ("question", "claims"),
    [
        # a count asked, memory named (review)
        ("How many workers should I run to keep memory usage low?", ["Run 4 workers [1]."]),
        (
            "How much memory does Redis use and how many keys can it hold?",
            ["Redis can hold 4 billion keys [1]."],
        ),
        ("What is the number of ports on a usb hub?", ["A usb hub has four ports [1]."]),
        ("What port and how many workers does gunicorn use?", ["Gunicorn runs one worker [1]."]),
        # amounts of data as operators write them
        ("How much bandwidth does HD streaming need?", ["HD streaming needs 5 Mbps [1]."]),
        ("How much memory does the container get?", ["The container's limit is 512Mi [1]."]),
        ("How much memory does the container get?", ["The container is given 2G [1]."]),
        ("How much memory does the JVM heap get?", ["The heap gets 25% of memory [1]."]),
        # durations asked in words of time
        ("How many users does the forum have?", ["The forum has 1000s of users [1]."]),
        ("How many ms does the TLS handshake take?", ["The handshake takes 200 ms [1]."]),
        ("How large is the retention window?", ["The retention window is 7 days [1]."]),
    ],
)
def test_a_number_of_another_kind_still_answers_where_it_may_be_asked(
    question: str, claims: list[str]
) -> None:
    assert states_number_of(question, claims)


def test_a_number_after_a_unit_of_data_is_an_amount_only_as_a_value_given() -> None:
    # Celery's own sentence before the process index (review)
    memory = "How much RAM does each prefork child process use?"
    limit = "The maximum memory size of a child process is specified in kilobytes [4]."
    index = "``%i`` - Pool process index or 0 if MainProcess [4]."
    assert not states_number_of(memory, [limit, index])
    assert not states_number_of(memory, ["A child process, in kilobytes, passes one limit [4]."])
    assert states_number_of(memory, [limit, "It defaults to 204800 [4]."])


def test_a_size_or_a_count_is_not_answered_by_a_duration() -> None:
    # Celery's docs: a long polling wait had answered a question asking for a size
    size = "What's the maximum size of a task message I can send when using Amazon SQS?"
    waited = "The SQS ``WaitTimeSeconds`` parameter of a task message is set to 10 seconds [5]."
    assert not states_number_of(size, [waited])
    assert states_number_of(size, ["An SQS task message may be up to 256 KB in size [5]."])
    assert states_number_of(size, ["The maximum size of an SQS task message is 262144 [5]."])
    retries = "How many retries does the worker make?"
    assert not states_number_of(retries, ["The worker retries after 5 minutes [1]."])
    assert states_number_of(retries, ["The worker makes 3 retries, 5 minutes apart [1]."])
    # a question naming a time unit or "times" may be answered by a duration
    assert states_number_of(
        "How many times a day does the cleanup run?", ["The cleanup runs every 6 hours [1]."]
    )
    assert states_number_of(
        "How many seconds does a retry wait?", ["A retry waits 10 seconds [1]."]
    )
    # twine: how many times it retries is a count, which a token's validity does not state
    times = "When PyPI's CDN returns a 5xx error, how many times does twine retry?"
    valid = "A token is valid for 15 minutes; twine replaces it on the next retry [3]."
    assert not states_number_of(times, [valid])
    assert states_number_of(times, ["Twine retries an upload 3 times [1]."])
    status = "Fix uploading signatures causing a 500 error (#137) [5]."
    assert not states_number_of(times, [status])  # a status names an error, counts nothing
    assert states_number_of("What status code does a failed upload return?", [status])
    backoff = "What is the maximum size of the retry backoff?"
    assert states_number_of(backoff, ["The retry backoff grows to at most 120 seconds [1]."])


def test_numbers_and_versions_are_read_in_linear_time() -> None:
    started = time.perf_counter()
    question = "Since which version is the default timeout set?"
    for hostile in (
        *("1" * 100_000, "A-" * 50_000, "uses Python " + "1." * 50_000 + "1 seconds"),
        *("A 1.1 " * 20_000, "Jinja " + "1." * 50_000 + "1 and"),
    ):
        states_number_of(question, [hostile])
        states_number_of("What is the default timeout?", [hostile])
    # about 1.5 s on 2 cores, 2.3 s under coverage in CI; read quadratically, minutes
    assert time.perf_counter() - started < 6.0


def test_codes_amounts_of_data_and_durations_are_read_in_linear_time() -> None:
    started = time.perf_counter()
    for hostile in ("1," * 50_000, "1 " * 50_000, "one-" * 25_000, "1." * 50_000 + "1 seconds"):
        states_number_of("How much memory does each connection use?", [hostile])
        states_number_of("What exit code does it return?", [hostile])
        states_number_of("What is the maximum message size?", [hostile])
    assert (
        time.perf_counter() - started < 5.0
    )  # twelve reads of 100,000 characters; quadratic takes minutes


def test_a_hostile_run_of_link_openings_is_read_in_linear_time() -> None:
    """A 120,000-character run of "](" once took 20 s to read; its digits state a number."""
    hostile = "](" * 60_000 + " 42 [1]."
    started = time.perf_counter()
    assert states_number([hostile])
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    ("claim", "stated"),
    [
        ("It can be mounted more than once [1].", True),
        ("The job runs once a day [1].", True),
        ("The default factory is evaluated once and cached [1].", True),
        # "once" opening a clause is a conjunction (Flask's and attrs' docs)
        ("You cannot unregister a blueprint once an application was created [1].", False),
        ("Once you apply the `@attrs.define` decorator, attrs searches the class [1].", False),
        ("Once installed, the plugin loads [1].", False),
        # a standard's or a tracker's number counts nothing
        ("attrs supports type annotations for both PEP 526 and legacy syntax [1].", False),
        ("Dates follow RFC 3339 and ISO 8601 [1].", False),
        ("It was fixed in issue #1234 [1].", False),
        # ... written as a role too (build's docs, quoted in an answer asking for seconds)
        ("These hooks are defined in :PEP:`517` (the interface standard) [1].", False),
        ("Responses follow {rfc}`7231` [1].", False),
        ("It waits 5 seconds, see :pep:`517` [1].", True),
        ("Python 3.9 or later is required [1].", True),  # a version is a value
    ],
)
def test_once_as_a_conjunction_and_a_standard_s_number_state_no_number(
    claim: str, stated: bool
) -> None:
    assert states_number([claim]) is stated


async def test_words_every_chunk_holds_do_not_tell_what_a_number_counts(
    engine: Engine, tmp_path: Path
) -> None:
    faulthandler = (
        "# Faulthandler\n\nThis functionality has been integrated from the external "
        "pytest-faulthandler plugin, which dumps tracebacks after 2 seconds. A test that "
        "hangs dumps its tracebacks.\n"
    )
    reply = (
        "The faulthandler functionality was integrated from the pytest-faulthandler plugin, "
        "which dumps tracebacks after 2 seconds [1]."
    )
    question = "What is the default timeout after which pytest kills a hanging test?"
    alone = await answered(engine, tmp_path / "alone", faulthandler, reply, question)
    assert not alone.not_found  # one page: "pytest" may name what the 2 seconds are of
    # Once every chunk names pytest and a test, as pytest's documentation does, neither
    # word tells what "2 seconds" measure.
    pages = "".join(
        f"# Page {i}\n\n" + f"pytest runs test number {i} of the suite, one at a time. " * 12
        for i in range(30)
    )
    write(tmp_path / "pages", "pages.md", pages)
    await engine.index([tmp_path / "pages"])
    assert (await engine.stats()).chunks >= MIN_CHUNKS
    answer = await engine.answer(question, not_found_below=0.0, answerability=False)
    assert answer.not_found and NO_NUMBER in answer.warnings


def test_a_year_answers_a_question_about_a_time_only() -> None:
    # attrs' docs: "Basically what attrs was in 2015." after "One way to think about …"
    question = "What is the maximum number of attributes an attrs class can have?"
    claims = [
        "One way to think about attrs vs Data Classes is that attrs is a toolkit to write "
        "classes with some attributes [8].",
        "Basically what attrs was in 2015 [8].",
    ]
    assert not states_number_of(question, claims, subject="attrs")
    assert not states_number_of(question, ["One of the reasons is that classes have attributes."])
    assert states_number_of(question, ["A class can have 1500 attributes [1]."])  # a count
    timeout = "What is the default session timeout?"
    assert states_number_of(timeout, ["Sessions expire in 1800 seconds by default."])
    size = "What is the default chunk size for reading a body?"
    for measure in (
        "A body is read in 2048 byte chunks.",
        "Body reads are capped by 2000 per host.",
        "A body is read in 2048-byte chunks.",
    ):
        assert states_number_of(size, [measure]), measure
    assert states_number_of(question, ["Since 2015 a class can have ten attributes [1]."])
    released = "attrs had its first release in April 2015 [1]."
    assert states_number_of("When did attrs have its first release?", [released])
    assert states_number_of("In which year was attrs released?", [released])


@pytest.mark.parametrize(
    ("question", "polar"),
    [
        ("Does bulk_create() fire post_save signals?", True),
        ("Can I use a JSONField if my project runs on SQLite?", True),
        ("Isn't the QuerySet lazy?", True),
        ("  will runserver reload my code?", True),
        # a request worded as a question asks for an account, not yes or no
        ("Can you explain how the cache is invalidated?", False),
        ("Could you please outline the upgrade steps?", False),
        ("How do I restart the server?", False),
        ("What is the default port?", False),
        ("Is", True),
        ("", False),
    ],
)
def test_questions_asking_yes_or_no(question: str, polar: bool) -> None:
    assert asks_yes_no(question) is polar


@pytest.mark.parametrize(
    ("question", "claims", "restated"),
    [
        # Django dj17: the model restated the question and put a marker where the value goes
        (
            "What gzip compression level does Django's GZip middleware use?",
            ["The gzip compression level used by Django's GZip middleware is [1]."],
            True,
        ),
        ("Who does the crew work with?", ["The crew works with them [1]."], True),
        ("Who does the crew work with?", ["The crew works with psychologists [1]."], False),
        # one claim saying more is an answer
        (
            "Who does the crew work with?",
            ["The crew works [1].", "It works with psychologists [1]."],
            False,
        ),
        # a yes/no question, one after a clause, or a choice is answered in its own words
        ("Does the crew work with psychologists?", ["The crew works with psychologists."], False),
        (
            "When a hoarder refuses, does the crew leave the property?",
            ["The crew leaves the property [1]."],
            False,
        ),
        ("Which is older, the crew or the show?", ["The show is older [1]."], False),
        ("What does the crew do?", [], False),
        # code the question does not write says more, though its parts are the question's
        (
            "Which loop variable gives the current iteration of the loop, 1 indexed?",
            ["`loop.index`: The current iteration of the loop (1 indexed) [1]."],
            False,
        ),
    ],
)
def test_an_answer_only_restating_a_question_states_nothing_asked(
    question: str, claims: list[str], restated: bool
) -> None:
    assert restates_only(question, claims) is restated


def test_code_an_answers_heading_names_says_more_than_the_question() -> None:
    # WTForms: the setting's description restates the question; its name heads it
    question = "Which class Meta setting controls the name of the added CSRF token field?"
    claims = ["The name of the added CSRF token field [1]."]
    assert restates_only(question, claims)
    assert not restates_only(question, claims, ["csrf_field_name (class Meta)"])
    assert restates_only(question, claims, ["class Meta", "CSRF Protection"])


async def test_an_answer_restating_the_question_is_a_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    reply = "The crew of Hoarders works with them [1]."
    answer = await _answered(engine, tmp_path, reply, "Who does the crew of Hoarders work with?")
    assert answer.not_found and answer.answer == "Not found in the sources."
    assert RESTATED in answer.warnings and answer.sources


def test_a_short_sentence_naming_what_the_one_before_names_gives_its_value() -> None:
    before = (
        "A built-in periodic task will delete the results after this time, assuming that "
        "the scheduler is enabled."
    )
    assert value_after(before, "The task runs daily at 4am.")
    assert value_after(before, "Defaults to 4.")  # too short to be quoted alone
    assert not value_after(before, "Workers restart daily at 4am.")  # of something else
    assert not value_after(before, "The task runs daily.")  # no number
    assert not value_after(before, "The task was added in Celery 4.0.")  # a version
    long = "The task runs daily at 4am unless the scheduler is told to run it at another hour."
    assert not value_after(before, long)  # a sentence of its own
