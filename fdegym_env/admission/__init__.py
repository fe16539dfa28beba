"""Admission of a scenario: ``fdegym validate`` (anchors per variant: do-nothing, literal, reference,
shortcuts, diligent, bypasses), the generic grader-gaming bypasses, leak checks and data texture."""
