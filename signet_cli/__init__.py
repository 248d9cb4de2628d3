"""The `signet` command line."""
