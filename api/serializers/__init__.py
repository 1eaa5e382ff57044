"""Request shapes (checked here) and response bodies; the rules are the engine's to check."""
