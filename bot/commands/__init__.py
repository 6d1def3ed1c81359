"""Slash commands: one module per command group, plus the central error handler."""
