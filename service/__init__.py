"""The JSON API over HTTP (`wordpack serve`): the runtime's queries for programs in any language.

A package beside `lookup/` and `pipeline/`, not inside `lookup/`: it imports the crossword and
guessing wings, which only `lookup`'s entry points may (docs/ARCHITECTURE.md), and a web
framework, which the runtime must work without. `lookup/cli.py` (`wordpack serve`) starts it as
`python -m service` and never imports it. Needs the `serve` extra (Starlette, uvicorn).

- `app.py`: the Starlette application (`create_app`): the endpoints under /api/ and the static
  page of `make web` at /.
- `budget.py`: the time budget of one request's computation.
- `openapi.py`: the OpenAPI description served at /api/openapi.json.
- `__main__.py`: the command line: uvicorn with worker processes.
"""
