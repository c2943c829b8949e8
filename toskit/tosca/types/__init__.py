"""The types a document sees: definitions, the registry, user scalars, and the
bound on values made of defaults."""
