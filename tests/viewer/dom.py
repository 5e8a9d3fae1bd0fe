"""A small DOM from the stdlib's html.parser, enough for the viewer tests to query pages by
element and attribute (no lxml in the venv)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from html.parser import HTMLParser

VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None = None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    def __repr__(self) -> str:
        return f"<{self.tag} {self.attrs}>"

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def iter(self) -> Iterator[Node]:
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.iter()

    def find_all(self, tag: str | None = None, pred: Callable[[Node], bool] | None = None,
                 **attrs: str) -> list[Node]:
        """Descendants by tag and attribute values (data_x= means data-x=, class_= one of the
        classes; None: the attribute is present)."""
        want = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}

        def has(n: Node, k: str, v: str | None) -> bool:
            if k not in n.attrs or v is None:
                return k in n.attrs
            return v in n.classes if k == "class" else n.attrs[k] == v

        return [n for n in self.iter() if (tag is None or n.tag == tag)
                and all(has(n, k, v) for k, v in want.items()) and (pred is None or pred(n))]

    def one(self, tag: str | None = None, **attrs: str) -> Node:
        found = self.find_all(tag, **attrs)
        assert len(found) == 1, f"expected one {tag} {attrs}, found {len(found)}"
        return found[0]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.cur = Node("#document", {})

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.cur)
        self.cur.children.append(node)
        if tag not in VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, dict(attrs), self.cur))

    def handle_endtag(self, tag):
        node = self.cur
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.cur = node.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def parse(html: str) -> Node:
    b = _Builder()
    b.feed(html)
    b.close()
    return b.root
