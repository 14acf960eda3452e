"""Crazy Eights, the product's second game (rules: docs/rules.md, "Crazy Eights")."""
