"""Share's QR code (adjudicator/service/qr.py, ``POST /api/qr``): made by segno, the pinned
dependency, and read back to the very link by another library (zxing-cpp), as a phone's
camera would; its size grows with the link; a link no QR code holds is one line."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
import segno
from conftest import qr_decoded
from fastapi.testclient import TestClient
from web_browser import link

from adjudicator.service import qr
from adjudicator.service.routes import answer
from adjudicator.web import app, site

SAMPLES = Path(__file__).resolve().parents[2] / "sample_games"
ADDRESS = "http://192.168.1.20:8000/"


def page_link(name: str) -> str:
    """The address the page shares for a sample, at its third step."""
    return ADDRESS + link(json.loads((SAMPLES / name).read_text(encoding="utf-8"))) + "&step=3"


LINKS = [
    "http://127.0.0.1:8000/#samples",
    page_link("invalid_not_a_card.json"),
    page_link("pagat_3p_full.json"),
    page_link("goat_3p_full.json"),
    ADDRESS + "#record=" + "Zx9-" * 730,  # 2,953 characters: the most version 40 holds
]


@pytest.mark.parametrize("shared", LINKS, ids=lambda s: f"{len(s)}-characters")
def test_the_qr_code_reads_back_as_the_link(shared: str) -> None:
    code = qr.qr(shared)
    assert qr_decoded(code["rows"]) == shared


def test_the_code_grows_with_the_link_and_is_square() -> None:
    versions = []
    for shared in LINKS:
        code = qr.qr(shared)
        rows = code["rows"]
        assert code["size"] == len(rows) == 17 + 4 * code["version"]  # ISO/IEC 18004, 6.3.2
        assert all(re.fullmatch(r"[01]+", row) and len(row) == code["size"] for row in rows)
        versions.append(code["version"])
    assert versions == sorted(versions) and len(set(versions)) == len(versions), versions
    assert versions[0] <= 3 and versions[-1] == 40


def test_the_rows_are_segnos_code_of_the_link() -> None:
    """The pinned package makes the code: its matrix, row by row, at error correction L (or
    higher where the same version holds it)."""
    shared = page_link("pagat_3p_full.json")
    made = segno.make_qr(shared, error="l")
    code = qr.qr(shared)
    assert code["version"] == made.version and code["error"] == made.error
    assert code["rows"] == ["".join(str(m) for m in row) for row in made.matrix]


def test_the_sites_segno_is_the_pinned_wheel_checked_by_its_hash() -> None:
    pins = (Path(str(site.PINS)) / "requirements-pyodide.txt").read_text(encoding="utf-8")
    found = re.search(r"^segno==([\d.]+) \\\n\s+--hash=sha256:[0-9a-f]{64}$", pins, re.M)
    assert found, "requirements-pyodide.txt pins segno with its sha256"
    assert not (Path(str(site.STATIC)) / "qrcode.mjs").exists()  # no copy of an encoder


def test_a_link_no_qr_code_holds_is_one_line_in_the_pages_language() -> None:
    too_long = ADDRESS + "#record=" + "Zx9-" * 731  # 2,957 characters: past version 40
    status, text = answer("POST", "/api/qr", "lang=sv", json.dumps({"link": too_long}))
    assert status == 422
    assert json.loads(text) == {
        "error": "Länken är för lång för en QR-kod (2\N{NO-BREAK SPACE}957 tecken): "
        "skicka den i stället."
    }


def test_a_link_of_megabytes_is_refused_before_the_encoder_reads_it() -> None:
    began = time.perf_counter()
    status, text = answer("POST", "/api/qr", "", json.dumps({"link": "1" * 2_000_000}))
    assert status == 422 and "too long for a QR code (2,000,000 characters)" in text
    assert time.perf_counter() - began < 0.5


@pytest.mark.parametrize("body", [None, "", "not json", "[1]", '{"link": 3}', '{"link": ""}'])
def test_a_body_without_a_link_is_400_with_one_line(body: str | None) -> None:
    status, text = answer("POST", "/api/qr", "", body)
    assert (status, json.loads(text)) == (
        400,
        {"error": 'body: send the link as JSON, under the key "link"'},
    )


def test_the_http_api_answers_as_the_dispatcher_does() -> None:
    shared = page_link("goat_3p_full.json")
    with TestClient(app) as client:
        got = client.post("/api/qr", json={"link": shared}, headers={"accept-language": "fi"})
        assert got.status_code == 200 and got.json() == qr.qr(shared)
        refused = client.post(
            "/api/qr", json={"link": ADDRESS + "x" * 3000}, headers={"accept-language": "fi"}
        )
    assert refused.status_code == 422
    said = refused.json()["error"]
    assert said.startswith("Linkki on liian pitkä QR-koodiksi (3\N{NO-BREAK SPACE}0")
