"""Indexes: the store contract, stores found by location, the embedded SQLite store, search."""
