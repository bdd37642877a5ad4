"""Play and clocks: the turn, replies about a game, deadlines, reminders and vacations."""
