"""The club: seeks, ratings, player pages and tournaments, beside the game service."""
