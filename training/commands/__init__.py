"""One module per ``pokerzoo`` subcommand (see ``pokerzoo.training.cli``)."""
