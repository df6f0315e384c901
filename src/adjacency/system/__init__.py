"""Operating-system services every layer may use: process lifetime and input limits.

This package sits below :mod:`adjacency.core` and imports nothing else of the
project, so the protocol, the arena and the web server can all share it.
"""
