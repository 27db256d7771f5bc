"""Pass 1: hybrid retrieval, fusion and per-hit confidence."""
