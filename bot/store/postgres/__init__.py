"""Laurel's store on PostgreSQL (issue 15): the same repositories as on SQLite, through an
adapter that gives write functions the connection they already know.

Importing this package needs psycopg 3 (the `postgresql` extra).
"""
