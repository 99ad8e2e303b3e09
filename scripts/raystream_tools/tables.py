"""Medians and tables: a text table for the terminal (names left-aligned, numbers right),
the same as Markdown, and CSV files."""
import csv
import statistics


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def cell(value, fmt=None):
    """A value as table text: '' for None, fmt (a format spec such as '.3f' or a function)
    for numbers."""
    if value is None or value == "":
        return ""
    if fmt is None:
        return str(value)
    return fmt(value) if callable(fmt) else format(value, fmt)


def text_table(header, rows, names=1, left=()):
    """Columns padded to their widest cell under a rule of dashes; the first `names` columns and
    those numbered in `left` left-aligned, the others (numbers) right-aligned."""
    cells = [list(header)] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]

    def line(r):
        return "  ".join(v.ljust(w) if i < names or i in left else v.rjust(w)
                         for i, (v, w) in enumerate(zip(r, widths))).rstrip()

    return "\n".join([line(cells[0]), "  ".join("-" * w for w in widths)] +
                     [line(r) for r in cells[1:]])


def markdown_table(header, rows, names=1):
    lines = ["| " + " | ".join(header) + " |",
             "| " + " | ".join("---" if i < names else "---:" for i in range(len(header))) + " |"]
    lines += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def write_csv(path, columns, rows):
    """rows: dicts (only `columns` written, None as '') or sequences in the columns' order."""
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(columns)
        for r in rows:
            values = [r.get(c) for c in columns] if isinstance(r, dict) else list(r)
            writer.writerow(["" if v is None else v for v in values])
