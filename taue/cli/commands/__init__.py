"""Command groups of `taue`, one module each; every module defines `register(app)`."""
