"""What an introducing sentence introduces: the code block or list the answer shows with it."""

from __future__ import annotations

from citesynth.synthesis.introduced import (
    MAX_ITEMS,
    MAX_LINES,
    MAX_LIST_CODE_LINES,
    Introduced,
    introduced,
)
from tests.conftest import TORNADO_FAQ_ITEM


def _after(text: str, sentence: str) -> Introduced | None:
    start = text.index(sentence)
    return introduced(text, start, start + len(sentence))


def test_a_fenced_block_after_the_sentence_is_its_example_with_its_language() -> None:
    text = (
        "Set the font as shown in the following example:\n\n"
        "```yaml\napp:\n  branding:\n    fontFamily: Times New Roman\n```\n\nMore prose here."
    )
    block = _after(text, "Set the font as shown in the following example:")
    assert block is not None and block.kind == "code" and block.complete
    assert block.language == "yaml"
    assert block.lines == ("app:", "  branding:", "    fontFamily: Times New Roman")
    assert text[block.start : block.end] == text[text.index("```") : text.rindex("```") + 3]


def test_an_indented_fence_is_dedented_and_a_longer_fence_closes_only_with_its_own_marks() -> None:
    text = "Run this:\n\n   ````bash\n   echo ```\n   ls\n   ````\n"
    block = _after(text, "Run this:")
    assert block is not None and block.lines == ("echo ```", "ls") and block.complete


def test_a_block_the_chunk_cuts_or_a_long_one_is_marked_incomplete() -> None:
    unclosed = _after("Install it:\n\n```bash\npip install click\n", "Install it:")
    assert unclosed is not None and unclosed.lines == ("pip install click",)
    assert not unclosed.complete
    long_code = "\n".join(f"line_{n} = {n}" for n in range(MAX_LINES + 5))
    long = _after(f"Like so:\n\n```python\n{long_code}\n```", "Like so:")
    assert long is not None and len(long.lines) == MAX_LINES and not long.complete


def test_restructuredtext_literal_blocks_and_code_directives_are_code() -> None:
    literal = "You can get the library directly from PyPI::\n\n    pip install click\n\nNext."
    block = _after(literal, "You can get the library directly from PyPI::")
    assert block is not None and block.lines == ("pip install click",) and block.language == ""
    directive = (
        "The runner returns a result:\n\n.. code-block:: python\n   :caption: hello.py\n\n"
        "   import click\n\n   @click.command()\n   def hello():\n       pass\n\nAfter."
    )
    block = _after(directive, "The runner returns a result:")
    assert block is not None and block.language == "python"
    assert block.lines == ("import click", "", "@click.command()", "def hello():", "    pass")
    example = "Decorate it:\n\n.. click:example::\n\n    @click.command()\n    def cli(): ..."
    assert _after(example, "Decorate it:") is not None
    image = "See the diagram:\n\n.. image:: flow.png\n   :alt: flow\n"
    assert _after(image, "See the diagram:") is None


def test_a_doctest_block_after_the_sentence_is_its_example() -> None:
    # Jinja's "Native Python Types": the answer quoted the lead-in with nothing after it
    text = (
        "Rendering something that doesn't look like a Python literal produces a string:\n\n"
        ">>> t = env.from_string('{{ x }} * {{ y }}')\n>>> print(t.render(x=4, y=2))\n4 * 2\n\n"
        "Rendering a Python object produces that object:\n"
    )
    block = _after(
        text, "Rendering something that doesn't look like a Python literal produces a string:"
    )
    assert block is not None and block.kind == "code" and block.complete
    assert block.lines == (
        ">>> t = env.from_string('{{ x }} * {{ y }}')",
        ">>> print(t.render(x=4, y=2))",
        "4 * 2",
    )
    assert block.language == "pycon" and text[block.end - 5 : block.end] == "4 * 2"
    # a prompt in the sentence's own paragraph, or none after a blank line, is no block
    assert _after("Try it:\n>>> f()\n", "Try it:") is None
    assert _after("Try it:\n\nThe prompt >>> waits.\n", "Try it:") is None


def test_a_list_brings_its_top_level_items_with_their_continuation_lines() -> None:
    text = (
        "The dashboard includes the following cards:\n\n"
        "* Active users\n  of the portal\n* Total number of users\n"
        "  - a nested detail\n    that goes on\n* Top catalog entities\n\nAnother paragraph."
    )
    block = _after(text, "The dashboard includes the following cards:")
    assert block is not None and block.kind == "list" and block.complete
    assert block.lines == (
        "Active users of the portal",
        "Total number of users",
        "Top catalog entities",
    )
    assert text[block.end :].strip() == "Another paragraph."


def test_a_long_list_is_cut() -> None:
    items = "\n".join(f"{n}. Step number {n} of the install." for n in range(1, MAX_ITEMS + 4))
    block = _after(f"Do the following:\n\n{items}\n", "Do the following:")
    assert block is not None and len(block.lines) == MAX_ITEMS and not block.complete


def test_only_a_sentence_ending_in_a_colon_at_the_end_of_its_line_introduces() -> None:
    assert _after("It works as follows.\n\n```\nx = 1\n```", "It works as follows.") is None
    assert _after("Two values: 1 and 2. More.\n\n- a", "Two values:") is None
    assert _after("Nothing follows:", "Nothing follows:") is None
    assert _after("Nothing follows:\n\n   \n", "Nothing follows:") is None
    assert _after("Reasons:\n\nThe first one is speed.", "Reasons:") is None


def test_a_list_items_own_continuation_paragraph_is_not_code() -> None:
    text = "1.  It can be enabled in two ways:\n\n    on the class, or on the context.\n"
    assert _after(text, "It can be enabled in two ways:") is None
    markdown = "Configure it:\n\n    retries: 3\n    timeout: 5\n\nThen restart."
    block = _after(markdown, "Configure it:")
    assert block is not None and block.lines == ("retries: 3", "timeout: 5")


def test_what_a_list_item_introduces_is_below_it_never_its_sibling_items() -> None:
    steps = "1. Check the service:\n2. Restart the service.\n3. Check the logs."
    assert _after(steps, "Check the service:") is None
    nested = "1. Check the service:\n\n   - its status\n   - its logs\n2. Restart it."
    block = _after(nested, "Check the service:")
    assert block is not None and block.lines == ("its status", "its logs")


def test_a_procedures_steps_bring_their_code_within_a_budget() -> None:
    steps = "Steps:\n\n1. Switch project:\n```bash\noc project x\n```\n2. Run it.\n3. Stop it."
    block = _after(steps, "Steps:")
    assert block is not None and block.complete
    assert block.lines == ("Switch project:", "Run it.", "Stop it.")
    first, *rest = block.code
    assert first is not None and first.lines == ("oc project x",) and first.language == "bash"
    assert rest == [None, None]
    rst = "Do this:\n\n* Write it:\n\n  .. code-block:: yaml\n\n     a: 1\n\n* Load it.\n"
    block = _after(rst, "Do this:")
    assert block is not None and block.lines == ("Write it:", "Load it.")
    assert block.code[0] is not None and block.code[0].lines == ("a: 1",)
    long = "\n".join(f"x_{n} = {n}" for n in range(MAX_LIST_CODE_LINES // 2 + 1))
    two = f"Steps:\n\n1. One:\n```\n{long}\n```\n2. Two:\n```\n{long}\n```\n3. Three."
    block = _after(two, "Steps:")
    assert block is not None and block.lines == ("One:", "Two:") and not block.complete
    assert block.code[1] is None  # over the budget: the list ends at its item, and says so
    cut = _after("Steps:\n\n1. One:\n```\nx = 1\n", "Steps:")  # the chunk ends in the code
    assert cut is not None and not cut.complete and cut.code[0] is not None


def test_the_literal_block_an_items_text_opens_is_its_code_not_its_text() -> None:
    # Tornado's FAQ: the code had been run into the item's text, "range(5)" read as a
    # citation ("for i in range [5]: print(i)")
    faq = TORNADO_FAQ_ITEM + "2. *Find a callback-based equivalent.*\n"
    block = _after(faq, "This means one of three things:")
    assert block is not None and block.complete and len(block.lines) == 2
    assert "range" not in block.lines[0] and "usually the best approach." in block.lines[0]
    code = block.code[0]
    assert code is not None and code.lines[0] == "class CoroutineSleepHandler(RequestHandler):"
    assert code.lines[-1] == "            await gen.sleep(1)" and block.code[1] is None


def test_indented_text_is_code_only_after_a_blank_line_and_only_as_deep_as_code() -> None:
    assert _after("It takes two arguments:\n    the name\n    the value\n", "arguments:") is None
    text = "Configure it:\n\n    retries: 3\n\n  A paragraph indented by two.\n"
    block = _after(text, "Configure it:")
    assert block is not None and block.lines == ("retries: 3",)
    tabs = "Configure it:\n\n\tretries: 3\n\t\tdeeper: 1\n"
    block = _after(tabs, "Configure it:")
    assert block is not None and block.lines == ("retries: 3", "    deeper: 1")


def test_a_rule_is_no_list_and_an_empty_fence_no_example() -> None:
    assert _after("See the following:\n\n- - -\n\nNext.", "See the following:") is None
    assert _after("Run this:\n\n```bash\n", "Run this:") is None
    assert _after("Run this:\n\n```bash\n```\n", "Run this:") is None


def test_a_sentence_ending_in_no_stop_introduces_the_code_right_below_it() -> None:
    # Python-Markdown's docs: "… run it as" above its command was quoted as "… run it as."
    text = (
        "To use `markdown_py` from the command line, run it as\n\n"
        "``` shell\nmarkdown_py input_file.txt\n```\n\nor\n"
    )
    block = _after(text, "To use `markdown_py` from the command line, run it as")
    assert block is not None and block.lines == ("markdown_py input_file.txt",)
    # Not a list, nor an indented paragraph, nor after a sentence ending in a stop.
    assert _after("The options are\n\n- one\n- two\n", "The options are") is None
    assert _after("It was run as\n\n    an indented line\n", "It was run as") is None
    assert _after("It ran (fast)\n\n```\nx\n```\n", "It ran (fast)") is None


def test_an_items_bold_label_alone_on_its_line_ends_with_a_colon() -> None:
    text = (
        "Known differences are summarized below:\n\n"
        "* __Middle-Word Emphasis__\n\n    Python-Markdown ignores middle-word emphasis.\n\n"
        "* **Indentation** is four spaces\n  for every level.\n"
    )
    block = _after(text, "Known differences are summarized below:")
    assert block is not None and block.lines == (
        "__Middle-Word Emphasis__: Python-Markdown ignores middle-word emphasis.",
        "**Indentation** is four spaces for every level.",
    )


def test_a_label_ending_in_a_colon_gets_no_second_one_and_a_list_item_introduces_no_code() -> None:
    text = "Note the following:\n\n* **Note:**\n\n    be careful with it.\n"
    block = _after(text, "Note the following:")
    assert block is not None and block.lines == ("**Note:** be careful with it.",)
    listed = "Requirements:\n\n- A running Redis server version 6\n\n```\nredis-server\n```\n"
    assert _after(listed, "A running Redis server version 6") is None


def test_a_chunk_opening_inside_an_indented_paragraph_ends_its_example_where_it_ends() -> None:
    # aiohttp's client reference: a chunk opens six columns into `base_url`'s field, its
    # first line trimmed; the field list below the example had been shown as part of it.
    text = (
        "Note that URL joining follows RFC 3986. This means, in the most\n"
        "      common case the request URLs should have no leading slash, e.g.::\n\n"
        '        session = ClientSession(base_url="http://example.com/foo/")\n\n'
        "      .. versionadded:: 3.8\n\n"
        "   :param aiohttp.BaseConnector connector: BaseConnector\n"
        "      sub-class instance to support connection pooling.\n"
    )
    start, end = text.index("This means"), text.index("e.g.::") + len("e.g.::")
    block = introduced(text, start, end)
    assert block is not None
    assert block.lines == ('session = ClientSession(base_url="http://example.com/foo/")',)


def test_a_directive_after_a_list_ends_it_whole() -> None:
    text = (
        ".. option:: --dry\n\n"
        "    Echo commands instead; specifically, causes any ``run`` calls to:\n\n"
        "    - Act as if the ``echo`` option has been turned on;\n"
        "    - Skip actual subprocess invocation;\n"
        "    - Return a dummy result.\n\n.. option:: -D, --list-depth=INT\n\n    Limit depth.\n"
    )
    block = _after(text, "Echo commands instead; specifically, causes any ``run`` calls to:")
    assert block is not None and block.kind == "list" and block.complete
    assert block.lines == (
        "Act as if the ``echo`` option has been turned on;",
        "Skip actual subprocess invocation;",
        "Return a dummy result.",
    )


def test_a_tab_set_shows_its_first_tabs_code() -> None:
    # pip: "… like so:" over `.. tab:: Unix/macOS` and `.. tab:: Windows`, each with code
    rst = (
        "Pip is able to uninstall most packages like so:\n\n.. tab:: Unix/macOS\n\n"
        "   .. code-block:: shell\n\n      python -m pip uninstall SomePackage\n\n"
        ".. tab:: Windows\n\n   .. code-block:: shell\n\n      py -m pip uninstall SomePackage\n"
    )
    block = _after(rst, "Pip is able to uninstall most packages like so:")
    assert block is not None and block.kind == "code" and block.language == "shell"
    assert block.lines == ("python -m pip uninstall SomePackage",)
    myst = (
        "Install it like so:\n\n````{tab} Unix/macOS\n```shell\npython -m pip install x\n```\n"
        "````\n\n````{tab} Windows\n```shell\npy -m pip install x\n```\n````\n"
    )
    block = _after(myst, "Install it like so:")
    assert block is not None and block.lines == ("python -m pip install x",)
    prose = "Pick your platform:\n\n.. tab:: Linux\n\n   Use the package manager.\n"
    assert _after(prose, "Pick your platform:") is None
