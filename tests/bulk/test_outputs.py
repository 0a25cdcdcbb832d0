"""No write truncates or replaces an input or a device (issue 39).

``--write-*``, ``--svg`` and ``--html`` write a file whole or not at all; a stream
(standard output or error, a pipe, a process substitution, a FIFO) is written as the
stream it is; standard input, an input of the run and a loop of links are refused with
one line, exit status 2, before a byte is read.  Every command runs in a process of its
own: what is tested is what the descriptors the shell hands over do.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import adjudicator_command as command

from adjudicator import samples
from adjudicator.cli.commands import main

LEGAL = ["pagat_3p_full", "helmfrid_3p_full", "goat_3p_full"]
ILLEGAL = ["illegal_phase2_beat"]
TIMEOUT = 120


def run(*args: str, stdin: Any = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(), *args],
        stdin=stdin if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        cwd=cwd,
    )


def shell(script: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``script`` run by bash, ``adjudicator`` being this environment's command."""
    bash = shutil.which("bash")
    assert bash is not None
    env = dict(os.environ, ADJ=" ".join(command()))
    return subprocess.run(
        [bash, "-c", script], capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd, env=env
    )


def one_line(err: str, *words: str) -> None:
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], err


@pytest.fixture
def recs(tmp_path: Path) -> Path:
    """A folder of three legal records and one illegal one."""
    folder = tmp_path / "recs"
    folder.mkdir()
    for name in LEGAL + ILLEGAL:
        (folder / f"{name}.json").write_text(samples.text(name), encoding="utf-8")
    return folder


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "f.json"
    path.write_text(samples.text("pagat_3p_full"), encoding="utf-8")
    return path


def legal_records_in(text: str) -> list[str]:
    """The variants of the records a JSON Lines text holds, one per line (each line must
    be a record)."""
    return sorted(json.loads(line)["variant"] for line in text.splitlines())


# --- standard input and the inputs are refused, untouched ------------------------------


STDIN_NAMES = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]


@pytest.mark.parametrize("name", STDIN_NAMES)
def test_writing_standard_input_is_refused_and_the_file_stays(record: Path, name: str) -> None:
    before = record.read_bytes()
    with record.open("rb") as stdin:
        done = run("check", "-", "--write-illegal", name, stdin=stdin)
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, "--write-illegal", name, "standard input")
    assert record.read_bytes() == before


def test_a_link_to_standard_input_is_refused(record: Path, tmp_path: Path) -> None:
    link = tmp_path / "in.jsonl"
    link.symlink_to("/dev/stdin")
    before = record.read_bytes()
    with record.open("rb") as stdin:
        done = run("check", "-", "--write-legal", str(link), stdin=stdin)
    assert done.returncode == 2
    one_line(done.stderr, "standard input")
    assert record.read_bytes() == before and link.is_symlink()


def test_the_file_standard_input_reads_is_refused_by_its_own_name(record: Path) -> None:
    before = record.read_bytes()
    with record.open("rb") as stdin:
        done = run("check", "-", "--write-legal", str(record), stdin=stdin)
    assert done.returncode == 2
    one_line(done.stderr, "standard input")
    assert record.read_bytes() == before


def test_a_hard_link_to_an_input_is_refused(record: Path, tmp_path: Path) -> None:
    twin = tmp_path / "twin.jsonl"
    os.link(record, twin)
    before = record.read_bytes()
    done = run("check", str(record), "--write-legal", str(twin))
    assert done.returncode == 2
    one_line(done.stderr, "--write-legal", "is an input")
    assert record.read_bytes() == before


def test_replay_refuses_to_write_its_input_before_reading_it(record: Path) -> None:
    before = record.read_bytes()
    for option in ("--svg", "--html"):
        with record.open("rb") as stdin:
            done = run("replay", "-", option, "/dev/stdin", stdin=stdin)
        assert done.returncode == 2 and done.stdout == ""
        one_line(done.stderr, option, "standard input")
        done = run("replay", str(record), option, str(record))
        assert done.returncode == 2 and done.stdout == ""
        one_line(done.stderr, option, "is an input")
    assert record.read_bytes() == before


def test_a_loop_of_links_is_one_line_and_stays_a_loop(record: Path, tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    one.symlink_to(two.name)
    two.symlink_to(one.name)
    done = run("check", str(record), "--write-legal", str(one))
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, "--write-legal", "loop")
    assert one.is_symlink() and os.readlink(one) == two.name
    assert two.is_symlink() and os.readlink(two) == one.name
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json", "one.jsonl", "two.jsonl"]


def test_every_refused_case_leaves_the_input_as_it_was(record: Path, tmp_path: Path) -> None:
    """Each way of naming the input as an output, one after the other on the same file:
    its bytes are the same after every one, and every one is one line, exit status 2."""
    before = record.read_bytes()
    link = tmp_path / "link.json"
    link.symlink_to(record)
    hard = tmp_path / "hard.json"
    os.link(record, hard)
    std_link = tmp_path / "std.json"
    std_link.symlink_to("/dev/stdin")
    loop = tmp_path / "loop.json"
    loop.symlink_to(loop.name)
    cases: list[tuple[list[str], bool]] = [
        *((["check", "-", "--write-illegal", name], True) for name in STDIN_NAMES),
        *((["check", "-", "--write-legal", name], True) for name in STDIN_NAMES),
        (["check", "-", "--write-legal", str(record)], True),
        (["check", "-", "--write-legal", str(std_link)], True),
        (["check", str(record), "--write-legal", str(record)], False),
        (["check", str(record), "--write-illegal", str(link)], False),
        (["check", str(record), "--write-legal", str(hard)], False),
        (["check", str(record), "--write-legal", str(loop)], False),
        (["check", str(record), "--json", "--write-legal", "/dev/stdout"], False),
        (["replay", "-", "--svg", "/dev/stdin"], True),
        (["replay", str(record), "--html", str(link)], False),
    ]
    for args, piped in cases:
        with record.open("rb") as stdin:
            done = run(*args, stdin=stdin if piped else None)
        assert done.returncode == 2, (args, done.stderr)
        one_line(done.stderr)
        assert record.read_bytes() == before, args
    assert link.is_symlink() and std_link.is_symlink() and loop.is_symlink()


# --- streams are written as streams ------------------------------------------------------


def test_write_legal_to_stdout_counts_the_legal_records(recs: Path) -> None:
    """The bar: ``check recs --write-legal /dev/stdout | wc -l`` counts the legal records;
    the verdicts go to stderr, so standard output holds the records alone."""
    done = shell(f'$ADJ check "{recs}" --write-legal /dev/stdout | wc -l', recs)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(len(LEGAL))
    piped = run("check", str(recs), "--write-legal", "/dev/stdout")
    assert piped.returncode == 1  # one record is illegal
    assert legal_records_in(piped.stdout) == sorted(["pagat", "helmfrid", "goat"])
    assert "illegal action 2" in piped.stderr and "Checked 4 records" in piped.stderr


def test_write_to_stdout_redirected_to_a_file_keeps_what_it_had(recs: Path) -> None:
    """``>> log``: the records are added where the shell's stream is, not put in place of
    the file through a temporary one (which would lose what the log held)."""
    log = recs.parent / "log.jsonl"
    log.write_text('{"old": 1}\n', encoding="utf-8")
    done = shell(f'$ADJ check "{recs}" --write-illegal /dev/stdout >> "{log}"', recs)
    assert done.returncode == 1, done.stderr
    lines = log.read_text(encoding="utf-8").splitlines()
    assert lines[0] == '{"old": 1}'
    assert [json.loads(line)["variant"] for line in lines[1:]] == ["pagat"]
    assert not list(recs.parent.glob(".*.part"))


def test_the_file_stdout_goes_to_is_written_as_stdout(recs: Path) -> None:
    out = recs.parent / "out.jsonl"
    done = shell(f'$ADJ check "{recs}" --write-legal "{out}" > "{out}"', recs)
    assert done.returncode == 1, done.stderr
    assert legal_records_in(out.read_text(encoding="utf-8")) == ["goat", "helmfrid", "pagat"]
    assert "illegal action 2" in done.stderr  # the verdicts, not lost with a replaced file


def test_write_to_a_process_substitution(recs: Path) -> None:
    count = recs.parent / "count.txt"
    done = shell(
        f'$ADJ check "{recs}" --write-legal >(wc -l > "{count}"); status=$?; wait; exit $status',
        recs,
    )
    assert done.returncode == 1, done.stderr
    assert "cannot write" not in done.stderr
    for _ in range(100):
        if count.exists() and count.read_text().strip():
            break
        threading.Event().wait(0.1)
    assert count.read_text().strip() == str(len(LEGAL))


def test_write_to_stderr(recs: Path) -> None:
    done = run("check", str(recs), "--write-illegal", "/dev/stderr")
    assert done.returncode == 1
    assert '"variant": "pagat"' in done.stderr or '"variant":"pagat"' in done.stderr
    assert "illegal action 2" in done.stdout


def test_write_to_a_fifo_streams_and_leaves_the_fifo(recs: Path) -> None:
    fifo = recs.parent / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []

    def read() -> None:
        with fifo.open(encoding="utf-8") as stream:
            got.append(stream.read())

    reader = threading.Thread(target=read)
    reader.start()
    done = run("check", str(recs), "--write-legal", str(fifo))
    reader.join(TIMEOUT)
    assert done.returncode == 1, done.stderr
    assert legal_records_in(got[0]) == ["goat", "helmfrid", "pagat"]
    assert fifo.is_fifo()
    assert sorted(p.name for p in recs.parent.iterdir()) == ["pipe", "recs"]


def test_json_with_records_to_stdout_is_refused(recs: Path) -> None:
    done = run("check", "--json", str(recs), "--write-legal", "/dev/stdout")
    assert done.returncode == 2 and done.stdout == ""
    one_line(done.stderr, "--json", "--write-legal", "standard output")
    # To a file, --json keeps standard output to itself: one verdict per record.
    out = recs.parent / "legal.jsonl"
    done = run("check", "--json", str(recs), "--write-legal", str(out))
    assert done.returncode == 1
    assert len(done.stdout.splitlines()) == 4
    assert legal_records_in(out.read_text(encoding="utf-8")) == ["goat", "helmfrid", "pagat"]


def test_replay_svg_to_stdout_is_the_picture_alone(record: Path) -> None:
    done = run("replay", str(record), "--svg", "/dev/stdout")
    assert done.returncode == 0, done.stderr
    assert done.stdout.lstrip().startswith("<svg") or done.stdout.lstrip().startswith("<?xml")
    assert done.stdout.rstrip().endswith("</svg>")
    assert "legal" in done.stderr


def test_a_reader_that_stops_reading_the_records_changes_no_exit_status(recs: Path) -> None:
    """``| head -1`` on the records: the run goes on quietly to its end and exits with its
    verdicts' status (1: one record is illegal), as it does for standard output."""
    done = shell(
        f'$ADJ check "{recs}" --write-legal /dev/stdout 2>err.txt | head -c 10 > /dev/null; '
        'exit "${PIPESTATUS[0]}"',
        recs.parent,
    )
    err = (recs.parent / "err.txt").read_text(encoding="utf-8")
    assert done.returncode == 1, err
    assert "Traceback" not in err and "cannot write" not in err
    assert "Checked 4 records" in err


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


# --- output files -----------------------------------------------------------------------


def test_an_output_that_is_an_input_is_refused_untouched(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    path = tmp_path / "same.jsonl"
    text = "".join(json.dumps(g) + "\n" for g in games)
    path.write_text(text, encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    for target in (str(path), str(link)):
        code, out, err = invoke("check", str(path), "--write-legal", target)
        assert code == 2 and out == ""
        one_line(err, "--write-legal")
        assert "is an input" in err
    assert path.read_text(encoding="utf-8") == text
    # A folder's walk takes no *.jsonl: the link's file is no input here, and is written
    # through the link (which stays one) with the run's illegal records: none.
    code, _, err = invoke("check", str(tmp_path), "--write-illegal", str(link))
    assert link.is_symlink() and path.read_text(encoding="utf-8") == ""


def test_the_same_output_twice_is_refused(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(games[0]) + "\n", encoding="utf-8")
    out_file = tmp_path / "out.jsonl"
    code, out, err = invoke(
        "check",
        str(path),
        "--write-legal",
        str(out_file),
        "--write-illegal",
        f"{tmp_path}/./out.jsonl",
    )
    assert code == 2 and out == ""
    one_line(err, "both name")
    assert not out_file.exists()


def test_outputs_replace_the_old_file_whole(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(g) + "\n" for g in games), encoding="utf-8")
    target = tmp_path / "legal.jsonl"
    target.write_text("old\n", encoding="utf-8")
    code, _, err = invoke("check", str(path), "--write-legal", str(target))
    assert code == 0, err
    assert [json.loads(line) for line in target.read_text().splitlines()] == games
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl", "legal.jsonl"]


def test_a_lone_surrogate_is_written_as_an_escape(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    record = dict(games[0], meta={"note": "LONE"})
    text = json.dumps(record, indent=2).replace("LONE", "\\ud800")  # a file over many lines
    (tmp_path / "r.json").write_text(text, encoding="utf-8")
    target = tmp_path / "out.jsonl"
    code, _, err = invoke("check", str(tmp_path / "r.json"), "--write-legal", str(target))
    assert code == 0, err
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 and "\\ud800" in lines[0]
    assert json.loads(lines[0])["meta"]["note"] == "\ud800"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_is_one_line_and_exit_2(tmp_path: Path, games: list[dict[str, Any]]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(games[0]), encoding="utf-8")
    with open("/dev/full", "w") as full:
        for args in (
            ("check", str(path)),
            ("check", "--json", str(path)),
            ("replay", str(path)),
            ("legal", str(path)),
            ("simulate", "--count", "3"),
        ):
            done = subprocess.run(
                [*command(), *args], stdout=full, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT
            )
            assert done.returncode == 2, (args, done.stderr)
            one_line(done.stderr, "No space left on device")
    done = run("check", str(path), "--write-illegal", "/dev/full", "--write-legal", "/dev/full")
    assert done.returncode == 2
    done = run("check", str(path), "--write-legal", "/dev/full")
    assert done.returncode == 2
    one_line(done.stderr, "--write-legal: cannot write /dev/full: No space left on device")


def test_an_output_that_cannot_be_made_leaves_no_temporary_file(
    tmp_path: Path, games: list[dict[str, Any]]
) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(games[0]) + "\n", encoding="utf-8")
    code, out, err = invoke(
        "check",
        str(path),
        "--write-illegal",
        str(tmp_path / "illegal.jsonl"),
        "--write-legal",
        str(tmp_path / "no" / "legal.jsonl"),
    )
    assert code == 2 and out == ""
    one_line(err, "--write-legal: cannot write")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


# --- a folder where a file is written ---------------------------------------------------


def test_a_folder_given_for_write_illegal_is_one_line_and_nothing_is_made(
    recs: Path, tmp_path: Path
) -> None:
    # 'newdir/' made a regular file called newdir (the slash dropped); an existing folder
    # was click's "is a directory", which did not say what the option takes
    existing = tmp_path / "existing"
    existing.mkdir()
    for target, example in ((f"{tmp_path}/newdir/", "newdir/illegal.jsonl"), (str(existing), "")):
        result = CliRunner().invoke(main, ["check", "--write-illegal", target, str(recs)])
        assert result.exit_code == 2
        one_line(result.stderr, "--write-illegal", "that is a folder", "takes a file", "JSON Lines")
        assert example in result.stderr
        assert result.stdout == ""
    assert not (tmp_path / "newdir").exists()
    assert existing.is_dir() and not any(existing.iterdir())


def test_a_folder_given_for_any_output_is_refused(tmp_path: Path) -> None:
    from adjudicator.bulk.outputs import Output, OutputError

    with pytest.raises(OutputError, match=r"^--svg .*/out/: that is a folder; --svg writes one"):
        Output("--svg", f"{tmp_path}/out/")
    assert not (tmp_path / "out").exists()


def test_a_game_of_an_input_named_by_its_id_is_an_input_too(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    log.write_text(
        (Path(__file__).parents[1] / "importers" / "import_logs" / "goat_batch.jsonl").read_text()
    )
    before = log.read_bytes()
    result = CliRunner().invoke(main, ["check", f"{log}#g-legal", "--write-legal", str(log)])
    assert result.exit_code == 2
    one_line(result.stderr, "that is an input of the run")
    assert log.read_bytes() == before
