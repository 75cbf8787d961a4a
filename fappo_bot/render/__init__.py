"""Adapter-neutral renderings of the service's data (the outbox's notices), which every adapter's
renderer uses and may override per kind."""
