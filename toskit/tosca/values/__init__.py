"""Effective values: the merge with provenance, value checks, function calls, and why a value is what it is."""
