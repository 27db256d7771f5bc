"""Acronyms a question names that the passages found never do (`synthesis.named`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citesynth import Engine
from citesynth.analysis import code_names
from citesynth.synthesis.answerability import UNANSWERED
from citesynth.synthesis.extractive import _details
from citesynth.synthesis.named import (
    acronyms,
    held_word,
    proper_names,
    spelt_out,
    unnamed,
    unnamed_code,
    unnamed_proper,
    users_names,
)
from citesynth.synthesis.sources import numbered
from tests.conftest import answered_extractively, write
from tests.synthesis.test_evidence_and_repeats import hit


@pytest.mark.parametrize(
    ("question", "found"),
    [
        ("How do I authenticate API clients with JWT tokens in Flask?", ("JWT",)),  # a kind
        ("Does it keep uploads in RAM, and do my tiny API responses get a URL?", ()),
        ("How do I store uploaded files in Amazon S3?", ()),  # two letters: "US", "TV"
        ("Which AWS service stores files, S3 or EBS?", ("AWS", "EBS")),
        ("Which DNS servers does it ask, and are the DNSs cached?", ("DNS",)),
        ("Who succeeded Henry VIII?", ()),  # a Roman numeral is part of a name
        ("What does `HTTP_PROXY` do in HTTP/2 mode?", ("HTTP",)),  # inline code aside
        ("how many gears does an electric car have", ()),
    ],
)
def test_a_question_names_its_acronyms(question: str, found: tuple[str, ...]) -> None:
    assert acronyms(question) == found


@pytest.mark.parametrize(
    ("question", "found"),
    [
        ("How does the converter handle uuid.UUID fields?", ("uuid.UUID",)),
        ("How do I use `include_subclasses` with dumps()?", ("include_subclasses", "dumps")),
        ("What is max_connections for, e.g. in a pool?", ("max_connections",)),  # not "e.g"
        ("Where do I put app-config.yaml?", ()),  # a file name with a dash is no code name
        ("Does the iPhone app of McDonald's use Node.js?", ("Node.js",)),  # capitals aside
        ("Which star did Space.com say Kepler observed?", ()),  # a web site
        ("What does `--help` print?", ()),  # an option, not a name
        ("How do I make attrs generate a __json__ method?", ("__json__",)),  # a special method
        ("Is __ a name, or _x_?", ()),
    ],
)
def test_a_question_names_its_code(question: str, found: tuple[str, ...]) -> None:
    assert code_names(question) == found


def test_the_names_a_user_gives_their_own_code_are_no_documentations() -> None:
    fixtures = "If I write def test_x(db, cache_client, *user), can I rely on the order?"
    assert users_names(fixtures) == {"test_x", "db", "cache_client", "user"}
    helpers = "I moved my checks into a helpers.py module. Why is introspection gone?"
    assert users_names(helpers) == {"helpers.py"}
    assert users_names("How does the converter handle uuid.UUID fields?") == frozenset()
    # Invoke: the user's tasks' names, said to be theirs before the command writes one
    tasks = "Our tasks are named like run_migrations and we type `inv run_migrations`. Why?"
    assert users_names(tasks) == {"run_migrations"}
    assert users_names("Is there a setting called auto_dashes for this?") == frozenset()
    several = "Our tasks are named like run_migrations and `build_docs`; people type them."
    assert users_names(several) == {"run_migrations", "build_docs"}
    assert users_names("Our tasks are named after their modules, like db_tasks.") == {"db_tasks"}
    assert users_names("My config option is called worker_magic_mode. Why?") == frozenset()
    # a name the user means to give their own thing, not one they call
    naming = "Can I name a form field something like validated_at?"
    assert users_names(naming) == {"validated_at"}
    assert users_names("We want to rename our column to created_at, and why?") == {"created_at"}
    assert users_names("Can I call form.validate_on_submit() twice?") == frozenset()
    # a tool's files, a class's bases and the word "class" in prose are no user's names
    assert users_names("Can nox read its sessions from a tox.ini file?") == frozenset()
    assert users_names("If I write class MyView(http_endpoint_x): …, is it routed?") == {"MyView"}
    assert users_names("Does aiohttp have a class connection_pool_x for pooling?") == frozenset()
    source = numbered([hit("Fixtures are set up by scope, dependencies and autouse.")])
    assert unnamed_code(fixtures, source) == ()
    assert unnamed_code(f"{helpers} Does test_x use uuid.UUID?", source) == ("test_x", "uuid.UUID")


def test_thousands_of_code_names_read_the_sources_once() -> None:
    # Each name was searched for in the whole source text: 5 s for 20,000 of them.
    question = " ".join(f"name_{i}" for i in range(20_000)) + " uuid.UUID Node.js?"
    sources = numbered([hit("Hooks for name_7 and `Node.js` are registered. " * 300)])
    missing = unnamed_code(question, sources)
    assert len(missing) == 20_000 and "name_7" not in missing and "Node.js" not in missing
    assert missing[-1] == "uuid.UUID"


def test_a_run_of_backticks_is_read_once() -> None:
    # Bad input: an inline code span was tried from every backtick of a run (3 minutes
    # for 120,000 in the extractive writer's sentence details).
    assert acronyms("`" * 120_000 + " Is JWT there?") == ("JWT",)
    assert _details("`" * 120_000 + " 42") == frozenset({"42"})


def test_an_acronym_is_held_when_spelt_out() -> None:
    words = "install red hat developer hub on the bank of america cluster".split()
    assert spelt_out(["rhdh", "boa", "ba", "jwt", "rhd"], words) == {"rhdh", "boa", "ba", "rhd"}
    assert spelt_out(["teu"], ["twenty-foot", "equivalent", "units"]) == {"teu"}
    assert spelt_out(["doi"], "department of the interior".split()) == {"doi"}
    assert not spelt_out(["ab"], "alpha of the of the beta".split())  # four small words


def test_thousands_of_acronyms_read_the_sources_once() -> None:
    # Each acronym was searched for in the whole source text, and spelt out from every
    # word: 3.6 s for 3,000 acronyms against 40 kB of text.
    letters = "ABCDEFGHJKLNOPQRSTUWYZ"
    question = " ".join(a + b + c for a in letters for b in letters for c in letters[:7])
    sources = numbered([hit("Alpha beta of gamma, the BAE and JWT. " * 1_000)])
    question += " Is JWT there, or AGB?"
    held = set(acronyms(question)) - set(unnamed(question, sources))
    assert {"JWT", "BAE", "ABG", "GTB"} <= held and "AGB" not in held and len(held) == 16
    # Nor is a 5,000-letter one spelt out from every word of a text of one letter.
    assert unnamed("Is " + "A" * 5_000 + " there?", numbered([hit("a " * 50_000)]))


def test_an_acronym_with_a_version_is_held_only_with_that_version() -> None:
    # Werkzeug's serving page writes HTTP and HTTPS, never HTTP/2.
    question = "How do I run the development server on HTTP/2?"
    pages = numbered([hit("The server can run in HTTP or HTTPS mode, but not both.")])
    assert unnamed(question, pages) == ("HTTP/2",)
    for written in ("It speaks HTTP/2.", "It speaks http2.", "HTTP 2.0 is on.", "HTTP-2, h2 too"):
        assert unnamed(question, numbered([hit(written)])) == (), written
    assert unnamed(question, numbered([hit("Only HTTP/1.1 and HTTP/2.1.")])) == ("HTTP/2",)
    assert unnamed(question, numbered([hit("It negotiates h2 with TLS.")])) == ()
    assert unnamed("Is HTTP/1.1 kept alive?", numbered([hit("HTTP/1.1 keeps it.")])) == ()
    # Read once, whatever the number of versions asked for.
    many = " ".join(f"ABC/{n}" for n in range(3_000))
    assert len(unnamed(many, numbered([hit("ABC/7 and abc 8. " * 2_000)]))) == 2_998


async def test_a_question_naming_what_no_passage_names_is_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    # Flask's CSRF page, on topic for a question about JWT, never names it.
    answer = await answered_extractively(
        engine,
        tmp_path / "d",
        "security.md",
        "# Security\n\nFor each request that modifies content on the server you would have "
        "to use a one-time token and store that in the cookie. Flask's API does not do "
        "that for you.\n\nSessions in Flask are signed cookies; the secret key signs them.\n",
        "How do I authenticate API clients with JWT tokens?",
    )
    assert answer.not_found and answer.sources
    assert answer.warnings[0].startswith(f"{UNANSWERED}: none of the top passages names JWT")
    named = await engine.answer("Which one-time token does the API store in the cookie?")
    assert not named.not_found
    write(tmp_path / "p", "port.md", "# Port\n\nThe port handled 5 million TEUs in 2010.\n")
    await engine.index([tmp_path / "p"])
    plural = await engine.answer("How many TEU did the port handle in 2010?")
    assert not plural.not_found, plural.warnings  # the source's plural holds it


async def test_a_code_name_with_a_placeholder_is_held_by_its_members() -> None:
    # Falcon: "falcon.HTTP_xxx" stands for the constants the docs write one by one.
    sources = numbered([hit("Note the use of ``falcon.HTTP_201`` for the status.")])
    question = "Do I have to use the falcon.HTTP_xxx constants for resp.status?"
    assert unnamed_code(question, sources) == ()
    assert unnamed_code("Is falcon.HTTP_xxx_OK a constant?", sources) == ("falcon.HTTP_xxx_OK",)
    assert unnamed_code("Is falcon.CODE_xxx a constant?", sources) == ("falcon.CODE_xxx",)


def test_a_word_ending_in_a_placeholder_is_held_by_its_members() -> None:
    # Pyramid: "each HTTPxxx class" stands for `HTTPUnauthorized`, `HTTPNotFound`, ...
    lowered = "``raise exception_response(401)`` is ``raise httpunauthorized()``."
    words = frozenset(re.findall(r"[a-z0-9]+", lowered))
    assert held_word("HTTPxxx", words, lowered, edits=1)
    assert not held_word("HTTPSxxx", words, lowered, edits=1)  # no member written
    assert not held_word("Taxx", words, lowered, edits=1)  # a word, no placeholder
    assert not held_word("RAISEXXX", words, lowered, edits=1)  # one case: no placeholder


async def test_a_question_naming_code_no_passage_names_is_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    # On-topic passages about structuring, none naming the type asked about.
    converters = (
        "# Converters\n\nThe converter structures dictionaries into attrs classes and "
        "unstructures them back. Hooks for `datetime.datetime` fields are registered with "
        "`register_structure_hook`.\n"
    )
    await _withheld_then_held(
        engine,
        tmp_path / "c",
        ("converters.md", converters),
        ("How does the converter structure uuid.UUID fields?", "uuid.UUID"),
        "How are datetime.datetime fields structured by the converter?",
    )


async def _withheld_then_held(
    engine: Engine,
    folder: Path,
    document: tuple[str, str],
    withheld: tuple[str, str],
    held: str,
) -> None:
    """`withheld[0]` is a not-found naming `withheld[1]` over `document`; `held` is not."""
    answer = await answered_extractively(engine, folder, *document, withheld[0])
    assert answer.not_found and answer.sources
    assert answer.warnings[0].startswith(
        f"{UNANSWERED}: none of the top passages names {withheld[1]}"
    )
    kept = await engine.answer(held)
    assert not any(w.startswith(f"{UNANSWERED}: none") for w in kept.warnings), kept.warnings


HOOKS = (
    "# Version control integration\n\nUse pre-commit. Once you have it installed, add this "
    "to the `.pre-commit-config.yaml` in your repository, and the hook runs Black on every "
    "Git commit. Jupyter notebooks of Python code are formatted by the black-jupyter hook.\n"
)


@pytest.mark.parametrize(
    ("question", "found"),
    [
        # how-to questions naming a tool no source names
        ("How do I run Black as a Git pre-push hook with Husky?", ("Husky",)),
        ("How do I send the hook's output to Datadog's agent?", ("Datadog",)),
        # named, in any case, or a typo away ("Jupiter" for "Jupyter")
        ("How do I format Jupiter notebooks with the black-jupyter hook?", ()),
        ("How can I run black on every git commit?", ()),
        # a hyphenated name needs each of its words
        ("How do I run a Husky-based hook?", ("Husky-based",)),
        # other questions are read only for names no chunk of the index holds (below):
        # news and encyclopedias name people their passages spell otherwise
        ("Does the Verge report that Husky runs Black?", ()),
        ("Which hook did Husky add?", ()),
    ],
)
def test_a_how_to_question_names_its_tools(question: str, found: tuple[str, ...]) -> None:
    sources = numbered([hit(HOOKS)])
    assert unnamed_proper(question, sources) == found


@pytest.mark.parametrize(
    ("question", "unheard", "found"),
    [
        # a name the documents never write, in a question naming up to four things
        ("Can I run the Black hook with Husky?", ("huski",), ("Husky",)),
        ("Does the hook format Jupyter notebooks with Husky?", ("huski",), ("Husky",)),
        ("Which hook did Husky add?", ("huski",), ("Husky",)),
        # held by some chunk of the index, though not by these sources: read as before
        ("Can I run the Black hook with Husky?", (), ()),
        ("Can I run the Black hook with Husky?", ("hook",), ()),
        # written by a source, or a typo away from a word it writes
        ("Does Black format Jupiter notebooks?", ("jupit",), ()),
        # a CamelCase name adding a part to a word it writes names another thing (WTForms'
        # "RequiredIf" validator, which its docs never write, was a typo of "required")
        ("Is there a built-in HookIf option in Black?", ("hookif",), ("HookIf",)),
        ("Does Black format Jupyters notebooks?", ("jupyter",), ()),
        # its parts written apart are the name
        ("Is there a built-in BlackJupyter hook?", ("blackjupyt",), ()),
        # a word away from one it writes, but from its first letter: another name
        ("Can Black format Cython files?", ("cython",), ("Cython",)),
        # a question naming three or four things asks about the one missing ("… How do I
        # broadcast a message … with Redis pub/sub?" over Tornado's docs), named by words
        # in a row, when another is written
        (
            "I run Black in Git hooks of several Jupyter repos. Can Husky run them all?",
            ("huski",),
            ("Husky",),
        ),
        (
            "Can Black and Git fetch the hook from HashiCorp's Vault?",
            ("hashicorp", "vault"),
            ("HashiCorp", "Vault"),
        ),
        # several things missing apart are the user's settings, not what is asked
        (
            "Is the Black hook the same on Windows, Linux and Docker?",
            ("window", "linux", "docker"),
            (),
        ),
        ("Can Ubuntu run Black in Docker and Git?", ("ubuntu", "docker"), ()),
        # a name opening with an acronym is a name
        ("Can Black format SQLAlchemy models?", ("sqlalchemi",), ("SQLAlchemy",)),
        # a question naming many things names some in passing
        ("Did the Verge say Black, Git and Jupyter run Husky?", ("huski",), ()),
    ],
)
def test_any_question_naming_what_the_documents_never_write(
    question: str, unheard: tuple[str, ...], found: tuple[str, ...]
) -> None:
    sources = numbered([hit(HOOKS)])
    assert unnamed_proper(question, sources, unheard) == found


def test_an_error_the_asker_met_and_a_name_written_longer_are_held() -> None:
    sources = numbered([hit("A MockClock starts at time 0. The KqueueIOManager runs on macOS.")])
    # The error the asker reports is what happened to them; the docs explaining why need
    # not write it (Trio's "I did `import trio` … and got an AttributeError. Why?").
    met = "I referenced trio.testing.MockClock and got an AttributeError. Why?"
    assert unnamed_proper(met, sources, unheard=("attributeerror",)) == ()
    asked = "Does MockClock raise an AttributeError when it jumps?"
    assert unnamed_proper(asked, sources, unheard=("attributeerror",)) == ("AttributeError",)
    # The asker writes the thing twice, once as the docs do ("Mac", then "macOS").
    both = "I'm on my Mac. Which I/O manager does Trio use on macOS?"
    assert unnamed_proper(both, sources, unheard=("mac",)) == ()
    once = "I'm on my Mac. Which I/O manager does Trio use there?"
    assert unnamed_proper(once, sources, unheard=("mac",)) == ("Mac",)


def test_thousands_of_capitalised_names_are_read_by_the_first_twelve() -> None:
    question = "How do I use " + " ".join(f"Tool{n}x" for n in range(5_000)) + "?"
    sources = numbered([hit(" ".join(f"word{n}y" for n in range(8_000)))])
    assert len(unnamed_proper(question, sources)) == 12


def test_proper_names_skip_the_first_word_and_possessives() -> None:
    found = proper_names("How do I use Black's cache with Git? Then Husky.")
    assert found == ("Black", "Git", "Husky")  # "Then" opens a sentence
    assert proper_names("How do I set `Config` in Husky") == ("Husky",)  # inline code aside
    # a name opening with an acronym; a plural acronym is none (`acronyms` reads it)
    found = proper_names("Can the IOLoop run SQLAlchemy with a JSONField of URLs at 5 MBps?")
    assert found == ("IOLoop", "SQLAlchemy", "JSONField")  # nor a unit


def test_a_language_as_the_medium_of_something_is_no_name_a_document_is_about() -> None:
    # Scrapy's FAQ answers this with the Accept-Language header, naming neither language
    question = (
        "Why does my spider get the English version of a multilingual site when my browser "
        "shows it to me in Spanish? What should I change in Scrapy?"
    )
    assert proper_names(question) == ("Scrapy",)
    sources = numbered([hit("Try changing the default Accept-Language request header.")])
    assert unnamed_proper(question, sources, unheard=("spanish", "scrapi")) == ("Scrapy",)
    # a language that is what the question asks about is a name
    assert proper_names("Does the stemming analyzer support Hungarian?") == ("Hungarian",)
    assert proper_names("How do I tokenize Japanese text?") == ("Japanese",)


async def test_a_how_to_question_naming_a_tool_no_passage_names_is_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    await _withheld_then_held(
        engine,
        tmp_path / "h",
        ("hooks.md", HOOKS),
        ("How do I run Black as a Git pre-push hook with Husky?", "Husky"),
        "How do I run Black on every Git commit with pre-commit?",
    )


async def test_any_question_naming_a_tool_the_documents_never_write_is_not_found(
    engine: Engine, tmp_path: Path
) -> None:
    await _withheld_then_held(
        engine,
        tmp_path / "y",
        ("hooks.md", HOOKS),
        ("Does the black-jupyter hook also run under Husky?", "Husky"),
        "Does the black-jupyter hook format Jupyter notebooks?",
    )
