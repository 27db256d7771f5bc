"""How-to questions: a means asked, the sentences giving one, and one brought into reach."""

from __future__ import annotations

import time

import pytest

from citesynth.synthesis.asked_first import MEANS_MOST, means_first
from citesynth.synthesis.means import asking_sentence, asks_means, states_means
from citesynth.synthesis.sources import Source
from citesynth.types import Chunk, ChunkId, DocumentId, Hit


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("How do I keep a session out of the default run?", True),
        (
            "We build a Docker image for offline testing and want nox to install all "
            "dependencies but not run pytest. What option does that?",
            True,
        ),
        ("After my tests finish I want the coverage session next. What do I call?", True),
        ("Is there a single short flag that reuses the envs and skips installs?", True),
        ("Which environment variable should I set in session.run_install?", True),
        ("What's the best way to share a fixture between sessions?", True),
        ("What is the default virtualenv backend?", False),
        ("Does nox support running sessions in parallel?", False),
        ("Why does nox recreate the virtualenvs every time?", False),
        # how something works, or which things are so: no means the asker wants
        ("How does Celery handle task retries?", False),
        ("Which functions are thread-safe?", False),
        ("What signals does Django send when saving a model?", False),
        ("How do I pass options to pytest, e.g. -x?", True),
        # which thing the asker should use or configure (coverage.py's measurement cores)
        ("We rely on dynamic contexts. Which measurement core should we configure?", True),
        ("Which backend do I need to install for conda environments?", True),
        ("Which cores are available?", False),
        ("Which core does coverage.py use by default?", False),
        # the asking sentence decides, not the situation told before it
        ("How do I know? I only want the default backend. What is it?", False),
    ],
)
def test_a_question_asking_for_a_means(question: str, asked: bool) -> None:
    assert asks_means(question) is asked


def test_the_asking_sentence_is_the_last_one_ending_with_a_question_mark() -> None:
    question = "My app sits behind nginx. How do I get the real client address? Thanks."
    assert asking_sentence(question) == "How do I get the real client address?"
    assert asking_sentence("Set up a proxy") == "Set up a proxy"


def test_an_asking_sentence_may_write_dotted_names_and_abbreviations() -> None:
    """Alembic's "… env.py. Can I run Alembic's async env.py under trio …?" had been read
    whole: the stop of "env.py" had made its asking sentence none."""
    question = (
        "The async template uses asyncio.run() in env.py. Can I run Alembic's async "
        "env.py under trio or anyio instead of asyncio?"
    )
    assert asking_sentence(question).startswith("Can I run Alembic's async env.py")
    checked = "We're on MySQL 8. Will it see our CHECK constraints, i.e. does MySQL reflect them?"
    assert asking_sentence(checked).startswith("Will it see")
    assert asking_sentence("I use v1.2. Really?") == "Really?"


def test_the_asking_sentence_is_found_in_linear_time() -> None:
    started = time.perf_counter()
    asking_sentence("a." * 50_000 + " Why?")
    asking_sentence("i.e" * 30_000 + "?")
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(
    "sentence",
    [
        "You can use ``--install-only`` to skip ``run`` commands.",
        "Use ``-R`` or ``--reuse-existing-virtualenvs --no-install``:",
        "You can remove sessions from this list by passing ``default=False``.",
        "The application can then be told to trust those values by wrapping it with the "
        "middleware.",
        "To work around this you can explicitly set the nodename using the -n argument.",
        "To disable it, set ``x`` to False.",
        "- Set ``FOO`` to 1.",
        "Colors can be disabled with the ``--no-color`` option.",
        # Hatch's code version source: "you'll" as one word
        "If the chosen path imports another module in your project, then you'll need to use "
        "absolute imports coupled with the ``search-paths`` option.",
        "We’ll have to set ``FOO`` first.",
        "You'll also need to install ``nox[uv]``.",
        "You'll want to use ``--force``.",
        # pip's secure installs: what there is to do it with
        "To help with such use cases, a `--no-require-hashes` flag is available to disable "
        "this mechanism.",
        # coverage.py: the option it is done with, and an imperative to change something
        "You can get coverage data from these processes using the ``--save-signal`` option "
        "on the ``coverage run`` command line.",
        "Change your configuration to use the ctrace core.",
    ],
)
def test_a_sentence_giving_a_means(sentence: str) -> None:
    assert states_means(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Requests are now coming from the HTTP server to the local address.",
        "There are a couple of cases where it makes sense to only run install commands.",
        "Now running ``nox --session tests`` will run the tests and then the coverage.",
        "Use of this option is discouraged.",
        "By default, Nox deletes and recreates virtualenvs every time it is run.",
        "The first line will be shown when listing the sessions.",
        # a verb that names a thing opening the sentence
        "Run times vary by backend.",
        "Import errors are reported at startup.",
        "You'll see the output in the log.",
        "The flag is available since version 2.",
        "This option is available for Python 3.8 and later.",
        "The parameter is provided for internal use.",
    ],
)
def test_a_sentence_giving_no_means(sentence: str) -> None:
    assert not states_means(sentence)


def _source(number: int, text: str) -> Source:
    chunk = Chunk(
        ChunkId(f"c{number}"), DocumentId(f"d{number}"), f"{number}.rst", "Usage", (), text,
        0, len(text), 1, 9,
    )  # fmt: skip
    return Source(number, Hit(chunk, 1.0, 0.9), text)


_CASES = "There are cases where it makes sense to only run install commands."
_INSTALL_ONLY = "You can use ``--install-only`` to skip ``run`` commands."
_NO_VENV = "You can use ``--no-venv`` to run without a virtualenv."


def test_a_means_near_a_sentence_in_reach_is_brought_in_after_it() -> None:
    usage = _source(1, f"{_CASES:<90}{_INSTALL_ONLY:<68}\n\n{_NO_VENV}")
    other, third = _source(2, "other"), _source(3, "third")
    ranked = [
        (0.80, usage, 0, _CASES),
        (0.70, other, 0, "Nox runs in docker images."),
        (0.60, other, 40, "Nox runs in GitHub Actions."),
        (0.45, usage, 90, _INSTALL_ONLY),
        # a means of a source with no sentence in reach, or below the lower bound (and
        # in another paragraph than the best sentence), stays
        (0.45, third, 0, "You can use ``--verbose`` to show all output."),
        (0.30, usage, 160, _NO_VENV),
    ]
    brought, lifted = means_first(ranked, floor=0.56, low=0.40)
    assert lifted == 1
    assert [sentence for _, _, _, sentence in brought][:2] == [
        ranked[0][3],
        "You can use ``--install-only`` to skip ``run`` commands.",
    ]
    assert brought[1][0] == 0.56  # lifted to the floor, so in reach
    assert brought[2:] == [ranked[1], ranked[2], ranked[4], ranked[5]]
    assert means_first(ranked[:3], floor=0.56, low=0.40) == (ranked[:3], 0)


def test_a_means_in_the_best_sentences_paragraph_is_brought_in_from_lower() -> None:
    warning = (
        "Dynamic contexts aren't supported with core=sysmon (no-sysmon-context)\n"
        "  You are using the sys.monitoring measurement core. Those two features are\n"
        "  incompatible. Change your configuration to use the ctrace core.\n\n"
        "Use ``--debug`` to see more."
    )
    source = _source(1, warning)
    change = warning.index("Change")
    ranked = [
        (0.53, source, 0, warning[: warning.index(" Those")]),
        (0.18, source, change, "Change your configuration to use the ctrace core."),
        # as low, but in the next paragraph
        (0.18, source, warning.index("Use"), "Use ``--debug`` to see more."),
    ]
    brought, lifted = means_first(ranked, floor=0.37, low=0.265)
    assert lifted == 1
    assert [start for _, _, start, _ in brought] == [0, change, warning.index("Use")]
    assert brought[1][0] == 0.37
    # below the share of the best that a paragraph's means is read from, it stays
    lower = [ranked[0], (0.15, source, change, ranked[1][3])]
    assert means_first(lower, floor=0.37, low=0.265) == (lower, 0)


def test_each_means_brought_in_is_one_sentence_more_up_to_a_few() -> None:
    usage = _source(1, "usage")
    ranked = [
        (0.80, usage, 0, "There are cases where it makes sense to only run install commands."),
        (0.50, usage, 40, "You can use ``--install-only`` to skip ``run`` commands."),
        (0.45, usage, 90, "You can use ``--no-venv`` to run without a virtualenv."),
    ]
    brought, lifted = means_first(ranked, floor=0.56, low=0.40)
    assert lifted == 2  # the answer may show two sentences more: none loses its place
    assert [sentence for _, _, _, sentence in brought] == [r[3] for r in ranked]
    assert [score for score, _, _, _ in brought] == [0.80, 0.56, 0.56]
    many = [*ranked, *((0.42, usage, 100 + n, f"You can use ``--x{n}`` too.") for n in range(5))]
    assert means_first(many, floor=0.56, low=0.40)[1] == MEANS_MOST


def test_a_means_in_reach_but_past_what_an_answer_shows_comes_after_its_neighbour() -> None:
    # pip: "Use --all …" ranked tenth, right below the note the answer quotes first
    freeze, other = _source(1, "freeze"), _source(2, "other")
    ranked = [
        (0.58, freeze, 0, "On Python 3.12 and later only ``pip`` is excluded."),
        *((0.50 - n / 100, other, 10 * n, f"Other sentence {n}.") for n in range(6)),
        (0.37, freeze, 60, "Use ``--all`` to include those packages for a complete list."),
    ]
    brought, lifted = means_first(ranked, floor=0.33, low=0.29, shown=5)
    assert lifted == 1
    assert brought[1] == ranked[-1]  # after its neighbour, with its own score
    assert brought[2:] == ranked[1:-1]
    # among the first shown, or with no neighbour among them, it stays where it is
    # (brought in after the last shown, it had pushed out nox's "Use ``-R`` …")
    assert means_first(ranked, floor=0.33, low=0.29, shown=8) == (ranked, 0)
    apart = [*ranked[:-1], (0.37, _source(3, "third"), 0, ranked[-1][3])]
    assert means_first(apart, floor=0.33, low=0.29, shown=5) == (apart, 0)
    # a means below the floor next to one brought in from past the first five comes too
    far = [(0.20, freeze, start, f"Freeze sentence {start}.") for start in (30, 70, 80)]
    below = (0.30, freeze, 90, "You can use ``--exclude`` to leave packages out.")
    every = [*ranked, *far, below]
    brought, lifted = means_first(every, floor=0.33, low=0.29, shown=5)
    assert lifted == 2 and len(brought) == len(every)
    assert brought[1] == ranked[-1] and brought[2][3] == below[3]
