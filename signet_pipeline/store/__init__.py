"""Storage: the only place SQL lives. db.py opens the SQLite connections (one writer, a reader per
thread), migrate.py applies migrations/NNNN_*.sql, and each other module holds the SQL of one table
family; queue.py is the job queue (memory_jobs leases, retries, owners) over jobs.py's SQL. May
import: errors, timeutil, config_sections. Nothing here knows about providers, recall or Dagster."""
