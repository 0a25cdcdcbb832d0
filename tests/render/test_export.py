"""replay --svg / --html: a ruling to share, the same bytes for the same record.

The SVG snapshot holds the whole document; it was read when written: the
table before the disputed action, the refused action framed in red with the
rule and what was legal instead, hearts and diamonds in red, and the verdict.
The HTML file is the table's page with the replay embedded (its browser test
is in tests/web/test_page.py); here, what it holds and what it must not.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import DISPUTE, MARKUP_NAMES, with_loser_named

from adjudicator.cli.commands import main
from adjudicator.play.adjudicate import adjudicate
from adjudicator.render import export

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kind", ["svg"])
def test_ruling_export(
    kind: str, snapshot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / f"ruling.{kind}"
    result = CliRunner().invoke(
        main, ["replay", f"--{kind}", str(target), "sample_games/illegal_phase2_beat.json"]
    )
    assert result.exit_code == 1  # the record's verdict, export or not
    document = target.read_text(encoding="utf-8")
    assert "phase2.beat" in document
    assert 'url("http' not in document and "@font-face" not in document  # no remote fonts
    assert document == snapshot
    again = tmp_path / f"again.{kind}"
    CliRunner().invoke(
        main, ["replay", f"--{kind}", str(again), "sample_games/illegal_phase2_beat.json"]
    )
    assert again.read_text(encoding="utf-8") == document


def test_the_ruling_frames_the_violation_in_red() -> None:
    from adjudicator.bulk import document_from_text
    from adjudicator.render import export

    text = (ROOT / "sample_games" / "illegal_phase2_beat.json").read_text(encoding="utf-8")
    report = adjudicate(document_from_text(text), steps=True)
    console = export.draw(export.ruling("x.json", report))
    plain = console.export_text(clear=False)
    assert "Before action 2:" in plain
    assert "the action in question" in plain
    assert "✗ illegal action 2: B play 7H" in plain
    styled = console.export_text(styles=True)
    assert "\x1b[" in styled  # in colour
    page = console.export_html(clear=False)
    assert "color: #" in page


def test_step_chooses_the_action_in_question(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / "r.html"
    result = CliRunner().invoke(
        main,
        ["replay", "--step", "1", "--html", str(target), "sample_games/illegal_phase2_beat.json"],
    )
    assert result.exit_code == 1
    page = target.read_text(encoding="utf-8")
    assert json.loads(_embedded(page))["at"] == 0  # --step 1 is the first action, index 0


def test_an_unwritable_target_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        [
            "replay",
            "--svg",
            str(tmp_path / "no" / "r.svg"),
            str(ROOT / "sample_games" / "pagat_3p_full.json"),
        ],
    )
    assert result.exit_code == 2
    assert "--svg: cannot write" in result.stderr


def _embedded(page: str) -> str:
    found = re.search(r'<script type="application/json" id="embedded">(.*?)</script>', page, re.S)
    assert found is not None
    return found.group(1)


def test_the_html_page_embeds_the_replay_and_loads_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / "r.html"
    result = CliRunner().invoke(
        main, ["replay", "--html", str(target), "sample_games/illegal_phase2_beat.json"]
    )
    assert result.exit_code == 1
    page = target.read_text(encoding="utf-8")
    data = json.loads(_embedded(page))
    record = json.loads((ROOT / "sample_games" / "illegal_phase2_beat.json").read_text())
    assert data["record"]["actions"] == record["actions"]
    assert set(data["views"]) == {"", *record["players"]}
    (v,) = data["views"][""]["check"]["violations"]
    assert v["rule"] == "phase2.beat"
    assert 'src="' not in page and 'href="/' not in page  # everything inline
    assert "script-src 'sha256-" in page  # a policy: only the page's own script runs
    again = tmp_path / "again.html"
    CliRunner().invoke(
        main, ["replay", "--html", str(again), "sample_games/illegal_phase2_beat.json"]
    )
    assert again.read_text(encoding="utf-8") == page


def test_the_html_page_of_one_players_view_holds_no_other_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = DISPUTE
    source = tmp_path / "dispute.json"
    source.write_text(json.dumps(record), encoding="utf-8")
    target = tmp_path / "anna.html"
    result = CliRunner().invoke(
        main, ["replay", "--as", "Anna", "--html", str(target), str(source)]
    )
    assert result.exit_code == 1
    data = json.loads(_embedded(target.read_text(encoding="utf-8")))
    assert list(data["views"]) == ["Anna"]
    assert data["record"] is None  # it names every hand
    views = json.dumps(data["views"])
    for secret in ("2H", "3S", "QD"):
        assert secret not in views
    embedded = _embedded(target.read_text(encoding="utf-8"))
    for secret in ("2H", "3S", "QD"):  # nor anywhere else in the file
        assert secret not in embedded


# --- the packed views: adjudicated once, each view a patch per step -----------------------

PACKED_SAMPLES = [
    "goat_5p_full.json",  # five hands, tricks that grow and are taken, phase two
    "helmfrid_dispute_unknown.json",  # cards nobody has seen: counts, notes
    "illegal_phase2_beat.json",  # a refused action: its violation per viewer
    "mas_3p_full.json",  # a turned-up trump card
    "illegal_deal_shares.json",  # a deal
]

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[SHDC](?![A-Za-z0-9])")


def _page_data(tmp_path: Path, name: str, *extra: str) -> dict[str, Any]:
    target = tmp_path / "r.html"
    result = CliRunner().invoke(
        main, ["replay", *extra, "--html", str(target), str(ROOT / "sample_games" / name)]
    )
    assert result.exit_code in (0, 1), result.output
    data: dict[str, Any] = json.loads(_embedded(target.read_text(encoding="utf-8")))
    return data


APP = ROOT / "adjudicator" / "web" / "static" / "app.js"

UNPACKING = """
const source = require("fs").readFileSync(process.argv[1], "utf8");
const start = source.indexOf("// --- the embedded replay");
const end = source.indexOf("async function rule(");
if (start < 0 || end < start) throw new Error("app.js: the embedded replay's code not found");
const given = JSON.parse(require("fs").readFileSync(0, "utf8"));
const made = new Function("EMBEDDED", source.slice(start, end) + "; return { patched, unpacked };");
const { patched, unpacked } = made({ textContent: JSON.stringify(given.data ?? null) });
const out = given.views
  ? given.views.map((v) => unpacked(v))
  : given.pairs.map(([before, patch]) => patched(before, patch));
process.stdout.write(JSON.stringify(out));
"""
"""Runs the page's own unpacking (app.js's ``patched`` and ``unpacked``, the one applier of
the patches ``page.packed_replays`` makes) in Node, on ``data`` for ``views``, or on
``[before, patch]`` ``pairs``."""


def _app_js(given: dict[str, Any]) -> list[Any]:
    """What app.js's unpacking gives for ``given`` (see :data:`UNPACKING`)."""
    ran = subprocess.run(
        ["node", "-e", UNPACKING, str(APP)],
        input=json.dumps(given, ensure_ascii=False),
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    out: list[Any] = json.loads(ran.stdout)
    return out


@pytest.mark.parametrize("name", PACKED_SAMPLES)
def test_every_view_of_the_page_is_the_apis_replay(tmp_path: Path, name: str) -> None:
    """The page unpacks each view (app.js's ``unpacked``, run in Node) into exactly what
    /api/replay answers for that viewer: the same steps, tables, violations, next."""
    from adjudicator.service import page as calls

    data = _page_data(tmp_path, name)
    text = json.dumps(data["record"], ensure_ascii=False)
    assert list(data["views"]) == ["", *data["record"]["players"]]
    views = list(data["views"])
    for viewer, got in zip(views, _app_js({"data": data, "views": views}), strict=True):
        want = calls.replay(text, viewer or None, data["label"])
        assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True), viewer


@pytest.mark.parametrize("name", PACKED_SAMPLES)
def test_every_table_of_a_replay_is_the_services_table_model(name: str) -> None:
    """``TableOut.made`` writes each step's table as JSON directly (a replay makes one a
    step); the model is its shape: every table of the sample, whole and as each player
    sees it, is what the model validates and dumps, key for key, in order."""
    from adjudicator import service
    from adjudicator.play.adjudicate import adjudicate
    from adjudicator.record import load_record

    game = load_record(ROOT / "sample_games" / name)
    report = adjudicate(game, steps=True)
    views = [report.start, *(s.table for s in report.steps)]
    assert len(views) > 1
    for view in views:
        if view is None:
            continue
        made = service.TableOut.made(view)
        model = service.TableOut.of(view)
        assert json.dumps(model.model_dump(mode="json")) == json.dumps(made)
        for viewer in game.players:
            seen = service.TableOut.seen(made, viewer)
            assert json.dumps(model.seen_by(viewer).model_dump(mode="json")) == json.dumps(seen)
            others = [s for s in seen["seats"] if s["name"] != viewer]
            assert all(s["cards"] is None and s["unseen"] == s["count"] for s in others)


def test_a_table_with_a_key_the_model_lacks_is_refused() -> None:
    """The model holds ``made`` to its keys: a key it does not declare is an error, not
    carried along (the test above could not fail on an extra key otherwise)."""
    from pydantic import ValidationError

    from adjudicator import service
    from adjudicator.play.adjudicate import adjudicate
    from adjudicator.record import load_record

    report = adjudicate(load_record(ROOT / "sample_games" / "mas_3p_full.json"), steps=True)
    made = service.TableOut.made(report.steps[0].table)
    with pytest.raises(ValidationError):
        service.TableOut.model_validate({**made, "extra": 1})
    with pytest.raises(ValidationError):
        service.TableOut.model_validate({**made, "seats": [{**made["seats"][0], "x": 0}]})


def _cards(value: Any) -> set[str]:
    return set(CARD.findall(json.dumps(value)))


def _leaks(view: dict[str, Any], shown: dict[str, Any]) -> list[str]:
    """Where a packed view names a card that the API's answer ``shown`` does not show there:
    each step's table patch against that step's table, the rest against the rest."""
    found = []
    for k, step in enumerate(shown["steps"]):
        if extra := _cards(view["tables"][k]) - _cards(step["table"]):
            found.append(f"step {k} table: {sorted(extra)}")
        if extra := _cards(view["violations_at"].get(str(k))) - _cards(step["violation"]):
            found.append(f"step {k} violation: {sorted(extra)}")
    head = {k: v for k, v in view.items() if k not in ("tables", "violations_at")}
    if extra := _cards(head) - _cards({k: v for k, v in shown.items() if k != "steps"}):
        found.append(f"the rest: {sorted(extra)}")
    return found


@pytest.mark.parametrize("name", ["goat_5p_full.json", "helmfrid_dispute_unknown.json"])
def test_one_players_page_shows_no_more_than_their_api_view(tmp_path: Path, name: str) -> None:
    """With --as, each part of the file (every step's patch, the verdict, what comes next)
    names no card that the API's one-player view does not show at that point; the steps'
    words are the API's own.  So the file holds no other hand, not even unread."""
    from adjudicator.service import page as calls

    full = _page_data(tmp_path, name)
    text = json.dumps(full["record"], ensure_ascii=False)
    for player in full["record"]["players"]:
        data = _page_data(tmp_path, name, "--as", player)
        assert list(data["views"]) == [player] and data["record"] is None
        shown = calls.replay(text, player, data["label"])
        assert not _leaks(data["views"][player], shown), player
        said = [{k: s[k] for k in data["steps"][0]} for s in shown["steps"]]
        assert data["steps"] == said
        assert _leaks(full["views"][""], shown)  # the test can fail: everyone's view leaks


def test_patches_give_back_what_they_were_made_from() -> None:
    """The patches the Python makes (``_diff``), applied by app.js's ``patched`` in Node."""
    from adjudicator.service.page import _diff

    pairs = [
        ({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3, 4]}),
        ({"a": [{"x": 1}]}, {"a": []}),
        ({"a": None}, {"a": {"=": 1}}),  # a key that looks like a patch is replaced whole
        ({"a": 1}, {"a": True, "b": 1}),
        ([1, 2, 3], [1]),
        (None, {"seats": []}),
        ({"a": 1}, {"b": 1}),
        ({"a": 1, "b": 2}, {"a": 1, "b": 3}),
        ([{"a": 1}, {"a": 2}], [{"a": 1}, {"a": 5}, {"a": 6}]),
    ]
    patches = [[before, json.loads(json.dumps(_diff(before, after)))] for before, after in pairs]
    applied = _app_js({"pairs": patches})
    for (before, after), got in zip(pairs, applied, strict=True):
        assert json.dumps(got) == json.dumps(after), (before, after)


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("name", MARKUP_NAMES)
def test_a_name_is_text_in_the_html_ruling(
    tmp_path: Path, games: list[dict[str, Any]], name: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(with_loser_named(games[0], name)), encoding="utf-8")
    page = tmp_path / "r.html"
    code, _, err = invoke("replay", str(path), "--html", str(page))
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(with_loser_named(games[0], "Plain")), encoding="utf-8")
    invoke("replay", str(plain), "--html", str(tmp_path / "plain.html"))
    reference = (tmp_path / "plain.html").read_text(encoding="utf-8")
    # Record text lives only in the embedded JSON (and the escaped title): cut those out and
    # the page is the same page, whatever the names say.
    assert export.skeleton(html) == export.skeleton(reference)
    embedded = export.embedded(html)
    assert "<" not in embedded and ">" not in embedded
    assert name in json.dumps(json.loads(embedded), ensure_ascii=False)
