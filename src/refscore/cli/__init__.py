"""The ``refscore`` command line."""
