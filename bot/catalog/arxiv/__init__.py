"""arXiv: the API client, its Atom answers, and completing papers from it (by id, by title)."""
