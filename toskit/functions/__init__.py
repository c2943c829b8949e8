"""TOSCA functions: ``$`` notation, built-in functions, validation clauses.

See spec/functions.md. (Work in progress: the context protocol is in
:mod:`toskit.functions.context`.)
"""
