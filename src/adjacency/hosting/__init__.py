"""Hosted bots, their one home: a team's submitted code taken in, built, checked and
played by the server, always inside the sandbox (:mod:`adjacency.sandbox`).

- :mod:`~adjacency.hosting.intake`: a folder or a zip as a team has it, every limit (size,
  file count, names, links, devices, compression ratio) checked before a byte is read;
  only sources (each language's) and the manifest are ever read;
- :mod:`~adjacency.hosting.languages`: the languages, one table entry each holding all
  the league does with a program of it (its sources and headers, manifest word, build,
  run command, limits, start allowance, kit and words);
- :mod:`~adjacency.hosting.manifest`: ``adjacency-bot.json``, the team's choice of
  language, bot or entry file;
- :mod:`~adjacency.hosting.kinds`: the kinds of program, one made from each language's
  entry and the JavaFX program played through its window: its build, its command in the
  sandbox, its limits over a game, its start allowance; an uploaded zip to its kind's
  build;
- :mod:`~adjacency.hosting.scripts`: which kind a project is (Java, or a program in one of
  the languages speaking the engine protocol), its entry file, its command lines;
- :mod:`~adjacency.hosting.sources`, :mod:`~adjacency.hosting.java_build`: a Java course
  project's files that compile without JavaFX, ``javac`` with the kit (``java/``: the
  runner ``adjacency.kit.Main``, the kit's bots, the course adapter and the JavaFX
  stand-ins, shipped as package data; the Java starter kit itself, there is no other copy)
  and the choice of the bot; ``adjacency project build`` runs the same build locally;
- :mod:`~adjacency.hosting.sandbox_build`: each kind's build in the sandbox;
- :mod:`~adjacency.hosting.check`, :mod:`~adjacency.hosting.verdict`: the check before a
  version may play (legal answers, in time, on fixed positions of the league's board, with
  both colours) and the verdict it gives;
- :mod:`~adjacency.hosting.player`: the built bot as a :class:`~adjacency.bots.Bot`, one
  sandboxed engine-protocol process for a whole game;
- :mod:`~adjacency.hosting.seat`, :mod:`~adjacency.hosting.ray_seats`: one hosted side of
  one game (the :class:`~adjacency.hosting.seat.Seat` protocol), here or on a Ray node;
- :mod:`~adjacency.hosting.move_clock`, :mod:`~adjacency.hosting.slots`: a move judged by
  its own wall time on a core of its own, a start's allowance, and the slots (one a
  core) that the games, builds and checks share;
- :mod:`~adjacency.hosting.picture`: a program's picture decoded and drawn again before
  it is kept;
- :mod:`~adjacency.hosting.fx_build`, :mod:`~adjacency.hosting.fx_run`,
  :mod:`~adjacency.hosting.fx_recipe`: a course project's own JavaFX program, built
  untouched against Debian's OpenJFX and played through its own window by the driver
  (``javafx/``: the module ``adjacency.fxdriver``, Java in the program's JVM, package
  data, compiled once a process and kept apart from the team's classes) under a
  private Xvfb in the sandbox; its dry run reads the input window's form and draws it, and
  the recipe is the team's choice in that form (docs/javafx-driver.md).

Nothing here runs submitted code outside the sandbox: where the sandbox cannot start,
:func:`adjacency.sandbox.check` raises and nothing is built. It sits above the bots (a
hosted bot is the ``cmd:`` bot over a sandboxed transport) and below the league, which
stores the submissions, queues their builds and keeps their verdicts.
"""
