"""The rules ship with the project: docs/rules.md is complete and nothing points outside the repository.

* no tracked text file cites a document outside the repository;
* docs/rules.md has every numbered rule (1.1-1.7, 2.1-2.8) and ruling (3.1-3.11) as a heading;
* every "rules.md N.N" / "ruling N.N" citation in the code, the tests, the README and the pages of
  docs/ names a number that docs/rules.md has;
* every rule option of both variants (``rummysim/variants/<name>/rules.py``) is in the option table of its variant,
  with the bounds the engine accepts;
* the tables ``tools/gen_docs.py`` writes (rule options, action encodings) are as it writes them now;
* the README stays a short front page: every link in it and in docs/ resolves to a file of the
  repository (and a heading, for an anchor), and every page of docs/ is in the site's nav (mkdocs.yml).

Plain text and ``ast`` only (``tools/gen_docs.py`` imports the variants' Python modules, which compiles
nothing): nothing here runs the engine.
"""

import ast
import re
import runpy
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_DOC = ROOT / "docs" / "rules.md"

# written in pieces so that this file does not match itself
OUTSIDE = ("../" + "shared", "design" + ".md", "statistics" + ".md")

NUMBERS = ([f"1.{i}" for i in range(1, 8)] + [f"2.{i}" for i in range(1, 9)]
           + [f"3.{i}" for i in range(1, 14)])


def tracked_text_files():
    """(path, text) of every tracked file outside reports/ that is text."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for name in out.decode().split("\0"):
        if not name or name.startswith("reports/"):
            continue
        path = ROOT / name
        if not path.is_file():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue
        try:
            yield name, data.decode("utf-8")
        except UnicodeDecodeError:
            continue


def doc_text():
    return RULES_DOC.read_text(encoding="utf-8")


def doc_numbers():
    """The numbers of the ``### N.N title`` headings of docs/rules.md."""
    return set(re.findall(r"^### (\d+\.\d+) \S", doc_text(), flags=re.M))


def test_no_tracked_file_points_outside_the_repository():
    found = [f"{name}:{i}: {line.strip()}"
             for name, text in tracked_text_files()
             for i, line in enumerate(text.splitlines(), 1)
             if any(s in line for s in OUTSIDE)]
    assert not found, "citations of documents outside the repository:\n" + "\n".join(found)


def test_every_rule_and_ruling_has_its_numbered_heading():
    missing = [n for n in NUMBERS if n not in doc_numbers()]
    assert not missing, f"docs/rules.md lacks the headings {missing}"
    text = doc_text()
    for section in ("## 1. Basic Rummy", "## 2. Shanghai Rummy", "## 3. Rulings"):
        assert section in text
    # interpretations are numbered apart, so they never clash with future rulings
    assert re.search(r"^### I\.1 \S", text, flags=re.M)


# "rules.md 1.7", "[docs/rules.md](rules.md) 1.7" (a link to it), "rules 1.6", "ruling 3.8", "rulings 3.1-3.3"
CITATION = re.compile(r"(?:rules\.md(?:\]\([^)\s]*\))?|\brules|\brulings?)\s+((?:section\s+)?\d+(?:\.\d+)?"
                      r"(?:\s*(?:,|-|and)\s*\d+(?:\.\d+)?)*)", re.I)


def is_doc_page(name: str) -> bool:
    """A page of the documentation: the README or a Markdown file under docs/."""
    return name == "README.md" or (name.startswith("docs/") and name.endswith(".md"))


def citations():
    """(where, number) of every numbered citation in rummysim/, tests/, the README and docs/."""
    for name, text in tracked_text_files():
        if not (name.startswith(("rummysim/", "tests/")) or is_doc_page(name)):
            continue
        for i, line in enumerate(text.splitlines(), 1):
            for m in CITATION.finditer(line):
                for number in re.findall(r"\d+(?:\.\d+)?", m.group(1)):
                    yield f"{name}:{i}", number


def test_every_citation_names_a_rule_that_exists():
    numbers = doc_numbers()
    sections = {n.split(".")[0] for n in numbers}
    cited = list(citations())
    assert len(cited) > 20          # the pattern still finds the citations
    bad = [f"{where}: {n}" for where, n in cited if n not in (numbers if "." in n else sections)]
    assert not bad, "citations of rules docs/rules.md does not have:\n" + "\n".join(bad)


RULES_FILES = ("rummysim/base/rules.py", "rummysim/variants/basic/rules.py", "rummysim/variants/shanghai/rules.py")


def rules_module():
    """The shared rules module and each variant's, as one parsed body."""
    tree = ast.Module(body=[], type_ignores=[])
    for name in RULES_FILES:
        tree.body += ast.parse((ROOT / name).read_text(encoding="utf-8")).body
    return tree


def option_names(tree, cls):
    """The fields of the dataclass ``cls`` of the rules modules."""
    node = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls)
    return [s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]


def section(text, start, end):
    return text[text.index(start):text.index(end)]


@pytest.mark.parametrize("cls, start, end", [("BasicRules", "### 1.7 ", "## 2. "),
                                             ("ShanghaiRules", "### 2.8 ", "## 3. ")])
def test_every_rule_option_is_in_its_option_table(cls, start, end):
    names = option_names(rules_module(), cls)
    assert len(names) >= 8
    table = section(doc_text(), start, end)
    missing = [k for k in names if f"| `{k}` |" not in table]
    assert not missing, f"options of {cls} missing from the table at {start.strip()!r}: {missing}"


def test_the_option_tables_give_the_bounds_the_engine_accepts():
    """Every MAX_* bound of the rules modules is written in the option tables (as 10,000 or 4)."""
    values = {}
    for node in rules_module().body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id.startswith("MAX_") and isinstance(node.value, ast.Constant)):
            values[node.targets[0].id] = node.value.value
    assert {"MAX_RESHUFFLES", "MAX_TURN_LIMIT", "MAX_JOKERS", "MAX_DECKS"} <= set(values)
    text = doc_text()
    tables = section(text, "### 1.7 ", "## 2. ") + section(text, "### 2.8 ", "## 3. ")
    missing = [k for k, v in values.items() if not re.search(rf"\b{re.escape(f'{v:,}')}\b", tables)]
    assert not missing, f"bounds not stated in docs/rules.md: {missing}"


def test_citations_are_read_from_the_docs_pages_too():
    where = {w.split(":")[0] for w, _ in citations()}
    assert {"docs/variants.md", "docs/findings.md", "docs/commands/play.md"} <= where


# ---------------------------------------------------------------- generated tables

def gen_docs():
    return runpy.run_path(str(ROOT / "tools" / "gen_docs.py"), run_name="gen_docs")


def test_the_generated_tables_are_current():
    """Each table between ``<!-- gen_docs: ... -->`` and ``<!-- end gen_docs -->`` is what
    tools/gen_docs.py writes from the code today (run it after changing a rule option or a move)."""
    gen = gen_docs()
    for page in gen["PAGES"]:
        text = (ROOT / page).read_text(encoding="utf-8")
        assert gen["blocks"](text), f"{page} has no generated table"
        assert gen["render"](text) == text, f"{page}: a generated table is stale; run python tools/gen_docs.py"


def test_every_variant_has_its_rule_options_table():
    from rummysim.variants import NAMES

    gen = gen_docs()
    found = {b for page in gen["PAGES"] for b in gen["blocks"]((ROOT / page).read_text(encoding="utf-8"))}
    missing = [name for name in NAMES if ("rule-options", name) not in found]
    assert not missing, f"no generated rule-options table for {missing} in docs/variants.md"


def test_the_generator_checks_that_the_action_rows_cover_every_action():
    """A row missing from an action table (say the encoding grew a block) stops the generator."""
    table = gen_docs()["_table"]
    assert table("t", [(0, 2, "0 .. 1", "x", "y"), (2, 1, "2", "x", "y")], 3).count("\n| ") == 3
    with pytest.raises(AssertionError, match="cover 2 of 3"):
        table("t", [(0, 2, "0 .. 1", "x", "y")], 3)
    with pytest.raises(AssertionError, match="not covered"):
        table("t", [(0, 1, "0", "x", "y"), (2, 1, "2", "x", "y")], 3)


# ---------------------------------------------------------------- the pages and their links

README_MAX_LINES = 300
LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """The anchor GitHub and MkDocs give a heading: lower case, code marks and punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"^```.*?^```", "", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    return {slug(m) for m in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


def test_slugs_are_made_as_the_sites_make_them():
    assert slug("`rummysim compare`: is one strategy really better?") == "rummysim-compare-is-one-strategy-really-better"
    assert slug("1. Basic Rummy") == "1-basic-rummy"
    assert slug("A rating list (three or more strategies)") == "a-rating-list-three-or-more-strategies"


def test_the_readme_is_a_short_front_page():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move the detail to a page of docs/"


def test_every_link_of_the_readme_and_the_docs_resolves():
    """Relative links point at a file of the repository, an anchor at a heading of its page; nothing
    links outside the repository but the web."""
    pages = [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))
    bad = []
    for page in pages:
        text = re.sub(r"^```.*?^```", "", page.read_text(encoding="utf-8"), flags=re.M | re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists() or ROOT not in file.parents:
                bad.append(f"{page.relative_to(ROOT)}: {target}")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                bad.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not bad, "links that do not resolve:\n" + "\n".join(bad)


def test_every_page_of_docs_is_in_the_site_nav():
    nav = set(re.findall(r":\s*(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), flags=re.M))
    pages = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert pages == nav, f"pages not in mkdocs.yml's nav: {sorted(pages - nav)}; nav entries with no page: {sorted(nav - pages)}"
