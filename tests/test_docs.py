"""The documentation site under docs/: it builds with warnings as errors, its examples run, and it speaks to users.

The build is the one the developers' guide gives (``python -m sphinx -W --keep-going``): a broken link between
pages, a page outside the table of contents or a malformed docstring is an error.  MyST does not check the
``#anchor`` of a link to another page, so the built HTML is checked for that here.  Every Python block of a
guide runs verbatim, as README.md's do (``tests/test_readme.py``), and no page may cite the project's
internal bookkeeping (issue numbers, seed-document numbers, commit hashes): pages name papers, tournaments
and engines instead.
"""

from __future__ import annotations

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

# "issue 15", "Issue #16", "seed 001", 7-40 hex digits holding at least one digit and one letter (a commit
# hash, lower case as git prints it) and the maintainers' machine lock; "seed 0" (a random seed) and plain numbers do not match.
INTERNAL = re.compile(r"\bissue\s+#?\d+|\bseed\s+0\d\d\b|(?-i:\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b)|\bflock\b",
                      re.I)  # fmt: skip


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


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-6000:]
    return out


def test_the_site_builds_with_warnings_as_errors_and_documents_the_api(site: Path) -> None:
    position_page = _parse(site / "api" / "_autosummary" / "games.position.html")
    assert {"games.position.Position", "games.position.Position.play", "games.position.Position.undo"} <= position_page.ids
    env_page = (site / "api" / "_autosummary" / "envs.connect4_env.html").read_text()
    assert "Action Space" in env_page and "## " not in env_page  # the Gymnasium-style sections became headings
    modules = {p.stem for p in (site / "api" / "_autosummary").glob("*.html")}
    assert {"games", "heuristics", "search", "envs", "tuning", "search.solve", "tuning.run", "envs.vector"} <= modules
    assert not [m for m in modules if any(part.startswith("_") for part in m.split("."))]  # kernels stay internal


def test_links_between_pages_reach_an_existing_section(site: Path) -> None:
    broken = []
    for page in site.rglob("*.html"):
        if "_modules" in page.parts or "_static" in page.parts:
            continue
        for href in _parse(page).links:
            if "://" in href or href.startswith(("mailto:", "#")) or "#" not in href:
                continue
            target, anchor = href.split("#", 1)
            target_page = (page.parent / target).resolve()
            if not target_page.is_file() or anchor not in _parse(target_page).ids:
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
    caught = ["issue 15", "Issue #16", "seed 001", "at cf67dd7", "commit 3dcbc01e", "flock /tmp/heavy.lock"]
    allowed = ["seed 0", "seed=0", "1000 games", "2,500x", "accede", "decade", "0x1234567", "Test_L3_R1", "OEIS A212693"]
    assert all(INTERNAL.search(text) for text in caught)
    assert not [text for text in allowed if INTERNAL.search(text)]


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
for name in ("games", "heuristics", "search", "envs", "tuning"):
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
