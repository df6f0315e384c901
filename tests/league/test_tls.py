"""TLS: ``--certfile/--keyfile`` serve HTTPS and WSS; ``adjacency connect`` verifies the
server's certificate (``--cafile`` for a private authority) and refuses one it cannot."""

from __future__ import annotations

import json
import ssl
import urllib.request
from pathlib import Path

import pytest

from league_helpers import add_member, make_league, start_client, start_server

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
    add_member(db, "house-random", "house", "random")
    token = add_member(db, "remote")
    server = start_server(
        db, 0, tmp_path / "server.log", "--certfile", str(cert), "--keyfile", str(key)
    )
    url = server.url
    try:
        context = ssl.create_default_context(cafile=str(ca))
        with urllib.request.urlopen(f"{url}/api/league", context=context, timeout=30) as answer:
            assert json.loads(answer.read())["settings"]["rows"] == 6
        # A5: a certificate that does not verify, or an http:// URL for this TLS server,
        # is final: one clear line, exit status 2, no retry loop.
        untrusting = start_client(url, token, "random", tmp_path / "untrusting.log")
        assert untrusting.popen.wait(60) == 2, untrusting.text()
        assert_one_final_line(untrusting.text(), "TLS certificate was not accepted", "--cafile")
        plain = start_client(url.replace("https:", "http:"), token, "random", tmp_path / "p.log")
        assert plain.popen.wait(60) == 2, plain.text()
        assert_one_final_line(plain.text(), "speaks TLS", "https://")
        trusting = start_client(
            url, token, "random", tmp_path / "trusting.log", "--cafile", str(ca), "--games", "1"
        )
        assert trusting.popen.wait(120) == 0, trusting.text()
        assert "connected as remote" in trusting.text()
        assert " ended: " in trusting.text()
    finally:
        server.stop()


def assert_one_final_line(text: str, *words: str) -> None:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert all(word in lines[0] for word in words), text
    assert "Traceback" not in text and "reconnecting" not in text


def test_an_https_url_for_a_server_without_tls_is_a_final_error(tmp_path: Path) -> None:
    db = tmp_path / "league.db"
    make_league(db)
    token = add_member(db, "remote")
    server = start_server(db, 0, tmp_path / "server.log")
    try:
        https = server.url.replace("http://", "https://")  # the server speaks plain HTTP
        client = start_client(https, token, "random", tmp_path / "c.log")
        assert client.popen.wait(60) == 2, client.text()
        assert_one_final_line(client.text(), "does not speak TLS", "http://")
    finally:
        server.stop()
