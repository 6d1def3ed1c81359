"""Importers: pure parsers that turn a foreign file into a CatalogBatch, touching no database."""
