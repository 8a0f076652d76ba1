"""The ``pokerzoo`` command: argument parsing and one module per subcommand (``main.COMMANDS``).

The top of the dependency order: it may import every other package, and none imports it.
"""
