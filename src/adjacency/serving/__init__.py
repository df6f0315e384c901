"""What both HTTP front ends (the browser game, :mod:`adjacency.web`, and the league,
:mod:`adjacency.league`) serve with, so neither imports the other.

* :mod:`.middleware`: the Host/Origin guard and the request body limit;
* :mod:`.sockets`: header and handshake deadlines, connections per address (the
  uvicorn protocol classes both servers run);
* :mod:`.room`: the last places under the connection cap kept for whom a server names
  (the league's teacher, ``adjacency play``'s new visitors) and the requests each
  client may hold open;
* :mod:`.headers`: the security headers on every response (CSP, framing, sniffing,
  referrer);
* :mod:`.limits`: per-client token buckets (:class:`~.limits.RateLimiter`);
* :mod:`.cpu_budget`: engine work charged per visitor in the CPU seconds it used, and the fair
  queue for the cores (:class:`~.cpu_budget.CpuBudget`);
* :mod:`.addresses`: the key kept of a client's address (a hash, IPv6 by its /64);
* :mod:`.errors`: the request errors with their HTTP statuses, and
  :mod:`.handlers`, which maps them and the core's error taxonomy onto responses;
* :mod:`.models`: the error body's schema (:class:`~.models.ErrorMessage`);
* :mod:`.binding`: listening sockets, the Host allow-list and exposure warnings;
* :mod:`.logs`: the server's log on standard error, at the level asked for;
* :mod:`.assets`: the shared static files (board drawing, stylesheet, icon, the API
  reference page), served by both apps under ``/static``.

The room imports only the core (and FastAPI/Starlette); it knows no game manager,
league or bot.
"""
