"""`python -m lookup` is the `wordpack` query command (lookup/cli.py)."""

from lookup.cli import main

if __name__ == "__main__":
    main()
