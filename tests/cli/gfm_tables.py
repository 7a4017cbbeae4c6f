#!/usr/bin/env python3
# gfm_tables.py < FILE.md - render GitHub-flavoured markdown with GitHub's
# own renderer (the cmark-gfm command, or the cmarkgfm module that Fedora
# and openSUSE ship) and print, as JSON, what a reader of the page sees:
#   {"paragraphs": [{"text": ..., "strong": [...]}, ...],
#    "tables": [{"align": [...], "rows": [[cell, ...], ...]}, ...]}
# rows[0] is the header row; a cell is its text, a <strong> cell "**text**".
# Exit 2 when no renderer is there.
import html.parser
import json
import shutil
import subprocess
import sys


def render(md):
    try:
        import cmarkgfm
        return cmarkgfm.github_flavored_markdown_to_html(md)
    except ImportError:
        pass
    exe = shutil.which("cmark-gfm")
    if not exe:
        sys.stderr.write("gfm_tables.py: neither cmark-gfm nor the cmarkgfm module\n")
        sys.exit(2)
    return subprocess.run([exe, "-e", "table", "-e", "strikethrough", "-e", "autolink"],
                          input=md, capture_output=True, text=True, check=True).stdout


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.paragraphs, self.tables = [], []
        self.cell = self.para = None
        self.strong = 0

    def handle_starttag(self, tag, attrs):
        if tag == "p" and self.cell is None:
            self.para = {"text": "", "strong": []}
        elif tag == "table":
            self.tables.append({"align": [], "rows": []})
        elif tag == "tr":
            self.tables[-1]["rows"].append([])
        elif tag in ("td", "th"):
            self.cell = ""
            if len(self.tables[-1]["rows"]) == 1:
                self.tables[-1]["align"].append(dict(attrs).get("align", ""))
        elif tag == "strong":
            self.strong += 1
            if self.cell is not None:
                self.cell += "**"
            elif self.para is not None:
                self.para["strong"].append("")

    def handle_endtag(self, tag):
        if tag == "p" and self.para is not None:
            self.paragraphs.append(self.para)
            self.para = None
        elif tag in ("td", "th"):
            self.tables[-1]["rows"][-1].append(self.cell)
            self.cell = None
        elif tag == "strong":
            self.strong -= 1
            if self.cell is not None:
                self.cell += "**"

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data
        elif self.para is not None:
            self.para["text"] += data
            if self.strong:
                self.para["strong"][-1] += data


page = Page()
page.feed(render(sys.stdin.read()))
json.dump({"paragraphs": page.paragraphs, "tables": page.tables}, sys.stdout,
          ensure_ascii=False)
print()
