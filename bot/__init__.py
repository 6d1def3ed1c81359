"""Laurel: a Discord bot about award-winning research papers."""

__version__ = "0.1.0"
