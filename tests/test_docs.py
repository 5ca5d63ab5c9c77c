"""The documentation site under docs/: it builds with warnings as errors, its examples run, and it speaks to users.

The build is the one the developers' guide gives (``python -m sphinx -W --keep-going``): a broken link between
pages, a page outside the table of contents or a malformed docstring is an error.  MyST does not check the
``#anchor`` of a link to another page, so the built HTML is checked for that here.  Every Python block of a
guide runs verbatim, as README.md's do (``tests/test_readme.py``), and no page may cite the project's
internal bookkeeping (issue numbers, seed-document numbers or file names, commit hashes): pages name papers,
tournaments and engines instead.  The same holds for the text users read outside the pages: the API reference
built from the docstrings, every string of the packages and scripts (docstrings, the evaluators' ``source``
and weight docs shown in tables, messages) and every command line's ``--help``.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.test_readme import DRIVER, FENCE, git_status

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts and "_autosummary" not in p.parts)
GUIDES_WITH_CODE = [p for p in PAGES if any(lang == "python" for lang, _ in FENCE.findall(p.read_text()))]

# "issue 15", "Issue #16", "seed 001", "seeds 000/003", a seed document's file name, the maintainers' digest of them
# (SPEC.md), 7-40 hex digits holding at least one digit and one letter (a commit hash, lower case as git prints it)
# and the maintainers' machine lock; "seed 0" (a random seed) and plain numbers do not match.
INTERNAL = re.compile(r"\bissues?\s+#?\d+|\bseeds?\s+0\d\d\b|\b\d{3}_[0-9a-f]{16}\.txt\b|\bSPEC\.md\b"
                      r"|(?-i:\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b)|\bflock\b", re.I)  # fmt: skip
PACKAGES = ("games", "heuristics", "search", "envs", "tuning", "arena")
SOURCES = sorted(p for name in (*PACKAGES, "scripts") for p in (ROOT / name).rglob("*.py"))
# one worker of a parallel run: the site is built once, and only one Sphinx writes docs/api/_autosummary
pytestmark = pytest.mark.xdist_group("docs")


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


class _Links(HTMLParser):
    """The ids and the links of one HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))


@functools.lru_cache(maxsize=None)  # a page is the target of many links
def _parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text())
    return parser


def isolated_source(work: Path) -> Path:
    """A source tree for one Sphinx build: a copy of docs/ beside links to everything else of the checkout.

    Sphinx writes the API stubs into the source tree (docs/api/_autosummary, emptied at every build): two builds
    of one checkout at once (two test workers, or a developer's build during a test run) deleted each other's
    stubs mid-build.  Each build gets its own copy, so builds never share an output or a stub folder.
    """
    root = work / "source"
    root.mkdir()
    for entry in ROOT.iterdir():
        if entry.name not in ("docs", ".git"):
            (root / entry.name).symlink_to(entry)
    shutil.copytree(DOCS, root / "docs", ignore=shutil.ignore_patterns("_build", "_autosummary"))
    return root


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("docs")
    out = work / "html"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", str(out)],
                            cwd=isolated_source(work), capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    return out


@pytest.mark.slow  # the Sphinx build of the whole site: about a minute
def test_the_site_builds_with_warnings_as_errors_and_documents_the_api(site: Path) -> None:
    position_page = _parse(site / "api" / "_autosummary" / "games.position.html")
    assert {"games.position.Position", "games.position.Position.play", "games.position.Position.undo"} <= position_page.ids
    env_page = (site / "api" / "_autosummary" / "envs.connect4_env.html").read_text()
    assert "Action Space" in env_page and "## " not in env_page  # the Gymnasium-style sections became headings
    modules = {p.stem for p in (site / "api" / "_autosummary").glob("*.html")}
    assert {"games", "heuristics", "search", "envs", "tuning", "search.solve", "tuning.run", "envs.vector"} <= modules
    assert not [m for m in modules if any(part.startswith("_") for part in m.split("."))]  # kernels stay internal


@pytest.mark.slow  # needs the site's build
def test_links_between_pages_reach_an_existing_page_and_section(site: Path) -> None:
    # the source pages (_modules) too: their index once linked to a builtins.html that no build writes
    broken = []
    for page in site.rglob("*.html"):
        if "_static" in page.parts:
            continue
        for href in _parse(page).links:
            if "://" in href or href.startswith(("mailto:", "#")):
                continue
            target, _, anchor = href.partition("#")
            target_page = (page.parent / target).resolve()
            if not target_page.is_file() or (anchor and "_modules" not in page.parts and anchor not in _parse(target_page).ids):
                broken.append(f"{page.relative_to(site)} -> {href}")
    assert broken == []


def test_the_readme_links_to_files_that_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", readme) if "://" not in t]
    assert "docs/getting-started.md" in targets and "docs/benchmarks.md" in targets
    assert [t for t in targets if not (ROOT / t).is_file()] == []


def test_the_readme_stays_short() -> None:
    assert len((ROOT / "README.md").read_text().splitlines()) <= 250  # the rest belongs to the site


@pytest.mark.parametrize("page", [ROOT / "README.md", *PAGES], ids=rel)
def test_pages_name_papers_not_internal_references(page: Path) -> None:
    text = page.read_text()
    found = sorted({m.group(0) for m in INTERNAL.finditer(text)})
    assert found == [], f"{rel(page)} cites {found}: name the paper, tournament or engine instead"


def test_the_internal_reference_check_catches_what_it_should() -> None:
    caught = ["issue 15", "Issue #16", "seed 001", "Seed\n003's early stop", "seeds 000/003", "at cf67dd7",
              "commit 3dcbc01e", "flock /tmp/heavy.lock", "``003_68fe610dd3fccf2d.txt``", "``SPEC.md`` section 2"]
    allowed = ["seed 0", "seed=0", "--seeds 5", "1000 games", "2,500x", "accede", "decade", "0x1234567", "Test_L3_R1",
               "OEIS A212693", "0xFFFFFFFFFFFFFFFF"]  # fmt: skip
    assert all(INTERNAL.search(text) for text in caught)
    assert not [text for text in allowed if INTERNAL.search(text)]


class _Text(HTMLParser):
    """The text a reader sees on one HTML page: no tags, attributes, scripts or styles."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def visible_text(page: Path) -> str:
    parser = _Text()
    parser.feed(page.read_text())
    return " ".join(parser.parts)


@pytest.mark.slow  # needs the site's build
def test_the_api_reference_names_papers_not_internal_references(site: Path) -> None:
    # the pages autodoc builds from the docstrings (the highlighted sources under _modules/ are code, not prose)
    pages = sorted((site / "api").rglob("*.html"))
    assert len(pages) > 50 and "Kang" in visible_text(site / "api" / "_autosummary" / "heuristics.html")
    found = {str(p.relative_to(site)): sorted({m.group(0) for m in INTERNAL.finditer(visible_text(p))}) for p in pages}
    assert {page: hits for page, hits in found.items() if hits} == {}, "a docstring cites these: name the paper instead"


def string_literals(path: Path) -> list[tuple[int, str]]:
    """Every string literal of a module (docstrings, messages, ``help=``, specs' ``source``) with its line."""
    tree = ast.parse(path.read_text(), filename=str(path))
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def test_every_string_of_the_packages_and_scripts_names_papers_not_internal_references() -> None:
    assert len(SOURCES) > 80
    found = [f"{rel(path)}:{line}: {m.group(0)!r}" for path in SOURCES for line, text in string_literals(path)
             for m in INTERNAL.finditer(text)]  # fmt: skip
    assert found == [], "name the paper, tournament or engine instead"


def test_the_evaluators_sources_and_weight_docs_name_papers() -> None:
    # shown in the heuristics tables: the string scan above must see them (an implicit concatenation is one literal)
    from heuristics import NAMES, get_spec

    literals = {text for path in SOURCES if path.parent.name == "heuristics" for _, text in string_literals(path)}
    for name in NAMES:
        spec = get_spec(name)
        texts = [spec.source, spec.summary, *(w.doc for w in spec.weights)]
        assert spec.source in literals and [t for t in texts if INTERNAL.search(t)] == [], name
    assert "Kang, Wang, Hu 2019" in get_spec("c4_features").source and "Bologna" in get_spec("mics").source


CLIS = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts) for p in SOURCES if '__name__ == "__main__"' in p.read_text())
HELP_ALL = """
import argparse, importlib, json, sys

class Parsed(BaseException):
    def __init__(self, parser):
        self.parser = parser

def stop(self, args=None, namespace=None):
    raise Parsed(self)

argparse.ArgumentParser.parse_known_args = stop  # main() builds its parser, then parses: stop there, before any work

def helps(parser, prefix):
    yield prefix, parser.format_help()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from helps(sub, prefix + " " + name)

texts = {}
for name in json.load(sys.stdin):
    try:
        importlib.import_module(name).main([])
    except Parsed as parsed:
        texts.update(helps(parsed.parser, name))
print(json.dumps(texts))
"""


def test_every_command_lines_help_names_papers_not_internal_references() -> None:
    result = subprocess.run([sys.executable, "-c", HELP_ALL], input=json.dumps(CLIS), cwd=ROOT, capture_output=True,
                            text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    helps: dict[str, str] = json.loads(result.stdout.splitlines()[-1])  # an import may print first (pygame does)
    assert len(CLIS) > 20 and [name for name in CLIS if "usage:" not in helps.get(name, "")] == []
    found = {name: sorted({m.group(0) for m in INTERNAL.finditer(text)}) for name, text in helps.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}, "name the paper, tournament or engine instead"


@pytest.mark.slow  # the environments guide trains MaskablePPO for a few thousand steps
@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="needs a git checkout")
@pytest.mark.parametrize("page", GUIDES_WITH_CODE, ids=rel)
def test_every_python_block_of_a_guide_runs_verbatim_without_touching_the_checkout(page: Path) -> None:
    blocks = [body for lang, body in FENCE.findall(page.read_text()) if lang == "python"]
    before = git_status()
    result = subprocess.run([sys.executable, "-c", DRIVER.replace("README.md", rel(page))], input=json.dumps(blocks),
                            cwd=ROOT, capture_output=True, text=True, timeout=900)  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    assert result.stdout.count("--- block") == len(blocks)
    assert git_status() == before


def test_the_guides_with_code_are_the_ones_expected() -> None:
    # a broken fence regex must not make the test above pass vacuously
    names = {rel(p) for p in GUIDES_WITH_CODE}
    assert {"docs/getting-started.md", "docs/guide/environments.md", "docs/guide/search.md"} <= names


IMPORT_ALL = """
import importlib, pkgutil
from numba.core.registry import CPUDispatcher
modules = []
for name in ("games", "heuristics", "search", "envs", "tuning", "arena"):
    package = importlib.import_module(name)
    modules.append(package)
    modules += [importlib.import_module(m.name) for m in pkgutil.walk_packages(package.__path__, name + ".")]
compiled = sorted({f"{m.__name__}.{n}" for m in modules for n, o in vars(m).items()
                   if isinstance(o, CPUDispatcher) and o.signatures})
print(len(modules), compiled)
"""


def test_importing_every_module_compiles_no_kernel() -> None:
    # autodoc imports every module: the API reference builds in seconds only while kernels compile lazily
    result = subprocess.run([sys.executable, "-c", IMPORT_ALL], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    count, compiled = result.stdout.split(" ", 1)
    assert int(count) > 50 and compiled.strip() == "[]"
