"""The game service's records: its rows as plain values, the unit of work, the event record and its reading."""
