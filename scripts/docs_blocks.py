#!/usr/bin/env python3
"""The fenced shell blocks of the docs, for scripts/check-docs.sh (Python 3 standard library only).

    docs_blocks.py list FILE...
        Prints every shell block of the files, in the order given, with its file, line
        and whether it runs or is skipped (and why): a reader's view of what the check does.

    docs_blocks.py extract --out DIR FILE...
        Writes each block to DIR/NNN.sh, exactly as the page has it (nothing rewritten: a
        block reads the API's URL from .ledger/demo.json, whatever the port), and prints
        one line per block on standard output, tab-separated: NNN.sh, file, line of the
        opening fence, `run` or `skip`, the reason of a skip.

    docs_blocks.py free-port [--prefer N] [--avoid N]...
        Prints a TCP port free on 127.0.0.1: N when it is free, else one of 15000-29999
        (below Linux's ephemeral range, so that no outgoing connection takes it meanwhile).

A shell block is a fence (``` or ~~~, indented at most three spaces) whose info string
starts with `sh`, `bash` or `shell`. It is skipped only when the line right before its
opening fence is exactly

    <!-- docs-check: skip: REASON -->

with a non-empty REASON. Any other `<!-- docs-check` comment, a marker that is not right
before a shell block, and a fence that is never closed are errors (exit 2): a marker that
does nothing must not look as if it did something.
"""

import os
import random
import re
import socket
import sys

SHELL_LANGUAGES = {"sh", "bash", "shell"}
FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)[^`]*$")
MARKER = re.compile(r"^\s*<!--\s*docs-check:\s*skip:\s*(\S.*?)\s*-->\s*$")
ANY_MARKER = re.compile(r"<!--\s*docs-check\b")


class DocsError(Exception):
    pass


def blocks(path):
    """Yields (line, text, skip_reason or None) for each shell block of the file."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    pending_marker = None  # (line number, reason) of a marker on the previous line
    i = 0
    while i < len(lines):
        line = lines[i]
        number = i + 1
        fence = FENCE.match(line)
        if fence:
            indent, ticks, language = fence.group(1), fence.group(2), fence.group(3).lower()
            body = []
            j = i + 1
            while j < len(lines):
                closing = lines[j]
                if re.match(r"^ {0,3}" + re.escape(ticks[0]) + "{" + str(len(ticks)) + r",}\s*$", closing):
                    break
                # A fence indented by N spaces loses up to N spaces of indentation in its body.
                strip = min(len(indent), len(closing) - len(closing.lstrip(" ")))
                body.append(closing[strip:])
                j += 1
            else:
                raise DocsError(f"{path}:{number}: the fence opened here is never closed")
            if language in SHELL_LANGUAGES:
                reason = None
                if pending_marker and pending_marker[0] == number - 1:
                    reason = pending_marker[1]
                    pending_marker = None
                yield number, "\n".join(body) + "\n", reason
            if pending_marker:
                raise DocsError(f"{path}:{pending_marker[0]}: a docs-check marker must be on the line right before a shell block's fence")
            i = j + 1
            continue
        if pending_marker:
            raise DocsError(f"{path}:{pending_marker[0]}: a docs-check marker must be on the line right before a shell block's fence")
        if ANY_MARKER.search(line):
            marker = MARKER.match(line)
            if not marker:
                raise DocsError(f"{path}:{number}: malformed marker; the only one is `<!-- docs-check: skip: REASON -->`")
            pending_marker = (number, marker.group(1))
        i += 1
    if pending_marker:
        raise DocsError(f"{path}:{pending_marker[0]}: a docs-check marker must be on the line right before a shell block's fence")


def command_list(files):
    for path in files:
        for number, text, reason in blocks(path):
            state = f"skip: {reason}" if reason else "run"
            print(f"== {path}:{number} ({state})")
            sys.stdout.write(text)


def command_extract(out, files):
    os.makedirs(out, exist_ok=True)
    index = 0
    for path in files:
        for number, text, reason in blocks(path):
            index += 1
            name = f"{index:03d}.sh"
            with open(os.path.join(out, name), "w", encoding="utf-8") as handle:
                handle.write(text)
            fields = [name, path, str(number), "skip" if reason else "run", reason or ""]
            print("\t".join(f.replace("\t", " ") for f in fields))


def is_free(port):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def command_free_port(prefer, avoid):
    if prefer and prefer not in avoid and is_free(prefer):
        return prefer
    candidates = [p for p in range(15000, 30000) if p not in avoid]
    random.shuffle(candidates)
    for port in candidates[:200]:
        if is_free(port):
            return port
    raise DocsError("no free port found in 15000-29999")


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    try:
        if command == "list":
            command_list(rest)
        elif command == "extract":
            out, files = None, []
            while rest:
                arg = rest.pop(0)
                if arg == "--out":
                    out = rest.pop(0)
                else:
                    files.append(arg)
            if not out:
                raise DocsError("extract needs --out DIR")
            command_extract(out, files)
        elif command == "free-port":
            prefer, avoid = None, set()
            while rest:
                arg = rest.pop(0)
                if arg == "--prefer":
                    prefer = int(rest.pop(0))
                elif arg == "--avoid":
                    avoid.add(int(rest.pop(0)))
                else:
                    raise DocsError(f"free-port: unknown argument {arg}")
            print(command_free_port(prefer, avoid))
        else:
            raise DocsError(f"unknown command {command} (list, extract, free-port)")
    except (DocsError, OSError, IndexError, ValueError) as error:
        print(f"docs_blocks.py: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
