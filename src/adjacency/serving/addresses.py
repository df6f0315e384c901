"""The key a server keeps of a client's address: :func:`address_key`.

Both front ends group visitors by address where identities cost nothing (a league
person's join, a puzzle player's cookie): people of one address vouch once for a
league person, and a puzzle's solution shown at one address makes a later solve
there unrated. They keep a hash, not the address.
"""

from __future__ import annotations

import hashlib
import ipaddress


def address_key(host: str | None) -> str:
    """The key of a client's address ``host`` (``request.client.host``): a SHA-256 hash,
    not the address, of the whole IPv4 address (an IPv4-mapped IPv6 address as its IPv4
    one) or of the IPv6 /64 (one household's or school's prefix, inside which an
    attacker gets addresses for free). Anything else (no address) hashes as it is."""
    text = host or "?"
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        if isinstance(address, ipaddress.IPv6Address):
            mapped = address.ipv4_mapped
            text = str(mapped or ipaddress.ip_network(f"{address}/64", strict=False))
    return hashlib.sha256(f"adjacency-address:{text}".encode()).hexdigest()[:32]
