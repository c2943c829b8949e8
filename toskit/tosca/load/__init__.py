"""Reading a TOSCA document: the pipeline and its context, the grammar and
keyname checks, imports and profiles."""
