"""Indexes: the store contract, the embedded SQLite store, lexical and dense search."""
