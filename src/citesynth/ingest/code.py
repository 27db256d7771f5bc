"""Source code and config structure: definitions open sections, blank lines split blocks.

Python is read with `ast`, so classes, functions and methods (decorators included) open
sections exactly. Other languages use a definition pattern per language family; YAML keys
and TOML/INI tables open sections too. Every block is code: oversized ones split by line.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

from citesynth.ingest.blocks import Block, BlockKind, line_offsets, paragraphs

LANGUAGES: dict[str, str] = {
    "py": "python",
    "pyi": "python",
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "jsx": "javascript",
    "ts": "typescript",
    "tsx": "typescript",
    "mts": "typescript",
    "cts": "typescript",
    "go": "go",
    "rs": "rust",
    "java": "java",
    "kt": "kotlin",
    "kts": "kotlin",
    "scala": "scala",
    "cs": "csharp",
    "swift": "swift",
    "c": "c",
    "h": "c",
    "cc": "cpp",
    "cpp": "cpp",
    "cxx": "cpp",
    "hpp": "cpp",
    "hh": "cpp",
    "hxx": "cpp",
    "m": "objc",
    "rb": "ruby",
    "php": "php",
    "lua": "lua",
    "pl": "perl",
    "r": "r",
    "jl": "julia",
    "sql": "sql",
    "proto": "protobuf",
    "sh": "shell",
    "bash": "shell",
    "zsh": "shell",
    "fish": "shell",
    "ps1": "powershell",
    "yaml": "yaml",
    "yml": "yaml",
    "toml": "toml",
    "ini": "ini",
    "cfg": "ini",
    "json": "json",
    "css": "css",
    "scss": "css",
}
FILENAMES: dict[str, str] = {
    "Makefile": "make",
    "Dockerfile": "dockerfile",
    "Justfile": "make",
    "CMakeLists.txt": "cmake",
    "Containerfile": "dockerfile",
}


def language_of(path: str) -> str | None:
    """The language of the file at `path`, by its name or its suffix (None: neither known)."""
    name = PurePosixPath(path).name
    return FILENAMES.get(name) or LANGUAGES.get(PurePosixPath(name).suffix.lower().lstrip("."))


_C_FAMILY = (
    r"(?:(?:public|private|protected|internal|static|final|abstract|sealed|override|open|"
    r"data|export|default|async|pub(?:\([^)]*\))?|inline|virtual|extern|const|unsafe)\s+)*"
)
_DEFINITIONS: dict[str, re.Pattern[str]] = {
    "javascript": re.compile(
        r"^(?P<indent>\s*)(?:export\s+(?:default\s+)?)?(?:async\s+)?(?:function\*?\s*\w+|class\s+\w+"
        r"|(?:const|let)\s+\w+\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>)"
    ),
    "typescript": re.compile(
        r"^(?P<indent>\s*)(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
        r"(?:function\*?\s*\w+|class\s+\w+|interface\s+\w+|type\s+\w+\s*=|enum\s+\w+"
        r"|(?:const|let)\s+\w+\s*(?::[^=]+)?=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>)"
    ),
    "go": re.compile(r"^(?P<indent>)(?:func\s|type\s+\w+\s+(?:struct|interface)\b)"),
    "rust": re.compile(
        rf"^(?P<indent>\s*){_C_FAMILY}(?:fn|struct|enum|trait|impl|mod|macro_rules!)\b"
    ),
    "java": re.compile(
        rf"^(?P<indent>\s*){_C_FAMILY}(?:class|interface|enum|record|@interface)\s+\w+"
        r"|^(?P<mindent>\s+)(?:public|private|protected)\s[^=;]*\w+\s*\([^;]*$"
    ),
    "c": re.compile(
        r"^(?P<indent>)(?:(?:struct|union|enum|class|namespace|template)\b[^;]*$"
        r"|[A-Za-z_][\w\s\*&:<>,]*?[\s\*&]\**(?:\w+::)*~?\w+\s*\([^;]*$)"
    ),
    "shell": re.compile(r"^(?P<indent>\s*)(?:function\s+[\w-]+|[\w-]+\s*\(\)\s*\{?)"),
    "ruby": re.compile(r"^(?P<indent>\s*)(?:def|class|module)\s"),
    "php": re.compile(rf"^(?P<indent>\s*){_C_FAMILY}(?:function|class|interface|trait)\s+\w+"),
    "yaml": re.compile(r"""^(?P<indent>)(?:[A-Za-z_$"'][^:#\n]*):(?:\s|$)"""),
    "toml": re.compile(r"^(?P<indent>)\[\[?[^\]]+\]\]?\s*(?:#.*)?$"),
    "make": re.compile(r"^(?P<indent>)[\w./%-]+\s*:(?!=)"),
}
for _alias, _family in {
    "kotlin": "java",
    "scala": "java",
    "csharp": "java",
    "swift": "rust",
    "cpp": "c",
    "objc": "c",
    "ini": "toml",
    "lua": "ruby",
    "perl": "ruby",
    "julia": "ruby",
    "r": "ruby",
}.items():
    _DEFINITIONS[_alias] = _DEFINITIONS[_family]

Opener = tuple[int, int, str]
"""A section opener: (0-based line, level, heading)."""


def code_blocks(text: str, language: str) -> list[Block]:
    """Split a source or config file into code blocks; definitions open sections."""
    openers = _python_openers(text) if language == "python" else None
    if openers is None:
        pattern = _DEFINITIONS.get(language)
        openers = _pattern_openers(text, pattern) if pattern is not None else []
    return _sectioned(text, openers)


def _python_openers(text: str) -> list[Opener] | None:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    openers: list[Opener] = []

    def visit(body: list[ast.stmt], level: int) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                keyword = "class" if isinstance(node, ast.ClassDef) else "def"
                openers.append((first - 1, level, f"{keyword} {node.name}"))
                if isinstance(node, ast.ClassDef) and level < 3:
                    visit(node.body, level + 1)

    visit(tree.body, 1)
    return openers


def _pattern_openers(text: str, pattern: re.Pattern[str]) -> list[Opener]:
    openers: list[Opener] = []
    for number, line in enumerate(text.split("\n")):
        match = pattern.match(line)
        if match is None:
            continue
        indent = match.groupdict().get("indent") or match.groupdict().get("mindent") or ""
        heading = line.strip().rstrip("{:").strip()
        openers.append((number, 1 if not indent else 2, heading[:80]))
    return openers


def _sectioned(text: str, openers: list[Opener]) -> list[Block]:
    """Blocks for each region between section openers; a region's first block opens it."""
    offsets = line_offsets(text)
    last = len(offsets) - 1
    starts = sorted({min(line, last) for line, _, _ in openers} | {0})
    by_line = {min(line, last): (level, heading) for line, level, heading in openers}
    blocks: list[Block] = []
    for position, line in enumerate(starts):
        stop = starts[position + 1] if position + 1 < len(starts) else last
        region = paragraphs(text, offsets[line], offsets[stop])
        opener = by_line.get(line)
        for number, block in enumerate(region):
            if number == 0 and opener is not None:
                level, heading = opener
                blocks.append(Block(block.start, block.end, BlockKind.CODE, heading, level))
            else:
                blocks.append(Block(block.start, block.end, BlockKind.CODE))
    return blocks
