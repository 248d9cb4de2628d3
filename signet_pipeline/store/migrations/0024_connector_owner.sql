-- A connector belongs to the agent that registered it (issue 23): the documents its syncs create,
-- and their chunk memories, carry this agent_id. Connectors registered before kept no owner: they
-- stay with `default`, the agent their documents were already written as.
ALTER TABLE connectors ADD COLUMN agent_id TEXT NOT NULL DEFAULT 'default';
