"""Course projects as bots: take a project in, compile it against the kit, find its bot.

- :mod:`.intake`: a folder or a zip as a team has it, every limit (size, file count, names,
  links, devices, compression ratio) checked before a byte is read; only sources (Java,
  Python, JavaScript) and the manifest are ever read.
- :mod:`.manifest`: ``adjacency-bot.json``, the team's choice of language, bot or entry file.
- :mod:`.scripts`: which kind a project is (Java, or a Python or JavaScript program
  speaking the engine protocol: the kits, one's own), its entry file, its command lines.
- :mod:`.sources`: which files compile without JavaFX, and the stand-in controller.
- :mod:`.java_build`: ``javac`` with the kit (``java/``: the runner ``adjacency.kit.Main``,
  the kit's bots, the course adapter and the JavaFX stand-ins, shipped as package data)
  and the choice of the bot; the result's ``cmd:`` spec plays it.

The Java sources under ``java/`` are the Java starter kit itself (there is no other copy):
a student's local build and a server's build of an upload use the same files. A server
calls ``build(take_in(upload), folder, wrap=...)``, ``wrap`` putting ``javac`` and the
inspection inside its sandbox, and runs ``Built.command()`` the same way.
"""

from __future__ import annotations

from .intake import Intake, IntakeRefused, take_in
from .java_build import BuildFailed, Built, build, kit_sources
from .sources import ProjectError

__all__ = [
    "BuildFailed",
    "Built",
    "Intake",
    "IntakeRefused",
    "ProjectError",
    "build",
    "kit_sources",
    "take_in",
]
