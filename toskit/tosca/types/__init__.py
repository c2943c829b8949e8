"""The types a document sees: definitions, the registry, user scalars, and checks of the definitions themselves."""
