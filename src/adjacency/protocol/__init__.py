"""The engine protocol (docs/protocol.md): a UCI-like text protocol over stdin/stdout.

- :mod:`~adjacency.protocol.wire`: the messages, parsed and formatted (imports only the core).
- :mod:`~adjacency.protocol.client`: :class:`~adjacency.protocol.client.EngineProcess`,
  one external engine program driven with timeouts (the core and the standard library).
- :mod:`~adjacency.protocol.server`: serves any registered bot (``adjacency engine``).

The ``cmd:`` bot in :mod:`adjacency.bots.external` puts the client behind the Bot interface.
"""
