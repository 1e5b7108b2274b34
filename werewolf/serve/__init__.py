"""``werewolf serve``: a local, read-only web app over a store (the optional ``serve`` extra:
Starlette and uvicorn). ``app`` holds the routes and who may see what; ``cli`` the command,
which imports the extra only when it runs, so the rest of werewolf works without it."""

__all__: list[str] = []
