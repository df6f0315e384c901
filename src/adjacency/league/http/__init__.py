"""The league's HTTP server: the app and its wiring, who asks (tokens and sessions),
the limits per visitor and per team, the places kept for tokened connections, the
caches, quotas and the store's write health."""
