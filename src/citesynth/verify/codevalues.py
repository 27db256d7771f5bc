"""Code a claim writes that its source writes otherwise: `err=True` for `err=False`, `++` for `--`.

    differing_code("Pass `err=False` to write to standard error.", [source])
    → (("err=False", "err=True"),)

Documentation answers name settings the way the code does. A claim giving a setting another
value than its source gives it ("`required=False` makes an option required"), or an
operator its source never writes ("the `++` marker separates options from arguments"),
changes one detail the models read past: the words around it are the source's, and a
cross-encoder sees `False` and `True`, `--` and `++`, as nearly the same token.

- **A setting** (`name=value` anywhere in the claim; `name: value` inside its inline code,
  as YAML writes it) differs when the passages set that name, none of them to the claim's
  value, and the value is not written within a few words after any mention of the name
  ("set `enabled` to `false`" states `enabled: false`).
- **An operator** (inline code of punctuation only, two characters or more: `--`, `->`,
  `**`) differs when the passages never write it.
- **A parameter the passages only pass as a value**: a claim calling `name` a parameter or
  an argument ("pass a dictionary to the `convention` parameter") when the passages write
  `name` as what another keyword is given (`MetaData(naming_convention=convention)`, the
  variable holding the dictionary) and never as a parameter: no `name=` inside a call or a
  signature, no `name` between a call's parentheses on its own, no parameter, argument or
  keyword said beside it (Alembic's docs, 2026-11-29).
- **Code the passages deny**: inline code of a claim that negates nothing ("you can use
  the `cancel()` method on the task group") differs when the passages write it, and
  every time right after "no", "not a" or "without" ("there is no ``cancel()`` method or
  similar in the task group", AnyIO's docs, 2026-11-29).
- **A default given otherwise**: code a claim that negates nothing calls the default ("the
  default branch … is `REMOTE-BRANCH`") where the passages' sentence on that default gives
  other code ("By default, ``towncrier`` compares the current branch against
  ``origin/main``"; `defaults.other_default`).

Values compare as the code means them: quotes and the case of `True`, `None` and YAML's
`true` do not matter, numbers compare as numbers, a dotted name by its last part.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from citesynth.analysis import SINGLE_CODE
from citesynth.verify.defaults import other_default, other_default_number

_VALUE = r"('[^'\n]*'|\"[^\"\n]*\"|[-+]?\d[\w.]*|[A-Za-z_][\w.]*)"
_ASSIGNED = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\s*=\s*(?!=)" + _VALUE)
_KEYED = re.compile(r"(?<![\w.-])([A-Za-z_][\w-]*):[ \t]+" + _VALUE)
"""YAML's `name: value`, the value on the name's line (a nested block is no value)."""
_OPERATOR = re.compile(r"[^\w\s`]{2,4}")
_NEAR = 80
"""Characters after a mention of a name in which its value may be written in words."""


def _value(raw: str) -> str:
    """One form for what a value means (see the module docstring)."""
    text = raw.strip().strip("'\"").rstrip(".,;:")
    try:
        return repr(float(text))
    except ValueError:
        pass
    last = text.rsplit(".", 1)[-1]
    return last.lower() if last.lower() in {"true", "false", "none", "null"} else last


def _settings(text: str, keyed: bool) -> Iterator[tuple[str, str, str]]:
    """(name, value, as written) of each `name=value`; with `keyed`, each `name: value` too."""
    for pattern in (_ASSIGNED, _KEYED) if keyed else (_ASSIGNED,):
        for match in pattern.finditer(text):
            yield match.group(1).lower(), _value(match.group(2)), match.group(0)


@lru_cache(maxsize=256)
def _source_settings(source: str) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for name, value, written in _settings(source, keyed=True):
        found.setdefault(name, {}).setdefault(value, written)
    return found


@lru_cache(maxsize=256)
def _written_near(name: str, source: str) -> frozenset[str]:
    """The values written within `_NEAR` characters after any mention of `name`.

    Read once per name and source: a claim setting one name many times costs one pass.
    """
    found: set[str] = set()
    for mention in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", source, re.IGNORECASE):
        after = source[mention.end() : mention.end() + _NEAR]
        found.update(_value(word) for word in re.findall(r"[-+]?[\w.]+", after))
    return frozenset(found)


def sets_otherwise(claim: str, sentence: str) -> bool:
    """Whether `sentence` sets a name the claim sets (`name=value`), never to the claim's value.

    Such a sentence speaks of another case: urllib3's "When using ``preload_content=True``
    (the default setting) … the HTTP connection will be released back into the pool without
    manual intervention" is not about "After streaming a response with
    `preload_content=False` …, you can manually release the HTTP connection", and its
    negation says nothing against it (`align._negation_differs`).
    """
    mine = _assigned(claim)  # read once per claim, however many sentences it is held to
    if not mine:
        return False
    theirs = _assigned(sentence)
    return any(name in theirs and not values & theirs[name] for name, values in mine.items())


@lru_cache(maxsize=256)
def _assigned(text: str) -> dict[str, frozenset[str]]:
    """The values `text` gives each name it sets (`name=value`)."""
    found: dict[str, set[str]] = {}
    for name, value, _ in _settings(text, keyed=False):
        found.setdefault(name, set()).add(value)
    return {name: frozenset(values) for name, values in found.items()}


def differing_code(
    claim: str, passages: Sequence[str], *, negated: bool
) -> tuple[tuple[str, str], ...]:
    """(the claim's code, the source's) for each setting or operator written otherwise.

    The source's side is empty for an operator the passages never write. `negated`: whether
    the claim negates anything (`negation.negation_cues`); code the passages deny is checked
    only in a claim that does not.
    """
    source = "\n".join(passages)
    theirs = _source_settings(source)
    found: dict[str, str] = {}
    spans = [(m.group(1), True) for m in SINGLE_CODE.finditer(claim)]
    for text, keyed in [(claim, False), *spans]:
        for name, value, written in _settings(text, keyed):
            values = theirs.get(name)
            if values and value not in values and value not in _written_near(name, source):
                found.setdefault(written, next(iter(values.values())))
    called = dict.fromkeys(
        name
        for m in _CALLED_PARAMETER.finditer(claim)
        if (name := m.group(2) or m.group(4)).lower() not in _PARAMETER_WORDS
        and (m.group(1) or m.group(3) or name.lower() not in _PLAIN_WORDS)
    )
    for name in list(called)[:_MAX_CALLED]:
        if given_to := _passed_as_value(name, source):
            found.setdefault(f"`{name}` parameter", given_to)
    operators = dict.fromkeys(m.group(1).strip() for m in SINGLE_CODE.finditer(claim))
    for operator in operators:
        if _OPERATOR.fullmatch(operator) and operator not in source:
            found.setdefault(operator, "")
    if not negated:
        if other := other_default(claim, passages) or other_default_number(claim, passages):
            found.setdefault(*other)
        denials = _denials(source)
        for code in operators:
            if denial := denials.get(code, ""):
                found.setdefault(code, denial)
    return tuple(found.items())


_PARAMETER_WORD = r"(?:parameters?|arguments?|keywords?(?:\s+arguments?)?|kwargs?)"
_CALLED_PARAMETER = re.compile(
    rf"\b{_PARAMETER_WORD}\s+(`{{0,2}})([A-Za-z_]\w*)\1(?![`\w])"
    rf"|(?<![`\w.])(`{{0,2}})([A-Za-z_]\w*)\3\s+{_PARAMETER_WORD}\b",
    re.I,
)
"""A name the claim calls a parameter: "the `convention` parameter", "argument `path`", "the
exclude parameter" (a plain word is read too: the passages must write it as code to count)."""
_PARAMETER_WORDS = frozenset("parameter argument keyword kwarg positional optional".split())
"""Words the pattern may take for a name ("keyword arguments"): none is one."""
_PLAIN_WORDS = frozenset(
    """default first second third last same new extra additional other required named
    single only one two type function method callable string value the a an this that its
    their each every any""".split()
)
"""Words that say which parameter in prose ("the default argument", "the first
parameter"); written without backticks they name none."""
_MAX_CALLED = 8
"""Names a claim calls parameters that are read (each reads the source once)."""
_AS_VALUE = re.compile(r"([A-Za-z_]\w*)[ \t]*=[ \t]*$")
"""What comes right before a name given to a keyword: `naming_convention=`."""
_IN_CALL = re.compile(r"[(,][ \t]*$")
_PARAMETER_NEAR = re.compile(rf"\b{_PARAMETER_WORD}\b|:param\b", re.I)
_AROUND = 30
"""Characters either side of a mention in which a parameter word makes it one."""


@lru_cache(maxsize=256)
def _passed_as_value(name: str, source: str) -> str:
    """How the source passes `name` to another keyword (`k=name`), when it is never a parameter.

    "" when it writes `name` as a parameter anywhere (see the module docstring), or never
    as a keyword's value.
    """
    given = ""
    for mention in re.finditer(rf"(?<![\w.]){re.escape(name)}(?!\w)", source):
        before = source[max(0, mention.start() - _AROUND) : mention.start()]
        after = source[mention.end() : mention.end() + _AROUND]
        # Opening its line (`convention = {…}`) it is a variable; a deeper indent than the
        # window reads as inside a call, which vetoes nothing.
        opens_line = not before.rsplit("\n", 1)[-1].strip() and (
            "\n" in before or mention.start() <= _AROUND
        )
        if (re.match(r"[ \t]*=(?!=)", after) and not opens_line) or _PARAMETER_NEAR.search(
            before + " " + after
        ):
            return ""  # a keyword (`f(name=1)`) or said to be a parameter
        if _IN_CALL.search(before) and re.match(r"[ \t]*[,):]", after):
            return ""  # between a call's or a signature's parentheses on its own
        if not given and (keyword := _AS_VALUE.search(before)) and keyword.group(1) != name:
            given = f"{keyword.group(1)}={name}"
    return given


_DENYING = re.compile(r"\b(?:no|not\s+an?|without)\s+$", re.I)


_MENTION = re.compile(r"(?<!`)(`{1,2})([^`\n]+?)\1(?!`)")
"""Code as a source writes it, in one or two backticks (reStructuredText's ``x``)."""


@lru_cache(maxsize=256)
def _denials(source: str) -> dict[str, str]:
    """Per code the source writes, how it denies it ("no ``cancel()``"), or "".

    "" when it does not always: each mention right after a denying word, never otherwise
    even once. Read once per source: a claim naming thousands of pieces of code costs one pass.
    """
    found: dict[str, str] = {}
    for mention in _MENTION.finditer(source):
        code = mention.group(2)
        before = _DENYING.search(source[max(0, mention.start() - 12) : mention.start()])
        if before is None:
            found[code] = ""
        else:
            found.setdefault(code, before.group().strip() + " " + mention.group())
    return found
