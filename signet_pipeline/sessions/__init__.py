"""Sessions of agent harnesses: the hooks (session start/end, prompts, compaction: hooks,
prompt_hooks), checkpoints, aspect weights learned from what a session used (aspect_feedback),
explicit ratings (agent_feedback, feedback_models) and continuity scores read back
(continuity). May import: write, recall and everything below them; not mutations, ops or stages."""
