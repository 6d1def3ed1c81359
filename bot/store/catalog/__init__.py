"""The catalogue's repositories: the one write path, papers, editions, leaderboards, the audit."""
