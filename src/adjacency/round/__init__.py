"""A game in play, as both HTTP front ends (the browser game, :mod:`adjacency.web`, and
the league, :mod:`adjacency.league`) keep it: the domain their drivers share.

* :mod:`.clock`: the game clock (base time plus a Fischer increment) and a bot's move
  budget.

The room imports only the core: it knows no driver (the web's threads, the league's
event loop), seat, listener or store, so the servers keep those and fill their own
models from what this room computes.
"""
