"""Text, read by rules: normalizing and hashing content, its prefixes and inferred type
(content), names and sentences (entities), FTS5 query terms and stop words (fts_query), negation and
antonym contradictions (contradiction), what a sentence is about (aspects), harness transcripts
(transcripts). Pure functions: no store, no provider. May import: the standard library only
(besides errors/timeutil). Everything above reads text through here."""
