"""Metrics, health and the HTTP endpoints that expose them; log redaction."""
