"""Reference: score the region whose usage feed stopped without its usage term (the model card's
imputation), offer each consented account the discount (or none) that keeps the most margin over the
quarter from the measured take-up, only outside the minimum term (or inside the re-sign window
Revenue Assurance allows), and state in the SMS what the disclosure rule requires. The code change is
menu/offer_rules.patch; the facts go in campaign/config.json."""

from fdegym_env.tasklib import solutions

CONFIG = "system/campaign/config.json"


def configure(ws, params, regions=None):
    solutions.patch(__name__, ws, "menu/offer_rules.patch")
    regions = [params["stale_region"]] if regions is None else regions
    solutions.replace(ws, CONFIG, '"stale_usage_regions": []', '"stale_usage_regions": [%s]' % ", ".join(f'"{r}"' for r in regions))
    solutions.replace(ws, CONFIG, '"resign_window_months": 0', f'"resign_window_months": {int(params["term_window_months"])}')
    if params.get("rise_in_copy"):
        solutions.replace(ws, CONFIG, '"price_rise_line": ""',
                          f'"price_rise_line": " Your monthly price goes up by £{params["april_rise_gbp"]} each April."')


def apply(ws, params):
    configure(ws, params)
