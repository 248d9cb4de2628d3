-- remember's `structured` payload (memory-api): attributes authored by the caller carry an
-- optional subgroup inside their aspect (group_key) and a claim identity (claim_key); supersession
-- of authored attributes runs only within the same entity / aspect / group / claim.
ALTER TABLE entity_attributes ADD COLUMN group_key TEXT;
ALTER TABLE entity_attributes ADD COLUMN claim_key TEXT;
CREATE INDEX IF NOT EXISTS idx_attributes_claim
    ON entity_attributes(entity_id, aspect_id, group_key, claim_key, status) WHERE claim_key IS NOT NULL;
