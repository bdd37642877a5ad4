"""Games: the database models and the game service, the only writer of game state."""
