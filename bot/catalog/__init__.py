"""Getting data into the catalogue: the document format, the bundled data, importers."""
