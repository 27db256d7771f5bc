"""A PDF page's running headers and footers and its numbered headings (`pdf_layout`)."""

from __future__ import annotations

import pypdfium2

from citesynth.ingest.chunking import split
from citesynth.ingest.loaders import load_pdf
from citesynth.ingest.pdf import by_code, cleaned, named_by_code, read_pdf
from citesynth.ingest.pdf_layout import laid_out, numbered_heading, running
from citesynth.ingest.sentences import prose_sentences
from tests.ingest.test_bad_input import reportlab_pdf

BODY = "Vectors can be used in arithmetic expressions, element by element."


def _manual_pages() -> list[list[str]]:
    """Six pages of a manual laid out as R's are: front matter numbered i and ii, then a
    header naming the chapter and ending with the page number, a chapter's first page
    numbered alone at its top."""
    return [
        ["i", "Table of Contents", "1 Introduction . . . . . . . . . . 1"],
        ["ii", "Preface", "This manual describes the language."],
        ["1", "1 Introduction", BODY, "1.1 The environment", "It is an integrated suite."],
        ["Chapter 1: Introduction 2", "The construction 30:1 counts down.", BODY],
        ["Chapter 1: Introduction 3", BODY, "2.2 Vector arithmetic", "Shorter vectors recycle."],
        ["4", "2 Simple manipulations", BODY],
    ]


def test_running_headers_and_page_numbers_are_dropped_and_the_rest_kept() -> None:
    pages = _manual_pages()
    dropped = running(pages)
    assert [sorted(lines) for lines in dropped] == [[0], [0], [0], [0], [0], [0]]
    texts = [page.text for page in laid_out(["\n".join(lines) for lines in pages])]
    assert texts[3] == "The construction 30:1 counts down.\n" + BODY
    assert all("Chapter 1" not in text for text in texts)


def test_lines_differing_in_other_numbers_or_numbered_headings_on_pages_in_a_row_stay() -> None:
    numbered = [[f"Page {p} line 1 talks about topic {p}1.", f"{BODY} ({p})"] for p in range(4)]
    assert running(numbered) == [set(), set(), set(), set()]
    titles = {3: "Results", 4: "Discussion", 5: "Conclusions"}
    sections = [
        [f"{n} {title}", BODY, f"Figure {n} shows the trend."] for n, title in titles.items()
    ]
    assert running(sections) == [set(), set(), set()]
    # a footer whose text repeats stays dropped whatever its number
    footed = [[f"{BODY} ({n})", f"Confidential draft {n}"] for n in (7, 9, 2)]
    assert running(footed) == [{1}, {1}, {1}]


def test_numbered_headings_are_told_from_wrapped_lines_lists_and_contents() -> None:
    lines = [
        "are discarded.",
        "6.3 Data frames",
        "A data frame is a list with class data.frame, the mean of all",
        "2 Groups are compared below.",
        "Import/Export manual.",
        "1. Precision",
        "Numbers are written with seven digits.",
        "7.31 Why doesn't R think these numbers are equal?",
        "The only numbers that can be represented exactly are integers.",
        "2.3 Generating regular sequences . . . . . . . . 9",
        "A.1 Installation",
        "lower-case text follows.",
    ]
    assert [numbered_heading(lines, index) for index in range(len(lines))] == [
        0, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0,
    ]  # fmt: skip


def test_a_pdf_manual_reads_without_headers_and_with_sections() -> None:
    (parsed,) = load_pdf("manual.pdf", reportlab_pdf(_manual_pages())).parsed
    text = parsed.document.text
    assert "Chapter 1: Introduction" not in text
    chunks = split(parsed, target_tokens=40, overlap_tokens=0)
    by_text = {chunk.text: chunk for chunk in chunks}
    arithmetic = next(chunk for chunk in chunks if "Shorter vectors" in chunk.text)
    assert arithmetic.heading_path[-1] == "2.2 Vector arithmetic"
    assert arithmetic.page == 5
    environment = next(chunk for text, chunk in by_text.items() if "integrated suite" in text)
    assert environment.heading_path == ("1 Introduction", "1.1 The environment")
    # no sentence opens with a heading or a page's header
    sentences = [text[a:b] for a, b in prose_sentences(text)]
    assert BODY in sentences
    assert "1.1 The environment" not in sentences  # a heading alone in its paragraph
    assert not any(
        s.startswith(("2.2 ", "1.1 ", "Chapter", "The construction 30:1 counts down. Vec"))
        for s in sentences
    )


def test_a_chapter_above_its_first_section_opens_and_a_missed_chapter_closes_the_last() -> None:
    pages = [
        [
            "3 R and S",
            "3.1 What is S?",
            "S is a very high level language.",
            "4 R Web Interfaces",
            "See the task view.",
        ],
        ["Please refer to CRAN.", "7.31 Why are these numbers not equal?", "Floats."],
    ]
    laid = laid_out(["\n".join(lines) for lines in pages])
    found = [(page.text[h.start : h.end], h.level) for page in laid for h in page.headings]
    assert found == [
        ("3 R and S", 1),
        ("3.1 What is S?", 2),
        ("4 R Web Interfaces", 1),
        ("7.31 Why are these numbers not equal?", 1),  # not under chapter 4
    ]


def test_a_label_ending_pages_far_apart_is_no_footer() -> None:
    # gnuplot's "Example:" ends pages 173 and 175 and one far off: no run of three
    pages = [[f"Body of page {n} goes here.", "Example:" if n in (3, 20, 22) else f"End {n}."]
    for n in range(30)]  # fmt: skip
    assert all(not lines for lines in running(pages))


def test_a_table_of_contents_without_dot_leaders_has_no_headings() -> None:
    lines = [
        "3.2 Strata . . . . . . . . . . 74",
        "4 Accelerated Failure Time models 75",
        "4.1 Usage . . . . . . . . . . 75",
    ]
    assert [numbered_heading(lines, index) for index in range(3)] == [0, 0, 0]
    assert numbered_heading(["Done.", "4 NA NA NA NA", "Then"], 1) == 0  # a row of data


def test_a_latex_fonts_own_codes_are_written_out_in_running_text() -> None:
    raw = "The coe\x1ecients di\x1ber, SAS \x10type 3\x11 tests, 2.1 \x15 2.44; |x| \x1c 1\n\x15\n"
    assert cleaned("pens are:\n\x88 The pens of") == "pens are:\n\u2022 The pens of"
    assert cleaned(raw) == (
        "The coefficients differ, SAS \u201ctype 3\u201d tests, 2.1 \u2013 2.44; |x| \x1c 1\n\x15\n"
    )


def test_a_sentence_run_into_the_footer_stays() -> None:
    footer = "GNU Bash 5.2 2022 September 19"
    merged = "When rotating the directory stack, pushd returns 0 unless the stack is a non"
    pages = [[f"Text of page {n}.", f"{merged}{footer} {n}" if n == 5 else f"{footer} {n}"]
    for n in range(1, 9)]  # fmt: skip
    dropped = running(pages)
    assert dropped[4] == set() and all(lines == {1} for i, lines in enumerate(dropped) if i != 4)


def test_a_chapter_set_on_two_lines_is_one_heading_over_its_sections() -> None:
    pages = [["Chapter 4", "Accelerated Failure Time models", "4.1 Usage", "The survreg function."]]
    (page,) = laid_out(["\n".join(lines) for lines in pages])
    found = [(" ".join(page.text[h.start : h.end].split()), h.level) for h in page.headings]
    assert found == [("Chapter 4 Accelerated Failure Time models", 1), ("4.1 Usage", 2)]


def test_a_heading_after_a_console_line_is_a_heading() -> None:
    lines = ["> evals <- eigen(Sm, only.values = TRUE)$values", "5.7.4 Singular values", "Then."]
    assert numbered_heading(lines, 1) == 3


def _headings(*pages: list[str]) -> list[tuple[str, int]]:
    laid = laid_out(["\n".join(lines) for lines in pages])
    return [(" ".join(p.text[h.start : h.end].split()), h.level) for p in laid for h in p.headings]


def test_a_papers_headings_in_its_own_styles_open_sections() -> None:
    # ACM's: capitals after the keywords (no stop), after a LaTeX line; an appendix's letter
    acm = [
        "Keywords: datasets, neural networks",
        "1 INTRODUCTION",
        "ACM's consolidated article template is in use.",
        "\\documentclass[sigconf]{acmart}",
        "2 MODIFICATIONS",
        "Modifying the template is not allowed.",
        "2.1 The “Teaser Figure”",
        "A teaser figure is an image.",
        "3 CCS CONCEPTS AND USER-DEFINED",
        "KEYWORDS",
        "Two elements of the class are required.",
        "ACKNOWLEDGMENTS",
        "To Robert, for the bagels.",
        "REFERENCES",
        "[1] Rafal Ablamowicz. 2007. Clifford algebra.",
        "A RESEARCH METHODS",
        "A.1 Part One",
        "Lorem ipsum dolor sit amet.",
    ]
    assert _headings(acm) == [
        ("1 INTRODUCTION", 1),
        ("2 MODIFICATIONS", 1),
        ("2.1 The “Teaser Figure”", 2),
        ("3 CCS CONCEPTS AND USER-DEFINED KEYWORDS", 1),
        ("ACKNOWLEDGMENTS", 1),
        ("REFERENCES", 1),
        ("A RESEARCH METHODS", 1),
        ("A.1 Part One", 2),
    ]
    # Elsevier's numbers with a stop, under a sidebar line; JACoW's in capitals on two lines
    elsevier = ["I Final print", "1. Introduction", "elsarticle.cls is a re-written class."]
    elsevier += ["5.1. New page", "Text.", "6. Floats", "Figures may be included."]
    jacow = ["the rest of the paper.", "CHECKLIST FOR ELECTRONIC", "PUBLICATION", "Authors go."]
    jacow += ["REFERENCES", "[1] JACoW, http://www.jacow.org"]
    assert _headings(elsevier, jacow) == [
        ("1. Introduction", 1),
        ("5.1. New page", 1),  # not under "1."
        ("6. Floats", 1),
        ("CHECKLIST FOR ELECTRONIC PUBLICATION", 1),
        ("REFERENCES", 1),
    ]
    # one heading in capitals alone would head every page after it: gnuplot's "AUTHORS"
    gnuplot = ["This software is provided as is.", "AUTHORS", "Original Software:", "Intro"]
    assert _headings(gnuplot, ["Gnuplot is a portable program.", "More text."]) == []


def test_a_journals_headings_written_with_stops_open_sections() -> None:
    # JSS's style (lme4's, zoo's and sandwich's papers): every number written with a stop
    page_five = [
        "1. Introduction",
        "Mixed models are fitted.",
        "1.1. Linear mixed models",
        "Just as a linear model is described.",
        "> mkMerMod(rho = environment(devianceFunction),",
        "fr = parsedFormula$fr)",
        "2. Formula module",  # the page's last line: the next page's first is read below it
    ]
    page_six = [
        "2.1. Mixed-model formulas",
        "Like most model-fitting functions, lmer takes a formula.",
        "2.2. Extracting and replacing the data and the index",
        "zoo provides several generic functions and methods to work on the data.",
        "2.3. Algebraic and computational account of mixed-model formulas in the presence of",
        "heteroskedasticity and autocorrelation",
        "The fixed-effects terms are described.",
        "block-diagonal consisting of blocks each of size p.",
        "3 Note that this means that when",  # a footnote: numbers here are written with stops
        "2Note that the original definition is more general.",
        "3. Conclusion",
        "We have described the package.",
        "A. Modularization examples",
        "The modularized functions allow for finer control.",
        "A.1. Zero slope-slope covariance models",
        "Consider the following mixed-model formula,",
    ]
    assert _headings(page_five, page_six) == [
        ("1. Introduction", 1),
        ("1.1. Linear mixed models", 2),
        ("2. Formula module", 1),
        ("2.1. Mixed-model formulas", 2),
        ("2.2. Extracting and replacing the data and the index", 2),
        (
            "2.3. Algebraic and computational account of mixed-model formulas in the presence"
            " of heteroskedasticity and autocorrelation",
            2,
        ),
        ("3. Conclusion", 1),
        ("A. Modularization examples", 1),
        ("A.1. Zero slope-slope covariance models", 2),
    ]


def test_a_journals_abstract_and_references_set_as_titles_are_headings() -> None:
    first = [
        "Econometric Computing with HC and HAC",
        "Covariance Matrix Estimators",
        "Achim Zeileis",
        "Universität Innsbruck",
        "Abstract",  # under the title block, which ends no sentence
        "Data described by econometric models typically contains autocorrelation.",
        "1. Introduction",
        "This paper combines two strands.",
    ]
    last = ["is available from CRAN.", "References", "Andrews DWK (1991). Heteroskedasticity."]
    contents = ["11.2 Custom commands . . . . . 34", "Acknowledgements", "A Journal appendix"]
    labels = ["The functions are", "Examples", "See the manual."]  # a label, not a heading
    assert _headings(first, last, contents + labels) == [
        ("Abstract", 1),
        ("1. Introduction", 1),
        ("References", 1),
    ]


def test_mixed_outlines_initials_and_a_page_ending_in_blank_lines() -> None:
    # chapters with a stop, sections without (a common LaTeX style): both are headings
    mixed = ["1. Introduction", "Text here.", "1.1 Background", "More text.", "2. Methods"]
    assert _headings([*mixed, "Text."]) == [
        ("1. Introduction", 1),
        ("1.1 Background", 2),
    ]  # "2. Methods" after "1.1" may be a list's item, as it was
    assert numbered_heading(["3 Note that this means", "2Note the original."], 0) == 0
    assert numbered_heading(["Text.", "1.1 Background", "More text."], 1) == 2  # no outline
    # an initial opening a line is no appendix
    initial = ["1. Introduction", "Text.", "2. Methods", "We fit it."]
    initial += ["A. Zeileis and colleagues later extended it to panel data in R"]
    initial += ["Then more.", "2.1. Estimation"]
    assert _headings([*initial, "Text."])[-1] == ("2.1. Estimation", 2)
    # a heading at a page's foot, blank lines after it
    assert _headings(["1. Intro", "Text.", "2. Formula module", ""], ["2.1. Formulas", "T."]) == [
        ("1. Intro", 1),
        ("2. Formula module", 1),
        ("2.1. Formulas", 2),
    ]


def test_list_items_terms_and_table_rows_are_no_headings() -> None:
    nrc = [
        "1 Basic coding",
        "All documents must include these three commands.",
        "2. Between the first two commands comes the material",
        "known as the preamble.",
    ]
    r_data = ["1.3 Export to text files", "Issues arise.", "2. Header line", "R prefers it."]
    bash = ["It is the shell's process.", "BASHPID", "Expands to the process ID."]
    table = ["Rank State Rate.", "7 Nevada 12.2", "8 Florida 15.4", "9 Texas 16.0"]
    assert _headings(nrc, r_data, bash, table) == [
        ("1 Basic coding", 1),
        ("1.3 Export to text files", 2),
    ]


def test_an_accent_set_apart_from_its_letter_is_put_on_it() -> None:
    assert cleaned("R\u00b4esum\u00b4es by Fran\u00b8cois, universit\u00a8at") == (
        "R\u00e9sum\u00e9s by Fran\u00e7ois, universit\u00e4t"
    )
    assert (
        cleaned("reads \u02dc/.bashrc; matrix A\u00a8 stays")
        == "reads ~/.bashrc; matrix A\u00a8 stays"
    )


def test_a_box_repeated_beside_the_text_of_every_page_is_left_out() -> None:
    box = ["Version: 3.3", "Contact: elsarticle@stmdocs.in", "Elsevier Ltd", "QUICK LINKS"]
    box += ["I Final print"]
    pages = [
        [f"Body {n} starts here.", *box, f"Body {n} goes on.", "Note:", f"It ends {n} times."]
        for n in range(1, 5)
    ]
    dropped = running(pages)
    assert dropped == [{1, 2, 3, 4, 5}] * 4  # "Note:" on every page, alone, stays
    # lines repeated on every page but not in one order are no box: a table's cells
    features = ["Streaming", "Retries", "Proxies", "Caching", "Cookies", "Hooks", "Auth"]
    cells = [[f"Table {n} compares the clients."] for n in range(4)]
    for n, page in enumerate(cells):
        for name in features[n : n + 3]:
            page += [name, "Yes", "No", "Yes"]
        page.append(f"The matrix goes on over page {n}.")
    assert running(cells) == [set()] * 4
    laid = laid_out(["\n".join(lines) for lines in pages])
    assert laid[0].text == "Body 1 starts here.\nBody 1 goes on.\nNote:\nIt ends 1 times."


def test_a_heading_in_capitals_is_no_sentence_to_quote() -> None:
    lines = ["Cite them so, as the list shows here.", "UNPUBLISHED PAPER PRESENTED AT A"]
    lines += ["PREVIOUS CONFERENCE", "Complete Form: the authors and the title go first."]
    lines += ["8 CCS CONCEPTS AND USER-DEFINED", "KEYWORDS", "Two elements of the class are used."]
    lines += ["REFERENCES", "[1] A. Alpha, “Title”, in Proc. IPAC’19, pp. 1–4."]
    (page,) = laid_out(["\n".join(lines)])
    sentences = [page.text[a:b] for a, b in prose_sentences(page.text, min_words=1)]
    assert not any(s.isupper() or s.startswith("8 ") for s in sentences), sentences
    assert "Two elements of the class are used." in sentences


def test_what_reads_as_a_heading_only_by_its_number_is_none() -> None:
    versions = ["1 Overview", "This document lists the changes.", "2 Changes in Python 3.12"]
    versions += ["Several modules were removed.", "3 Upgrading from 3.11", "Read on."]
    wrapped = ["4 Results", "We compare the fits with those of Table", "5 The results of both"]
    wrapped += ["are close for all of the models we fitted, and", "R and S agree on them."]
    license_ = ["6 License", "ARE DISCLAIMED. IN NO EVENT SHALL MERCHANTABILITY AND FITNESS FOR"]
    license_ += ["A PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE", "HOLDER BE LIABLE."]
    assert _headings(versions, wrapped, license_) == [
        ("1 Overview", 1),
        ("2 Changes in Python 3.12", 1),
        ("3 Upgrading from 3.11", 1),
        ("4 Results", 1),
        ("6 License", 1),
    ]
    # a paper's title opening with "A" is no appendix, and its sections still follow
    paper = ["A NOVEL METHOD FOR IMAGE SEGMENTATION", "Jane Doe", "1. Introduction", "Images."]
    assert _headings(paper) == [("1. Introduction", 1)]


def test_an_apostrophe_typed_as_an_acute_accent_stays() -> None:
    assert cleaned("it\u00b4s the user\u00b4s guide by O\u00b4Reilly") == (
        "it\u00b4s the user\u00b4s guide by O\u00b4Reilly"
    )
    assert cleaned("na\u00a8\u0131ve") == "na\u00efve"  # LaTeX's na\"{\i}ve


def test_a_table_of_contents_without_page_numbers_is_set_apart_and_no_prose() -> None:
    contents = ["Key words: editorials, notices", "CONTENTS", "1 Introduction"]
    contents += ["2 Obtaining and installing the package", "3 Preparing a paper", "4 Options"]
    contents += ["Acknowledgements", "Contact e-mail: mn@ras.ac.uk", "1 INTRODUCTION"]
    contents += ["The journal encourages authors to prepare papers so."]
    (page,) = laid_out(["\n".join(contents)])
    sentences = [page.text[a:b] for a, b in prose_sentences(page.text, min_words=1)]
    assert not any("Preparing a paper" in s for s in sentences), sentences
    assert "The journal encourages authors to prepare papers so." in sentences
    assert "\n\n1 Introduction\n2 Obtaining" in page.text  # the contents as a block
    assert [page.text[h.start : h.end] for h in page.headings] == ["1 INTRODUCTION"]


def test_letters_read_as_dingbats_are_read_by_the_codes_their_glyphs_are_named_by() -> None:
    # lme4's "PLSvGLS" vignette: TeX's bitmap fonts name each glyph by its code ("a101"),
    # which the glyph list maps to dingbats: "P❡♥❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s …"
    source = (
        b"1 Definition of the model\n"
        b"We consider linear mixed models in which the random effects are represented by a "
        b"q-dimensional random vector, B. We assume a \x10spherical\x11 distribution, \x1ctted "
        b"on October 31, 2022."
    )
    data = named_by_code(source.replace(b"\n", b" "))
    raw = pypdfium2.PdfDocument(data)[0].get_textpage().get_text_range()
    assert "❡" in raw and "efinition" not in raw  # what PDFium reads
    (page,) = read_pdf(data).pages
    assert page == (
        "1 Definition of the model We consider linear mixed models in which the random effects "
        "are represented by a q-dimensional random vector, B. We assume a “spherical” "
        "distribution, fitted on October 31, 2022."
    )
    # dingbats used as dingbats stay: marks, ratings, a plot's points, suits, an answer sheet
    for kept in (
        "Done ✔ and ❡ marks a paragraph.",
        "✓ " * 30 + "ticked items in a long list " * 3,
        "SSO ✓ ✓ ✗ ✓ " * 20,
        "問1 ① ② ③ ④ " * 20,
        "p → q, q → r " * 30,
        "♠ A K 7 ♥ Q J 10 " * 20,
        "Speed ★★★★★ " * 30,
        "G ●● ● ●●● " * 30,
    ):
        assert by_code(kept) == kept, kept[:12]
    # a glyph named by a line break's code is no line break
    assert "\n" not in by_code("❧❡❛st sq✉❛r❡s ✡ ✠ ✌ " * 20)


def test_a_title_broken_by_a_hyphen_runs_on_and_is_made_whole() -> None:
    page = [
        "1 Definition of the model",
        "We consider linear mixed models.",
        "2 The penalized least squares approach to lin-",
        "ear mixed models",
        "We describe the penalized least squares approach here.",
        "3 First- versus second-order effects",
        "Both are shown.",
    ]
    assert _headings(page) == [
        ("1 Definition of the model", 1),
        ("2 The penalized least squares approach to lin- ear mixed models", 1),
        ("3 First- versus second-order effects", 1),
    ]
    loaded = load_pdf("plsvgls.pdf", reportlab_pdf([page]))
    (parsed,) = loaded.parsed
    assert [block.heading for block in parsed.blocks if block.heading] == [
        "1 Definition of the model",
        "2 The penalized least squares approach to linear mixed models",
        "3 First- versus second-order effects",  # a hyphen on its line stays
    ]
    # nor is the title on its two lines a sentence to quote
    text = parsed.document.text
    quoted = [text[a:b] for a, b in prose_sentences(text, min_words=1)]
    assert quoted == [
        "We consider linear mixed models.",
        "We describe the penalized least squares approach here.",
        "Both are shown.",
    ]


def test_an_abstract_inside_a_section_heads_nothing() -> None:
    # a thesis class's tutorial shows "Abstract" inside its section 4: a heading alone in
    # title case there would have closed chapter 4 above its sections
    pages = [
        ["4 Front and back matter", "Every thesis has some.", "4.1 Summary", "Write one."],
        ["Abstract", "An example abstract goes here.", "4.2 Conclusions", "Write them."],
    ]
    assert [level for _, level in _headings(*pages)] == [1, 2, 2]


def test_a_short_papers_title_with_the_page_number_heads_its_next_page() -> None:
    # zoo's two-page "zoo Design": too short for its header to repeat
    first = ["zoo Design", "zoo Development Team", "Abstract", "When reported, bugs typically get"]
    second = ["2 zoo Design", "fixed immediately in the Subversion repository."]
    assert running([first, second]) == [set(), {0}]
    # a section numbered as the page is none: the title has two words at least
    assert running([["Methods", "We measured it."], ["2 Methods", "Then more."]]) == [set(), set()]
    assert running([first, ["3 zoo Design", "Not the page's number."]]) == [set(), set()]


def test_an_appendix_in_title_case_above_its_first_section_is_a_heading() -> None:
    # lme4's "Theory": its appendix after the references, the letter with no stop
    page = [
        "5.1 Implementation details",
        "We store the factor.",
        "References",
        "Timothy A. Davis. Direct Methods for Sparse Linear Systems. SIAM, 2006.",
        "A Notation",
        "A.1 Random variables in the model",
        "B Random-effects vector of dimension q.",
    ]
    assert [title for title, _ in _headings(page)][-2:] == [
        "A Notation",
        "A.1 Random variables in the model",
    ]
    # an initial opening a line above another is none
    assert _headings(["5 Results", "It holds.", "A Smith wrote it", "B Jones agreed."]) == [
        ("5 Results", 1)
    ]
