"""Hosted bots: a team's submitted code built, checked and played by the server, always
inside the sandbox (:mod:`adjacency.sandbox`).

- :mod:`~adjacency.hosting.sandbox_build`: a submission's zip through the projects' intake, then
  ``javac`` and the runner's inspection in the sandbox (:class:`~.sandbox_build.SandboxToolchain`),
  or a Python or JavaScript program's syntax check there (``py_compile``, ``node --check``);
- :mod:`~adjacency.hosting.player`: the built bot as a :class:`~adjacency.bots.Bot`, one
  sandboxed engine-protocol process for a whole game;
- :mod:`~adjacency.hosting.check`: the check before a version may play: legal answers, in
  time, on a fixed set of positions of the league's board, with both colours.

Nothing here runs submitted code outside the sandbox: where the sandbox cannot start,
:func:`adjacency.sandbox.check` raises and nothing is built. It sits above the bots (a
hosted bot is the ``cmd:`` bot over a sandboxed transport) and below the league, which
stores the submissions and decides their verdicts.
"""
