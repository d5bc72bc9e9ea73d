"""One app per user and profile: a later launch hands its request to the running one."""

from __future__ import annotations

from pathlib import Path

from desktop.single_instance import InstanceServer, send_to_running, server_name


def test_a_second_launch_hands_over_show_and_import(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    name = server_name(tmp_path / "endpoint.json")
    assert not send_to_running({"action": "show"}, name), "nobody listens yet"
    server = InstanceServer(name)
    assert server.listen()
    try:
        with qtbot.waitSignal(server.requested, timeout=10_000) as shown:
            assert send_to_running({"action": "show"}, name)
        assert shown.args == [{"action": "show"}]
        with qtbot.waitSignal(server.requested, timeout=10_000) as imported:
            assert send_to_running({"action": "import", "paths": ["/tmp/memory.jsonl"]}, name)
        assert imported.args == [{"action": "import", "paths": ["/tmp/memory.jsonl"]}]
    finally:
        server.close()


def test_profiles_do_not_meet_and_junk_is_ignored(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    one, other = server_name(tmp_path / "a.json"), server_name(tmp_path / "b.json")
    assert one != other
    server = InstanceServer(one)
    assert server.listen()
    received: list[dict] = []
    server.requested.connect(received.append)
    try:
        assert not send_to_running({"action": "show"}, other)
        assert send_to_running({"action": "format-disk"}, one)  # delivered, but not an action we take
        with qtbot.waitSignal(server.requested, timeout=10_000):
            assert send_to_running({"action": "show"}, one)
        assert received == [{"action": "show"}]
    finally:
        server.close()


def test_a_stale_socket_from_a_crash_is_taken_over(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    name = server_name(tmp_path / "endpoint.json")
    first = InstanceServer(name)
    assert first.listen()
    first.close()  # like a crash that left nothing listening
    second = InstanceServer(name)
    try:
        assert second.listen()
        with qtbot.waitSignal(second.requested, timeout=10_000):
            assert send_to_running({"action": "show"}, name)
    finally:
        second.close()
