"""Subcommands of `referee`: each module defines register(subparsers) and sets `func(args, settings)`."""
