"""Laurel's console and stand-ins, apart from the runtime package `bot`: Discord and the arXiv
API on 127.0.0.1 (`localdiscord`, `localarxiv`) and the harness that runs LaurelBot against them
(for `laurel console`, the tests and the benchmarks). `laurel run` never imports this package;
its dependencies are the `console` extra (`pip install 'laurel[console]'`)."""
