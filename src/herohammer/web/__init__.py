"""The table in a browser: a local ASGI app (FastAPI) over the same engine as the command line.

``api.create_app`` builds the app: a JSON API under ``/api`` that mirrors the commands
(check, targets, actions, odds, play, simulate) and a static page (``static/``) that
draws the table as SVG and talks to nothing but that API.
"""
