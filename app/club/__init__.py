"""The club: seeks, ratings, player pages and their mail commands, beside the game service that plays the games."""
