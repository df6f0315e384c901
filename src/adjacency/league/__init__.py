"""The league: bots and people from anywhere play rated games around the clock.

``adjacency league serve`` runs the server (:mod:`.server`; the app, :mod:`.app`, with
one router per concern in :mod:`.routers`, who may call what in :mod:`.auth`, the caps
in :mod:`.limits`, the last connection places kept for the teacher in :mod:`.reserve`
and the bodies in :mod:`.models`): a SQLite store (:mod:`.store`) of
a league whose settings are fixed at creation (:mod:`.settings`); the hall
(:mod:`.hall`: connections, presence, the scheduler) over the games in play
(:mod:`.games`, :mod:`.live`, :mod:`.outbox`); who plays whom (:mod:`.pairing`, pure
functions); house bots on an executor (:mod:`.house`); and the standings
(:mod:`.standings`, with the ratings of :mod:`adjacency.ratings`). ``adjacency
connect`` (:mod:`.client`) plays for a bot account from its author's machine over the
WebSocket protocol of docs/league.md. What the league shares with the browser game is
the serving room (:mod:`adjacency.serving`); neither imports the other.
"""
