"""Money helpers. Amounts are USD floats rounded to cents at line level (NetSuite rounds the same way)."""


def cents(x: float) -> float:
    return round(float(x) + 0.0, 2)


def parse_amount(raw) -> float:
    """Amounts arrive from Zendesk as numbers or as text ("1,240.00", "$96.50", "USD 410.00")."""
    if raw is None:
        return 0.0
    if isinstance(raw, (int, float)):
        return float(raw)
    s = str(raw).strip().upper().replace("USD", "").replace("US$", "").replace("$", "").replace(",", "").strip()
    try:
        return float(s)
    except ValueError:
        return 0.0
