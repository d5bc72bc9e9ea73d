-- Schema version 11: an approved hygiene proposal is a record, not knowledge. Approving a merge of
-- duplicates, a superseded fact or relation, or repeated observations (core.reflect.lifecycle
-- approve_in) leaves the insight archived; before, it was un-archived and floated in searches and in
-- the graph, unlinked. The ones approved (or synced) before are archived here, as of their decision;
-- nothing else about them changes (still listed as decided; undoing the merge reopens them as before).
-- The kinds: core.reflect.lifecycle.CARRIED_OUT_KINDS (tests/hygiene checks this list against it).
-- One transaction: an interrupted upgrade leaves version 10 as it was and runs again on next open.

UPDATE entities
SET archived_at = coalesce((SELECT i.decided_at FROM insights i WHERE i.entity_id = entities.id),
                           strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
WHERE archived_at IS NULL AND id IN (
    SELECT entity_id FROM insights
    WHERE status IN ('approved', 'synced')
      AND pattern IN ('duplicate_entities', 'repeated_observations', 'superseded_facts', 'superseded_relations'));
