"""Class events: their pairing and standings (pure functions) and their store (an
event's life, its entrants and its rounds), below the league file that composes the
store; the runner that plays them is the games' (:mod:`..play.event_runner`), their
views and exports are read from the whole league file (:mod:`..event_results`).
"""
