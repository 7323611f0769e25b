"""Deployment files (docker compose, Kubernetes) rendered from the registered domains."""
