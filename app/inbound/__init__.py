"""Mail in: the doors (SMTP/LMTP listener, IMAP, webhook, pipe), then store, screen, authenticate and read."""
