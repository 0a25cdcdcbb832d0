"""replay --as NAME: a one-player view lists no other hand, not even in "legal instead"."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import DISPUTE

from adjudicator.cli.commands import main


def _replay(tmp_path: Path, *args: str) -> str:
    record = tmp_path / "dispute.json"
    record.write_text(json.dumps(DISPUTE), encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(record), *args])
    assert result.exit_code == 1
    return result.output


def test_anna_sees_no_card_of_cai_in_legal_instead(tmp_path: Path) -> None:
    out = _replay(tmp_path, "--as", "Anna")
    for hidden in ("3S", "QD", "3♠", "Q♦", "2♥"):  # Cai's and Bo's cards nobody played
        assert hidden not in out
    assert "legal instead: Cai pick" in out
    assert "and 2 more with Cai's cards (hidden from Anna)" in out


def test_cai_and_everyone_see_the_whole_list(tmp_path: Path) -> None:
    for args in (("--as", "Cai"), ()):
        out = _replay(tmp_path, *args)
        assert "legal instead: Cai play 3S, Cai play QD, Cai pick" in out
        assert "hidden from" not in out
