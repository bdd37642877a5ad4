"""The mails of games: the mails one change causes, and the mailer that writes them."""
