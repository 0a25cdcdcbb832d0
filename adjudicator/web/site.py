"""``adjudicator site OUT``: the table's page as a static site that judges in the phone.

The folder holds the page (the very files ``adjudicator serve`` serves), Pyodide's
interpreter (npm package ``pyodide``, pinned with its lockfile in ``pins/``), the
wheels the core needs (the project's own, pure Python and without its edges; pydantic,
the Pyodide build of pydantic-core and segno, for Share's QR code, pinned with hashes in
``pins/``), a web app
manifest, icons and a service worker that keeps every file for the network being
off.  Any static host serves it; nothing is fetched from elsewhere at run time.

Downloads are cached (``~/.cache/adjudicator/site``, or ``$ADJUDICATOR_SITE_CACHE``)
and made again only when a pin moves.  Standard library only at import: the server
uses the page's head, manifest, icons and service worker from here too.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from adjudicator import i18n, samples
from adjudicator._version import __version__
from adjudicator.exceptions import AdjudicatorError

STATIC = resources.files("adjudicator.web") / "static"
PINS = resources.files("adjudicator.web") / "pins"
PACKAGE = resources.files("adjudicator")

NAME = "Skitgubbe adjudicator"
THEME = "#1d5c3a"
"""The felt's green: the manifest's theme colour and the icons' ground."""

PAGE_FILES = (
    "static/adjudicator.js",
    "static/app.js",
    "static/style.css",
    "static/engine.js",
    "static/i18n.js",
)
"""The page's own files, beside index.html, whichever engine answers it (adjudicator.js and
i18n.js, which index.html loads, included).  Share's QR code is no file of the page: the
engine makes it (``/api/qr``, segno, one of the pinned wheels)."""
SITE_FILES = ("static/worker.js",)
"""Files only the static site needs: the in-browser engine."""
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""Of the npm package, what loadPyodide fetches: the loader, the interpreter, the stdlib."""
ICONS = {"static/icon.svg": 0, "static/icon-192.png": 192, "static/icon-512.png": 512}

EDGES = (
    "adjudicator/__main__.py",
    "adjudicator/cli",
    "adjudicator/render",
    "adjudicator/web",
    "adjudicator/bulk",
    "adjudicator/conformance",
)
"""What the phone's wheel leaves out: the command line, terminal, web and bulk edges (they
import rich, click, textual, FastAPI or Dask, none of which the phone gets, or run
processes).  The core (:mod:`adjudicator.service` and what it imports) stays."""

MAX_SIZE = 20_000_000
"""The bar for the whole folder, in bytes (20 MB; held by tests/web/test_site.py)."""


class SiteError(AdjudicatorError):
    """The site cannot be built: one line saying why (npm or the index unreachable)."""


# --- what the page and the server share ---------------------------------------------------


def page_html(engine: str) -> str:
    """index.html with its paths relative to the page (a site may live in a sub-folder),
    the manifest and icons, and which engine answers (``server`` or ``worker``)."""
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    text = text.replace('"/static/', '"static/')
    head = (
        f'<meta name="adjudicator-engine" content="{engine}">\n'
        f'<meta name="theme-color" content="{THEME}">\n'
        '<link rel="manifest" href="manifest.webmanifest">\n'
        '<link rel="apple-touch-icon" href="static/icon-192.png">\n'
    )
    text = text.replace(
        '<link rel="icon" href="data:,">', '<link rel="icon" href="static/icon.svg">'
    )
    return text.replace("</head>", head + "</head>", 1)


def manifest() -> str:
    """The web app manifest: what a phone's home screen shows, and that it opens standalone."""
    return json.dumps(
        {
            "name": NAME,
            "short_name": "Adjudicator",
            "description": "Settles a Skitgubbe dispute at the table, by taps, with no network.",
            "start_url": "./",
            "scope": "./",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": THEME,
            "icons": [
                {"src": "static/icon.svg", "sizes": "any", "type": "image/svg+xml"},
                {"src": "static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                {"src": "static/icon-512.png", "sizes": "512x512", "type": "image/png"},
            ],
        },
        indent=1,
    )


def _in_spade(x: float, y: float) -> bool:
    """The spade on the card, in a unit square (y down): two lobes, a point, a stem."""
    lobes = (x - 0.36) ** 2 + (y - 0.56) ** 2 < 0.0225 or (x - 0.64) ** 2 + (y - 0.56) ** 2 < 0.0225
    point = y < 0.56 and abs(x - 0.5) < (y - 0.2) * 0.5 + 0.001 and y > 0.2
    stem = 0.55 < y < 0.82 and abs(x - 0.5) < 0.03 + (y - 0.55) * 0.25
    return lobes or point or stem


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    ground = (0x1D, 0x5C, 0x3A)
    if not (0.2 < x < 0.8 and 0.1 < y < 0.9):
        return ground
    corner = 0.06
    cx = min(max(x, 0.2 + corner), 0.8 - corner)
    cy = min(max(y, 0.1 + corner), 0.9 - corner)
    if (x - cx) ** 2 + (y - cy) ** 2 > corner**2:
        return ground
    return (0x11, 0x11, 0x11) if _in_spade(x, y) else (0xFF, 0xFF, 0xFF)


def icon_png(size: int) -> bytes:
    """A square PNG: a white card with a black spade on the felt's green (no image library)."""
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            rows.extend(_pixel((i + 0.5) / size, (j + 0.5) / size))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def icon_svg() -> str:
    """The same icon as SVG."""
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" fill="{THEME}"/>'
        '<rect x="20" y="10" width="60" height="80" rx="6" fill="#fff"/>'
        '<path d="M50 20 L68 50 A15 15 0 0 1 52 66 L58 82 L42 82 L48 66 A15 15 0 0 1 32 50 Z"'
        ' fill="#111"/></svg>\n'
    )


def icon(path: str) -> bytes:
    """An icon's bytes by its path in the page (``static/icon-192.png``)."""
    size = ICONS[path]
    return icon_svg().encode() if size == 0 else icon_png(size)


def service_worker(files: dict[str, bytes]) -> str:
    """sw.js precaching ``files`` (paths relative to the page) under a cache named by the
    package's version and their content (``adjudicator-0.3.0-1a2b...``): a changed file is a
    new cache, and the old one is dropped; the name says which release a phone holds."""
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    template = (STATIC / "sw.js").read_text(encoding="utf-8")
    listed = json.dumps(["./", *sorted(files)])
    named = f"{__version__}-{digest.hexdigest()[:16]}"
    return template.replace("__VERSION__", named).replace("__FILES__", listed)


def page_files(engine: str) -> dict[str, bytes]:
    """The page's files by path, as a server or the site serves them (not sw.js)."""
    files = {p: (STATIC / p.removeprefix("static/")).read_bytes() for p in PAGE_FILES}
    files["index.html"] = page_html(engine).encode()
    files["manifest.webmanifest"] = manifest().encode()
    for path in ICONS:
        files[path] = icon(path)
    files.update(catalogues())
    return files


def catalogues() -> dict[str, bytes]:
    """The page's strings in each language but English, at the path the server answers
    (``i18n/LANG.json``): the site has no server, and its service worker keeps them offline."""
    return {
        f"i18n/{code}.json": json.dumps(i18n.page_catalogue(code), ensure_ascii=False).encode()
        for code in i18n.LANGUAGES
        if code != i18n.SOURCE
    }


# --- the downloads, cached -----------------------------------------------------------------


def cache_folder() -> Path:
    """Where downloads are kept between runs."""
    chosen = os.environ.get("ADJUDICATOR_SITE_CACHE")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "adjudicator" / "site"


def _stamp(*texts: bytes) -> str:
    digest = hashlib.sha256()
    for text in texts:
        digest.update(hashlib.sha256(text).digest())
    return digest.hexdigest()[:16]


def _run(command: list[str], cwd: Path, what: str) -> None:
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=900, check=False
        )
    except FileNotFoundError:
        raise SiteError(
            f"{what}: {command[0]} is not installed (it is needed once, to fetch)"
        ) from None
    except subprocess.TimeoutExpired:
        raise SiteError(f"{what}: {command[0]} did not finish in 15 minutes") from None
    if done.returncode != 0:
        raise SiteError(f"{what}: {_said(done.stderr + done.stdout, done.returncode)}")


NOISE = re.compile(
    r"is ignored: it is neither|A complete log|^npm error (code|syscall|errno|\s+at )"
    r"|^npm error\s*$|^WARNING:"
)
"""What npm and pip say around the line that tells why: stack frames, codes, log paths."""


def _said(output: str, status: int) -> str:
    """The line of a tool's output that says why it failed."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    kept = [line for line in lines if not NOISE.search(line)]
    errors = [line for line in kept if "error" in line.lower()]
    found = (errors or kept or [f"exit status {status}"])[0]
    return found.removeprefix("npm error ").removeprefix("ERROR: ")[:300]


def pyodide(cache: Path) -> Path:
    """Pyodide's folder from the pinned npm package, installed once per lockfile."""
    package = (PINS / "package.json").read_bytes()
    lock = (PINS / "package-lock.json").read_bytes()
    where = cache / f"npm-{_stamp(package, lock)}"
    found = where / "node_modules" / "pyodide"
    if all((found / name).is_file() for name in PYODIDE_FILES):
        return found
    if shutil.which("npm") is None:
        raise SiteError("npm is not installed: it fetches Pyodide once (then the cache serves)")
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    (where / "package.json").write_bytes(package)
    (where / "package-lock.json").write_bytes(lock)
    _run(
        ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
        where,
        "npm could not fetch Pyodide (is the npm registry reachable?)",
    )
    missing = [name for name in PYODIDE_FILES if not (found / name).is_file()]
    if missing:
        raise SiteError(f"npm installed Pyodide without {', '.join(missing)}")
    return found


@dataclass(frozen=True)
class Platform:
    """Pyodide's Python and wheel platform, as its lockfile says."""

    python: str  # "3.14"
    abi: str  # "cp314"
    tag: str  # "pyemscripten_2026_0_wasm32"


def platform(pyodide_folder: Path) -> Platform:
    info = json.loads((pyodide_folder / "pyodide-lock.json").read_text(encoding="utf-8"))["info"]
    major, minor = info["python"].split(".")[:2]
    return Platform(
        f"{major}.{minor}",
        f"cp{major}{minor}",
        f"pyemscripten_{info['abi_version']}_{info['arch']}",
    )


def wheels(cache: Path, where: Platform) -> list[Path]:
    """The pinned wheels (pydantic, its Pyodide pydantic-core, their dependencies, segno),
    downloaded once per requirements file, every one checked against its hash."""
    pins = (PINS / "requirements-pyodide.txt").read_bytes()
    folder = cache / f"wheels-{_stamp(pins, where.tag.encode(), where.abi.encode())}"
    done = folder / "done"
    if done.is_file():
        names = done.read_text(encoding="utf-8").split()
        if names and all((folder / n).is_file() for n in names):
            return [folder / n for n in names]
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as scratch:
        requirements = Path(scratch) / "requirements.txt"
        requirements.write_bytes(pins)
        _run(
            [
                sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                "--only-binary=:all:", "--no-deps", "--require-hashes",
                "--platform", where.tag, "--python-version", where.python,
                "--implementation", "cp", "--abi", where.abi,
                "-r", str(requirements), "-d", str(folder),
            ],
            folder,
            "pip could not download the pinned wheels (is the package index reachable?)",
        )  # fmt: skip
    names = sorted(p.name for p in folder.glob("*.whl"))
    done.write_text("\n".join(names) + "\n", encoding="utf-8")
    return [folder / n for n in names]


def precompiled(cache: Path, interpreter: Path, shipped: list[Path]) -> list[Path]:
    """The wheels with their Python compiled to .pyc by Pyodide's own Python (in Node):
    the phone then imports without compiling, about half the imports' time."""
    folder = cache / f"pyc-{_stamp(*(w.read_bytes() for w in shipped), str(interpreter).encode())}"
    done = [folder / w.name for w in shipped]
    if all(p.is_file() for p in done):
        return done
    if shutil.which("node") is None:
        raise SiteError("node is not installed: it compiles the wheels with Pyodide's Python")
    with tempfile.TemporaryDirectory() as scratch:
        given, made = Path(scratch) / "in", Path(scratch) / "out"
        given.mkdir()
        made.mkdir()
        for wheel in shipped:
            shutil.copyfile(wheel, given / wheel.name)
        script = Path(str(resources.files("adjudicator.web") / "precompile.mjs"))
        _run(
            ["node", str(script), str(interpreter), str(given), str(made)],
            Path(scratch),
            "Pyodide could not compile the wheels",
        )
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(made, folder)
    for older in cache.glob("pyc-*"):  # the project's wheel changes with every edit: keep one
        if older != folder:
            shutil.rmtree(older, ignore_errors=True)
    return done


# --- the project's own wheel: the core, pure Python ----------------------------------------------


def _core_files() -> Iterator[tuple[str, bytes]]:
    root = Path(str(PACKAGE))
    for path in sorted(root.rglob("*")):
        inside = "adjudicator/" + path.relative_to(root).as_posix()
        if (
            not path.is_file()
            or "__pycache__" in path.parts
            or path.suffix not in (".py", ".json", ".typed", ".txt")  # .txt: data tables
            or any(inside == e or inside.startswith(e + "/") for e in EDGES)
            or inside.startswith(f"adjudicator/{samples.FOLDER}/")  # below, once
        ):
            continue
        yield inside, path.read_bytes()
    for sample in sorted((root / samples.FOLDER).glob("*.json")):
        # the shipped samples (a link in a clone, which rglob does not follow): Samples opens
        # them in the phone as `serve` does; about 135 KB compressed, less than the site
        # would carry them as answers
        yield f"adjudicator/{samples.FOLDER}/{sample.name}", sample.read_bytes()
    for po in sorted(root.glob(f"locale/*/LC_MESSAGES/{i18n.DOMAIN}.po")):
        # the rulings' words, compiled (the page's own come as i18n/LANG.json)
        inside = "adjudicator/" + po.relative_to(root).with_suffix(".mo").as_posix()
        yield inside, i18n.compile_po(po.read_text("utf-8"))


def project_wheel(folder: Path) -> Path:
    """The project's core as a pure-Python wheel (no edge modules, no compiled engine)."""
    dist = f"skitgubbe_adjudicator-{__version__}"
    info = f"{dist}.dist-info"
    files = dict(_core_files())
    files[f"{info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: skitgubbe-adjudicator\nVersion: {__version__}\n"
        "Summary: The rules adjudicator's core, for the in-browser engine (no edges).\n"
    ).encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: adjudicator site\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [
        f"{name},sha256="
        f"{base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}"
        for name, data in files.items()
    ]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    target = folder / f"{dist}-py3-none-any.whl"
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return target


# --- the site -----------------------------------------------------------------------------


def answered(code: str = i18n.SOURCE) -> dict[str, tuple[int, str]]:
    """The calls that read no input, answered now by the same dispatcher in the language
    ``code`` (the variants' titles, each rule option's description): the set-up form is
    usable before the in-browser engine has started, in the page's language."""
    from adjudicator.service import page
    from adjudicator.service.routes import answer

    paths = ["/api/variants", *(f"/api/variants/{v['name']}" for v in page.variants())]
    return {f"GET {p}": answer("GET", p, f"lang={code}") for p in paths}


@dataclass(frozen=True)
class Built:
    """What was written: the folder, its files and their total size in bytes."""

    folder: Path
    files: list[str]
    size: int


def build(
    out: Path, cache: Path | None = None, say: Callable[[str], None] = lambda _: None
) -> Built:
    """Write the static site to ``out`` (made if missing; files of an earlier build replaced)."""
    cache = cache or cache_folder()
    say("Pyodide (npm)")
    interpreter = pyodide(cache)
    say("pinned wheels (package index)")
    pinned = wheels(cache, platform(interpreter))
    files = page_files("worker")
    for path in SITE_FILES:
        files[path] = (STATIC / path.removeprefix("static/")).read_bytes()
    for code in i18n.LANGUAGES:  # the page reads its own language's: static/answers/sv.json
        files[f"static/answers/{code}.json"] = json.dumps(
            answered(code), ensure_ascii=False
        ).encode()
    for name in PYODIDE_FILES:
        files[f"pyodide/{name}"] = (interpreter / name).read_bytes()
    say("the project's wheel, and .pyc for every wheel (Pyodide's Python, in Node)")
    with tempfile.TemporaryDirectory() as scratch:
        own = project_wheel(Path(scratch))
        shipped = precompiled(cache, interpreter, [own, *pinned])
        for wheel in shipped:
            files[f"wheels/{wheel.name}"] = wheel.read_bytes()
    files["wheels/wheels.json"] = json.dumps([w.name for w in shipped]).encode()
    files["sw.js"] = service_worker(files).encode()
    for stale in ("static", "i18n", "pyodide", "wheels"):
        shutil.rmtree(out / stale, ignore_errors=True)
    for path, data in files.items():
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return Built(out, sorted(files), sum(len(d) for d in files.values()))
