"""The table in the terminal: the same words as the slash commands, the same service and renderer."""
