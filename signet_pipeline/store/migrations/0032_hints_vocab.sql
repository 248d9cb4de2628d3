-- How many hint documents hold each term: the hints search leaves out words that most of them
-- hold (hints are questions: "say", "like" are in nearly every one), as BM25 over them cost a
-- two-name question 10 ms at 10k and ranked nothing (recall/keywords.py).
CREATE VIRTUAL TABLE IF NOT EXISTS memory_hints_fts_vocab USING fts5vocab(memory_hints_fts, 'row');
