"""Storage backends. Callers never pick one themselves: they go through ``factory.create_stores``."""
