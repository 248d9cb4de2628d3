"""Extraction jobs: the LLM's facts and triples (facts), ADD/UPDATE/DELETE/NONE against candidates
(decision), contradiction checks (contradiction), controlled writes (writes) and the batch that takes
leased jobs through the four steps (batch)."""
