"""The topology of a loaded template as a graph, and its layout geometry."""
