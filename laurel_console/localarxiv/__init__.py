"""A loopback stand-in for the arXiv API, answering from recorded replies (see server.py)."""
