"""The scenarios shipped with fdegym: one folder per task (docs/task_format.md)."""
