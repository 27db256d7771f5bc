"""Ingestion: files to documents with exact provenance, and documents to chunks."""
