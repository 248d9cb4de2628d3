"""Changing memories after they were written: one memory's update, delete and recover with their
history and optimistic versions (edits), batch modify and forget with previews and confirm tokens
(batch), and their request/response models (models). May import: write, recall and everything
below them; not sessions, ops or stages."""
