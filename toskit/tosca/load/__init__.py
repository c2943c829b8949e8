"""Reading a TOSCA document: the pipeline's phases, the grammar and keyname checks, imports and profiles."""
