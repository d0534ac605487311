#!/usr/bin/env python3
"""`ledger --help` against the docs, for scripts/check-docs.sh (Python 3 standard library only).

    docs_help.py --help-output FILE --reference docs/operations.md DOC...

FILE is what `ledger --help` printed: its `Commands:` section (two spaces, a command, its
summary) and its `Environment:` section (two spaces, a variable and, when it has one,
`(default: VALUE)`; its help text indented further). The reference is the page that holds
the settings table (the first table under its `Settings` heading whose first column is
`variable`) and the commands table (the first table under `Processes and commands` whose
first column is `command`). DOC... are every page to look through (README.md docs/*.md).

Four checks, each printed as one `PASS ledger --help (NAME): …` line, or a
`FAIL ledger --help (NAME): …:` line followed by what is wrong, one `    - …` line each:

  settings   every variable `ledger --help` prints is a row of the settings table, and the
             table has no row for a variable it does not print;
  names      no DOC names a LEDGER_* variable `ledger --help` does not print, but for the
             variables of the tests, the benchmarks and the tooling (EXCLUDED, each with
             its reason);
  commands   every command `ledger --help` prints is named (`ledger COMMAND …`) in the
             first column of the commands table, and no DOC names (in a code span,
             `ledger COMMAND …`) a command it does not print;
  defaults   wherever a DOC states the default of a variable whose default `ledger --help`
             prints, they are the same: in every table with a `default` column (a row whose
             first cell is one `VARIABLE`; `—` or an empty cell states none, which differs
             from a printed default), and in prose or any table cell, "`VARIABLE`,
             default `VALUE`" or "`VARIABLE` … (default 10,000)". A value equals the printed one after its
             backticks are dropped, a number's thousands separators and its unit (`s`,
             `/s`) are dropped and KiB/MiB are multiplied out; `…` in the docs' value
             stands for any text (`plus=ai.screenrig.plus.monthly,education=…`). Defaults
             `ledger --help` gives only in its help text, not as `(default: …)`, are not
             compared.

Exit status 0 when every check passed, 1 when one failed, 2 when the input could not be
read (no Commands or Environment section, no settings or commands table). To run it alone:

    ledger --help > help.txt
    python3 scripts/docs_help.py --help-output help.txt --reference docs/operations.md README.md docs/*.md
"""

import re
import sys

# LEDGER_* variables the docs may name although `ledger --help` does not: none is read by
# the `ledger` executable. Exact names, then prefixes (a name starting with one).
EXCLUDED = {
    "LEDGER_BIN": "the binary under test, read by scripts/check-docs.sh, check-backup.sh, check-pitr.sh and test.sh",
    "LEDGER_BINARY": "the tests' path to the binary under test (Tests/TestSupport)",
    "LEDGER_CONSOLE_SCREENSHOTS": "where the console's browser tests write the screenshots of docs/console.md",
    "LEDGER_RELEASE": "a Makefile variable: the release binary's path",
    "LEDGER_DB_PASSWORD": "docker-compose.yml's own: the API login's password",
    "LEDGER_CONSOLE_DB_PASSWORD": "docker-compose.yml's own: the console login's password",
    "LEDGER_PROJECTOR_DB_PASSWORD": "docker-compose.yml's own: the projector login's password",
    "LEDGER_OPERATOR_DB_PASSWORD": "docker-compose.yml's own: the operator login's password",
    "LEDGER_API_PORT": "docker-compose.yml's own: the API's published port",
    "LEDGER_CONSOLE_PORT": "docker-compose.yml's own: the console's published port",
    "LEDGER_METRICS_PORT": "docker-compose.yml's own: the operations listener's published port",
}
EXCLUDED_PREFIXES = {
    "LEDGER_TEST_": "the tests' settings (LEDGER_TEST_DATABASE_URL, seeds)",
    "LEDGER_BENCH_": "ledger-bench's settings, a separate executable",
    "LEDGER_FAULT_": "faults the tests inject into `ledger project` and `ledger appstore sync` (tests only)",
}

VARIABLE = re.compile(r"(?<![A-Za-z0-9_])LEDGER_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CELL_SPLIT = re.compile(r"(?<!\\)\|")
ONE_VARIABLE = re.compile(r"^`((?:LEDGER_)?[A-Z][A-Z0-9_]*)`$")
COMMAND_IN_CELL = re.compile(r"`ledger ([a-z][a-z0-9-]*)")
PROSE_DEFAULT = re.compile(
    r"`(LEDGER_[A-Z0-9_]+|DATABASE_URL)`([^`|.;]{0,30}?)\bdefault:?\s+(`[^`]+`|\d+(?:,\d{3})*(?:\.\d+)?(?:\s?(?:s|/s|KiB|MiB)\b)?)")
NONE = {"", "—", "-", "–", "none", "unset"}


class DocsError(Exception):
    pass


def parse_help(text):
    """Returns ([command, …], {variable: default or None}) from `ledger --help`'s output."""
    commands, settings, section = [], {}, None
    for line in text.splitlines():
        if line.rstrip() in ("Commands:", "Environment:"):
            section = line.rstrip()
            continue
        if not line.strip():
            continue
        if not line.startswith(" "):
            section = None
            continue
        if section == "Commands:":
            match = re.match(r"^  ([a-z][a-z0-9-]*)\s+\S", line)
            if match:
                commands.append(match.group(1))
        elif section == "Environment:":
            match = re.match(r"^  ([A-Z][A-Z0-9_]*)(?: \(default: (.*)\))?\s*$", line)
            if match:
                settings[match.group(1)] = match.group(2)
    if not commands:
        raise DocsError("no command found in the Commands: section of `ledger --help`")
    if not settings:
        raise DocsError("no variable found in the Environment: section of `ledger --help`")
    return commands, settings


def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read().split("\n")


def tables(path):
    """Yields (heading, line of the header, header cells, [(line, cells), …]) for each table
    outside fences."""
    lines = read_lines(path)
    heading, fence, i = "", None, 0
    while i < len(lines):
        line = lines[i]
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) and not line.strip()[len(opening.group(1)):].strip():
                fence = None
            i += 1
            continue
        if opening:
            fence = opening.group(1)
            i += 1
            continue
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("|") and i + 1 < len(lines) and re.match(r"^\|\s*:?-{3,}", lines[i + 1]):
            header = cells(line)
            rows = []
            j = i + 2
            while j < len(lines) and lines[j].startswith("|"):
                rows.append((j + 1, cells(lines[j])))
                j += 1
            yield heading, i + 1, header, rows
            i = j
            continue
        i += 1


def cells(line):
    parts = CELL_SPLIT.split(line.strip())
    if parts and parts[0] == "":
        parts = parts[1:]
    if parts and parts[-1] == "":
        parts = parts[:-1]
    return [part.strip().replace("\\|", "|") for part in parts]


def prose(path):
    """Yields (line, text) for each paragraph or list item outside fences, its lines joined
    with a space, and for each table row (a cell never runs on into the next row); `line` is
    a function from an offset in `text` to the line it is on."""
    lines = read_lines(path)
    fence, buffer = None, []  # buffer: (line number, text) of the paragraph so far

    def paragraph():
        starts, offset = [], 0
        for number, text in buffer:
            starts.append((offset, number))
            offset += len(text) + 1
        joined = " ".join(text for _, text in buffer)
        return (lambda at: max(n for o, n in starts if o <= at)), joined

    for number, line in enumerate(lines, 1):
        opening = FENCE.match(line)
        if fence or opening or line.startswith("|") or not line.strip():
            if buffer:
                yield paragraph()
                buffer = []
            if fence:
                if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence) and not line.strip()[len(opening.group(1)):].strip():
                    fence = None
            elif opening:
                fence = opening.group(1)
            elif line.startswith("|"):
                yield (lambda at, n=number: n), line
            continue
        buffer.append((number, line.strip()))
    if buffer:
        yield paragraph()


def find_table(path, heading, first_column):
    for table_heading, line, header, rows in tables(path):
        if table_heading.lower() == heading.lower() and header and header[0].lower() == first_column:
            return line, header, rows
    raise DocsError(f"{path}: no table whose first column is `{first_column}` under the heading `{heading}`")


def excluded(name):
    return name in EXCLUDED or any(name.startswith(prefix) for prefix in EXCLUDED_PREFIXES)


def normalize(value):
    value = value.strip()
    if value.startswith("`") and value.endswith("`") and value.count("`") == 2:
        value = value[1:-1].strip()
    number = re.fullmatch(r"(\d[\d,]*)\s?(KiB|MiB|s|/s)?", value)
    if number:
        n = int(number.group(1).replace(",", ""))
        n *= {"KiB": 1024, "MiB": 1024 * 1024}.get(number.group(2), 1)
        return str(n)
    return value


def same(documented, printed):
    documented = normalize(documented)
    if "…" in documented:
        pattern = ".*".join(re.escape(part) for part in documented.split("…"))
        return re.fullmatch(pattern, printed) is not None
    return documented == printed


def check_settings(reference, settings):
    line, _, rows = find_table(reference, "Settings", "variable")
    problems, seen = [], {}
    for number, row in rows:
        match = ONE_VARIABLE.match(row[0]) if row else None
        if not match:
            problems.append(f"{reference}:{number}: the first cell is not one `VARIABLE`: {row[0] if row else ''}")
            continue
        name = match.group(1)
        if name in seen:
            problems.append(f"{reference}:{number}: {name} again (first at line {seen[name]})")
        seen[name] = number
        if name not in settings:
            problems.append(f"{reference}:{number}: {name} is not a variable `ledger --help` prints")
    for name in settings:
        if name not in seen:
            problems.append(f"{name}: printed by `ledger --help`, missing from the settings table ({reference}:{line})")
    return f"every variable `ledger --help` prints is in the settings table of {reference}, and no other", problems


def check_names(docs, settings):
    problems = []
    for path in docs:
        for number, line in enumerate(read_lines(path), 1):
            for name in sorted(set(VARIABLE.findall(line))):
                if name not in settings and not excluded(name):
                    problems.append(f"{path}:{number}: {name} is not a variable `ledger --help` prints")
    return "every LEDGER_* variable the docs name is one `ledger --help` prints (or a tool's, excluded by name)", problems


def check_commands(reference, docs, commands):
    line, _, rows = find_table(reference, "Processes and commands", "command")
    problems, named = [], {}
    for number, row in rows:
        for command in COMMAND_IN_CELL.findall(row[0] if row else ""):
            named.setdefault(command, number)
    for command in commands:
        if command not in named:
            problems.append(f"ledger {command}: printed by `ledger --help`, missing from the commands table ({reference}:{line})")
    for path in docs:
        for number, text in enumerate(read_lines(path), 1):
            for command in sorted(set(COMMAND_IN_CELL.findall(text))):
                if command not in commands:
                    problems.append(f"{path}:{number}: `ledger {command}` is not a command `ledger --help` prints")
    return (f"every command `ledger --help` prints is in the commands table of {reference}, and no doc "
            "names another"), problems


def check_defaults(docs, settings):
    problems = []
    for path in docs:
        for _, _, header, rows in tables(path):
            columns = [cell.lower() for cell in header]
            if "default" not in columns:
                continue
            at = columns.index("default")
            for number, row in rows:
                match = ONE_VARIABLE.match(row[0]) if row else None
                if not match or match.group(1) not in settings or settings[match.group(1)] is None:
                    continue
                name, printed = match.group(1), settings[match.group(1)]
                documented = row[at] if at < len(row) else ""
                if documented.strip("` ").lower() in NONE:
                    problems.append(f"{path}:{number}: {name} states no default; `ledger --help` prints {printed}")
                elif not same(documented, printed):
                    problems.append(f"{path}:{number}: {name} default {documented}; `ledger --help` prints {printed}")
        for line_of, text in prose(path):
            for match in PROSE_DEFAULT.finditer(text):
                name, documented = match.group(1), match.group(3)
                if settings.get(name) is None:
                    continue
                if not same(documented, settings[name]):
                    problems.append(f"{path}:{line_of(match.start())}: {name} default {documented}; `ledger --help` prints {settings[name]}")
    problems.sort(key=lambda p: (p.split(":")[0], int(p.split(":")[1])))
    return "every default the docs state for a variable is the one `ledger --help` prints", problems


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    help_output, reference, docs = None, None, []
    try:
        rest = list(argv)
        while rest:
            arg = rest.pop(0)
            if arg == "--help-output":
                help_output = rest.pop(0)
            elif arg == "--reference":
                reference = rest.pop(0)
            elif arg.startswith("-"):
                raise DocsError(f"unknown argument {arg} (--help-output FILE, --reference FILE, DOC...)")
            else:
                docs.append(arg)
        if not help_output or not reference or not docs:
            raise DocsError("needs --help-output FILE --reference FILE DOC...")
        with open(help_output, encoding="utf-8") as handle:
            commands, settings = parse_help(handle.read())
        results = [
            ("settings",) + check_settings(reference, settings),
            ("names",) + check_names(docs, settings),
            ("commands",) + check_commands(reference, docs, commands),
            ("defaults",) + check_defaults(docs, settings),
        ]
    except (DocsError, OSError, IndexError) as error:
        print(f"docs_help.py: {error}", file=sys.stderr)
        return 2
    failed = 0
    for key, title, problems in results:
        if problems:
            failed += 1
            print(f"FAIL ledger --help ({key}): {title}:")
            for problem in problems:
                print(f"    - {problem}")
        else:
            print(f"PASS ledger --help ({key}): {title}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
