"""A variant against its base: each difference between two simulate
summaries, with its 95% interval, whether it is significant (the interval
leaves out 0), and a sentence a designer reads."""

from __future__ import annotations

from .stats import mean_difference, newcombe


def _points(x: float) -> str:
    return f"{abs(x) * 100:.1f}"


def _interval_points(low: float, high: float) -> str:
    return f"{low * 100:.1f} to {high * 100:.1f} points"


def _verdict(low: float, high: float) -> tuple[bool, str]:
    significant = low > 0 or high < 0
    return significant, ("significant" if significant else "not significant (the interval includes no change)")


def compare(base: dict, variant: dict, titles: dict[str, str]) -> list[dict]:
    """The differences variant − base.  `titles` gives each side's title
    ("Allied Powers")."""
    out = []
    n1, n2 = base["finished"], variant["finished"]
    if n1 and n2:
        for key in base["win_intervals"]:
            k1 = base["win_intervals"][key]["count"]
            k2 = variant["win_intervals"].get(key, {"count": 0})["count"]
            d, low, high = newcombe(k1, n1, k2, n2)
            significant, verdict = _verdict(low, high)
            if key == "draw":
                what, subject, verb = "draws", "games are drawn", ""
            else:
                what, subject, verb = f"{key} wins", f"the {titles.get(key, key)}", " win"
            if d == 0:
                change = f"{subject}{verb} as often"
            else:
                change = f"{subject}{verb} {_points(d)} points {'more' if d > 0 else 'less'} often"
            out.append({"key": f"win_rate:{key}", "what": what, "base": round(k1 / n1, 4),
                        "variant": round(k2 / n2, 4), "difference": round(d, 4), "low": round(low, 4),
                        "high": round(high, 4), "unit": "proportion", "significant": significant,
                        "text": f"{change} (95% CI {_interval_points(low, high)}): {verdict}"})
        kinds = list(base.get("result_intervals") or {})
        kinds += [k for k in variant.get("result_intervals") or {} if k not in kinds]
        for kind in kinds:  # the results the scenarios declare (both_lose...)
            k1 = (base.get("result_intervals") or {}).get(kind, {"count": 0})["count"]
            k2 = (variant.get("result_intervals") or {}).get(kind, {"count": 0})["count"]
            d, low, high = newcombe(k1, n1, k2, n2)
            significant, verdict = _verdict(low, high)
            change = (f"games end as {kind} as often" if d == 0 else
                      f"games end as {kind} {_points(d)} points {'more' if d > 0 else 'less'} often")
            out.append({"key": f"result:{kind}", "what": f"result {kind}", "base": round(k1 / n1, 4),
                        "variant": round(k2 / n2, 4), "difference": round(d, 4), "low": round(low, 4),
                        "high": round(high, 4), "unit": "proportion", "significant": significant,
                        "text": f"{change} (95% CI {_interval_points(low, high)}): {verdict}"})
    for key, what, phrase in (("final_vp", "mean final VP", ("the final VP is", "higher", "lower", "")),
                              ("turns", "mean last turn", ("games last", "longer", "shorter", " turns")),
                              ("decisions_per_game", "mean decisions", ("games take", "more", "fewer",
                                                                        " decisions"))):
        a, b = base.get(key), variant.get(key)
        if not a or not b:
            continue
        d, low, high = mean_difference(a, b)
        significant, verdict = _verdict(low, high)
        subject, up, down, unit = phrase
        if key == "final_vp":
            change = f"{subject} {abs(d):.2f} {up if d > 0 else down} on average" if d else f"{subject} the same on average"
        elif key == "turns":
            change = f"{subject} {abs(d):.2f}{unit} {up if d > 0 else down} on average" if d else f"{subject} as long on average"
        else:
            change = f"{subject} {abs(d):.1f}{unit} {up if d > 0 else down} on average" if d else f"{subject} as many decisions on average"
        out.append({"key": key, "what": what, "base": a["mean"], "variant": b["mean"], "difference": round(d, 3),
                    "low": round(low, 3), "high": round(high, 3), "unit": "mean", "significant": significant,
                    "text": f"{change} (95% CI {low:+.2f} to {high:+.2f}): {verdict}"})
    return out


def card_worth(with_card: dict, without_card: dict, side: str, title: str) -> dict:
    """A card's worth to its side by restricted play: the side's win rate
    with the card minus without it (the same seeds), with Newcombe's 95%
    interval, whether it is significant, and a sentence."""
    n1, n2 = without_card["finished"], with_card["finished"]
    if not n1 or not n2:
        return {"side": side, "difference": None, "significant": False,
                "text": "nothing to compare (no game finished)"}
    k1 = without_card["win_intervals"][side]["count"]
    k2 = with_card["win_intervals"][side]["count"]
    d, low, high = newcombe(k1, n1, k2, n2)
    significant, verdict = _verdict(low, high)
    if d == 0:
        change = f"the {title} win as often with it as without it"
    else:
        change = (f"with it the {title} win {_points(d)} points {'more' if d > 0 else 'less'} often "
                  f"({100 * k2 / n2:.1f}% against {100 * k1 / n1:.1f}%)")
    return {"side": side, "with": round(k2 / n2, 4), "without": round(k1 / n1, 4), "difference": round(d, 4),
            "low": round(low, 4), "high": round(high, 4), "significant": significant,
            "text": f"{change} (95% CI {_interval_points(low, high)}): {verdict}"}
