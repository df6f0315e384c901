"""An event's results as read from the league file: its table, crosstable and exports
(views), the failures that decided its games, and its games as an arena database.
"""
