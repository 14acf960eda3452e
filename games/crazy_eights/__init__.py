"""Crazy Eights, the product's second game (rules: RULES.md, "Crazy Eights")."""
