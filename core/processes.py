"""Process-level helpers: is a process still running (for leases and the hub file, whose holders may
have crashed), settling the heap of a long-running one, keeping glibc's heap small (one arena,
freed pages handed back), and pausing the garbage collector while a large answer is built."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator


def pid_alive(pid: object) -> bool:
    """False when ``pid`` certainly names no running process; True when it does or cannot tell."""
    if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
        return False
    if sys.platform == "win32":
        return _windows_pid_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    except OSError:
        return True
    return True


def _windows_pid_alive(pid: int) -> bool:
    import ctypes
    from ctypes import wintypes

    kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]  # Windows-only
    process_query_limited_information, still_active = 0x1000, 259
    handle = kernel32.OpenProcess(process_query_limited_information, False, pid)
    if not handle:
        return bool(ctypes.get_last_error() == 5)  # type: ignore[attr-defined]  # Windows-only name; access denied: it exists, another user's
    try:
        code = wintypes.DWORD()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return True
        return code.value == still_active
    finally:
        kernel32.CloseHandle(handle)


def settle_heap() -> None:
    """Move every object alive into the garbage collector's permanent generation (``gc.freeze``):
    for a long-running process, once it has loaded what it serves with.

    A server holds ~100k objects from its imports (the MCP SDK, pydantic's schemas). A full
    collection walks all of them (~20 ms here), and the thousands of objects a broad answer keeps
    alive while it is built bring one on every call or two: the slow tail of search_nodes and
    read_graph. Frozen, they are never walked again; what is made later is collected as before."""
    gc.freeze()


def _glibc() -> object | None:
    """glibc with ``mallopt`` and ``malloc_trim``, or None (other platforms and libcs)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        if libc.mallopt and libc.malloc_trim:  # musl has neither
            return libc
    except (OSError, AttributeError):
        pass
    return None


def share_malloc_arenas() -> None:
    """Every thread shares glibc's one heap (``M_ARENA_MAX`` = 1): for a process's entry point,
    before any thread starts (glibc fixes the limit when the first thread heap is made).

    By default a thread that meets contention gets a heap of its own and keeps its pages: the
    model's loading and worker threads, the quick check's, the readers' left ~20 MB of freed
    memory resident in a server that ``malloc_trim`` could not give back."""
    libc = _glibc()
    if libc is not None:
        libc.mallopt(-8, 1)  # type: ignore[attr-defined]  # M_ARENA_MAX


def release_freed_memory() -> None:
    """Hand freed heap pages back to the system (glibc's ``malloc_trim``; a no-op elsewhere): after
    a burst that parsed or computed through much more memory than it keeps."""
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)  # type: ignore[attr-defined]  # a C function, looked up at run time


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside: for building a large answer of plain dicts and lists (parsed
    JSON, which holds no cycles), that a collection would only walk. At 10k entities a broad
    search_nodes built ~70k such objects and the collections they set off made its p95 ~55 ms
    against a median of ~17. The collector is process-wide: other threads go without it for those
    milliseconds. It is switched back on only by a caller that found it on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
