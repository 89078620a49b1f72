"""The subcommands of ``setback``, one module a group: where the parts are put together
(a server inside the client for ``play --bots``, a server for ``match --via-server``)."""
