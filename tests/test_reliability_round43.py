"""Reliability round 43: what long random play, exact odds under random play and mangled BattleScribe files found,
each case a plain sequence through the front door.

Run: the long profiles of the sequence fuzzers (``HEROHAMMER_FUZZ=long``, Hypothesis seeds other than the default),
``odds_of_action`` at random points of random games for each kind of action that rolls, one at a time (shots,
psychic powers, assaults, fights, consolidations, regroups; the 9th Age's charges, spells, rallies), against seeded
``Game.apply`` runs, and ~1,500 mangled BattleScribe files (cut short, numbers made huge, characteristics, names and
ids edited, zips broken) through ``catalogue``, ``catalogue --json``, ``catalogue FILE UNIT`` and ``scenario new``.

Found wrong (each first an xfail(strict=True) test here, shortest case):
1. a zipped BattleScribe file (.rosz, .catz, .gstz) whose packed data is damaged ended ``catalogue`` and ``scenario
   new`` in a ``zlib.error`` traceback ("invalid distance too far back"): only a damaged zip directory was refused
   (``zipfile.BadZipFile``); an encrypted member or one packed by a method Python lacks raised ``RuntimeError`` or
   ``NotImplementedError`` the same way.
2. a BattleScribe file whose XML declaration names an encoding Python does not know (``encoding="unit"``) or cannot
   stream (``utf-32``, ``rot13``) ended them in a ``LookupError`` or ``ValueError`` traceback.

Fixed: 1. ``battlescribe._unzip`` refuses damaged packed data as a broken zip file (``zlib``, ``lzma``, ``bz2``'s
   errors, a stream cut short), an encrypted member and an unknown compression method each in its own words, naming
   the file.  2. ``battlescribe.read_xml`` refuses an unusable declared encoding naming it (``_declared_encoding``).
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
from pathlib import Path

import pytest

from _cli import run
from herohammer.battlescribe import BattleScribeError, read_battlescribe

ROOT = Path(__file__).resolve().parents[1]
ORKS = ROOT / "examples" / "battlescribe" / "orks_test.ros"


def _zipped(tmp_path: Path, damage: str) -> Path:
    """The orks roster zipped as ``orks.rosz``, then damaged: one byte of its packed data flipped, or flagged
    encrypted, or its compression method set to one no reader knows (99)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(ORKS.name, ORKS.read_bytes())
    raw = bytearray(buf.getvalue())
    central = raw.rfind(b"PK\x01\x02")
    if damage == "packed data":
        raw[30 + len(ORKS.name) + 50] ^= 0xFF
    elif damage == "encrypted":
        raw[6:8] = raw[central + 8:central + 10] = struct.pack("<H", 1)
    else:
        raw[8:10] = raw[central + 10:central + 12] = struct.pack("<H", 99)
    path = tmp_path / "orks.rosz"
    path.write_bytes(bytes(raw))
    return path


def _one_line_naming(path: Path, fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The library, ``catalogue``, ``catalogue --json`` and ``scenario new`` each refuse ``path`` in one line naming
    it and saying ``fragment``: exit 2, never a traceback."""
    with pytest.raises(BattleScribeError) as refused:
        read_battlescribe(path)
    assert str(refused.value).startswith(str(path)) and fragment in str(refused.value), refused.value
    code, out, err = run(["catalogue", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1 and str(path) in err and fragment in err, (code, err)
    code, out, err = run(["catalogue", str(path), "--json"], capsys)
    assert code == 2 and fragment in json.loads(out)["error"], (code, out, err)
    code, out, err = run(["scenario", "new", "--roster", str(path), "--out", str(path.with_suffix(".yaml"))], capsys)
    assert code == 2 and err.count("\n") == 1 and str(path) in err and fragment in err, (code, err)
    assert not path.with_suffix(".yaml").exists()


@pytest.mark.parametrize(("damage", "fragment"), [("packed data", "a broken zip file"),
                                                  ("encrypted", "encrypted"),
                                                  ("method", "cannot unpack")])
def test_a_zipped_file_with_damaged_packed_data_is_one_line_naming_it(
        tmp_path: Path, damage: str, fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Was a ``zlib.error`` (``RuntimeError``, ``NotImplementedError``) traceback: the zip's directory is whole, so
    ``zipfile`` opened it, and only reading the member met the damage."""
    _one_line_naming(_zipped(tmp_path, damage), fragment, capsys)


@pytest.mark.parametrize("encoding", ["unit", "utf-32", "rot13", "undefined"])
def test_an_xml_declaration_naming_an_unusable_encoding_is_one_line_naming_it(
        tmp_path: Path, encoding: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Was a ``LookupError`` ("unknown encoding: unit") or ``ValueError`` ("multi-byte encodings are not
    supported") traceback: an edited declaration, ``encoding="unit"`` as a roster's ``type="unit"`` pasted in."""
    path = tmp_path / "orks.ros"
    text = ORKS.read_text(encoding="utf-8")
    path.write_text(text.replace('encoding="UTF-8"', f'encoding="{encoding}"', 1) if 'encoding="UTF-8"' in text
                    else f'<?xml version="1.0" encoding="{encoding}"?>\n' + text, encoding="utf-8")
    _one_line_naming(path, f"encoding {encoding!r}", capsys)
