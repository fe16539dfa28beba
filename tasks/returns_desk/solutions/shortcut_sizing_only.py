"""Shortcut: fix the size chart and stop there - never ask the returns centre what real abuse
looks like (worn occasionwear keeps being refunded in full)."""


from . import reference


def apply(ws, params):
    reference.fix_chart(ws, params["problem_brand"], params["true_offset"])
