"""The league: bots and people from anywhere play rated games around the clock.

``adjacency league serve`` runs the server (:mod:`.server`, :mod:`.app` with its
bodies in :mod:`.models`): a SQLite store (:mod:`.store`) of a league whose settings
are fixed at creation (:mod:`.settings`), the live games and the scheduler
(:mod:`.hall`), house bots on an executor (:mod:`.house`), Glicko-2 (:mod:`.glicko`)
and Bradley-Terry standings (:mod:`.standings`). ``adjacency connect``
(:mod:`.client`) plays for a bot account from its author's machine over the
WebSocket protocol of docs/league.md.
"""
