"""Evaluating agents at scale: the batch runner (local pool or Ray) and the report over its results."""
