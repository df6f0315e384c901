"""Ratings and match statistics, shared by the arena and the league.

* :mod:`.stats`: one pairing's score as Elo with an interval (trinomial per game,
  pentanomial per colour-swapped pair), LOS and the SPRT;
* :mod:`.bradley_terry`: Bradley-Terry Elo of several players, fitted at once;
* :mod:`.glicko`: Glicko-2, updated online after every game.

Pure computation (the standard library and numpy): the room imports only the core.
"""
