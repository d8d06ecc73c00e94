"""Pure rating math: FIDE's tables, rule sets by date, the scalar rules (`fide`), the same
rules as polars expressions (`vector`) and the calculators' other methods (`methods`).

Importing this package loads only the scalar side; `pipeline.rules.vector` brings polars.
"""

from pipeline.rules.ruleset import RuleSet, ruleset_for

__all__ = ["RuleSet", "ruleset_for"]
