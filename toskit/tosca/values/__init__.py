"""Effective values: the merge with provenance, value checks (also of the
document's own definitions), function calls, and why a value is what it is."""
