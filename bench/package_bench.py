"""The frozen app's size and start-up (``./dev package`` first).

- size of ``dist/Hipocampo`` unpacked, and packed as tar+gzip (what the Linux tarball is), tar+xz
  (what the .deb and the Windows installer's LZMA come close to) and tar+zstd;
- start to the window shown: the app under Xvfb (Qt's real xcb plugin), polled with ``xwininfo``
  until a top-level window of class Hipocampo is viewable; each run with a new HOME (a first start:
  new memory, first-run screen);
- start to the first tools/list: ``Hipocampo mcp`` driven by the MCP SDK's stdio client.

Usage::

    .venv/bin/python bench/package_bench.py [--bundle dist/Hipocampo] [--runs 5] [--packers gz,xz,zst]
        [--against OTHER_BUNDLE]

(``zstd -19`` alone takes minutes on two busy cores: ``--packers xz`` measures what the goal uses.)
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[1]


def du_mb(folder: Path) -> float:
    return sum(p.lstat().st_size for p in folder.rglob("*")) / 1e6


def packed_mb(folder: Path, compressor: list[str]) -> float:
    tar = subprocess.Popen(["tar", "-C", str(folder.parent), "-cf", "-", folder.name], stdout=subprocess.PIPE)
    packed = subprocess.run(compressor, stdin=tar.stdout, stdout=subprocess.PIPE, check=True).stdout
    tar.wait()
    return len(packed) / 1e6


def env_for(home: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(home), "PATH": os.environ["PATH"], "LANG": "C.UTF-8", **extra}


def window_seconds(exe: Path, display: str) -> float:
    """Start to a viewable top-level window of class Hipocampo."""
    with tempfile.TemporaryDirectory() as tmp:
        env = env_for(Path(tmp), DISPLAY=display, HIPOCAMPO_ENDPOINT_FILE=str(Path(tmp) / "endpoint.json"))
        log = Path(tmp) / "app.log"
        start = time.perf_counter()
        process = subprocess.Popen([str(exe)], env=env, stdout=subprocess.DEVNULL, stderr=log.open("w"))
        try:
            while time.perf_counter() - start < 60:
                if process.poll() is not None:
                    raise RuntimeError(f"the app exited ({process.returncode}) before its window showed: "
                                       f"{log.read_text()[-2000:]}")
                tree = subprocess.run(["xwininfo", "-root", "-children", "-display", display],
                                      capture_output=True, text=True).stdout
                # The main window by its class (its title names the open memory: "memory.db — Hipocampo").
                for window_id in re.findall(r'^\s+(0x[0-9a-f]+) ".*": \("[^"]*" "Hipocampo"\)', tree,
                                            flags=re.MULTILINE):
                    info = subprocess.run(["xwininfo", "-id", window_id, "-display", display],
                                          capture_output=True, text=True).stdout
                    if "IsViewable" in info:
                        return time.perf_counter() - start
            raise RuntimeError(f"no window within 60 s: {log.read_text()[-2000:]}")
        finally:
            process.terminate()
            process.wait(timeout=30)


async def tools_list_seconds(exe: Path) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        params = StdioServerParameters(command=str(exe), args=["mcp"], env=env_for(Path(tmp)), cwd=tmp)
        start = time.perf_counter()
        with open(os.devnull, "w") as errlog:
            async with Client(stdio_client(params, errlog=errlog),
                              client_info=types.Implementation(name="bench", version="1")) as client:
                await client.list_tools()
                return time.perf_counter() - start


def start_xvfb() -> tuple[subprocess.Popen[bytes], str]:
    """An Xvfb on a display of its own (a high, random number: other agents on this machine start
    theirs from :0) that does not reset when its last client leaves: a start that connected while it
    reset after the previous app quit failed with "could not connect to display"."""
    for display in random.sample(range(300, 900), 20):
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", f":{display}", "-displayfd", str(write), "-screen", "0", "1600x1000x24",
                                 "-nolisten", "tcp", "-noreset"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            if pipe.readline().strip() == str(display):  # written once it accepts clients; empty if it quit
                return xvfb, f":{display}"
        xvfb.wait()
    raise RuntimeError("no free X display")


def _executable(bundle: Path) -> Path:
    return bundle / ("Hipocampo.exe" if sys.platform == "win32" else "Hipocampo")


def _report(label: str, runs: list[float]) -> None:
    print(f"{label:15} median {statistics.median(runs):.2f} s  runs {', '.join(f'{s:.2f}' for s in runs)}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / "Hipocampo")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--packers", default="gz,xz,zst",
                        help="which packed sizes to measure (comma-separated: gz, xz, zst; empty: none)")
    parser.add_argument("--against", type=Path, help="another bundle, timed in turn with this one")
    args = parser.parse_args()
    exe = _executable(args.bundle)
    print("load average    " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    print(f"unpacked        {du_mb(args.bundle):7.1f} MB")
    wanted = set(filter(None, args.packers.split(",")))
    for key, name, command in (("gz", "tar.gz -6", ["gzip", "-6"]), ("xz", "tar.xz -6", ["xz", "-6", "-T2"]),
                               ("zst", "tar.zst -19", ["zstd", "-19", "-T2", "-q"])):
        if key in wanted and shutil.which(command[0]):
            print(f"{name:15} {packed_mb(args.bundle, command):7.1f} MB", flush=True)

    # With --against, the two bundles start alternately, so both see the same moments of a busy machine.
    exes = {"": exe} | ({"other": _executable(args.against)} if args.against else {})
    lists: dict[str, list[float]] = {key: [] for key in exes}
    for _ in range(args.runs):
        for key, program in exes.items():
            lists[key].append(anyio.run(tools_list_seconds, program))
    for key, runs in lists.items():
        _report(f"tools/list {key}", runs)
    if shutil.which("Xvfb") and shutil.which("xwininfo"):
        xvfb, display = start_xvfb()
        windows: dict[str, list[float]] = {key: [] for key in exes}
        try:
            for _ in range(args.runs):
                for key, program in exes.items():
                    if xvfb.poll() is not None:  # another process on this shared machine stopped it
                        xvfb, display = start_xvfb()
                    windows[key].append(window_seconds(program, display))
        finally:
            xvfb.terminate()
        for key, runs in windows.items():
            _report(f"window {key}", runs)
    print("load average    " + " ".join(f"{x:.1f}" for x in os.getloadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
