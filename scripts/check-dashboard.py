#!/usr/bin/env python3
"""Check a Grafana dashboard's PromQL against a scrape of the service's /metrics.

    python3 scripts/check-dashboard.py METRICS_FILE [DASHBOARD_JSON]

METRICS_FILE is the text of `curl -s http://HOST:PORT/metrics`; DASHBOARD_JSON defaults
to ops/grafana/ledger-dashboard.json. Every metric name used in a panel's or a template
variable's expression (with `_bucket`, `_sum` and `_count` stripped) must be a metric
family or a sample of the scrape, and every label matched on a metric directly
(`name{label="..."}`) must be one of its labels (`job` and `instance`, which Prometheus
adds, and `le` on a histogram always are). Every panel target must use the `${datasource}`
variable. Exit 0 when all holds, 1 naming what does not, 2 on a usage error.
Standard library only.
"""

import json
import os
import re
import sys

SUFFIXES = ("_bucket", "_sum", "_count")
TARGET_LABELS = {"job", "instance"}

# PromQL words that are not metric names: aggregation operators, keywords, set operators.
# Functions are recognised by the "(" that follows them, so they need no list.
KEYWORDS = {
    "by", "without", "on", "ignoring", "group_left", "group_right", "bool",
    "and", "or", "unless", "offset", "atan2", "inf", "nan",
}

IDENT = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
STRING = r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`'


def load_scrape(path):
    """Metric family names (from # TYPE), sample names, and label names per family."""
    families = {}  # name -> type
    labels = {}  # base name -> set of label names
    samples = set()
    sample_re = re.compile(r"^(" + IDENT + r")(\{(.*)\})?\s")
    label_re = re.compile(r"(" + IDENT + r')\s*=\s*"(?:[^"\\]|\\.)*"')
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# TYPE "):
                parts = line.split()
                if len(parts) >= 4:
                    families[parts[2]] = parts[3]
                continue
            if not line or line.startswith("#"):
                continue
            m = sample_re.match(line + " ")
            if not m:
                continue
            name = m.group(1)
            samples.add(name)
            names = {lm.group(1) for lm in label_re.finditer(m.group(3) or "")}
            labels.setdefault(base_name(name), set()).update(names)
    return families, samples, labels


def base_name(name):
    for suffix in SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def expressions(dashboard):
    """(where, expr) for every panel target and every query variable."""
    out = []

    def walk(panels):
        for panel in panels:
            for target in panel.get("targets", []):
                if "expr" in target:
                    out.append((f'panel "{panel.get("title", panel.get("id"))}" target {target.get("refId", "")}', target["expr"]))
            walk(panel.get("panels", []))

    walk(dashboard.get("panels", []))
    for var in dashboard.get("templating", {}).get("list", []):
        if var.get("type") != "query":
            continue
        query = var.get("query")
        if isinstance(query, dict):
            query = query.get("query")
        if query:
            out.append((f'variable "{var.get("name")}"', query))
    return out


def datasource_problems(dashboard):
    problems = []

    def uses_variable(ds):
        if isinstance(ds, dict):
            return ds.get("uid") in ("${datasource}", "$datasource")
        return ds in ("${datasource}", "$datasource")

    def walk(panels):
        for panel in panels:
            if panel.get("type") == "row":
                walk(panel.get("panels", []))
                continue
            for target in panel.get("targets", []):
                ds = target.get("datasource", panel.get("datasource"))
                if not uses_variable(ds):
                    problems.append(f'panel "{panel.get("title")}" target {target.get("refId")}: datasource is {json.dumps(ds)}, not ${{datasource}}')

    walk(dashboard.get("panels", []))
    return problems


def metric_uses(expr):
    """(metric name, set of label names matched on it) for each metric selector in expr."""
    # label_values(selector, label) of template variables: keep the selector only.
    m = re.fullmatch(r"\s*label_values\((.*),\s*" + IDENT + r"\s*\)\s*", expr, re.S)
    if m:
        expr = m.group(1)
    text = expr
    # Grafana variables ($var, ${var}, ${var:format}, $__rate_interval).
    text = re.sub(r"\$\{[^}]*\}|\$" + IDENT, "0s", text)
    uses = []
    # Selectors with a label set: record the matched labels, then blank the braces.
    selector_re = re.compile(r"(" + IDENT + r")?\s*\{((?:" + STRING + r"|[^{}])*)\}")
    matcher_re = re.compile(r"(" + IDENT + r")\s*(?:=~|!~|!=|=)\s*(?:" + STRING + r")")

    def take(sel):
        name = sel.group(1)
        labels = {lm.group(1) for lm in matcher_re.finditer(sel.group(2))}
        if name and name not in KEYWORDS:
            uses.append((name, labels))
            return " "
        named = {lm.group(1): lm.group(0) for lm in matcher_re.finditer(sel.group(2))}
        if "__name__" in named:
            value = re.search(STRING, named["__name__"]).group(0)[1:-1]
            uses.append((value, labels - {"__name__"}))
        return (name + " ") if name else " "

    text = selector_re.sub(take, text)
    text = re.sub(STRING, " ", text)  # remaining strings (label_replace arguments, ...)
    text = re.sub(r"\[[^\]]*\]", " ", text)  # ranges and subqueries
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    text = re.sub(r"(?<![a-zA-Z0-9_:])\d[0-9a-zA-Z_.]*", " ", text)  # numbers, durations
    for tm in re.finditer(IDENT, text):
        word = tm.group(0)
        rest = text[tm.end():].lstrip()
        if word.lower() in KEYWORDS or rest.startswith("("):
            continue
        uses.append((word, set()))
    return uses


def main(argv):
    if len(argv) not in (2, 3) or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    metrics_path = argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    dashboard_path = argv[2] if len(argv) == 3 else os.path.join(here, "..", "ops", "grafana", "ledger-dashboard.json")
    with open(dashboard_path, encoding="utf-8") as f:
        dashboard = json.load(f)
    families, samples, labels = load_scrape(metrics_path)
    known = set(families) | {base_name(s) for s in samples}

    problems = datasource_problems(dashboard)
    used = {}
    for where, expr in expressions(dashboard):
        for name, matched in metric_uses(expr):
            base = base_name(name)
            used.setdefault(base, set()).add(where)
            if base not in known:
                problems.append(f"{where}: unknown metric {name}")
                continue
            allowed = labels.get(base, set()) | TARGET_LABELS
            if families.get(base) == "histogram":
                allowed = allowed | {"le"}
            if base in labels:  # a family without samples tells no label names
                for label in sorted(matched - allowed):
                    problems.append(f"{where}: metric {name} has no label {label}")

    for name in sorted(used):
        print(f"{name} ({families.get(name, 'not in the scrape')})")
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        unknown = sorted({p.rsplit(" ", 1)[1] for p in problems if ": unknown metric " in p})
        if unknown:
            print("unknown metrics: " + ", ".join(unknown), file=sys.stderr)
        return 1
    print(f"{len(used)} metrics, all in {metrics_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
