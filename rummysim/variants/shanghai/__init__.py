"""Shanghai Rummy (docs/rules.md section 2)."""
