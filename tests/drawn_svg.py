"""The SVG charts the page draws as images (ui/svg_charts.py), read back from the image's
``data:`` URL: in AppTest from the st.image element, in the browser from the <img>'s ``src``."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET
from typing import Any

SVG_URL = "data:image/svg+xml;base64,"
NS = "{http://www.w3.org/2000/svg}"       # ElementTree names an SVG element by its namespace


def parse(url: str) -> ET.Element:
    """The SVG document of an image's ``data:`` URL."""
    assert url.startswith(SVG_URL), url[:60]
    return ET.fromstring(base64.b64decode(url[len(SVG_URL):]))


def drawn(at: Any) -> list[ET.Element]:
    """Every SVG chart on an AppTest's screen, in page order."""
    return [parse(img.url) for el in at.get("image") for img in el.proto.imgs if img.url.startswith(SVG_URL)]


def title(svg: ET.Element, which: str = "nb-title") -> str:
    """The chart's title; ``which="nb-x-title"`` (or y) an axis's."""
    return svg.find(f".//{NS}text[@class='{which}']").text or ""


def words(svg: ET.Element) -> str:
    """What the chart says to a screen reader (its aria-label and <title>)."""
    assert svg.find(f"{NS}title").text == svg.get("aria-label")
    return svg.get("aria-label")


def steps(svg: ET.Element) -> list[dict[str, Any]]:
    """The waterfall's steps: label, value (as drawn) and whether it is the total."""
    return [{"label": g.get("data-nb-step"), "value": float(g.get("data-nb-step-value")),
             "total": g.get("data-nb-step-total") == "true"} for g in svg.iter(f"{NS}g") if g.get("data-nb-step") is not None]


def traces(svg: ET.Element) -> list[dict[str, Any]]:
    """The bars-and-lines chart's traces: name, kind, the points' x and y as drawn, and what
    tells a class apart besides colour as drawn: a bar's hatch ("" for none, else the tile's
    path), a line's dash and its markers' shape (element and corners)."""
    out = []
    for g in svg.iter(f"{NS}g"):
        if g.get("data-nb-trace") is None:
            continue
        points = [p for p in g if p.get("data-nb-x") is not None]
        trace = {"name": g.get("data-nb-trace"), "kind": g.get("data-nb-kind"),
                 "x": [float(p.get("data-nb-x")) for p in points], "y": [float(p.get("data-nb-y")) for p in points]}
        if trace["kind"] == "bar":
            trace["pattern"] = _hatch(svg, g)
        else:
            trace["dash"] = g.find(f"{NS}polyline").get("stroke-dasharray")
            trace["marker"] = (points[0].tag.removeprefix(NS), len((points[0].get("points") or "").split()))
        out.append(trace)
    return out


def _hatch(svg: ET.Element, g: ET.Element) -> str:
    tiles = {r.get("fill")[len("url(#"):-1] for r in g.iter(f"{NS}rect") if r.get("fill", "").startswith("url(#")}
    assert len(tiles) <= 1, tiles
    return svg.find(f".//{NS}pattern[@id='{tiles.pop()}']/{NS}path").get("d") if tiles else ""
