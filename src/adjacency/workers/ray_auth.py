"""Joining a Ray cluster that uses token authentication.

Ray (2.5x and later) protects a cluster with a shared token when the head was
started with ``RAY_AUTH_MODE=token``, or when ``ray start --head`` finds a token
already saved on that machine (``~/.ray/auth_token``, which any private
``ray.init()`` writes). A process that joins such a cluster by an explicit
address must itself be in token mode and hold the same token; Ray does not
switch a joining process into token mode on its own, so without help the join
prints Ray's ``InvalidAuthToken`` warning every second for about 20 s and then
fails with a message about a missing cluster.

This module makes the join do what a user expects:

* :func:`use_token_if_available` puts this process (and the Ray workers it starts)
  in token mode when ``RAY_AUTH_MODE`` is unset and a token is where Ray looks for
  one: ``RAY_AUTH_TOKEN``, the file named by ``RAY_AUTH_TOKEN_PATH``, or
  ``~/.ray/auth_token``. A token-mode client also joins a cluster without
  authentication, so this never breaks a join that worked.
* :func:`refusal` asks the cluster's GCS once, quietly, before
  ``ray.init``: a refused token becomes one :class:`~adjacency.workers.executor.ExecutorUnavailable`
  line that names token authentication and what to set, within a second.
* :func:`quiet_private_runtime` sets the mode explicitly for a private runtime
  (Ray's default, token mode) so that Ray does not warn about choosing it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import IO

MODE_VARIABLE = "RAY_AUTH_MODE"
TOKEN_VARIABLE = "RAY_AUTH_TOKEN"
TOKEN_PATH_VARIABLE = "RAY_AUTH_TOKEN_PATH"
DEFAULT_TOKEN_FILE = Path("~/.ray/auth_token")

HOW_TO = (
    f"set {TOKEN_VARIABLE} to the cluster's token (on the head: `ray get-auth-token`), or save "
    f"it in {DEFAULT_TOKEN_FILE} or a file named by {TOKEN_PATH_VARIABLE}; see docs/distributed.md"
)


def token_source() -> str | None:
    """Where Ray will find a token for this process, or None: the variable or the file."""
    if os.environ.get(TOKEN_VARIABLE, "").strip():
        return TOKEN_VARIABLE
    named = os.environ.get(TOKEN_PATH_VARIABLE)
    path = Path(named) if named else DEFAULT_TOKEN_FILE.expanduser()
    try:
        with path.open("rb") as file:
            return str(path) if file.read(4096).strip() else None
    except OSError:
        return None


def _set_mode(ray: ModuleType, mode: str) -> None:
    """Switch this process's Ray configuration to ``mode``. Ray reads the variable into
    its configuration when it is imported, so that is refreshed too, as Ray's own
    ``_enable_token_auth`` does (where this Ray has those internals; else the variable
    alone, which the processes Ray starts read)."""
    os.environ[MODE_VARIABLE] = mode
    raylet = getattr(ray, "_raylet", None)
    config = getattr(raylet, "Config", None)
    loader = getattr(raylet, "AuthenticationTokenLoader", None)
    if config is not None and loader is not None:
        config.initialize("")
        loader.instance().reset_cache()


def use_token_if_available(ray: ModuleType) -> bool:
    """Token mode for this process when ``RAY_AUTH_MODE`` is unset and a token is available.

    Returns whether this process is now in token mode. An explicit ``RAY_AUTH_MODE``
    is left as the user set it.
    """
    mode = os.environ.get(MODE_VARIABLE)
    if mode is not None:
        return mode.strip().lower() == "token"
    if token_source() is None:
        return False
    _set_mode(ray, "token")
    return True


def quiet_private_runtime(ray: ModuleType) -> None:
    """Name Ray's default mode for a private runtime explicitly, so Ray does not warn
    that it chose token authentication by itself (a private runtime listens on this
    machine only and makes its own token)."""
    if os.environ.get(MODE_VARIABLE) is None:
        _set_mode(ray, "token")


@contextlib.contextmanager
def _stderr_to(sink: IO[bytes]) -> Iterator[None]:
    """Send file descriptor 2 to ``sink`` for a moment: Ray's C++ client logs there."""
    saved = os.dup(2)
    try:
        os.dup2(sink.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def refusal(ray: ModuleType, address: str) -> str | None:
    """Why the cluster's GCS at ``HOST:PORT`` refuses this process's credentials, or None.

    One quiet request, answered within a second: Ray's C++ client logs each refused
    attempt on standard error, so that is muted for the moment of the request. Any
    other failure returns None too and is left to ``ray.init`` to report.
    """
    refused = getattr(ray.exceptions, "AuthenticationError", None)
    if refused is None:
        return None  # a Ray without token authentication
    with tempfile.TemporaryFile() as sink, _stderr_to(sink):
        try:
            ray._raylet.GcsClient(address=address)
        except refused:
            pass
        except Exception:
            return None
        else:
            return None
    source = token_source()
    if os.environ.get(MODE_VARIABLE, "").strip().lower() != "token" or source is None:
        return (
            f"the Ray cluster at {address!r} uses token authentication and this process "
            f"has no token for it: {HOW_TO}"
        )
    return (
        f"the Ray cluster at {address!r} refused the token from {source} (token "
        f"authentication): {HOW_TO}"
    )
