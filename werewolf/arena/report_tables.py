"""A tournament report drawn: rich tables fitted to the console's width, and Markdown."""

from __future__ import annotations

from rich import box
from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from .report import Report, Section, sections, summary

__all__ = ["render_report", "report_markdown"]


_GAP = 2  # columns between table columns: one padding space and the (blank) divider


def render_report(console: Console, report: Report) -> None:
    """Print the report's tables, each fitted to the console's width."""
    parts: list[RenderableType] = [Text(line) for line in summary(report)]
    for section in sections(report):
        table = Table(
            title=section.title,
            title_justify="left",
            box=box.SIMPLE_HEAD,
            show_edge=False,
            padding=(0, 0, 0, _GAP - 1),
            pad_edge=False,
        )
        for i, header in enumerate(section.headers):
            table.add_column(header, justify="left" if i == 0 else "right")
        for row in _fitted(section, console.width):
            table.add_row(*row)
        parts.append(table)
        if section.note:
            parts.append(Text(section.note, style="dim"))
        parts.append(Text(""))
    console.print(Group(*parts))


def _fitted(section: Section, width: int) -> list[tuple[str, ...]]:
    """The rows, fitted to ``width`` without ever breaking an interval inside (``[62.6,``
    then ``70.8]``): first the intervals of the widest columns move under their values,
    then, if it is still too wide, intervals lose the space after their comma."""
    if not section.rows:
        return []
    columns = [list(col) for col in zip(*section.rows, strict=True)]
    header_words = [max(len(w) for w in h.split()) for h in section.headers]

    def column_width(i: int) -> int:
        lines = [line for cell in columns[i] for line in cell.split("\n")]
        return max([header_words[i], *(len(line) for line in lines)])

    def too_wide() -> bool:
        return sum(map(column_width, range(len(columns)))) + _GAP * (len(columns) - 1) > width

    while too_wide():
        splittable = [i for i, col in enumerate(columns) if any(" [" in c for c in col)]
        if not splittable:
            break
        widest = max(splittable, key=column_width)
        columns[widest] = [c.replace(" [", "\n[", 1) for c in columns[widest]]
    if too_wide():
        columns = [[c.replace(", ", ",") if "[" in c else c for c in col] for col in columns]
    return [tuple(row) for row in zip(*columns, strict=True)]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def report_markdown(report: Report) -> str:
    lines = [f"# Arena run `{report.spec.name}`", ""]
    lines += [line + "  " for line in summary(report)]
    for section in sections(report):
        lines += ["", f"## {section.title}", ""]
        lines.append("| " + " | ".join(section.headers) + " |")
        lines.append("|" + "|".join(["---"] + ["---:"] * (len(section.headers) - 1)) + "|")
        lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in section.rows]
        if section.note:
            lines += ["", f"_{section.note}_"]
    lines += [
        "",
        "Intervals are 95%: Wilson for rates, a bootstrap over games for ratings, means and "
        "ratios. Definitions: docs/arena.md.",
        "",
    ]
    return "\n".join(lines)
