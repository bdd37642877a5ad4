"""Mail out: render both parts, queue them in the outbox, dispatch them. Knows nothing of games."""
