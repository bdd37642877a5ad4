"""The referees: one pure-Python module per variant behind one small interface.

Nothing here imports Flask, SQLAlchemy or the mail stack.
"""
