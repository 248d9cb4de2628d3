"""Full-text statistics beside the FTS5 indexes: the SQL functions every connection carries
(functions.py) and the per-agent term counts they keep (agent_terms.py)."""
