"""TLS: ``--certfile/--keyfile`` serve HTTPS and WSS; ``adjacency connect`` verifies the
server's certificate (``--cafile`` for a private authority) and refuses one it cannot."""

from __future__ import annotations

import json
import ssl
import urllib.request
from pathlib import Path

import pytest

from league_helpers import add_member, make_league, start_client, start_server, wait_until
from net_helpers import free_port

trustme = pytest.importorskip("trustme")

pytestmark = pytest.mark.slow


def test_https_and_wss_with_a_certificate_the_client_verifies(tmp_path: Path) -> None:
    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1", "localhost")
    cert, key, ca = tmp_path / "cert.pem", tmp_path / "key.pem", tmp_path / "ca.pem"
    certificate.cert_chain_pems[0].write_to_path(str(cert))
    certificate.private_key_pem.write_to_path(str(key))
    authority.cert_pem.write_to_path(str(ca))
    db = tmp_path / "league.db"
    make_league(db)
    add_member(db, "house", "house", "random")
    token = add_member(db, "remote")
    port = free_port()
    url = f"https://127.0.0.1:{port}"
    server = start_server(
        db, port, tmp_path / "server.log", "--certfile", str(cert), "--keyfile", str(key)
    )
    try:
        context = ssl.create_default_context(cafile=str(ca))
        with urllib.request.urlopen(f"{url}/api/league", context=context, timeout=30) as answer:
            assert json.loads(answer.read())["settings"]["rows"] == 6
        untrusting = start_client(url, token, "random", tmp_path / "untrusting.log")
        wait_until(lambda: "CERTIFICATE_VERIFY_FAILED" in untrusting.text(), 60, "a TLS refusal")
        untrusting.kill()
        trusting = start_client(
            url, token, "random", tmp_path / "trusting.log", "--cafile", str(ca), "--games", "1"
        )
        assert trusting.popen.wait(120) == 0, trusting.text()
        assert "connected as remote" in trusting.text()
        assert " ended: " in trusting.text()
    finally:
        server.stop()
