"""Citations: markers in model output, resolved to sources, cleaned and renumbered."""
