"""A game in play, as both HTTP front ends (the browser game, :mod:`adjacency.web`, and
the league, :mod:`adjacency.league`) keep it: the domain their drivers share.

* :mod:`.clock`: the game clock (base time plus a Fischer increment) as an immutable
  value (:class:`~.clock.Clocks`) and the servers' mutable holder of it, and a bot's
  move budget;
* :mod:`.state`: one game in play as an immutable value (:class:`~.state.Round`), the
  happenings its transitions return, and the snapshot both servers fill their models
  from;
* the transitions, one module per concern, pure functions of a round and the moment:
  :mod:`.moves` (a move, a bot's answer, a flag falling), :mod:`.finish` (forfeit,
  resignation, abort, abandonment), :mod:`.takeback`, :mod:`.rematch`;
* :mod:`.player_kinds`: the kinds of player in a seat (person, connected, house, hosted bot)
  and what each implies for the transitions and the drivers (whose clock runs when,
  whether an illegal answer forfeits, who resigns, takes back or is offered a rematch,
  whose absence counts), written once for both servers;
* :mod:`.recent`: the games a server ended lately, so a late message for one is dropped.

The room imports only the core: it knows no driver (the web's threads, the league's
event loop), seat, listener or store, and no words (each server details an end in its
own catalogue), so the servers keep those and fill their own models from what this
room computes.
"""
