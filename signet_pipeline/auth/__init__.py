"""Authentication and authorization (architecture.txt "Auth Middleware"): HMAC-signed tokens,
roles and their permissions, token scopes, and sliding-window rate limits. No web framework here:
signet_api/auth.py applies them to requests."""
