"""Conflicts between sources: same subject, different value, different documents."""

from __future__ import annotations

import pytest

from citesynth.synthesis.disagreement import tidy
from citesynth.verify.base import Passage
from citesynth.verify.conflicts import Found, _full_year, describe, find_conflicts


def test_different_numbers_for_the_same_statement_conflict() -> None:
    found = find_conflicts(
        [
            Passage(1, "The default request timeout is 30 seconds for every client.", "a.md"),
            Passage(2, "The default request timeout is 60 seconds for every client.", "b.md"),
        ]
    )
    assert len(found) == 1
    conflict = found[0]
    assert conflict.kind == "number" and conflict.sources == (1, 2)
    assert conflict.values == ("30 seconds", "60 seconds")
    assert "timeout" in conflict.topic
    assert "[1] says 30 seconds, [2] says 60 seconds" in describe(found)


def test_different_years_conflict_as_dates() -> None:
    found = find_conflicts(
        [
            Passage(1, "The Millau viaduct bridge was opened to traffic in 2004.", "a.md"),
            Passage(3, "The Millau viaduct bridge was opened to traffic in 2005.", "b.md"),
        ]
    )
    assert [(c.kind, c.values, c.sources) for c in found] == [("date", ("2004", "2005"), (1, 3))]


def test_one_source_denying_what_another_states_conflicts() -> None:
    found = find_conflicts(
        [
            Passage(1, "The client retries failed requests automatically by default.", "a.md"),
            Passage(
                2, "The client does not retry failed requests automatically by default.", "b.md"
            ),
        ]
    )
    assert [c.kind for c in found] == ["negation"]


def test_a_denial_under_a_condition_the_other_does_not_state_is_no_conflict() -> None:
    """Flask's docs: both sentences say the same thing (found answering "Is the development
    server safe to use in production?", whose whole answer became "The sources disagree")."""
    found = find_conflicts(
        [
            Passage(1, "Only use the development server during development.", "cli.rst"),
            Passage(2, "Do not use the development server when deploying to production.", "d.rst"),
            Passage(3, "Run the Development Server", "tutorial.rst"),
            Passage(
                4,
                "Do not run the development server or debugger in a production environment.",
                "deploy.rst",
            ),
        ]
    )
    assert found == []


def test_a_denial_of_something_else_is_no_conflict() -> None:
    """What is denied must be in the other sentence (Red Hat Developer Hub guides)."""
    found = find_conflicts(
        [
            Passage(1, "The Developer Hub operator does not create ingresses for you.", "a.md"),
            Passage(2, "Create the namespace that holds the Developer Hub operator.", "b.md"),
            Passage(3, "The OLM framework and the Container Registry are not built-in.", "c.md"),
            Passage(4, "The Container Registry, based on the OLM framework, ships it.", "d.md"),
        ]
    )
    assert found == []


def test_a_sentence_holding_both_values_disagrees_with_neither() -> None:
    """Gunicorn's change log gives a before and an after; its guide the after alone."""
    after = Passage(2, "- **With `workers=2`**: 2 workers × 10GB = 20GB RAM (75% savings)", "a.md")
    both = Passage(
        3, "- Example: 8 workers × 10GB model = 80GB → with `workers=2`: 20GB (75% savings)", "b.md"
    )
    assert find_conflicts([after, both]) == []
    other = Passage(3, "- **With `workers=8`**: 8 workers × 10GB = 80GB RAM (no savings)", "b.md")
    assert [c.kind for c in find_conflicts([after, other])] == ["number"]
    # a number after a slash is part of a name, no value
    h2 = Passage(1, "The gthread worker keeps HTTP/2 connections open between requests.", "a")
    h1 = Passage(2, "The gthread worker keeps HTTP/1.1 connections open between requests.", "b")
    assert find_conflicts([h2, h1]) == []
    # a number in another unit is another measure
    both = Passage(
        1, "The default worker timeout is 30 seconds and the server retries 5 times.", "a"
    )
    once = Passage(2, "The default worker timeout is 5 seconds.", "b.md")
    assert [c.values for c in find_conflicts([both, once])] == [("30 seconds", "5 seconds")]


def test_a_sentence_stating_both_sides_denies_neither() -> None:
    """peewee's migrator: "nullable or not nullable" states both, against a field's "make
    nullable" (found answering how to add a NOT NULL column, a disagreement in the answer)."""
    passages = [
        Passage(1, ":param str column: Name of the column to make nullable.", "tools.rst"),
        Passage(2, "- Make columns nullable or not nullable.", "schema.rst"),
    ]
    assert find_conflicts(passages) == []
    denying = Passage(2, "- Make the columns not nullable.", "schema.rst")
    assert [c.kind for c in find_conflicts([passages[0], denying])] == ["negation"]
    # nor is it read against a denial: it states that too
    assert find_conflicts([passages[1], Passage(3, "- Make the columns not nullable.", "x")]) == []
    # a denial after a comma in the same sentence still denies
    plain = Passage(1, "Columns and primary keys are nullable by default.", "a.md")
    later = Passage(2, "Columns are nullable by default, but primary keys are not nullable.", "b")
    assert [c.kind for c in find_conflicts([plain, later])] == ["negation"]


def test_documents_each_about_their_own_name_do_not_conflict() -> None:
    one = "To use the operator on GKE, install the OLM framework and the registry first."
    two = "To use the operator on AKS, install the OLM framework and the registry first."
    about = [Passage(1, one, "gke.md", "Installing on GKE"), Passage(2, two, "aks.md", "On AKS")]
    assert find_conflicts(about) == []
    unrelated = [Passage(1, one, "a.md", "Installing"), Passage(2, two, "b.md", "Installing")]
    assert [c.kind for c in find_conflicts(unrelated)] == ["name"]
    bare = "On GKE the pull secret is managed globally for the whole cluster."
    other = "On AKS the pull secret is managed globally for the whole cluster."
    assert find_conflicts([Passage(1, bare, "a.md"), Passage(2, other, "b.md")]) == []


def test_chunks_of_one_document_and_different_subjects_do_not_conflict() -> None:
    found = find_conflicts(
        [
            Passage(1, "The default request timeout is 30 seconds for every client.", "a.md"),
            Passage(2, "The default request timeout is 60 seconds for every client.", "a.md"),
            Passage(3, "Connection pools keep 10 sockets open per host at most.", "b.md"),
            Passage(4, "The cache keeps 500 rendered pages in memory.", "c.md"),
        ]
    )
    assert found == []


def test_agreeing_sources_do_not_conflict() -> None:
    text = "The default request timeout is 30 seconds for every client."
    assert find_conflicts([Passage(1, text, "a.md"), Passage(2, text, "b.md")]) == []


def test_the_same_sentence_with_another_name_conflicts() -> None:
    found = find_conflicts(
        [
            Passage(1, "The billing service is maintained by Alice Smith since March.", "a.md"),
            Passage(2, "The billing service is maintained by Bob Jones since March.", "b.md"),
        ]
    )
    assert [(c.kind, c.values) for c in found] == [("name", ("Alice Smith", "Bob Jones"))]
    assert found[0].topic.startswith("The billing service is maintained by")


def test_sentences_about_different_people_do_not_conflict() -> None:
    found = find_conflicts(
        [
            Passage(1, "Marie Curie was born in Warsaw and studied in Paris.", "a.md"),
            Passage(2, "Pierre Curie was born in Paris and studied in Paris.", "b.md"),
        ]
    )
    assert found == []


def test_a_disagreement_on_what_was_asked_is_stated_even_when_the_writer_cited_elsewhere() -> None:
    from citesynth.synthesis.disagreement import on_point
    from citesynth.verify.conflicts import Found

    founded = Found("The company was founded", ("1998", "2001"), (1, 2), "date")
    timeout = Found("The default request timeout", ("30 seconds", "60 seconds"), (3, 4), "number")
    answer = "The project is maintained by Bob Jones [4]."
    assert on_point([founded, timeout], "When was the company founded?", answer, {4}) == [founded]
    # one shared word ("request") does not make a timeout disagreement the point of a
    # question on retries, even when the answer cites one side
    retries = "Does the client retry failed requests automatically?"
    assert on_point([timeout], retries, "It retries them [3].", {3}) == []
    assert on_point([timeout], "What is the default request timeout?", "", {3}) == [timeout]


def test_sentences_naming_different_people_do_not_conflict() -> None:
    kate = "Kate Ramsay made her first appearance in the episode broadcast on 15 May 2009."
    max_ = "Max Ramsay made his first appearance in the episode broadcast on 18 March 1985."
    assert find_conflicts([Passage(1, kate, "a.md"), Passage(2, max_, "b.md")]) == []
    # one side naming what the other leaves unnamed is still the same subject
    said = "The Verrin Bridge opened to traffic in 2009 after four years of work."
    unnamed = "The bridge opened to traffic in 2011 after four years of work."
    named = find_conflicts([Passage(1, said, "a.md"), Passage(2, unnamed, "b.md")])
    assert [c.values for c in named] == [("2009", "2011")]


def test_articles_about_different_named_subjects_do_not_conflict() -> None:
    aired = "It originally aired on the Fox network in the United States on {}."
    odyssey = f'"Homer\'s Odyssey" is an episode. {aired.format("January 21, 1990")}'
    flanders = f'"When Flanders Failed" is an episode. {aired.format("October 3, 1991")}'
    first = Passage(1, odyssey, "a", title="Homer's Odyssey (The Simpsons)")
    second = Passage(2, flanders, "b", title="When Flanders Failed")
    assert find_conflicts([first, second]) == []


def test_title_case_documentation_titles_do_not_hide_a_disagreement() -> None:
    size = "The default connection pool size is {} connections for every client."
    for one, two in [
        ("Connection Pools", "Server Configuration"),
        ("Installation Guide", "Configuration Reference"),
        ("Connection Pools | Acme Docs", "Tuning | Acme Docs"),
        ("Harbor Lighthouse", "Visiting the Harbor Lighthouse"),
    ]:
        pages = [
            Passage(1, size.format(100), "a", title=one),
            Passage(2, size.format(10), "b", title=two),
        ]
        found = find_conflicts(pages)
        assert [c.values for c in found] == [("100 connections", "10 connections")], (one, two)


def test_a_number_is_part_of_a_name_only_next_to_the_same_word_in_its_title() -> None:
    plane = "The Heinkel HD {} was a biplane fighter aircraft developed in Germany in the 1920s."
    planes = [
        Passage(1, plane.format(39), "a", title="Heinkel HD 39"),
        Passage(2, plane.format(40), "b", title="Heinkel HD 40"),
    ]
    assert find_conflicts(planes) == []
    season = "The {} NBA season was the fifteenth season of the franchise in the league."
    seasons = [
        Passage(1, season.format("2003–04"), "a", title="2003–04 Orlando Magic season"),
        Passage(2, season.format("1997–98"), "b", title="1997–98 Orlando Magic season"),
    ]
    assert find_conflicts(seasons) == []
    # versions are values, and a step number in a title is not the value of a sentence
    node = "The command line tool requires Node {} or later on every platform."
    nodes = [Passage(1, node.format(18), "a.md"), Passage(2, node.format(20), "b.md")]
    assert [c.values for c in find_conflicts(nodes)] == [("18", "20")]
    retries = "The client retries failed requests {} times before it gives up."
    steps = [
        Passage(1, retries.format(3), "a", title="Step 3: Configure the client"),
        Passage(2, retries.format(5), "b", title="Step 4: Tune retries"),
    ]
    assert [c.values for c in find_conflicts(steps)] == [("3 times", "5 times")]
    # a year after a month is a date
    may = "The Verrin Bridge opened to traffic in May {} after four years of work."
    dated = [Passage(1, may.format(2009), "a.md"), Passage(2, may.format(2011), "b.md")]
    assert [c.values for c in find_conflicts(dated)] == [("2009", "2011")]


def test_a_label_or_a_command_opening_a_sentence_is_not_a_name() -> None:
    labels = [
        Passage(1, "Note: The default request timeout is 30 seconds for clients.", "a.md"),
        Passage(2, "Important: The default request timeout is 60 seconds for clients.", "b.md"),
    ]
    assert len(find_conflicts(labels)) == 1


def test_an_abbreviated_year_range_ends_in_the_full_year() -> None:
    airing = "The Jetsons is an animated sitcom by Hanna-Barbera, airing in primetime from {}."
    same = [
        Passage(1, airing.format("1962–63, then in syndication"), "a", title="Episodes"),
        Passage(2, airing.format("1962 to 1963, then in syndication"), "b", title="Series"),
    ]
    assert find_conflicts(same) == []
    other = [
        Passage(1, airing.format("1962–64, then in syndication"), "a", title="Episodes"),
        Passage(2, airing.format("1962 to 1963, then in syndication"), "b", title="Series"),
    ]
    assert [c.values for c in find_conflicts(other)] == [("64, then", "1963, then")]
    season = "The {} season of the league began in the autumn with twelve clubs."
    rollover = [
        Passage(1, season.format("1999–00"), "a", title="Seasons"),
        Passage(2, season.format("1999 to 2000"), "b", title="League"),
    ]
    assert find_conflicts(rollover) == []
    assert _full_year("released on 2023-10-05", 16, "10") == "10"  # a date, not a range


def test_a_swapped_name_needs_a_topic_before_it() -> None:
    """Steps of different procedures and different subjects are not one statement."""
    steps = [
        Passage(1, "* Click View to open the installed operator details page.", "a.adoc"),
        Passage(2, "* Click Save to open the installed operator details page.", "b.adoc"),
    ]
    assert find_conflicts(steps) == []
    preview = "[IMPORTANT] ---- The {} plugin is a Technology Preview feature only."
    subjects = [
        Passage(1, preview.format("Nexus Repository Manager"), "a.adoc"),
        Passage(2, preview.format("JFrog Artifactory"), "b.adoc"),
    ]
    assert find_conflicts(subjects) == []
    owner = "The storage driver of the platform was written by {} during the rewrite."
    found = find_conflicts(
        [
            Passage(1, owner.format("Priya Natarajan"), "a.md"),
            Passage(2, owner.format("Tomas Berg"), "b.md"),
        ]
    )
    assert [c.values for c in found] == [("Priya Natarajan", "Tomas Berg")]
    early = "Maintained by {} since the first public release of the library."
    found = find_conflicts(
        [
            Passage(1, early.format("Alice Smith"), "a.md"),
            Passage(2, early.format("Bob Jones"), "b.md"),
        ]
    )
    assert [c.values for c in found] == [("Alice Smith", "Bob Jones")]


def test_code_and_its_output_state_no_facts() -> None:
    # attrs' reference pages: two doctests print the same error for different values.
    def doctest(value: str) -> str:
        return (
            "Validators check the value:\n\n.. doctest::\n\n"
            f"   >>> C(x={value})\n   Traceback (most recent call last):\n      ...\n"
            f"   TypeError: ('x' must be <class 'str'> (got {value} that is a <class 'int'>).\n"
        )

    fenced = (
        "Run it:\n\n```python\n>>> C(x=128)\nTypeError: 'x' must be a str (got 128 here).\n```\n"
    )
    code = [Passage(1, doctest("7"), "api.rst"), Passage(2, doctest("128"), "init.rst")]
    assert find_conflicts(code) == []
    assert find_conflicts([Passage(1, doctest("7"), "api.rst"), Passage(2, fenced, "b.md")]) == []
    # The same statements in prose still disagree.
    prose = "The error says that 'x' must be a str, got {} that is an int."
    assert find_conflicts(
        [Passage(1, prose.format(7), "api.rst"), Passage(2, prose.format(128), "init.md")]
    )


def test_info_fields_state_facts() -> None:
    # API pages state defaults in Sphinx info fields, which are no prose to the reader.
    v1 = ":param timeout: The connect timeout for every client defaults to 5 seconds.\n"
    v2 = (
        ".. function:: connect(timeout)\n\n   Connect.\n\n"
        "   :param timeout: The connect timeout for every client defaults to 10 seconds.\n"
    )
    found = find_conflicts([Passage(1, v1, "docs/v1/api.rst"), Passage(2, v2, "docs/v2/api.rst")])
    assert [c.values for c in found] == [("5 seconds", "10 seconds")]


def test_release_notes_of_different_releases_do_not_disagree() -> None:
    requires = "Celery now requires Python {} and above for every worker."
    notes = [
        Passage(1, requires.format("3.6"), "a", title="What's new in Celery 5.0 (singularity)"),
        Passage(2, requires.format("3.8"), "b", title="What's new in Celery 5.3 (Emerald Rush)"),
    ]
    assert find_conflicts(notes) == []
    # the same release's pages, or titles alike in more than a number, still disagree
    for one, two in [
        ("What's new in Celery 5.3", "What's new in Celery 5.3"),
        ("Upgrading to Celery 5.3", "What's new in Celery 5.0"),
        ("Tutorial, part 1", "Tutorial, part 2"),  # parts of one work, no releases
    ]:
        pages = [
            Passage(1, requires.format("3.6"), "a", title=one),
            Passage(2, requires.format("3.8"), "b", title=two),
        ]
        assert [c.values for c in find_conflicts(pages)] == [("3.6", "3.8")], (one, two)


def test_a_keyword_arguments_value_is_a_measure_of_that_keyword() -> None:
    # Pyramid's view configuration and its release notes: two examples of `http_cache`, one
    # in seconds, one a `timedelta(days=1)`, had come out as "[4] says 3600; [8] says 1".
    seconds = "For example: ``http_cache=3600`` instructs the browser to cache this response."
    days = (
        "For example: ``http_cache=datetime.timedelta(days=1)`` instructs the browser "
        "to cache this response."
    )
    found = find_conflicts([Passage(4, seconds, "viewconfig.rst"), Passage(8, days, "new.rst")])
    assert found == []
    other = seconds.replace("3600", "60")
    found = find_conflicts([Passage(4, seconds, "viewconfig.rst"), Passage(8, other, "new.rst")])
    assert [c.values for c in found] == [("http_cache=3600", "http_cache=60")]


def test_a_comma_between_values_separates_them() -> None:
    # Pillow's handbook and tutorial write the origin "(0,0)" and "(0, 0)".
    concepts = "The Python Imaging Library uses a coordinate system, with (0,0) in the upper left."
    tutorial = "The Python Imaging Library uses a coordinate system with (0, 0) in the upper left."
    found = find_conflicts([Passage(1, concepts, "concepts.rst"), Passage(4, tutorial, "t.rst")])
    assert found == []
    limit = "The server accepts at most {} requests per minute from every client."
    found = find_conflicts(
        [Passage(1, limit.format("1,000"), "a.md"), Passage(2, limit.format("1,500"), "b.md")]
    )
    assert [c.values for c in found] == [("1,000 requests", "1,500 requests")]


@pytest.mark.parametrize(
    "echo",
    [
        "- [3] and [5] disagree on whether: Install packages build.",
        # the layout took the opening "[3]" for an echoed source header (build's docs)
        "And [5] disagree on whether: Install packages build.",
        "[3] and [5] disagree on whether: install packages build",
    ],
)
def test_an_echo_of_the_note_is_dropped_whatever_was_left_of_its_markers(echo: str) -> None:
    found = [
        Found(
            "Install packages build",
            ("- **Install** packages (not build them)", "pip both installs and builds them"),
            (3, 5),
            "negation",
        )
    ]
    assert tidy(f"uv installs packages [3].\n{echo}", found) == "uv installs packages [3]."


def test_a_denial_in_an_aside_sets_a_scope_and_denies_nothing() -> None:
    """build's list of what a custom installer must do, against what pip does."""
    passages = [
        Passage(
            3, "Installers must:\n\n- **Install** packages (not build them) on request.", "a.md"
        ),
        Passage(
            5, "For example, pip both installs packages and can build them on request.", "b.md"
        ),
    ]
    assert find_conflicts(passages) == []
    # outside an aside the same words deny
    passages[0] = Passage(
        3, "Installers must install packages and not build them on request.", "a.md"
    )
    assert [c.kind for c in find_conflicts(passages)] == ["negation"]
