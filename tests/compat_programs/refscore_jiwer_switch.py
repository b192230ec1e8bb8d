"""A pytest plug-in (``-p refscore_jiwer_switch``) that turns refscore's drop-ins on before any test module
imports ``jiwer``: a peer's own test files then test the drop-in."""
import refscore.compat

refscore.compat.install()
