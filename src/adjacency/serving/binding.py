"""Listening sockets and who may reach them: what both servers do before serving.

:func:`bind` opens the socket (port 0: any free one) or fails with one clear line;
:func:`allowed_hosts_for` is the Host allow-list that shields a server from
DNS-rebinding pages (:class:`~adjacency.serving.middleware.RequestGuard` enforces it);
:func:`exposure_lines` is what a server prints when others on the network can reach it.
"""

from __future__ import annotations

import socket


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (``port`` 0 picks a free one); raise ``OSError`` with a clear text."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(
            f"cannot listen on {host}:{port} ({exc.strerror}); choose another --port (0: any free)"
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def local_addresses() -> list[str]:
    """This machine's IP addresses others may reach (best effort; no network traffic)."""
    found: list[str] = []
    names = {socket.gethostname(), socket.getfqdn()}
    for name in names:
        try:
            infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
        except OSError:
            continue
        for info in infos:
            address = str(info[4][0]).split("%")[0]
            if address not in found and not address.startswith(("127.", "::1", "fe80")):
                found.append(address)
    for target in ("192.0.2.1", "2001:db8::1"):  # documentation addresses: no packet is sent
        family = socket.AF_INET6 if ":" in target else socket.AF_INET
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as probe:
                probe.connect((target, 9))
                address = str(probe.getsockname()[0]).split("%")[0]
        except OSError:
            continue
        if address not in found and not address.startswith(("127.", "::1", "0.")):
            found.append(address)
    return found


def allowed_hosts_for(host: str) -> list[str]:
    """The Host header names a server bound to ``host`` answers (DNS-rebinding shield).

    Always the loopback names and ``host`` itself; on a wildcard address also this
    machine's name and addresses, which is what others type to reach it.
    """
    allowed = [*LOOPBACK_NAMES]
    if host not in WILDCARDS:
        allowed.append(host)
        return allowed
    hostname = socket.gethostname()
    return [*allowed, hostname, socket.getfqdn(), f"{hostname}.local", *local_addresses()]


def exposure_lines(host: str, port: int) -> list[str]:
    """What a server (``adjacency play``, a league) prints when it listens beyond this
    machine: the addresses others can open, and a one-line warning (nothing for a
    loopback address)."""
    if host in LOOPBACK_NAMES:
        return []
    others = local_addresses() if host in WILDCARDS else [host]
    lines = [f"  others on your network can open {url_for(a, port)}" for a in others]
    lines.append(
        "Warning: this server is reachable from other machines: anyone who can reach it "
        "can create and watch games (moves need a seat link); stop it when you are done."
    )
    return lines


def url_for(host: str, port: int) -> str:
    """The address of the server on ``host`` and ``port`` (an IPv6 host in brackets)."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"
