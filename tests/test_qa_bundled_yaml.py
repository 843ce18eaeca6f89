"""The bundled YAML (the rulings book, the clauses) is read with libyaml when PyYAML has it.

Found by using the tool: ``herohammer rulings`` sat silent for seconds before its first line,
most of it PyYAML's pure-Python scanner reading the book's hundred files (``rules`` too, on
``data/rules.yaml``); libyaml reads them ten times faster, to the same data.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml
import yaml.scanner

from herohammer import book, catalogue


@pytest.fixture()
def no_python_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    if not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("PyYAML built without libyaml: the pure-Python loader is all there is")

    def scanned(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the pure-Python YAML scanner read bundled data")
    monkeypatch.setattr(yaml.scanner.Scanner, "fetch_more_tokens", scanned)


def test_the_book_is_read_with_libyaml(no_python_scanner: None) -> None:
    entries = book.load_book(("40k4",))
    assert entries and all(e.entry.ruleset == "40k4" for e in entries)


def test_the_clauses_are_read_with_libyaml(no_python_scanner: None) -> None:
    catalogue.clauses.cache_clear()
    try:
        assert any(c.id == "published.last-man-standing" for c in catalogue.clauses())
    finally:
        catalogue.clauses.cache_clear()


def test_an_entry_s_bad_yaml_still_names_its_line() -> None:
    from herohammer.errors import ScenarioError

    with pytest.raises(ScenarioError, match="not valid YAML at line 2"):
        book.load_entry_text("id: x\n  - : [\n", "book/40k4/x.yaml")


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    read: list[str] = []
    plain = book.load_entry_text

    def counting(text: str, source: str, *more: Any) -> Any:
        read.append(source)
        return plain(text, source, *more)
    monkeypatch.setattr(book, "load_entry_text", counting)
    return read


def test_one_ruling_reads_its_own_file_only(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from _cli import run

    read = _counted(monkeypatch)
    code, out, err = run(["rulings", "40k3-squad-shot-dead-around-its-captain"], capsys)
    assert code == 0, err
    assert out.startswith("40k3-squad-shot-dead-around-its-captain (40k3): ")
    assert read == ["book/40k3/40k3-squad-shot-dead-around-its-captain.yaml"]
    code, _, err = run(["rulings", "squad-shot-dead"], capsys)  # not an id: the ids near it are named
    assert code == 2 and "did you mean 40k3-squad-shot-dead-around-its-captain" in err
    code, _, err = run(["rulings", "../40k3/40k3-squad-shot-dead-around-its-captain"], capsys)
    assert code == 2 and "no ruling with id" in err


def test_one_ruleset_s_list_reads_its_folder_only(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from _cli import run

    read = _counted(monkeypatch)
    code, out, err = run(["rulings", "--ruleset", "40k4"], capsys)
    assert code == 0, err
    assert read and all(r.startswith("book/40k4/") for r in read)
    assert f"Rulings ({len(read)})" in out


def _marks(code: str) -> Any:
    import json
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_the_rules_list_imports_only_the_modules_with_marks_and_finds_every_mark() -> None:
    """``herohammer rules`` reads which code implements each clause: the web app and the simulator hold none (numpy comes with shapely)."""
    listed = _marks("import json, sys\n"
                    "from herohammer.catalogue import implemented_by, clauses\n"
                    "found = {c.id: sorted(implemented_by(c.id)) for c in clauses()}\n"
                    "print(json.dumps({'found': found, 'heavy': sorted(m for m in ('fastapi', 'uvicorn', "
                    "'defusedxml', 'herohammer.web.api', 'herohammer.simulate', 'herohammer.sweep') if m in sys.modules)}))")
    everything = _marks("import json, pkgutil, importlib, herohammer\n"
                        "for i in pkgutil.walk_packages(herohammer.__path__, 'herohammer.'):\n"
                        "    if i.name not in ('herohammer.__main__', 'herohammer.rules_index'):\n"
                        "        importlib.import_module(i.name)\n"
                        "from herohammer.catalogue import implemented_by, clauses\n"
                        "print(json.dumps({c.id: sorted(implemented_by(c.id)) for c in clauses()}))")
    assert listed["found"] == everything and any(everything.values())
    assert listed["heavy"] == []
