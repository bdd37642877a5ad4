"""The commands a player sends: reading them from a mail, and each as an object with its name, help and handler."""
