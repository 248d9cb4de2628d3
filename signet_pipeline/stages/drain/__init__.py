"""How queue jobs are run: the drain loop and the worker's heartbeat (loop) and the runner that
leases, works, completes or fails a batch of provider-call jobs (jobs)."""
