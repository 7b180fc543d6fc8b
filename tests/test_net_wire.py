"""The wire's codec and addresses: versioned JSON lines, capped, loopback only."""

from __future__ import annotations

import pytest

from kiev_tui.net import wire
from kiev_tui.net.wire import Address, WireError, decode, encode, parse_address


def test_a_message_is_one_compact_json_line_with_version_and_type() -> None:
    assert encode("act", ref=2, action={"kind": "end_phase"}) == \
        b'{"v":1,"t":"act","ref":2,"action":{"kind":"end_phase"}}\n'
    assert decode(b'{"v":1,"t":"ping"}', ("ping",)) == {"v": 1, "t": "ping"}


@pytest.mark.parametrize("line, why", [
    (b"\xff\xfe", "not a JSON line (UnicodeDecodeError)"),
    (b"{", "not a JSON line (JSONDecodeError)"),
    (b"[1]", "a message is a JSON object"),
    (b'{"v":2,"t":"ping"}', "protocol version 2 is not 1"),
    (b'{"t":"ping"}', "protocol version None is not 1"),
    (b'{"v":1,"t":"welcome"}', "unknown message type 'welcome'"),
    (b'{"v":1,"t":"ping","x":NaN}', "NaN is not a number the protocol allows"),
    (b"[" * 100000 + b"]" * 100000, "not a JSON line (RecursionError)"),
])
def test_what_is_not_a_message_is_refused_in_one_line(line: bytes, why: str) -> None:
    with pytest.raises(WireError) as caught:
        decode(line, ("ping", "act"))
    assert str(caught.value) == why


def test_lines_over_the_cap_are_refused_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "MAX_LINE", 64)
    with pytest.raises(WireError, match="over the 64-byte limit"):
        decode(b'{"v":1,"t":"ping","pad":"' + b"x" * 64 + b'"}', ("ping",))
    with pytest.raises(WireError, match="over the 64-byte limit"):
        encode("ping", pad="x" * 64)


def test_addresses() -> None:
    assert parse_address("unix:/tmp/k.sock") == Address("unix", path="/tmp/k.sock")
    assert parse_address("tcp:127.0.0.1:0") == Address("tcp", host="127.0.0.1", port=0)
    assert str(parse_address("tcp:[::1]:7000")) == "tcp:::1:7000"
    for bad, why in [("tcp:0.0.0.0:7000", "loopback only"), ("tcp:example.org:22", "loopback only"),
                     ("tcp:127.0.0.1:99999", "expected tcp:127.0.0.1:PORT"), ("kiev.sock", "is not an address"),
                     ("http://x", "unknown kind of address 'http'"), ("unix:", "is not an address")]:
        with pytest.raises(ValueError, match=why):
            parse_address(bad)
