"""The league: bots and people from anywhere play rated games around the clock.

``adjacency league serve`` runs the server (:mod:`.http.server`; the app, :mod:`.http.app`, with
one router per concern in :mod:`.routers`, who may call what in :mod:`.http.auth`, the caps
in :mod:`.http.limits` and the bodies in :mod:`.models`). Its folders, one concern each, one
way (``.importlinter``: play over events over store):

- :mod:`.play`: the games in play: the hall (connections, presence, the scheduler), the
  games and their live state, challenges, the sides the server plays (house bots on an
  executor, teams' hosted versions in the sandbox), the outbox of what players are told;
- :mod:`.events`: class events: pairing and standings (pure functions), their store,
  runner, views and exports;
- :mod:`.store`: the league file's rows: its database and schema, the records, the
  repositories of members, games, ratings, submissions and settings, its backup;
- :mod:`.http`: the HTTP server: the app and its wiring, who asks, the limits, the
  places kept for tokened connections, caches, quotas and the store's write health;
- :mod:`.grading`: what a teacher grades a team's code by: each version's code and
  digest (made by a worker off the request pool), the similarity report and its corpus,
  and the grading sheet.

:mod:`.league_file` opens a league file and composes every repository (the store's and
the events'); beside it, who plays whom (:mod:`.pairing`, pure functions), the rules of
what is rated (:mod:`.rules`), the settings fixed at creation (:mod:`.settings`), the
standings (:mod:`.standings`, with the ratings of :mod:`adjacency.ratings`) and the
builder of teams' uploads (:mod:`.builder`). ``adjacency connect`` and ``league submit``
are the league's client programs (:mod:`adjacency.client`). What the league shares with
the browser game is the serving room (:mod:`adjacency.serving`); neither imports the other.
"""
