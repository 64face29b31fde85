"""Fact extraction: one LibCST parse and one traversal per file, no judgement."""
