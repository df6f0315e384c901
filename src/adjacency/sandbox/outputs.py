"""Reading what a sandboxed program wrote into its output folder: :func:`regular_files`.

The output folder holds whatever the program made there, links included: a link to
``/etc/shadow`` points, on the host, at the host's file. So the host reads it only
through :func:`regular_files`, which never follows a link. (A hard link to a host file
cannot be made there: the folder is a mount of its own, and links across mounts fail.)
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def regular_files(folder: Path) -> list[Path]:
    """The regular files under ``folder`` (paths relative to it, sorted), found without
    following any link; links, devices, pipes and sockets are left out, and so is
    everything under a linked folder."""
    found: list[Path] = []
    todo = [Path(folder)]
    while todo:
        current = todo.pop()
        with os.scandir(current) as entries:
            for entry in entries:
                mode = entry.stat(follow_symlinks=False).st_mode
                if stat.S_ISDIR(mode):
                    todo.append(Path(entry.path))
                elif stat.S_ISREG(mode):
                    found.append(Path(entry.path).relative_to(folder))
    return sorted(found)
