"""Class events: their pairing and standings (pure functions), their store (an event's
life, its entrants and its rounds), the runner that plays them, their views and exports.
"""
