"""The league's client programs, run on a team's own machine.

- :mod:`.connect`: ``adjacency connect``, a bot playing for a league account over the
  league's WebSocket, reconnecting after drops;
- :mod:`.submit`: ``adjacency league submit``, a team's project packed as the server keeps
  it and uploaded, and its versions listed;
- :mod:`.wire`: what the server and these programs agree on (the socket's path, the
  upload's limit, an aborted game's termination).

It imports the bots and the core, never the league's server: both sides share only
:mod:`.wire`.
"""
