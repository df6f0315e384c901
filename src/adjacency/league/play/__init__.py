"""The games in play: the hall and its games, the scheduler and the events' runner,
presence, challenges, the sides the server plays (house and hosted bots), the outbox of
what players are told.
"""
