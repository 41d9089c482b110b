#!/usr/bin/env python3
"""Cases for stopsheetd's CSV reader, with Python's csv module as the oracle. Standard library only.

    python3 python_csv_cases.py --seed N --count K [--delimiter ";"] [--table FILE...]

Prints one JSON object a line: {"bytes": <hex of the input>, "rows": <what csv.reader reads>,
"table": <the same read as a GTFS table>}. A GTFS table is the reference's rows without the
blank ones (no fields), the first being the header; a data row of another field count than the
header's is left out; every value is stripped of whitespace (str.strip).
The reference reading is csv.reader with the default dialect over the bytes decoded as
utf-8-sig (one leading byte order mark dropped) and opened with newline='' (line ends kept for
the reader, as the csv documentation requires). Inputs are:
- random tables over an alphabet of the bytes that matter (comma, quote, CR, LF, space, tab)
  and of ordinary and non-ASCII text;
- each --table FILE (real GTFS or CTA tables), and mutations of it as agencies publish them:
  every field quoted, a space or tab after a closing quote, a quote inside an unquoted field,
  CRLF or lone CR line ends, no final newline, blank lines, a byte order mark, spaces around
  values.
With --delimiter, every table is read (and written) with that separator instead of the comma, as
csv.reader(delimiter=...) reads it (IDFM's exports use `;`); the alphabet then holds it too.
"""

import argparse
import csv
import io
import json
import random
import sys

ALPHABET = [",", '"', "\r", "\n", "\r\n", " ", "\t", "a", "b", "7", "é", "🚇", '""', ",,", "\ufeff", "x y"]


DELIMITER = ","


def read(data: bytes):
    text = data.decode("utf-8-sig")
    return [row for row in csv.reader(io.StringIO(text, newline=""), delimiter=DELIMITER)]


def table(rows):
    rows = [row for row in rows if row]
    if not rows:
        return []
    return [[value.strip() for value in row] for row in rows if len(row) == len(rows[0])]


def random_table(rng):
    size = rng.choice([0, 1, 2, 5, 20, 60])
    alphabet = ALPHABET if DELIMITER == "," else ALPHABET + [DELIMITER, DELIMITER * 2]
    text = "".join(rng.choice(alphabet) for _ in range(size))
    data = text.encode()
    if rng.random() < 0.2:
        data = b"\xef\xbb\xbf" + data
    return data


def quote(field):
    return '"' + field.replace('"', '""') + '"'


def mutate(rows, rng):
    """A table as some agency might write `rows`."""
    end = rng.choice(["\n", "\r\n", "\r"])
    lines = []
    for row in rows:
        fields = []
        for field in row:
            choice = rng.random()
            if choice < 0.3 or any(c in field for c in DELIMITER + '"\r\n'):
                quoted = quote(field)
                after = rng.random()
                if after < 0.2:
                    quoted += " "
                elif after < 0.3:
                    quoted += "\t"
                fields.append(quoted)
            elif choice < 0.4:
                fields.append(" " + field + " ")
            elif choice < 0.45:
                fields.append(field + '"x')
            else:
                fields.append(field)
        lines.append(DELIMITER.join(fields))
        if rng.random() < 0.05:
            lines.append("")
    text = end.join(lines)
    if rng.random() < 0.7:
        text += end
    data = text.encode()
    if rng.random() < 0.3:
        data = b"\xef\xbb\xbf" + data
    return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--table", action="append", default=[])
    parser.add_argument("--delimiter", default=",")
    args = parser.parse_args()
    global DELIMITER
    DELIMITER = args.delimiter
    csv.field_size_limit(sys.maxsize)
    rng = random.Random(args.seed)
    inputs = [random_table(rng) for _ in range(args.count)]
    for path in args.table:
        with open(path, "rb") as f:
            data = f.read()
        inputs.append(data)
        rows = read(data)
        for _ in range(20):
            inputs.append(mutate(rows, rng))
    for data in inputs:
        rows = read(data)
        print(json.dumps({"bytes": data.hex(), "rows": rows, "table": table(rows)}))


if __name__ == "__main__":
    main()
