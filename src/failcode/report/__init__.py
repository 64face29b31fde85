"""Output formats for check results: text, json, sarif, github."""
