"""Qt item models over core.Memory results (never SQL)."""
