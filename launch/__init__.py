"""absl entry points that wire the stages from a config file."""
