"""The lobby: challenges, invitations, confirmations, names and preferences, and mail to the bare address."""
