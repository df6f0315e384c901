"""The league file: its database and schema, the records, and the repositories of its
members, games, ratings, submissions and settings; its backup.
"""
