"""Latency of ``toskit lsp`` as an editor sees it (issue #33, item 2).

    python bench/bench_lsp.py [--nodes 300] [--edits 20]

Starts ``python -m toskit lsp`` and talks to it over stdio, as an editor
does (a small JSON-RPC client here, nothing in the server measured from
inside). The template is benchmark B1's (``gen_template.py``) with its
types moved into an imported ``types.yaml``, so an edit of the template
also shows what is reused: the import is parsed once, not on every edit.

Measured, wall time from the message sent to the answer received:

* **diagnostics after ``didChange``**: 20 incremental edits of one value in
  the middle of the template (every other one a typo of a property name, so
  the published list changes), each timed to the ``publishDiagnostics`` of
  its version. Target: median ≤ 150 ms.
* **hover** on a property value and **completion** under a node template's
  ``properties:`` (20 each, on the analysed text). Target: median ≤ 50 ms.

Exit status 1 when a target is missed. Figures to ``$TOSKIT_BENCH_JSON``.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from gen_template import generate  # noqa: E402

TARGETS_MS = {"diagnostics": 150.0, "hover": 50.0, "completion": 50.0}


class Client:
    """A minimal LSP client over a subprocess's stdio (Content-Length framing)."""

    def __init__(self, command: list[str]) -> None:
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.messages: queue.Queue[dict] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.proc.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m).get("result")

    def wait(self, match: Any, timeout: float = 120) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.0, deadline - time.monotonic()))
            if match(message):
                return message

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


def _cpu_ms(pid: int) -> float | None:
    """CPU time (user + system) the process has used, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def _published(uri: str, version: int) -> Any:
    return lambda m: (
        m.get("method") == "textDocument/publishDiagnostics"
        and m["params"]["uri"] == uri
        and m["params"].get("version") == version
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--edits", type=int, default=20)
    args = parser.parse_args(argv)

    text = generate(args.nodes)
    head, topology = text.split("topology_template:", 1)
    folder = Path(tempfile.mkdtemp(prefix="toskit-bench-lsp-"))
    (folder / "types.yaml").write_text(head, encoding="utf-8")
    version_line = head.splitlines()[0]
    main_text = f"{version_line}\nimports:\n  - types.yaml\ntopology_template:{topology}"
    path = folder / "service.yaml"
    path.write_text(main_text, encoding="utf-8")
    uri = path.as_uri()
    lines = main_text.split("\n")

    client = Client([sys.executable, "-m", "toskit", "lsp"])
    times: dict[str, list[float]] = {"diagnostics": [], "hover": [], "completion": []}
    try:
        client.request(
            "initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {}}
        )
        client.notify("initialized", {})
        started = time.perf_counter()
        client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": main_text}},
        )
        first = client.wait(_published(uri, 1))
        open_ms = (time.perf_counter() - started) * 1000
        baseline = len(first["params"]["diagnostics"])

        # The edits: a node template in the middle, its label value, and every
        # other time its `label:` key misspelt (one more finding).
        middle = args.nodes // 2
        key_line = next(i for i, line in enumerate(lines) if line.strip() == f"db_{middle}:")
        label_line = next(
            i for i in range(key_line, len(lines)) if lines[i].strip().startswith("label:")
        )
        label_col = lines[label_line].index("label")
        counts = []
        cpu_before = _cpu_ms(client.proc.pid)
        current = "label"
        for n in range(args.edits):
            version = n + 2
            new = "lable" if n % 2 == 0 else "label"
            change = {
                "range": {
                    "start": {"line": label_line, "character": label_col},
                    "end": {"line": label_line, "character": label_col + len(current)},
                },
                "text": new,
            }
            current = new
            started = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
            )
            message = client.wait(_published(uri, version))
            times["diagnostics"].append((time.perf_counter() - started) * 1000)
            counts.append(len(message["params"]["diagnostics"]))

        cpu_after = _cpu_ms(client.proc.pid)
        cpu_per_edit = (
            (cpu_after - cpu_before) / args.edits
            if cpu_before is not None and cpu_after is not None
            else None
        )
        port_line = next(
            i for i in range(key_line, len(lines)) if lines[i].strip().startswith("port:")
        )
        port_col = lines[port_line].index(":") + 3
        props_line = next(
            i for i in range(key_line, len(lines)) if lines[i].strip() == "properties:"
        )
        indent = len(lines[props_line]) - len(lines[props_line].lstrip()) + 2
        hover_text = ""
        for _ in range(args.edits):
            started = time.perf_counter()
            result = client.request(
                "textDocument/hover",
                {
                    "textDocument": {"uri": uri},
                    "position": {"line": port_line, "character": port_col},
                },
            )
            times["hover"].append((time.perf_counter() - started) * 1000)
            hover_text = (result or {}).get("contents", {}).get("value", "")
        labels: list[str] = []
        for _ in range(args.edits):
            started = time.perf_counter()
            result = client.request(
                "textDocument/completion",
                {
                    "textDocument": {"uri": uri},
                    "position": {"line": props_line + 1, "character": indent},
                },
            )
            times["completion"].append((time.perf_counter() - started) * 1000)
            labels = [item["label"] for item in (result or {}).get("items", [])]
    finally:
        client.close()

    medians = {name: statistics.median(values) for name, values in times.items()}
    ok = all(medians[name] <= target for name, target in TARGETS_MS.items())
    # The findings follow the edits (one more with the typo), and the answers are real.
    answers_ok = (
        counts[::2] == [baseline + 1] * len(counts[::2])
        and counts[1::2] == [baseline] * len(counts[1::2])
        and "port" in hover_text
        and len(labels) > 0
    )
    print(
        f"toskit lsp, {args.nodes} node templates ({len(main_text):,} characters, types imported), over stdio"
    )
    print(f"  open: diagnostics in {open_ms:.0f} ms (cold: first load, normative profile)")
    for name, values in times.items():
        print(
            f"  {name:<12} median {medians[name]:6.1f} ms  (min {min(values):.1f}, max {max(values):.1f}, "
            f"n={len(values)}; target ≤ {TARGETS_MS[name]:.0f} ms: {'ok' if medians[name] <= TARGETS_MS[name] else 'MISSED'})"
        )
    if cpu_per_edit is not None:
        print(
            f"  server CPU per edit: {cpu_per_edit:.0f} ms (user + system; the rest of the "
            "wall time is waiting for a core)"
        )
    print(
        f"  answers: findings {counts[:4]}…, hover mentions port: {'port' in hover_text}, {len(labels)} completion items"
    )
    print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    out_path = os.environ.get("TOSKIT_BENCH_JSON")
    if out_path:
        data = {
            "nodes": args.nodes,
            "edits": args.edits,
            "open_ms": round(open_ms, 1),
            **{f"{name}_median_ms": round(value, 1) for name, value in medians.items()},
            "targets_ms": TARGETS_MS,
            "server_cpu_ms_per_edit": None if cpu_per_edit is None else round(cpu_per_edit, 1),
            "answers_ok": answers_ok,
        }
        Path(out_path).write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0 if ok and answers_ok else 1


if __name__ == "__main__":
    sys.exit(main())
