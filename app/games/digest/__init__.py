"""The daily digest: what waits for it, the round that sends it, its mail and the replies to it."""
