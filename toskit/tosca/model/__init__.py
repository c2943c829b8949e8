"""The templates of a topology: entities, requirements and node filters,
interfaces, workflows, inputs, the evaluation graph over them, and the result
objects."""
