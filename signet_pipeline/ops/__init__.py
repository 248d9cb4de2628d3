"""What an operator reads: liveness and status snapshots (status), the six diagnostics domains
(diagnostics), the queue's backlog (backlog), the effective settings (settings_view) and the
projection cache (projection_view). May import: sessions, mutations, recall, write and everything
below them; not stages or defs."""
