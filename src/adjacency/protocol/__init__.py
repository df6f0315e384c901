"""The engine protocol (docs/protocol.md): a UCI-like text protocol over stdin/stdout.

- :mod:`~adjacency.protocol.wire`: the messages, parsed and formatted (imports only the core).
- :mod:`~adjacency.protocol.client`: :class:`~adjacency.protocol.client.EngineClient`, the
  conversation with one engine over a :class:`~adjacency.protocol.transport.Transport`, and
  :class:`~adjacency.protocol.client.EngineProcess`, the client over an engine program
  driven with timeouts (the core and the standard library).
- :mod:`~adjacency.protocol.transport`: the :class:`~adjacency.protocol.transport.Transport`
  line channel and :class:`~adjacency.protocol.transport.SubprocessTransport`, an engine
  program in its own process group; :mod:`~adjacency.protocol.errors`: the client's errors.
- :mod:`~adjacency.protocol.mock`: :class:`~adjacency.protocol.mock.MockTransport`, a
  scripted engine without a process, for tests.

The whole package imports only the core: the ``cmd:`` bot in :mod:`adjacency.bots.external`
puts the client behind the Bot interface. The engine side, which serves any registered bot
(``adjacency engine``), is a front end above the bots: :mod:`adjacency.protocol_server`.
"""
