"""Basic Rummy (docs/rules.md section 1)."""
