"""``toskit check -j N`` (``toskit.batch``): one bad file never sinks a batch (issue #30 item 3).

A worker that dies on a file (``os._exit``, a signal, ``SystemExit``)
reports that file -- exit status 2, its error in the output -- and every
other file is checked and printed in order, also when the bad file comes
first. ``-j`` beyond the CPU count is capped, and the workers fork from a
warmed parent. Everything here is counted (files reported, exit status,
worker processes), never timed.
"""

from __future__ import annotations

import json
import os
import signal
import sys

import pytest

from toskit import batch, cli
from toskit.diagnostics import Diagnostic

DEATHS = {
    "os-exit": ("os._exit(3)", "ended with exit code 3"),
    "sigkill": ("os.kill(os.getpid(), signal.SIGKILL)", "killed by SIGKILL"),
    # faulthandler (pytest turns it on) would print the stack of the fake crash.
    "sigsegv": (
        "import faulthandler; faulthandler.disable(); os.kill(os.getpid(), signal.SIGSEGV)",
        "killed by SIGSEGV",
    ),
    "system-exit": ("sys.exit(4)", "ended with exit code"),
}


def _files(folder, n: int, bad: set[int]) -> list:
    paths = []
    for i in range(n):
        path = folder / f"{'bad' if i in bad else 'ok'}{i:03}.yaml"
        path.write_text(f"a: {i}\n")
        paths.append(path)
    return paths


def _run(argv, capsys) -> tuple[int, str, str]:
    status = cli.main([str(a) for a in argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def dying_checker(monkeypatch):
    """Register a ``yaml`` checker that dies (as ``how`` says) on files named bad*."""
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))

    def register(how: str) -> None:
        def checker(text: str, name: str) -> list[Diagnostic]:
            if os.path.basename(name).startswith("bad"):
                exec(how, {"os": os, "signal": signal, "sys": sys})  # noqa: S102 - the test's own code
            return [Diagnostic("info", "pid", str(os.getpid()), file=name, line=1)]

        cli.register_checker("yaml", checker)

    return register


@pytest.mark.parametrize("death", list(DEATHS), ids=list(DEATHS))
def test_a_worker_that_dies_on_the_first_file_sinks_nothing_else(
    tmp_path, capsys, dying_checker, death
) -> None:
    how, words = DEATHS[death]
    dying_checker(how)
    paths = _files(tmp_path, 60, bad={0})
    status, out, err = _run(["check", "-j", "2", *paths], capsys)
    assert status == 2
    checked = [
        line.split(" as ")[0].removeprefix("checked ")
        for line in out.splitlines()
        if line.startswith("checked ")
    ]
    assert checked == [str(p) for p in paths[1:]]  # all 59 others, in order
    errors = [line for line in err.splitlines() if line.startswith("toskit check: ")]
    assert len(errors) == 1 and str(paths[0]) in errors[0] and words in errors[0], err
    assert "59 files checked" in err


def test_several_bad_files_anywhere_are_each_reported(tmp_path, capsys, dying_checker) -> None:
    dying_checker("os._exit(3)")
    bad = {0, 1, 17, 30, 59}
    paths = _files(tmp_path, 60, bad=bad)
    status, out, _ = _run(["check", "-j", "2", "--format", "json", *paths], capsys)
    assert status == 2
    report = json.loads(out)
    assert [entry["file"] for entry in report] == [str(p) for p in paths]
    failed = [i for i, entry in enumerate(report) if "error" in entry]
    assert failed == sorted(bad)
    assert all("worker process ended with exit code 3" in report[i]["error"] for i in failed)
    # The others were checked in workers (not in this process) and reported normally.
    pids = {entry["diagnostics"][0]["message"] for entry in report if "error" not in entry}
    assert str(os.getpid()) not in pids


def test_an_exception_in_a_worker_is_that_files_finding(tmp_path, capsys, dying_checker) -> None:
    dying_checker("raise RuntimeError('checker bug')")
    paths = _files(tmp_path, 10, bad={0, 5})
    status, out, err = _run(["check", "-j", "2", *paths], capsys)
    assert status == 2
    assert sum(line.startswith("checked ") for line in out.splitlines()) == 8
    assert err.count("RuntimeError: checker bug") == 2


def test_sarif_report_of_a_batch_with_a_dying_file(tmp_path, capsys, dying_checker) -> None:
    dying_checker("os._exit(3)")
    paths = _files(tmp_path, 8, bad={0})
    status, out, _ = _run(["check", "-j", "2", "--format", "sarif", *paths], capsys)
    assert status == 2
    assert "worker process ended with exit code 3" in out


def test_jobs_beyond_the_cpu_count_are_capped(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))
    cli.register_checker(
        "yaml", lambda text, name: [Diagnostic("info", "pid", str(os.getpid()), file=name, line=1)]
    )
    monkeypatch.setattr(batch, "cpu_count", lambda: 2)
    paths = _files(tmp_path, 40, bad=set())
    status, out, _ = _run(["check", "-j", "64", "--format", "json", *paths], capsys)
    assert status == 0
    pids = {entry["diagnostics"][0]["message"] for entry in json.loads(out)}
    assert 1 <= len(pids) <= 2 and str(os.getpid()) not in pids


def test_run_caps_jobs_and_replaces_dead_workers() -> None:
    started = []

    def work(task: int) -> int:
        if task in (3, 7):
            os._exit(9)
        return os.getpid()

    results = list(
        batch.run(
            list(range(12)),
            64,
            work,
            lambda task, why: (task, why),
            warm=lambda: started.append(os.getpid()),
        )
    )
    assert started == [os.getpid()]  # warmed once, in this process
    crashed = [r for r in results if isinstance(r, tuple)]
    assert crashed == [
        (3, "its worker process ended with exit code 9"),
        (7, "its worker process ended with exit code 9"),
    ]
    pids = {r for r in results if not isinstance(r, tuple)}
    # At most cpu_count() workers at a time, plus one replacement per death.
    assert len(pids) <= batch.cpu_count() + 2
    assert os.getpid() not in pids


def test_one_job_or_one_task_runs_here_without_warming() -> None:
    warmed = []
    assert list(
        batch.run(
            [1, 2], 1, lambda t: (t, os.getpid()), lambda t, w: None, warm=lambda: warmed.append(1)
        )
    ) == [(1, os.getpid()), (2, os.getpid())]
    assert list(
        batch.run([1], 8, lambda t: os.getpid(), lambda t, w: None, warm=lambda: warmed.append(1))
    ) == [os.getpid()]
    assert warmed == []


def test_workers_fork_from_a_warmed_parent(tmp_path, capsys, monkeypatch) -> None:
    # Plain YAML files never import the roles checker; a worker that has it
    # (and the TOSCA loader) before its first file got it from the parent's warm-up.
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))
    cli.register_checker(
        "yaml",
        lambda text, name: [
            Diagnostic(
                "info",
                "warm",
                json.dumps(
                    sorted(
                        m
                        for m in ("toskit.conditions", "toskit.tosca.load.loader")
                        if m in sys.modules
                    )
                ),
                file=name,
                line=1,
            )
        ],
    )
    paths = _files(tmp_path, 6, bad=set())
    status, out, _ = _run(["check", "-j", "2", "--format", "json", *paths], capsys)
    assert status == 0
    seen = {entry["diagnostics"][0]["message"] for entry in json.loads(out)}
    assert seen == {json.dumps(["toskit.conditions", "toskit.tosca.load.loader"])}


def test_the_warm_up_never_runs_a_registered_checker_in_this_process(
    tmp_path, capsys, monkeypatch
) -> None:
    log = tmp_path / "pids"
    monkeypatch.setattr(cli, "CHECKERS", dict(cli.CHECKERS))

    def checker(text: str, name: str) -> list[Diagnostic]:
        with open(log, "a") as out:
            out.write(f"{os.getpid()}\n")
        return []

    for kind in ("tosca", "schema", "yaml", "roles"):
        cli.register_checker(kind, checker)
    paths = _files(tmp_path, 6, bad=set())
    status, _, _ = _run(["check", "-j", "2", *paths], capsys)
    assert status == 0
    pids = log.read_text().split()
    assert len(pids) == 6 and str(os.getpid()) not in pids


def test_a_batch_of_tosca_files_warms_only_the_tosca_checker(tmp_path, monkeypatch) -> None:
    # The parent warms what the first files need (#31): for TOSCA files, not
    # the schema checker (nor the roles one); any other kind among them, or
    # nothing to sniff, warms every checker as before.
    calls: list[str] = []
    for name in ("check_tosca", "check_schema", "check_yaml"):
        monkeypatch.setattr(cli, name, lambda text, n, _name=name: calls.append(_name) or [])
    tosca = []
    for i in range(3):
        path = tmp_path / f"t{i}.yaml"
        path.write_text("tosca_definitions_version: tosca_simple_yaml_1_3\n")
        tosca.append((str(path), None, None, None))
    cli._warm(tosca)
    assert calls == ["check_tosca", "check_tosca"]
    everything = ["check_tosca", "check_tosca", "check_schema"]
    roles = ("-", "roles_metadata: {}\n", None, None)  # a text read from stdin is sniffed too
    for tasks in ([*tosca, roles], [], [(str(tmp_path / "missing.yaml"), None, None, None)]):
        calls.clear()
        cli._warm(tasks)
        assert calls == everything, tasks
    # Only a regular file is read: a FIFO (no writer: opening it would block) is not.
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    assert cli._all_tosca([*tosca, (str(fifo), None, None, None)]) is False
    assert cli._all_tosca(tosca[:1]) is True
