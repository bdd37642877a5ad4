"""Mail: screen, authenticate and read what comes in; render, queue and dispatch what goes out."""
