"""The HTTP API gives what the CLI gives; errors are one JSON line; nothing leaks or crashes;
the page is served installable (manifest, icons, service worker)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DISPUTE
from fastapi.testclient import TestClient

from adjudicator.cli.commands import main
from adjudicator.invalid import MESSAGE_MAX
from adjudicator.web import app
from adjudicator.web.server import Guard

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "sample_games").glob("*.json"))

JSON = {"content-type": "application/json"}
client = TestClient(app, headers=JSON)


def _cli_json(*args: str, stdin: str | None = None) -> list[dict]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    return [json.loads(line) for line in result.output.splitlines() if line.strip()]


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_check_gives_what_the_cli_gives_for_every_sample(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    (expected,) = _cli_json("check", "--json", "-", stdin=text)
    answer = client.post("/api/check", content=text.encode(), headers=JSON)
    assert answer.status_code == (422 if expected["status"] == "invalid" else 200)
    assert answer.json() == expected


SESSIONS = [p for p in SAMPLES if '"skitgubbe-session/1"' in p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", SAMPLES[::7] + SESSIONS, ids=lambda p: p.name)
def test_legal_gives_what_the_cli_gives(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["legal", "--json", "-"], input=text)
    answer = client.post("/api/legal", content=text.encode())
    if result.exit_code == 0:
        assert answer.status_code == 200
        assert answer.json() == json.loads(result.output)
    elif result.exit_code == 1:  # the record is illegal before the end
        assert answer.status_code == 409
        assert "is illegal" in answer.json()["error"]
    else:
        assert answer.status_code in (400, 422)
        assert answer.json()["error"]


def test_legal_at_a_position_is_the_readme_list() -> None:
    answer = client.post("/api/legal", params={"at": 2}, json=DISPUTE)
    assert answer.status_code == 200
    assert answer.json()["legal"] == ["Cai play 3S", "Cai play QD", "Cai pick"]
    assert answer.json()["to_move"] == ["Cai"]


def test_legal_out_of_range_is_one_line() -> None:
    answer = client.post("/api/legal", params={"at": 9}, json=DISPUTE)
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "at 9: the record has positions 0-3 (before each of its 3 actions, and after "
        "the last)"
    }


def test_json_lines_stream_one_line_per_record_in_order() -> None:
    texts = [json.dumps(json.loads(p.read_text(encoding="utf-8"))) for p in SAMPLES[:6]]
    body = "\n".join([*texts[:3], "", "not json", *texts[3:]]) + "\n"
    expected = _cli_json("check", "--json", "-", stdin=body)
    answer = client.post(
        "/api/check", content=body.encode(), headers={"content-type": "application/x-ndjson"}
    )
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/x-ndjson")
    got = [json.loads(line) for line in answer.text.splitlines()]
    assert got == expected
    assert [g["line"] for g in got] == [1, 2, 3, 5, 6, 7, 8]
    assert got[3]["status"] == "invalid"


def test_the_dispute_is_ruled_with_its_source() -> None:
    answer = client.post("/api/replay", json=DISPUTE)
    assert answer.status_code == 200
    body = answer.json()
    (v,) = body["check"]["violations"]
    assert (v["index"], v["rule"], v["legal"]) == (
        2,
        "phase2.beat",
        ["Cai play 3S", "Cai play QD", "Cai pick"],
    )
    cites = [s["cite"] for s in v["where"]["sources"]]
    assert "pagat.com, 'Play in the second phase'" in cites
    assert "https://www.pagat.com/beating/skitgubbe.html" in {
        s["address"] for s in v["where"]["sources"]
    }
    assert body["steps"][-1]["violation"]["rule"] == "phase2.beat"
    assert body["next"] is None


def test_one_players_view_holds_no_other_card() -> None:
    body = client.post("/api/replay", params={"as": "Anna"}, json=DISPUTE).json()
    start = json.dumps(body["start"])
    for code in ("7D", "8D", "9D", "2H", "8C", "9C", "3S", "QD"):  # Bo's and Cai's hands
        assert code not in start
    text = json.dumps(body)
    for code in ("2H", "3S", "QD"):  # never played: nobody but their holder sees them
        assert code not in text
    (v,) = body["check"]["violations"]
    assert v["legal"] == ["Cai pick"]  # the two plays would show Cai's 3♠ and Q♦
    assert v["legal_hidden"] == 2
    seats = body["steps"][0]["table"]["seats"]
    assert seats[1] == {**seats[1], "cards": None, "count": 4}


def test_a_viewer_who_is_no_player_is_one_line() -> None:
    answer = client.post("/api/replay", params={"as": "Dan"}, json=DISPUTE)
    assert answer.status_code == 400
    assert answer.json() == {"error": "as Dan: not a player of the record (Anna, Bo, Cai)"}


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        (b"{", 422, "not JSON: "),
        (b"\xff\xfe", 400, "body: not UTF-8 text"),
        (b"", 400, "body: empty; send one record as JSON"),
        (json.dumps({**DISPUTE, "variant": "nope"}).encode(), 422, "variant"),
    ],
)
def test_bad_input_is_one_json_line(body: bytes, status: int, error: str) -> None:
    for path in ("/api/legal", "/api/replay"):
        answer = client.post(path, content=body)
        assert answer.status_code == status, (path, answer.text)
        assert answer.headers["content-type"] == "application/json"
        assert error in answer.json()["error"]
        assert "Traceback" not in answer.text
        assert "\n" not in answer.json()["error"]


def test_an_invalid_record_checked_is_422_with_the_cli_object() -> None:
    answer = client.post("/api/check", content=b'{"format": 1}')
    (expected,) = _cli_json("check", "--json", "-", stdin='{"format": 1}')
    assert answer.status_code == 422
    assert answer.json() == expected
    assert answer.json()["error"]


def test_a_body_over_the_limit_is_413() -> None:
    small = TestClient(Guard(app, max_body=1000), headers=JSON)
    answer = small.post("/api/check", content=b" " * 1001)
    assert answer.status_code == 413
    assert answer.json() == {"error": "the request body is over the limit of 1000 bytes"}
    streamed = small.post("/api/check", content=iter([b" " * 600, b" " * 600]))
    assert streamed.status_code == 413
    for refused in (answer, streamed):  # the headers every answer carries
        assert refused.headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in refused.headers["content-security-policy"]


def test_bodies_past_the_budget_of_all_requests_are_429() -> None:
    held = TestClient(Guard(app, budget=1000), headers=JSON)
    answer = held.post("/api/check", content=b" " * 1500)
    assert answer.status_code == 429 and answer.headers["retry-after"] == "1"
    assert answer.json() == {"error": "the server holds too many request bodies; try again"}
    assert held.post("/api/check", json=DISPUTE).status_code == 200  # the budget is given back


def test_a_json_lines_stream_gives_its_place_back() -> None:
    from adjudicator.web.server import pool

    body = (json.dumps(DISPUTE) + "\n") * 3
    for _ in range(3):
        answer = client.post(
            "/api/check", content=body.encode(), headers={"content-type": "application/x-ndjson"}
        )
        assert [json.loads(x)["line"] for x in answer.text.splitlines()] == [1, 2, 3]
    assert pool().state()["waiting"] == 0 and pool().state()["running"] == 0


def test_unknown_paths_are_json_404() -> None:
    for path in ("/nope", "/api/nope", "/static/nope.js", "/static/../cli.py"):
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert answer.json()["error"].startswith("no such page")


def test_a_query_of_the_wrong_type_is_one_line() -> None:
    answer = client.post("/api/legal", params={"at": "two"}, json=DISPUTE)
    assert answer.status_code == 422
    assert answer.json() == {"error": "at: must be a whole number, not 'two'"}
    finnish = client.post("/api/legal", params={"at": "two", "lang": "fi"}, json=DISPUTE)
    assert finnish.status_code == 422
    assert finnish.json()["error"].startswith("at: ") and "'two'" in finnish.json()["error"]
    assert finnish.json()["error"] != answer.json()["error"]  # the project's words, translated


def test_variants_and_explain() -> None:
    names = [v["name"] for v in client.get("/api/variants").json()]
    assert "helmfrid" in names and "goat" in names
    goat = client.get("/api/variants/goat").json()
    assert goat["trump_card"] == "set_aside"
    assert any(o["name"] == "sluff_final" and o["value"] is True for o in goat["options"])
    assert client.get("/api/variants/nope").status_code == 404
    rule = client.get("/api/explain/phase2.beat").json()
    assert rule["type"] == "rule" and "sequences" in rule["options"]
    option = client.get("/api/explain/pick_from").json()
    assert option["type"] == "option" and option["variants"]["pagat"]
    missing = client.get("/api/explain/nope")
    assert missing.status_code == 404 and "neither a rule id" in missing.json()["error"]


def test_pages_carry_a_csp_without_inline_scripts_and_docs_need_no_cdn() -> None:
    page = client.get("/")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    for path in ("/", "/docs"):
        text = client.get(path).text
        assert "http://" not in text and "https://" not in text
        assert "<script>" not in text  # scripts are files, never inline
    spec = client.get("/openapi.json").json()
    assert {"/api/check", "/api/legal", "/api/variants", "/api/explain/{topic}"} <= set(
        spec["paths"]
    )


def test_the_command_line_does_not_import_the_web_stack(tmp_path: Path) -> None:
    code = (
        "import sys, adjudicator.cli.commands; "
        "assert not {'fastapi', 'uvicorn', 'starlette'} & set(sys.modules), 'web stack loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    # replay --html writes the page without the web framework too
    code = (
        "import sys; from adjudicator.cli.commands import main; "
        f"sys.argv = ['adjudicator', 'replay', {str(SAMPLES[0])!r}, '--html', "
        f"{str(tmp_path / 'r.html')!r}]; "
        "import atexit; atexit.register(lambda: print('web' if 'fastapi' in sys.modules "
        "else 'plain')); main()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip().endswith("plain"), done.stdout[-200:] + done.stderr[-500:]


def test_serve_listens_on_this_machine_only_unless_told() -> None:
    serve = main.commands["serve"]
    defaults = {p.name: p.default for p in serve.params}
    assert defaults["host"] == "127.0.0.1"
    assert defaults["max_body"] == 16 * 1024 * 1024


def test_the_servers_own_errors_are_cut() -> None:
    from fastapi.testclient import TestClient

    from adjudicator.web import app

    answer = TestClient(app).get("/" + "n" * 10_000)
    assert answer.status_code == 404 and len(answer.json()["error"]) <= MESSAGE_MAX


def test_the_server_serves_the_page_installable() -> None:
    """The page, its manifest, icons and service worker, as a browser asks for them."""
    client = TestClient(app)
    page = client.get("/").text
    assert '<meta name="adjudicator-engine" content="server">' in page
    assert '<link rel="manifest" href="manifest.webmanifest">' in page
    assert 'src="static/app.js"' in page  # relative: the same page from a sub-folder too
    manifest = client.get("/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./"
    for icon in manifest["icons"]:
        got = client.get("/" + icon["src"])
        assert got.status_code == 200 and got.headers["content-type"] == icon["type"]
    worker = client.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    listed = json.loads(re.search(r"const FILES = (\[.*?\]);", worker.text).group(1))  # type: ignore[union-attr]
    assert {"./", "static/app.js", "static/engine.js", "static/style.css"} <= set(listed)
    assert "/api/" not in worker.text.split("const FILES", 1)[1].split(";", 1)[0]
    for path in listed:
        assert client.get("/" + path.removeprefix("./")).status_code == 200, path
