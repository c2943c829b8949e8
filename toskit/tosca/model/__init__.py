"""The templates of a topology: entities, requirements and node filters, interfaces, workflows, inputs, and the result objects."""
